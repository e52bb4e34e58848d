import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import type { Warning } from '../../src/sdk/index.js';
import { startFixtureServer } from '../support/FixtureServer.js';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';

// Two loopback servers: A (the harness's) is allowed, B is not. What the runner sends itself over
// the debugging pipe (keys, mouse, pictures, network waits) is checked against the run tab's
// origin at dispatch; the extension refuses to adopt a tab of B.
const outside = await startFixtureServer();
afterAll(() => outside.close());
const ctx = useSession();
const B = (path: string): string => new URL(path, outside.url).href;

/** B's page, found without the bridge. */
async function pageOfB(): Promise<Page> {
  const ofB = async (): Promise<Page[]> => (await ctx.session.browser!.pages()).filter((p) => p.url().startsWith(outside.origin));
  await expect.poll(async () => (await ofB()).length).toBe(1);
  const page = (await ofB())[0]!;
  await page.waitForFunction(() => document.readyState === 'complete' && '__log' in window);
  return page;
}

/** The pipe page showing `url`, once puppeteer sees it. */
async function pageAt(url: string): Promise<Page> {
  await expect.poll(async () => (await ctx.session.browser!.pages()).some((p) => p.url() === url)).toBe(true);
  return (await ctx.session.browser!.pages()).find((p) => p.url() === url)!;
}

/** Closes B's tabs; when one of them is the run's tab, waits until the run has heard it closed (the next navigate then opens a tab instead of naming one that is gone). */
async function closeB(options: { runTab?: boolean } = {}): Promise<void> {
  for (const page of await ctx.session.browser!.pages()) if (page.url().startsWith(outside.origin)) await page.close();
  if (options.runTab) await expect.poll(() => ctx.session.tab.current).toBeNull();
}

/** Everything the run did that B's page received. */
const logOf = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { __log: string[] }).__log);

function expectAllowListRefusal(error: { reason: string; message: string }): void {
  expect(error.reason).toBe('navigation');
  expect(error.message).toContain(outside.origin);
  expect(error.message).toContain(`allow list (${ctx.server.origin})`);
}

describe('[PIPE-ALLOW] the allow list holds for what the runner sends over the pipe', () => {
  it('on an allowed page the same pipe actions work (press, screenshot)', async () => {
    await ctx.session.tab.navigate(ctx.page('keylog.html'));
    const step = await ctx.session.press('Enter');
    expect(step.ok).toBe(true);
    const png = await ctx.session.screenshot();
    expect(png?.byteLength).toBeGreaterThan(100);
  });

  it('[FAULT-40] row 40: after a 302 from A to B, press without a target and screenshot are refused naming the origin and the allow list; B logs nothing', async () => {
    await ctx.session.tab.navigate(ctx.page('counter.html'));
    const navigated = await failure(ctx.session.tab.navigate(ctx.page(`redirect?to=${encodeURIComponent(B('keylog.html'))}`)));
    expect(navigated.reason).toBe('navigation');
    const b = await pageOfB();

    const pressed = await failure(ctx.session.press('Enter'));
    expectAllowListRefusal(pressed);
    expect(pressed.message).toMatch(/sends no input to/);
    // The failed step's own picture would show B: it is not taken.
    expect(pressed.screenshot).toBeUndefined();

    const warnings: Warning[] = [];
    ctx.session.on('warning', (w) => warnings.push(w));
    expect(await ctx.session.screenshot()).toBeUndefined();
    expect(warnings.at(-1)!.message).toContain(outside.origin);

    const idle = await failure(ctx.session.waitForNetworkIdle({ idleMs: 100, timeoutMs: 2_000 }));
    expectAllowListRefusal(idle);
    expect(await logOf(b)).toEqual([]);
    await closeB({ runTab: true });
  });

  it('[FAULT-40] a click whose navigation lands on B (a link to A that redirects there) fails as navigation: delivered once, it says where the page went and how to allow it', async () => {
    await ctx.session.tab.navigate(ctx.page('counter.html'));
    const a = await pageAt(ctx.page('counter.html'));
    await a.evaluate((href) => {
      const link = document.createElement('a');
      link.href = href;
      link.textContent = 'Leave for B';
      document.body.append(link);
    }, ctx.page(`redirect?to=${encodeURIComponent(B('keylog.html'))}`));
    const clicked = await failure(ctx.session.click({ text: 'Leave for B' }));
    expectAllowListRefusal(clicked);
    expect(clicked.message).toContain(`the page went to ${B('keylog.html')}`);
    expect(clicked.message).toMatch(/delivered and is not sent again/);
    expect(clicked.message).toMatch(/add that origin to `allow`/);
    expect(clicked.retries).toBe(0);
    await closeB({ runTab: true });
  });

  it('[FAULT-40] row 40: after A navigates to B by script, trusted keys and pictures are refused; B logs nothing', async () => {
    await ctx.session.tab.navigate(ctx.page('counter.html'));
    const a = await pageAt(ctx.page('counter.html'));
    await a.evaluate((to) => {
      location.href = to;
    }, B('keylog.html'));
    const b = await pageOfB();
    expectAllowListRefusal(await failure(ctx.session.press('Enter')));
    expectAllowListRefusal(await failure(ctx.session.press('a')));
    expect(await ctx.session.screenshot()).toBeUndefined();
    expect(await logOf(b)).toEqual([]);
    await closeB({ runTab: true });
  });

  it('switchTab({ urlContains }) does not adopt a tab of B: refused naming the origin and the allow list, the run stays where it was', async () => {
    const home = await ctx.session.tab.navigate(ctx.page('counter.html'));
    const a = await pageAt(ctx.page('counter.html'));
    await a.evaluate((to) => void window.open(to), B('keylog.html'));
    const b = await pageOfB();
    const switched = await failure(ctx.session.tab.switchTo({ urlContains: 'keylog' }, { timeoutMs: 5_000 }));
    expectAllowListRefusal(switched);
    expect(switched.message).toMatch(/does not switch to it/);
    expect(ctx.session.tab.current).toBe(home.tab);
    // The run goes on in A.
    await ctx.session.verify.text('Increment');
    expect(await logOf(b)).toEqual([]);
    await closeB();
  });
});

