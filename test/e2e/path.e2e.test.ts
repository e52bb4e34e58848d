import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AiteError, launch } from '../../src/sdk/index.js';
import { startFixtureServer } from '../support/FixtureServer.js';
import { listeningPorts } from './support/listeningPorts.js';
import { useSession } from './support/harness.js';
import { runPage } from './support/runPage.js';
import { profileDirOf } from './support/processes.js';

const ctx = useSession();

async function failure(promise: Promise<unknown>): Promise<AiteError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'expected the call to fail').toBeInstanceOf(AiteError);
  return error as AiteError;
}

describe('the path end to end, in real Chromium with the real extension', () => {
  it('[H-HELLO] launches Chrome over the pipe and the extension says hello', () => {
    expect(ctx.session.bridge.connected).toBe(true);
    expect(ctx.session.bridge.hello?.profile).toBe('default');
    expect(ctx.session.browser?.connected).toBe(true);
    expect(ctx.session.runId).toBe(ctx.session.bridge.runId);
  });

  it('[NAV-NEW-TAB, NAV-LOAD, TAB-LIST] navigate opens the run tab, waits for load, and tabs lists it', async () => {
    const answer = await ctx.session.tab.navigate(ctx.page('buttons.html'));
    expect(answer.url).toBe(ctx.page('buttons.html'));
    expect(ctx.session.tab.current).toBe(answer.tab);
    const tabs = await ctx.session.tab.list();
    expect(tabs.find((t) => t.id === answer.tab)).toMatchObject({ url: ctx.page('buttons.html'), active: true });
    // A second navigate reuses the run's tab.
    const again = await ctx.session.tab.navigate(ctx.page('buttons.html'));
    expect(again.tab).toBe(answer.tab);
  });

  it('[NAV-HTTP-ONLY, ALLOW-LIST] navigate refuses non-http(s) pages and origins outside the allow list', async () => {
    expect((await failure(ctx.session.tab.navigate('file:///etc/passwd'))).reason).toBe('unsupported');
    const outside = await failure(ctx.session.tab.navigate('http://127.0.0.1:9/'));
    expect(outside.reason).toBe('navigation');
    expect(outside.message).toContain(ctx.server.origin);
    expect(outside.message).toContain('http://127.0.0.1:9 is not in the run\'s allow list');
  });

  it('[RS-EXACT, NAV-RUN-TAB] resolves exact targets of every kind, uniquely', async () => {
    await ctx.session.tab.navigate(ctx.page('buttons.html'));
    const cases = [
      { text: 'Locked' },
      { role: 'button', name: 'Reveal' },
      { label: 'Email' },
      { placeholder: 'you@example.com' },
      { testid: 'submit' },
      { css: '#save' },
      { xpath: '//button[@id="save"]' },
      { text: 'Save', within: 'Billing' },
      { text: 'Delete', nth: 1 },
    ];
    for (const target of cases) {
      const answer = await ctx.session.locator.resolve(target);
      expect(answer, JSON.stringify(target)).toMatchObject({ ok: true, repaired: false, via: 'exact' });
      expect(answer.descriptor.xpath).toMatch(/^\//);
    }
    expect((await ctx.session.locator.resolve({ text: 'Save', within: 'Billing' })).descriptor.id).toBe('billing-save');
  });

  it('[RS-AMBIGUOUS, RS-NOT-FOUND] answers ambiguous with the candidates, and not-found after the timeout', async () => {
    const ambiguous = await failure(ctx.session.locator.resolve({ text: 'Delete' }));
    expect(ambiguous.reason).toBe('ambiguous');
    expect((ambiguous.detail.candidates as unknown[]).length).toBe(2);
    const missing = await failure(ctx.session.locator.resolve({ text: 'No such thing' }, { timeoutMs: 300 }));
    expect(missing.reason).toBe('not-found');
  });

  it('[LOC-ANSWER, LOC-CHECKS, LOC-COVERED] row 35: locate answers a point inside the element, and not-visible with coveredBy under an overlay', async () => {
    const save = await ctx.session.locator.resolve({ css: '#save' });
    const at = await ctx.session.locator.locate(save.descriptor);
    expect(at.tag).toBe('button');
    expect(at.x).toBeGreaterThanOrEqual(at.rect.x);
    expect(at.x).toBeLessThanOrEqual(at.rect.x + at.rect.width);
    await ctx.session.tab.navigate(ctx.page('overlay.html'));
    const buy = await ctx.session.locator.resolve({ text: 'Buy' });
    const covered = await failure(ctx.session.locator.locate(buy.descriptor, { timeoutMs: 300 }));
    expect(covered.reason).toBe('not-visible');
    expect(JSON.stringify(covered.detail.coveredBy)).toContain('cookie-banner');
  });

  it('[READ, V-TEXT, V-TARGET-TEXT, V-EXISTS, V-URL, V-TITLE, V-MISMATCH] reads text and verifies text, targetText, exists, url and title', async () => {
    await ctx.session.tab.navigate(ctx.page('counter.html'));
    expect((await ctx.session.locator.read({ css: '#value' })).text).toBe('10');
    await ctx.session.verify.text('Increment');
    await ctx.session.verify.targetText({ css: '#value' }, '10');
    await ctx.session.verify.exists({ role: 'button', name: 'Increment' });
    await ctx.session.verify.url('counter.html');
    const title = await ctx.session.tab.list().then((tabs) => tabs.find((t) => t.id === ctx.session.tab.current)!.title);
    await ctx.session.verify.title(title.slice(0, 3));
    const mismatch = await failure(ctx.session.verify.targetText({ css: '#value' }, '99', { timeoutMs: 200 }));
    expect(mismatch.reason).toBe('mismatch');
    expect(mismatch.detail).toMatchObject({ expected: '99', found: '10' });
  });

  it('act clicks and types with plain events in the page', async () => {
    await ctx.session.tab.navigate(ctx.page('counter.html'));
    const inc = await ctx.session.locator.resolve({ text: 'Increment' });
    await ctx.session.locator.act('click', inc.descriptor);
    await ctx.session.verify.targetText({ css: '#value' }, '11');
    await ctx.session.tab.navigate(ctx.page('buttons.html'));
    const email = await ctx.session.locator.resolve({ label: 'Email' });
    await ctx.session.locator.act('type', email.descriptor, { text: 'qian@example.com' });
    await ctx.session.verify.value({ label: 'Email' }, 'qian@example.com');
  });

  it('[ACT-PIPE] composed click and type send trusted input over the pipe, exactly once', async () => {
    await ctx.session.tab.navigate(ctx.page('buttons.html'));
    const result = await ctx.session.click({ text: 'Save', within: 'Actions' });
    expect(result).toMatchObject({ ok: true, retries: 0 });
    const page = (await ctx.session.browser!.pages()).find((p) => p.url() === ctx.page('buttons.html'))!;
    expect(await page.evaluate(() => (window as unknown as { __clicks: number }).__clicks)).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { __lastClick: { isTrusted: boolean } }).__lastClick.isTrusted)).toBe(true);
    await ctx.session.type({ label: 'Email' }, 'a@b.c');
    await ctx.session.verify.value({ label: 'Email' }, 'a@b.c');
  });

  it('a composed step on an element that cannot be clicked fails with a screenshot', async () => {
    await ctx.session.tab.navigate(ctx.page('overlay.html'));
    const error = await failure(ctx.session.click({ text: 'Buy' }, { timeoutMs: 300 }));
    expect(error.reason).toBe('not-visible');
    expect(error.message).toMatch(/Call log:/);
    expect(Buffer.from(error.screenshot!).subarray(1, 4).toString()).toBe('PNG');
  });

  it('[SS-PIPE] takes a PNG screenshot of the run tab', async () => {
    await ctx.session.tab.navigate(ctx.page('counter.html'));
    const png = await ctx.session.screenshot();
    expect(png).toBeDefined();
    expect(Buffer.from(png!).subarray(1, 4).toString()).toBe('PNG');
    expect(png!.length).toBeGreaterThan(1000);
  });

  it('[SEC-NOT-IN-PAGE] row 1: a web page cannot open the bridge socket', async () => {
    // An address of its own: puppeteer's page has it only once it saw this document commit, so
    // the evaluate below cannot land in the previous test's document as it is replaced.
    await ctx.session.tab.navigate(`${ctx.page('counter.html')}?bridge-socket`);
    const page = await runPage(ctx.session);
    const outcome = await page.evaluate(
      (url) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(url);
          ws.onopen = () => resolve('open');
          ws.onerror = () => resolve('error');
        }),
      `${ctx.session.bridge.url}?token=${ctx.session.bridge.token}`,
    );
    expect(outcome).toBe('error');
  });

  it('[T-LOOPBACK] row 5, row 21: no TCP port but the bridge listens in Chrome or the runner (besides the test server)', () => {
    const pid = ctx.session.browser!.process()!.pid!;
    // Chrome and what it started; the runner is this process (the SDK starts nothing else here).
    // The e2e files share this process: what an earlier file still held as this one began is not this session's.
    const ports = listeningPorts([pid], [process.pid]);
    const expected = new Set([ctx.session.bridge.port, ctx.server.port, ...heldBefore]);
    // Which process listened is said by its command line (the runner's pid is this process's).
    const named = ports.filter((p) => !expected.has(p.port)).map((p) => ({ ...p, runner: p.pid === process.pid, command: commandOf(p.pid) }));
    expect(named).toEqual([]);
    expect(ports.find((p) => p.port === ctx.session.bridge.port)?.address).toBe('127.0.0.1');
  });
});

describe('bridge.json and close()', () => {
  it('[SEC-BRIDGE-JSON] is 0600 during the run, and gone with Chrome and the temp profile after close', async () => {
    const server = await startFixtureServer();
    const session = await launch({ allow: [server.origin] });
    const pid = session.browser!.process()!.pid!;
    const userDataDir = profileDirOf(session.browser!.process()!.spawnargs)!;
    const file = join(userDataDir, 'aite-extension', 'bridge.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await session.close();
    await server.close();
    expect(existsSync(file)).toBe(false);
    expect(existsSync(userDataDir)).toBe(false);
    expect(() => process.kill(pid, 0)).toThrow();
  });
});

/** The runner process's listening ports as this file was loaded, before its session began. */
const heldBefore = listeningPorts([], [process.pid]).map((p) => p.port);

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').slice(0, 300);
  } catch {
    return '(ended)';
  }
}
