import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { AITE_EXTENSION_ID, type SessionEvents } from '../../src/sdk/index.js';
import { wakeWorker } from '../../src/sdk/launch/wakeWorker.js';
import { startFixtureServer } from '../support/FixtureServer.js';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';
import { overSocket } from './support/overSocket.js';
import { runPage as runPageOf } from './support/runPage.js';
import { extensionWorker, reloadExtension, stopWorker } from './support/worker.js';

// Rows of the fault matrix (tests named [FAULT-N]) that one shared session can survive, one after another.
const outside = await startFixtureServer();
afterAll(() => outside.close());
const ctx = useSession();

const runPage = (): Promise<Page> => runPageOf(ctx.session);

// Found without a bridge request: one would wait behind the command under test.
async function runPageDirect(): Promise<Page> {
  const pages = (await ctx.session.browser!.pages()).filter((p) => p.url().startsWith(ctx.server.origin));
  expect(pages).toHaveLength(1);
  return pages[0]!;
}

describe('faults in one session', () => {
  it('row 20: a page cannot fetch the extension\u2019s bridge.json', async () => {
    await ctx.session.tab.navigate(ctx.page('counter.html'));
    const outcome = await (await runPage()).evaluate(
      (url) => fetch(url).then((r) => `status ${r.status}`, () => 'refused'),
      `chrome-extension://${AITE_EXTENSION_ID}/bridge.json`,
    );
    expect(outcome).toBe('refused');
  });

  it('row 23: a worker stopped while idle reconnects with resume, and the next command works', async () => {
    const hellos: Array<{ resume?: string }> = [];
    ctx.session.bridge.on('hello', (h) => hellos.push(h));
    await stopWorker(ctx.session.browser!);
    await expect.poll(() => hellos.length, { timeout: 15_000 }).toBe(1);
    expect(hellos[0]!.resume).toBe(ctx.session.runId);
    await ctx.session.verify.text('Increment');
  });

  it('row 34: an element replaced by a navigation between resolve and act is refused; nothing is clicked elsewhere', async () => {
    await ctx.session.tab.navigate(ctx.page('counter.html'));
    const inc = await ctx.session.locator.resolve({ text: 'Increment' });
    await ctx.session.tab.navigate(ctx.page('counter.html'));
    const error = await failure(ctx.session.locator.act('click', inc.descriptor));
    expect(error.reason).toBe('not-found');
    expect(error.message).toMatch(/page changed|resolve again/i);
    await ctx.session.verify.targetText({ css: '#value' }, '10');
  });

  it('row 36: a tab closed during a command answers tab-closed', async () => {
    await ctx.session.tab.navigate(ctx.page('counter.html'));
    const page = await runPage();
    // The failure is taken as soon as the call starts: it may reject while the test still acts.
    const waiting = failure(ctx.session.locator.wait('visible', { target: { text: 'Never there' }, timeoutMs: 10_000 }));
    await page.evaluate(() => setTimeout(() => window.close(), 200)).catch(() => undefined);
    await page.close();
    const error = await waiting;
    expect(error.reason).toBe('tab-closed');
  });

  it('row 37: a renderer crash fails fast and clearly, and the session can navigate again', async () => {
    await ctx.session.tab.navigate(ctx.page('counter.html'));
    const page = await runPage();
    const cdp = await page.createCDPSession();
    const started = Date.now();
    const waiting = failure(ctx.session.locator.wait('visible', { target: { text: 'Never there' }, timeoutMs: 10_000 }));
    // The crashed page never answers this command.
    void cdp.send('Page.crash').catch(() => undefined);
    const error = await waiting;
    expect(error.reason).toBe('load-failed');
    expect(error.message).toMatch(/is gone: its renderer crashed, and Chrome shows its "Aw, Snap!" page.*Reload the tab/);
    expect(error.detail).toMatchObject({ crashed: true, tab: ctx.session.tab.current });
    expect(Date.now() - started).toBeLessThan(9_000);
    const again = await ctx.session.tab.navigate(ctx.page('counter.html'));
    expect(again.url).toBe(ctx.page('counter.html'));
    await ctx.session.verify.text('Increment');
  });

  it('[PAGE-CRASHED] row 37: after a renderer crash every step fails at once, nothing is sent to the dead page, and a reload brings it back', async () => {
    await ctx.session.tab.navigate(ctx.page('counter.html'));
    const page = await runPage();
    const cdp = await page.createCDPSession();
    const crashed = new Promise((resolve) => page.once('error', resolve));
    void cdp.send('Page.crash').catch(() => undefined);
    await crashed;
    const steps = {
      click: () => ctx.session.click('Increment'),
      // Keys to the focused page go over the pipe without asking the extension anything.
      press: () => ctx.session.press('Enter'),
      verify: () => ctx.session.verify.text('Increment'),
      evaluate: () => ctx.session.evaluate(() => 1),
    };
    for (const [name, step] of Object.entries(steps)) {
      const started = Date.now();
      const error = await failure(step());
      expect(error.reason, name).toBe('load-failed');
      expect(error.message, name).toMatch(/is gone: its renderer crashed.*(was not sent|Nothing was sent|got no result) there/s);
      expect(error.detail, name).toMatchObject({ crashed: true, discarded: false });
      // A step's own timeout is 30 s here: failing at once is not waiting it out.
      expect(Date.now() - started, name).toBeLessThan(5_000);
    }
    // A reload waited for the dead page to finish loading before going, until its timeout.
    const started = Date.now();
    const reloaded = await ctx.session.tab.reload();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(reloaded.url).toBe(ctx.page('counter.html'));
    await ctx.session.click('Increment');
    await ctx.session.verify.targetText({ label: 'Value' }, '11');
  });

  /** Crashes the renderer of the run's page once `address` has its document there, its load still held. */
  async function crashWhileLoading(address: string): Promise<void> {
    const target = await ctx.session.browser!.waitForTarget((t) => t.url() === address, { timeout: 5_000 });
    const page = (await target.page())!;
    // A page that crashed before shows its document again once the load again has brought it.
    for (const until = Date.now() + 10_000; ; ) {
      const shown = await page.waitForSelector('h1', { timeout: Math.max(1, until - Date.now()) }).catch((error: unknown) => error as Error);
      if (!(shown instanceof Error)) break;
      if (Date.now() > until) throw shown;
    }
    const cdp = await page.createCDPSession();
    const crashed = new Promise((resolve) => page.once('error', resolve));
    void cdp.send('Page.crash').catch(() => undefined);
    await crashed;
    await cdp.detach().catch(() => undefined);
  }

  it('[PAGE-CRASHED, NAV-CRASH-AGAIN] row 37: a renderer crash while the page loads is loaded again once, counted and said; the page then takes input', async () => {
    await ctx.session.tab.navigate(ctx.page('counter.html'));
    const address = ctx.page('held-load.html?ms=1500&crash=once');
    const started = Date.now();
    const steps: Parameters<SessionEvents['step']>[0][] = [];
    const onStep = (step: Parameters<SessionEvents['step']>[0]): number => steps.push(step);
    ctx.session.on('step', onStep);
    const navigating = ctx.session.tab.navigate(address, { timeoutMs: 20_000 });
    await crashWhileLoading(address);
    const loaded = await navigating.finally(() => ctx.session.off('step', onStep));
    expect(loaded.url).toBe(address);
    expect(loaded.crashedLoads).toBe(1);
    expect(loaded.retries).toBe(1);
    expect(steps.map((step) => step.name)).toEqual(['navigate']);
    expect(steps[0]!.warnings).toContainEqual({ code: 'crashed', message: expect.stringMatching(/renderer crashed as .*held-load\.html.* loaded.*loaded the address again \(counted as a retry\)/) });
    expect(Date.now() - started).toBeLessThan(15_000);
    await ctx.session.click({ role: 'heading', name: 'Held load' });
    await ctx.session.verify.text('Held load');
  });

  it('[PAGE-CRASHED, NAV-CRASH-AGAIN] row 37: a renderer crash on the load again too ends the navigate as load-failed, not at its timeout', async () => {
    await ctx.session.tab.navigate(ctx.page('counter.html'));
    const address = ctx.page('held-load.html?crash=twice');
    const started = Date.now();
    const navigating = failure(ctx.session.tab.navigate(address, { timeoutMs: 20_000 }));
    await crashWhileLoading(address);
    await crashWhileLoading(address);
    const error = await navigating;
    expect(error.reason).toBe('load-failed');
    expect(error.message).toMatch(/is gone: its renderer crashed.*Stopped loading .*held-load\.html.*: it will not finish.*crashed on the load before too, and aite loaded it again once/);
    expect(error.detail).toMatchObject({ crashed: true, crashedLoads: 2, tab: ctx.session.tab.current });
    expect(error.retries).toBe(1);
    expect(Date.now() - started).toBeLessThan(15_000);
    await ctx.session.tab.navigate(ctx.page('counter.html'));
    await ctx.session.verify.text('Increment');
  });

  it('[LOAD-ERROR-PAGE] a page that asks for a login fails its navigate saying how to give one; steps on Chrome\'s error page then fail as load-failed, not internal; the login in the address opens it', async () => {
    const address = ctx.page('login-required');
    const refused = await failure(ctx.session.tab.navigate(address));
    expect(refused.reason).toBe('load-failed');
    expect(refused.message).toMatch(/net::ERR_INVALID_AUTH_CREDENTIALS.*asked for a user name and password \(HTTP authentication\).*http:\/\/user:password@host/);
    for (const step of [() => ctx.session.verify.text('Denied'), () => ctx.session.click('Denied'), () => ctx.session.evaluate(() => 1)]) {
      const error = await failure(step());
      expect(error.reason).toBe('load-failed');
      expect(error.message).toMatch(/shows Chrome's error page for .*\/login-required: the page did not load\. (\w+ was not sent there|evaluate did not run)\./);
      expect(error.detail).toMatchObject({ errorPage: true, url: address });
    }
    const withLogin = new URL(address);
    withLogin.username = 'aite';
    withLogin.password = 'secret';
    const opened = await ctx.session.tab.navigate(withLogin.href);
    expect(opened.status).toBe(200);
    await ctx.session.verify.text('Members only');
  });

  it('row 40: a redirect to an origin outside the allow list fails as navigation naming the allow list and the origin; nothing acts', async () => {
    const error = await failure(ctx.session.tab.navigate(ctx.page(`redirect?to=${encodeURIComponent(`${outside.url}counter.html`)}`)));
    expect(error.reason).toBe('navigation');
    expect(error.message).toContain(`${outside.origin} is outside the run's allow list (${ctx.server.origin})`);
    expect(error.message).toMatch(/Add that origin to `allow`/);
    const next = await failure(ctx.session.verify.text('Increment', { timeoutMs: 500 }));
    expect(next.reason).toBe('navigation');
    expect(next.message).toContain(`shows ${outside.origin}, which is not in the run's allow list (${ctx.server.origin})`);
  });

  it('row 12: a page answer over 8 MB comes back as an error, not a giant frame', async () => {
    await ctx.session.tab.navigate(ctx.page('counter.html'));
    await (await runPage()).evaluate(() => {
      const p = document.createElement('p');
      p.id = 'huge';
      p.textContent = 'x'.repeat(9 * 1024 * 1024);
      document.body.append(p);
    });
    // Reading 9 MB of text is slow work on a loaded machine: the read's own timeout covers it (the
    // bridge waits only a second past it for the answer).
    const error = await failure(ctx.session.locator.read({ css: '#huge' }, { timeoutMs: 29_000 }));
    expect(error.reason).toBe('internal');
    expect(error.message).toMatch(/8 MB/);
    await ctx.session.verify.text('Increment');
  });

  it('row 15: a second connection with the same token replaces the extension, which then stops retrying', async () => {
    const { FakeExtension } = await import('../support/FakeExtension.js');
    const intruder = await FakeExtension.connect(ctx.session.bridge);
    const worker = await extensionWorker(ctx.session.browser!);
    await expect.poll(() => worker.evaluate(() => chrome.action.getBadgeText({}))).toBe('ERR');
    // No flapping: the replaced worker does not come back by itself while its instance lives.
    const hellos: unknown[] = [];
    ctx.session.bridge.on('hello', (h) => hellos.push(h));
    intruder.ws.close();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(hellos).toHaveLength(0);
    // A restarted worker joins again.
    await stopWorker(ctx.session.browser!);
    await wakeWorker(ctx.session.browser!);
    await ctx.session.bridge.waitForExtension(20_000);
    // The first check after the worker started again may take it longer than a default timeout
    // on a loaded machine; a check answered after its timeout fails.
    await ctx.session.verify.text('Increment', { timeoutMs: 15_000 });
  });

  it('[KA-RECONNECT, DL-RESEND-IDEMPOTENT] row 41: the extension reloaded during a wait comes back by itself; the wait is re-sent and counted, and the run goes on', async () => {
    await ctx.session.tab.navigate(ctx.page('textchange.html?ms=50'));
    const hellos: Array<{ resume?: string }> = [];
    ctx.session.bridge.on('hello', (h) => hellos.push(h));
    const before = ctx.session.retries.byCommand.wait ?? 0;
    // Over the extension's socket: a wait sent over the pipe (ContentWorld) never meets the reload.
    await overSocket(ctx.session, async () => {
      const waiting = ctx.session.locator.wait('visible', { target: { text: 'Finished' }, timeoutMs: 15_000 });
      waiting.catch(() => undefined); // awaited below; a rejection meanwhile is not unhandled
      await reloadExtension(ctx.session.browser!);
      await expect.poll(() => hellos.length, { timeout: 15_000 }).toBe(1);
      // A reload clears the extension's session storage: it cannot resume, the runner names the tab.
      expect(hellos[0]!.resume).toBeUndefined();
      await (await runPageDirect()).click('#start');
      const answer = await waiting;
      expect(answer.retries).toBe(1);
      expect((ctx.session.retries.byCommand.wait ?? 0) - before).toBe(1);
    });
    await ctx.session.verify.text('Finished');
  });

  it('[DL-ACT-LOST, DL-ACT-STATUS] row 41: the extension reloaded during an act: connection-lost, clicked once, never sent again, and the run goes on', async () => {
    await ctx.session.tab.navigate(ctx.page('slow-click.html?ms=2000'));
    const button = await ctx.session.locator.resolve({ role: 'button', name: 'Slow save' });
    const page = await runPageDirect();
    const started = new Promise<void>((resolve) => page.on('console', (m) => m.text() === 'slow-click started' && resolve()));
    const sent: string[] = [];
    ctx.session.bridge.on('retry', (r) => sent.push(r.cmd));
    const acting = failure(ctx.session.locator.act('click', button.descriptor, { timeoutMs: 10_000 }));
    await started;
    await reloadExtension(ctx.session.browser!);
    const error = await acting;
    expect(error.reason).toBe('connection-lost');
    // The reloaded extension cannot reach the page script that ran the act (it belongs to the old instance).
    expect(error.detail).toEqual({ dispatched: 'unknown' });
    expect(error.message).toMatch(/unknown: the page in tab \d+ cannot tell/);
    expect(sent).not.toContain('act');
    await ctx.session.verify.targetText({ css: '#count' }, '1');
    await ctx.session.click({ role: 'button', name: 'Slow save' });
    await ctx.session.verify.targetText({ css: '#count' }, '2');
    expect(await page.evaluate(() => (window as unknown as { __slowClicks: number }).__slowClicks)).toBe(2);
  });
});