describe('[PIPE-ALLOW-FRAME] the runner checks the frame its input would reach, not only the top page', () => {
  // A's page embeds B's key log from another site (localhost: an out-of-process frame); the
  // extension never works inside it, and the runner sends it no input of its own either.
  const foreign = `http://localhost:${outside.port}`;
  const embedding = (): string => ctx.page(`xframe.html?outer=${encodeURIComponent(`${foreign}/keylog.html`)}`);

  async function open(): Promise<{ page: Page; frameLog: () => Promise<string[]> }> {
    await ctx.session.tab.navigate(embedding());
    const page = await pageAt(embedding());
    await expect.poll(() => page.frames().some((f) => f.url().startsWith(foreign))).toBe(true);
    const frame = page.frames().find((f) => f.url().startsWith(foreign))!;
    await frame.waitForFunction(() => document.readyState === 'complete' && '__log' in window);
    return { page, frameLog: () => frame.evaluate(() => (window as unknown as { __log: string[] }).__log) };
  }

  function expectFrameRefusal(error: { reason: string; message: string }): void {
    expect(error.reason).toBe('navigation');
    expect(error.message).toContain(`shows ${foreign}`);
    expect(error.message).toContain(`allow list (${ctx.server.origin})`);
  }

  it('a click aimed into the frame (a position outside the element it names) is refused naming the frame\u2019s origin; the frame logs nothing', async () => {
    const { page, frameLog } = await open();
    const button = (await (await page.$('#top'))!.boundingBox())!;
    const iframe = (await (await page.$('#outer'))!.boundingBox())!;
    const position = { x: iframe.x + 60 - button.x, y: iframe.y + 60 - button.y };
    const clicked = await failure(ctx.session.click({ text: 'Top button' }, { position }));
    expectFrameRefusal(clicked);
    expect(clicked.message).toMatch(/the point \([\d.]+, [\d.]+\) is inside an iframe/);
    expect(await frameLog()).toEqual([]);
    // The same page without the frame in the way is clicked as before.
    await ctx.session.click({ text: 'Top button' });
    expect(await page.evaluate(() => (window as unknown as { __topClicks: number }).__topClicks)).toBe(1);
  });

  it('keys while the focus is in the frame are refused naming its origin; the frame logs nothing', async () => {
    const { page, frameLog } = await open();
    await page.focus('#outer');
    const pressed = await failure(ctx.session.press('Enter'));
    expectFrameRefusal(pressed);
    expect(pressed.message).toContain('the focus is in an iframe');
    expect(await frameLog()).toEqual([]);
    // Focus back on the allowed page: keys go again.
    await page.focus('#top');
    expect((await ctx.session.press('Enter')).ok).toBe(true);
  });
});
