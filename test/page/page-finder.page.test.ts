import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageFinder } from '../../src/sdk/launch/PageFinder.js';
import { withTimeout } from '../../src/sdk/protocol/index.js';
import { launchChromium, PAGES } from './support/harness.js';
import { serveFolder, type StaticServer } from './support/server.js';

// The runner finds the pipe's page of an extension tab by the url the extension answered. The
// extension hears a commit before puppeteer's page does: on a loaded machine (four Chromes on two
// cores in the bench's 4-worker suite) a step right after a navigate found no page showing it.

let dir = '';
let browser: Browser;
let server: StaticServer;
let page: Page;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'aite-page-finder-'));
  server = await serveFolder(PAGES);
  browser = await launchChromium({ userDataDir: join(dir, 'profile') });
  page = await browser.newPage();
  await page.goto(`${server.origin}/act.html`, { waitUntil: 'load' });
});

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('PageFinder', () => {
  it('[SS-PIPE] finds the page of a url its puppeteer page has not heard of yet, once it arrives', async () => {
    const url = `${server.origin}/locate.html`;
    const going = page.goto(url, { waitUntil: 'load' });
    // The extension's answer is ahead of the page: nothing here shows the url yet.
    expect(page.url()).not.toBe(url);
    const found = await new PageFinder(browser).find({ id: 7, url, title: '', active: true });
    await going;
    expect(found).toBe(page);
  });

  it('[SS-PIPE] a tab whose page puppeteer never gives (its renderer crashed as the page was set up) holds no other tab\'s lookup', async () => {
    const url = `${server.origin}/act.html`;
    await page.goto(url, { waitUntil: 'load' });
    const never = { type: () => 'page', url: () => url, page: () => new Promise<Page>(() => undefined) };
    const crashed = { type: () => 'page', url: () => url, page: () => Promise.reject(new Error('Protocol error (Network.enable): Target crashed')) };
    const withBroken = Object.create(browser, { targets: { value: () => [...browser.targets(), never, crashed] } }) as Browser;
    const started = performance.now();
    const found = await new PageFinder(withBroken).find({ id: 7, url, title: '', active: true });
    expect(found).toBe(page);
    expect(performance.now() - started).toBeLessThan(4_000);
  });

  it('[SS-PIPE] a tab whose page set-up failed (its renderer crashed then) is set up again, and its page can evaluate', async () => {
    const url = `${server.origin}/act.html`;
    const tab = await browser.newPage();
    await tab.goto(url, { waitUntil: 'load' });
    // What puppeteer keeps of a set-up a renderer crash broke: the failure, for good.
    const kept = tab.target() as unknown as { pagePromise?: Promise<Page | null> };
    kept.pagePromise = Promise.reject(new Error('Protocol error (Network.enable): Target crashed'));
    kept.pagePromise.catch(() => undefined);
    await expect(tab.target().page()).rejects.toThrow(/Target crashed/);
    await page.goto(`${server.origin}/locate.html`, { waitUntil: 'load' });
    const found = await new PageFinder(browser).find({ id: 8, url, title: '', active: true });
    expect(found).not.toHaveProperty('refused');
    const again = found as Page;
    expect(again).not.toBe(tab);
    expect(again.target()).toBe(tab.target());
    expect(await withTimeout(again.evaluate(() => location.href), 5_000, 'the page set up again did not evaluate')).toBe(url);
    await tab.close();
  });

  it('[SS-PIPE] refuses a url no page comes to show, after the wait it is given', async () => {
    const url = `${server.origin}/nowhere.html`;
    const started = performance.now();
    const found = await new PageFinder(browser).find({ id: 7, url, title: '', active: true }, 300);
    expect(found).toEqual({ refused: `no page in Chrome shows ${url}` });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });
});
