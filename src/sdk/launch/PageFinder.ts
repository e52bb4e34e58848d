import type { Browser, Page, Target } from 'puppeteer-core';
import { withTimeout, type TabInfo } from '../protocol/index.js';
import { openPages, pageOf } from './pages.js';

/** How long a tab's url that no page shows yet is waited for (see {@link PageFinder.find}). */
const ARRIVAL_MS = 2_000;

/**
 * Finds the debugging-pipe page that shows an extension tab. The two sides share no id, so the
 * page is found by url, then by title when two share a url; if that is still not enough it
 * refuses rather than guesses.
 */
export class PageFinder {
  readonly #cache = new Map<number, Page>();

  constructor(private readonly browser: Browser) {}

  /** The page for `tab`, trusting a cached page while it still shows `knownUrl`. */
  cached(tabId: number, knownUrl: string | undefined): Page | undefined {
    const page = this.#cache.get(tabId);
    if (page && !page.isClosed() && knownUrl !== undefined && page.url() === knownUrl) return page;
    return undefined;
  }

  /**
   * Looks for the page of `tabId` ahead of need, by `url` alone: cached when exactly one page
   * shows it (two with that url wait for {@link PageFinder.find}, which can tell them by title).
   * Never rejects.
   */
  async prefetch(tabId: number, url: string): Promise<void> {
    if (this.cached(tabId, url)) return;
    const matches = await this.#showing(url).catch(() => []);
    if (matches.length === 1) this.#cache.set(tabId, matches[0]!);
  }

  /**
   * The page that shows `tab`. Chrome tells the extension a tab's new url when it commits, and
   * puppeteer's page hears it a little later (much later on a loaded machine): a url no page
   * shows yet is waited for, at most `waitMs` (by default {@link ARRIVAL_MS}).
   */
  async find(tab: TabInfo, waitMs = ARRIVAL_MS): Promise<Page | { refused: string }> {
    let matches = await this.#showing(tab.url);
    if (matches.length === 0) matches = await this.#arriving(tab.url, waitMs);
    if (matches.length > 1) {
      const titled = await Promise.all(matches.map(async (page) => ((await page.title().catch(() => '')) === tab.title ? page : undefined)));
      matches = titled.filter((page): page is Page => page !== undefined);
    }
    if (matches.length === 1) {
      this.#cache.set(tab.id, matches[0]!);
      return matches[0]!;
    }
    return {
      refused:
        matches.length === 0
          ? `no page in Chrome shows ${tab.url}`
          : `${matches.length} pages show ${tab.url} with the title "${tab.title}", so aite cannot tell which is the run's tab`,
    };
  }

  /**
   * The pages whose targets show `url` once one comes to, within `waitMs` (a target hears its
   * url before its page does); all of them, so that two are told apart as {@link PageFinder.find} does.
   */
  async #arriving(url: string, waitMs: number): Promise<Page[]> {
    const shows = (t: Target): boolean => t.type() === 'page' && t.url() === url;
    const deadline = Date.now() + waitMs;
    const arrived = await this.browser.waitForTarget(shows, { timeout: waitMs }).catch(() => undefined);
    if (!arrived) return [];
    const pages = this.browser.targets().filter(shows).map((t) => pageOf(t).catch(() => null));
    const found = await withTimeout(Promise.all(pages), Math.max(0, deadline - Date.now()), 'the page did not attach').catch((): Array<Page | null> => []);
    return found.filter((page): page is Page => page !== null && !page.isClosed());
  }

  /** The open pages that show `url` (see `openPages`: one tab whose page never comes holds no other). */
  async #showing(url: string): Promise<Page[]> {
    return (await openPages(this.browser)).filter((page) => page.url() === url);
  }
}
