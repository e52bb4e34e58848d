import type { Browser, CDPSession, Page, Target } from 'puppeteer-core';
import { withTimeout } from '../protocol/index.js';

// The pages of a launched Chrome, and the session puppeteer drives each over.

/**
 * The page of `target`. Puppeteer keeps the outcome of its first set-up of a page, a failure
 * too: a tab whose renderer crashed as its page was set up (Chromium's crash on a first load
 * on a busy machine, right after Chrome starts) would give no page for good, though the tab
 * loads again. Such a failure is forgotten, and the page set up once more.
 */
export async function pageOf(target: Target): Promise<Page | null> {
  const kept = target as unknown as { pagePromise?: Promise<Page | null> };
  // page() starts the set-up (or takes the kept one) before its first await.
  const setUp = target.page();
  const tried = kept.pagePromise;
  try {
    return await setUp;
  } catch {
    // Only the failed set-up is forgotten: another caller may have started a new one meanwhile.
    if (kept.pagePromise === tried) {
      kept.pagePromise = undefined;
      // The set-up enables Runtime, and Chrome tells an enabled session of its pages' scripting
      // contexts only as they are made: turned off first, the enable tells the new page of the
      // contexts there already (without them it could evaluate nothing).
      void sessionOf(target)?.send('Runtime.disable').catch(() => undefined);
    }
    return target.page();
  }
}

/** How long puppeteer may take to give one tab's page (see {@link openPages}). */
const PAGE_MS = 2_000;

/**
 * The open pages of `browser`, each tab's asked for on its own (see {@link pageOf}) within
 * `ms`: `browser.pages()` waits for every tab's page, and fails for good once one tab's set-up broke.
 */
export async function openPages(browser: Browser, ms = PAGE_MS): Promise<Page[]> {
  const pages = browser
    .targets()
    .filter((target) => target.type() === 'page')
    .map((target) => withTimeout(pageOf(target), ms, 'the page did not attach').catch(() => null));
  return (await Promise.all(pages)).filter((page): page is Page => page !== null && !page.isClosed());
}

/** The session puppeteer drives `target` over (its page's main session). */
export function sessionOf(target: Target): CDPSession | undefined {
  return (target as unknown as { _session?(): CDPSession | undefined })._session?.();
}
