import type { Page } from 'puppeteer-core';
import type { Session } from '../../../src/sdk/index.js';

/** The puppeteer page of the run's tab (to evaluate in it), once its document has loaded. */
export async function runPage(session: Session): Promise<Page> {
  const url = (await session.tab.list()).find((t) => t.id === session.tab.current)!.url;
  const page = (await session.browser!.pages()).find((p) => p.url() === url)!;
  await page.waitForFunction(() => document.readyState === 'complete');
  return page;
}
