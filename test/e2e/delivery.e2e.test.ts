import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';
import { overSocket } from './support/overSocket.js';
import { profileDirOf } from './support/processes.js';
import { extensionWorker, stopWorker } from './support/worker.js';

const ctx = useSession();

// Found without a bridge request: requests are serialised, so one would wait behind the command under test.
async function runPage(): Promise<Page> {
  const pages = (await ctx.session.browser!.pages()).filter((p) => p.url().startsWith(ctx.server.origin));
  expect(pages).toHaveLength(1);
  return pages[0]!;
}

function extensionDir(): string {
  return join(profileDirOf(ctx.session.browser!.process()!.spawnargs)!, 'aite-extension');
}

describe('delivery, re-sends and retries', () => {
  it('[NAV-RESEND, RT-COUNTED, RT-FIELD] row 33: a verify cut by a navigation is sent again to the new page, and counted', async () => {
    const before = ctx.session.retries.total;
    await ctx.session.tab.navigate(ctx.page('navigating.html?ms=3000'));
    const answer = await ctx.session.verify.text('Arrived', { timeoutMs: 8000 });
    expect(answer.retries).toBeGreaterThanOrEqual(1);
    expect(ctx.session.retries.total - before).toBe(answer.retries);
    expect(ctx.session.retries.byCommand.verify).toBeGreaterThanOrEqual(1);
  });

  it('[KA-RECONNECT, DL-RESEND-IDEMPOTENT, RT-ADD] row 24: a wait cut by a stopped worker is re-sent after the reconnect with resume', async () => {
    await ctx.session.tab.navigate(ctx.page('textchange.html?ms=50'));
    const hellos: Array<{ resume?: string }> = [];
    ctx.session.bridge.on('hello', (h) => hellos.push(h));
    const before = ctx.session.retries.byCommand.wait ?? 0;
    // Over the extension's socket: a wait sent over the pipe (ContentWorld) never meets the stopped worker.
    await overSocket(ctx.session, async () => {
      const waiting = ctx.session.locator.wait('visible', { target: { text: 'Finished' }, timeoutMs: 15_000 });
      waiting.catch(() => undefined); // awaited below; a rejection meanwhile is not unhandled
      await stopWorker(ctx.session.browser!);
      await expect.poll(() => hellos.length, { timeout: 15_000 }).toBe(1);
      expect(hellos[0]!.resume).toBe(ctx.session.runId);
      await (await runPage()).click('#start');
      const answer = await waiting;
      expect(answer.retries).toBe(1);
      expect((ctx.session.retries.byCommand.wait ?? 0) - before).toBe(1);
    });
  });

  it('[DL-ACT-LOST, DL-ACT-STATUS] row 25: an act whose answer is lost after its input was dispatched fails connection-lost with dispatched: true, clicked once, never sent again', async () => {
    await ctx.session.tab.navigate(ctx.page('slow-click.html?ms=2000'));
    const button = await ctx.session.locator.resolve({ role: 'button', name: 'Slow save' });
    const sent: string[] = [];
    const page = await runPage();
    const started = new Promise<void>((resolve) => page.on('console', (m) => m.text() === 'slow-click started' && resolve()));
    // The failure is taken as soon as the call starts: it may reject while the test still acts.
    const acting = failure(ctx.session.locator.act('click', button.descriptor, { timeoutMs: 10_000 }));
    // The click handler holds the page for 2 s: stop the worker while the act is in flight.
    await started;
    ctx.session.bridge.on('retry', (r) => sent.push(r.cmd));
    await stopWorker(ctx.session.browser!);
    const error = await acting;
    expect(error.reason).toBe('connection-lost');
    expect(error.detail).toEqual({ dispatched: true });
    expect(error.message).toMatch(/was dispatched/);
    expect(error.retries).toBe(0);
    // After the reconnect the next command works, and the page was clicked exactly once.
    await ctx.session.verify.targetText({ css: '#count' }, '1');
    expect(await (await runPage()).evaluate(() => (window as unknown as { __slowClicks: number }).__slowClicks)).toBe(1);
    expect(sent).not.toContain('act');
  });

  it('[DL-ACT-LOST, DL-ACT-STATUS] row 25: an act cut before its input was dispatched fails with dispatched: false, and never dispatches later', async () => {
    await ctx.session.tab.navigate(ctx.page('covered-below.html'));
    const order = await ctx.session.locator.resolve({ role: 'button', name: 'Order' });
    const page = await runPage();
    const waitingForCover = new Promise<void>((resolve) => page.on('console', (m) => m.text() === 'scrolled to order' && resolve()));
    const acting = failure(ctx.session.locator.act('click', order.descriptor, { timeoutMs: 15_000 }));
    // The act scrolled to the button (the content script has it) and waits for the cover to go.
    await waitingForCover;
    await stopWorker(ctx.session.browser!);
    const error = await acting;
    expect(error.reason).toBe('connection-lost');
    expect(error.detail).toEqual({ dispatched: false });
    expect(error.message).toMatch(/not dispatched, and now never will be/);
    // The cover goes; the fenced act, still waiting in the page, must not click now: one fresh click counts 1.
    await page.evaluate(() => document.getElementById('cover')!.remove());
    await ctx.session.click({ role: 'button', name: 'Order' });
    await ctx.session.verify.targetText({ css: '#count' }, '1');
    expect(await page.evaluate(() => (window as unknown as { __orders: number }).__orders)).toBe(1);
  });

  it('[NAV-ACT-NOT-RESENT] an act whose page navigates under it fails as navigation and is not sent again', async () => {
    await ctx.session.tab.navigate(ctx.page('overlay.html'));
    const buy = await ctx.session.locator.resolve({ text: 'Buy' });
    // The banner covers the button, so the act waits for it to be clickable; the page leaves meanwhile.
    const acting = failure(ctx.session.locator.act('click', buy.descriptor, { timeoutMs: 10_000 }));
    const page = await runPage();
    await page.evaluate(() => setTimeout(() => (location.href = 'counter.html'), 300));
    const error = await acting;
    expect(error.reason).toBe('navigation');
    expect(error.retries).toBe(0);
    await ctx.session.verify.url('counter.html');
  });

  it('[KA-4401, SEC-REREAD] row 16: a worker with a stale token gets 4401, keeps retrying, and joins once bridge.json is right', async () => {
    const file = join(extensionDir(), 'bridge.json');
    const good = await readFile(file, 'utf8');
    const rejected: string[] = [];
    ctx.session.bridge.on('rejected', (r) => rejected.push(r.cause));
    await writeFile(file, JSON.stringify({ ...JSON.parse(good), token: '0'.repeat(32) }), { mode: 0o600 });
    await stopWorker(ctx.session.browser!);
    await expect.poll(() => rejected.includes('token'), { timeout: 15_000 }).toBe(true);
    const worker = await extensionWorker(ctx.session.browser!);
    await expect.poll(() => worker.evaluate(() => chrome.action.getBadgeText({})), { timeout: 5_000 }).toBe('ERR');
    await writeFile(file, good, { mode: 0o600 });
    await ctx.session.bridge.waitForExtension(20_000);
    expect((await ctx.session.tab.list()).length).toBeGreaterThan(0);
    await expect.poll(() => worker.evaluate(() => chrome.action.getBadgeText({}))).toBe('');
  });

  it('[KA-ALARM, KA-PING] the worker keeps a 30 s alarm, and answers pings', async () => {
    const worker = await extensionWorker(ctx.session.browser!);
    const alarms = await worker.evaluate(() => chrome.alarms.getAll());
    expect(alarms).toEqual([expect.objectContaining({ name: 'aite-keepalive', periodInMinutes: 0.5 })]);
  });

  it('[SEC-HOSTS] row 22: the staged manifest asks host permissions for exactly the allow list', async () => {
    const manifest = JSON.parse(await readFile(join(extensionDir(), 'manifest.json'), 'utf8')) as {
      host_permissions: string[];
      web_accessible_resources?: unknown;
    };
    expect(manifest.host_permissions).toEqual([`${ctx.server.origin}/*`]);
    expect(manifest.web_accessible_resources).toBeUndefined();
  });
});
