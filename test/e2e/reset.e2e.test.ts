import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, type Session } from '../../src/sdk/index.js';
import { browserSession } from '../../src/sdk/launch/browserSession.js';
// @ts-expect-error -- a CommonJS fixture shared with the runner files, without types
import isolation from './fixtures/isolation/storagePage.cjs';

const { storagePage, FRESH, USED } = isolation as {
  storagePage(): Promise<{ origin: string; url: string }>;
  FRESH: string;
  USED: string;
};

let page: { origin: string; url: string };
/** A second origin whose page says whether its session storage holds what it wrote there before. */
let other: { server: Server; url: string; origin: string };
beforeAll(async () => {
  page = await storagePage();
  const server = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(`<!doctype html><p id="state">reading</p><script>document.getElementById('state').textContent = 'other: ' + (sessionStorage.getItem('mine') ? 'kept' : 'empty'); sessionStorage.setItem('mine', '1');</script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  other = { server, origin, url: `${origin}/` };
});
afterAll(() => new Promise<void>((resolve) => (other ? other.server.close(() => resolve()) : resolve())));

describe('session.reset() on the temp profile', () => {
  let session: Session;
  beforeAll(async () => {
    session = await launch({ allow: [page.origin, other.origin] });
  });
  afterAll(() => session?.close());

  it('[ISO-RESET] resets and downloads share the browser\u2019s one CDP session: opened from several places at once, the browser target stays known and the next reset works', async () => {
    const browser = session.browser!;
    // Two sessions opened to the browser's target at once, one detached after, made puppeteer
    // forget that target (launch/browserSession.ts): the next reset failed "Browser target is not found".
    const [a, b] = await Promise.all([browserSession(browser), browserSession(browser), session.reset()]);
    expect(a).toBe(b);
    await session.reset();
    expect(browser.target().type()).toBe('browser');
    expect((await a.send('Target.getTargets')).targetInfos.some((info) => info.type === 'page')).toBe(true);
  });

  it('[ISO-RESET] closes the other tabs, leaves the run tab on about:blank, clears the origin\u2019s data, console errors and dialogs, keeps retries', async () => {
    await session.tab.navigate(`${page.url}?log`);
    // The first navigate loads in Chrome's own blank tab: the test sees only the tabs it opens.
    expect(await session.tab.list()).toEqual([expect.objectContaining({ id: session.tab.current, url: `${page.url}?log` })]);
    await session.verify.text(FRESH);
    await session.click({ text: 'say hello' });
    expect(session.dialogs.seen).toHaveLength(1);
    session.dialogs.next({ accept: true });
    await session.click({ text: 'another tab' });
    await expect.poll(() => session.consoleErrors.length).toBeGreaterThan(0);
    expect((await session.tab.list()).length).toBeGreaterThanOrEqual(2);
    const runTab = session.tab.current;
    const retries = session.retries.total;

    await session.reset();

    const tabs = await session.tab.list();
    expect(tabs).toHaveLength(1);
    expect(tabs[0]).toMatchObject({ id: runTab, url: 'about:blank' });
    expect(session.tab.current).toBe(runTab);
    expect(session.consoleErrors).toEqual([]);
    expect(session.dialogs.seen).toEqual([]);
    expect(session.dialogs.armed).toBe(0);
    expect(session.retries.total).toBe(retries);
    // Cookie, local and session storage and IndexedDB of the origin are gone.
    await session.tab.navigate(page.url);
    await session.verify.text(FRESH);
  });

  it('[ISO-RESET] the reused tab forgets the last test: its history and window.name, as a new tab', async () => {
    await session.tab.navigate(`${page.url}?first`);
    await session.evaluate('window.name = "from the last test"');
    await session.tab.navigate(`${page.url}?second`);
    expect(await session.evaluate('history.length')).toBeGreaterThanOrEqual(3);

    await session.reset();

    await session.tab.navigate(`${page.url}?next`);
    expect(await session.evaluate('window.name')).toBe('');
    // about:blank and this page: nothing of the last test to go back to.
    expect(await session.evaluate('history.length')).toBeLessThanOrEqual(2);
    const back = await session.tab.back().then(
      (answer) => answer.url,
      (error: unknown) => (error as Error).message,
    );
    expect(back).not.toContain('?second');
    expect(back).not.toContain('?first');
  });

  it('[ISO-RESET] the tab\u2019s session storage is gone: of an origin it showed before another, and what a page wrote as it left', async () => {
    await session.tab.navigate(other.url);
    await session.verify.text('other: empty');
    await session.tab.navigate(page.url);
    await session.verify.text('state:');
    // What the page holds now is written again as it is left (a form saving its draft on pagehide).
    await session.evaluate(() => {
      sessionStorage.clear();
      addEventListener('pagehide', () => sessionStorage.setItem('left', '1'));
    });

    await session.reset();

    await session.tab.navigate(other.url);
    await session.verify.text('other: empty');
    await session.tab.navigate(page.url);
    await session.verify.text(FRESH);
  });

  it('[ISO-RESET-POPUP] a test that ends in a popup of another origin leaves none of its opener\u2019s session storage: the popup began with a copy of it', async () => {
    await session.reset();
    await session.tab.navigate(other.url);
    await session.verify.text('other: empty');
    await session.evaluate((url) => void window.open(url, '_blank'), page.url);
    await session.tab.switchTo({ new: true });
    await session.verify.text('state:');

    await session.reset();

    await session.tab.navigate(other.url);
    await session.verify.text('other: empty');
  });

  it('[ISO-RESET] a page that asks before it is left (beforeunload, after a click) holds the reset on no prompt: the run tab is kept', async () => {
    await session.tab.navigate(page.url);
    await session.evaluate(() => addEventListener('beforeunload', (event) => event.preventDefault()));
    await session.click({ text: 'state:' }); // the user activation a beforeunload prompt needs
    const runTab = session.tab.current;

    await session.reset();

    // A prompt would have held the page until the reset's deadline, and the tab been replaced.
    expect(session.tab.current).toBe(runTab);
    expect(await session.tab.list()).toEqual([expect.objectContaining({ id: runTab, url: 'about:blank' })]);
    await session.tab.navigate(page.url);
    await session.verify.text(FRESH);
  });

  it('[ISO-RESET] a session that has not navigated yet resets too, and the next navigate works', async () => {
    await session.reset();
    await session.reset();
    // The tab shows no page yet: a step there is told to navigate first, as an allow-list refusal.
    const evaluated = await session.evaluate('location.href').then(
      () => undefined,
      (error: unknown) => error as { reason: string; message: string },
    );
    expect(evaluated).toMatchObject({ reason: 'navigation', message: expect.stringMatching(/shows no page yet \(about:blank.*Navigate to a page of the allow list/) });
    const read = await session.locator.read({ css: 'body' }, { timeoutMs: 1_000 }).then(
      () => undefined,
      (error: unknown) => error as { reason: string; message: string },
    );
    expect(read).toMatchObject({ reason: 'navigation', message: expect.stringMatching(/shows no page yet/) });
    await session.tab.navigate(page.url);
    await session.verify.text(FRESH);
  });

  it('[STEP-ARGS] reset({ storage }) that is not true or false is refused, and the page is kept', async () => {
    await session.tab.navigate(page.url);
    const error = await session.reset({ storage: 'yes' as unknown as boolean }).then(
      () => undefined,
      (e: unknown) => e as { reason: string; message: string },
    );
    expect(error).toMatchObject({ reason: 'unsupported', message: 'reset: storage is true or false; it was given the text "yes". Nothing was reset.' });
    await session.verify.url(page.url);
  });
});

describe('session.reset() on a profile the user named', () => {
  let session: Session;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'aite-named-profile-'));
    session = await launch({ allow: [page.origin], userDataDir: dir });
  });
  afterAll(async () => {
    await session?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('[ISO-NAMED-PROFILE] keeps its logins and storage unless reset({ storage: true }) says so', async () => {
    await session.tab.navigate(page.url);
    await session.verify.text(FRESH);
    // A session cookie (no max-age) is a login too: the browsing session goes on across a reset.
    await session.evaluate(() => void (document.cookie = 'login=1'));
    await session.reset();
    await session.tab.navigate(page.url);
    // The reset opened a blank tab to keep the browsing session: the navigate loaded there.
    expect(await session.tab.list()).toEqual([expect.objectContaining({ id: session.tab.current, url: page.url })]);
    await session.verify.text(USED.replace(' session', ' no session'));
    expect(await session.evaluate(() => document.cookie)).toContain('login=1');
    await session.reset({ storage: true });
    await session.tab.navigate(page.url);
    await session.verify.text(FRESH);
    expect(await session.evaluate(() => document.cookie)).not.toContain('login=1');
  });
});
