import type { Page } from 'puppeteer-core';
import { pageOf } from '../../../src/sdk/launch/pages.js';
import type { Session } from '../../../src/sdk/index.js';

/**
 * The puppeteer page of the run's tab (to evaluate in it), once its document has loaded.
 * Puppeteer may hear of a new tab, or of its document's address, after the extension answered
 * the step that opened it: the page is waited for (at most 5 s).
 */
export async function runPage(session: Session): Promise<Page> {
  const url = (await session.tab.list()).find((t) => t.id === session.tab.current)!.url;
  const target = await session.browser!.waitForTarget((t) => t.type() === 'page' && t.url() === url, { timeout: 5_000 });
  // Set up once more if a renderer crash broke the first set-up (see pageOf).
  const page = (await pageOf(target))!;
  await page.waitForFunction(() => document.readyState === 'complete');
  return page;
}
