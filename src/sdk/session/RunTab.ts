import type { Browser, Page } from 'puppeteer-core';
import { AiteError } from '../errors/AiteError.js';
import { PageFinder } from '../launch/PageFinder.js';
import { crashedPage, isPageCommand, redactUrl, withTimeout, type AnswerOf, type Command, type ExtensionEvent } from '../protocol/index.js';
import type { Send } from './Channel.js';
import { Crashes } from './pipe/crashes.js';
import { PipeAllowList } from './PipeAllowList.js';

/** How long a step waits for the page list after naming a tab (a slow list only means the worker carries the next commands). */
const PREFETCH_MS = 1_000;
/** How long an address a step heard the tab move to waits for the extension's event of it (see RunTab#ahead). */
const CATCH_UP_MS = 2_000;

/** What {@link RunTab.track} reads of a request: its command, and a url check's kind, negation and tab. */
export type TrackedRequest = { cmd: Command; kind?: unknown; negate?: unknown; tab?: unknown };

/** Told which tab closed (and what it showed) and where the run went on (null: no tab; the next navigate opens one). */
export type RunTabLeft = (gone: { tab: number; url: string | undefined }, now: { tab: number | null; url: string | undefined }) => void;

/**
 * Which tab is the run's, and what each tab shows: kept from the answers of tab commands and the
 * extension's events, and used to find the run's page over the debugging pipe.
 */
export class RunTab {
  #current: number | null = null;
  readonly #urls = new Map<number, string>();
  /** The address of each tab's last `navigated` event. */
  readonly #told = new Map<number, string>();
  /**
   * Per tab: the address a step heard the tab move to before the extension's `navigated` event
   * of it came. The extension tells of a tab's moves in order, so the events before that one are
   * of addresses the tab has left (a burst of clicks each pushing a route): they do not take the
   * address back. The wait ends with that event, a load or switch the run asked for, or after
   * CATCH_UP_MS; then the last event passed over (`passed`) is the address, the extension's
   * newest word.
   */
  readonly #ahead = new Map<number, { url: string; until: number; passed?: string }>();
  readonly #pages: PageFinder | undefined;
  readonly #crashes: Crashes | undefined;
  readonly #allow: PipeAllowList | undefined;
  readonly #left: RunTabLeft | undefined;

  /**
   * `allow`: every input, picture and wait through {@link RunTab.page} is checked against it, and
   * where input took the tab ({@link RunTab.landed}), in attach mode too. `left`: told when the
   * run's tab closed without a closeTab (the page closed itself) and the run went on elsewhere.
   */
  constructor(browser: Browser | undefined, allow?: readonly string[], left?: RunTabLeft) {
    this.#pages = browser ? new PageFinder(browser) : undefined;
    this.#crashes = browser ? new Crashes(browser) : undefined;
    this.#allow = allow ? new PipeAllowList(allow) : undefined;
    this.#left = left;
  }

  /** The run's tab is now `tab`, because the one it was closed: says so, and forgets the closed one. */
  #wentOn(tab: number | null): void {
    const gone = this.#current;
    if (gone === null || gone === tab) return;
    const url = this.#urls.get(gone);
    this.#forget(gone);
    this.#current = tab;
    this.#left?.({ tab: gone, url }, { tab, url: this.url });
  }

  /** The run's tab id, or null before the first navigate (and after the run's tab closed). */
  get current(): number | null {
    return this.#current;
  }

  /**
   * The address the run's tab shows, when known: the one place the run keeps it. Loads, switches
   * and history moves say it; so do the extension's `navigated` events, a single-page app's
   * same-document moves included, and input whose navigation the step heard commit ({@link RunTab.landed}).
   */
  get url(): string | undefined {
    if (this.#current === null) return undefined;
    this.#caughtUp(this.#current);
    return this.#urls.get(this.#current);
  }

  /** Ends the wait for the extension's event of `tab`'s address once it has lasted CATCH_UP_MS. */
  #caughtUp(tab: number): void {
    const ahead = this.#ahead.get(tab);
    if (!ahead || Date.now() < ahead.until) return;
    this.#ahead.delete(tab);
    if (ahead.passed !== undefined) this.#urls.set(tab, ahead.passed);
  }

  #forget(tab: number): void {
    this.#urls.delete(tab);
    this.#told.delete(tab);
    this.#ahead.delete(tab);
  }

  /** The tab that shows `url`, when the run knows one. */
  tabOf(url: string): number | undefined {
    for (const [tab, shown] of this.#urls) if (shown === url) return tab;
    return undefined;
  }

  /**
   * Learns from an answer: navigate, history and switchTab name the run's tab, closeTab the one
   * it went back to. The page of a tab just named is looked for at once, so the next page
   * commands go over the pipe (ContentWorld) before any input needs the page.
   */
  async track(request: TrackedRequest, answer: unknown): Promise<void> {
    const { cmd } = request;
    if (cmd === 'navigate' || cmd === 'switchTab' || cmd === 'history') {
      const { tab, url } = answer as AnswerOf<'navigate'>;
      this.#current = tab;
      this.#urls.set(tab, url);
      this.#ahead.delete(tab);
      if (this.#pages) await withTimeout(this.#pages.prefetch(tab, url), PREFETCH_MS, 'the page list took too long').catch(() => undefined);
    } else if (cmd === 'closeTab') {
      const { tab, closed } = answer as AnswerOf<'closeTab'>;
      this.#current = tab ?? null;
      this.#forget(closed);
    } else if (isPageCommand(cmd)) {
      // A url check of the run's tab that passed read the page's own address, which a route the
      // page changed on its own time (after the step that caused it returned) may not have been
      // told of yet: as Playwright's page.url() after waitForURL, the address is the page's.
      const found = (answer as { found?: unknown }).found;
      if ((cmd === 'verify' || cmd === 'wait') && request.kind === 'url' && request.negate !== true && (request.tab === undefined || request.tab === this.#current) && typeof found === 'string') this.#moved(found);
      // The run's tab closed before its tab-closed event came: the extension ran the command in
      // the tab the run went back to, and the next steps (input over the pipe too) go there.
      const { runTab } = answer as { runTab?: number };
      if (runTab !== undefined) this.#wentOn(runTab);
    }
  }

  /**
   * Learns from a failure: a navigate that opened its tab and then failed (timeout, load-failed,
   * a page outside the allow list) names that tab, which the extension has made the run's; the
   * next navigate loads there instead of opening another.
   */
  failed(cmd: Command, error: AiteError): void {
    const tab = error.detail.tab;
    if (cmd === 'navigate' && error.reason !== 'tab-closed' && typeof tab === 'number') this.#current = tab;
  }

  /** The tabs the run has known (navigated, switched to, seen navigating). */
  get known(): number[] {
    return [...this.#urls.keys()];
  }

  /** After a reset: the run's tab kept on about:blank, or gone (the next navigate opens one); the other tabs forgotten. */
  reset(kept: boolean): void {
    const current = this.#current;
    this.#urls.clear();
    this.#told.clear();
    this.#ahead.clear();
    if (kept && current !== null) this.#urls.set(current, 'about:blank');
    else this.#current = null;
  }

  onEvent(event: ExtensionEvent): void {
    if (event.kind === 'navigated') {
      this.#told.set(event.tab, event.url);
      this.#caughtUp(event.tab);
      const ahead = this.#ahead.get(event.tab);
      if (ahead && event.url !== ahead.url) ahead.passed = event.url;
      else {
        this.#ahead.delete(event.tab);
        this.#urls.set(event.tab, event.url);
      }
    }
    if (event.kind === 'tab-closed') {
      // The run goes where the extension took it (as closeTab does); with none, the next
      // navigate opens a new run tab instead of naming one that is gone.
      if (event.tab === this.#current) this.#wentOn(event.runTab ?? null);
      this.#forget(event.tab);
    }
  }

  /** The page of `tabId` when it is known without asking anything (found before, showing the same url); not guarded. */
  knownPage(tabId: number): Page | undefined {
    return this.#pages?.cached(tabId, this.#urls.get(tabId));
  }

  /**
   * The puppeteer page of the run's tab, guarded by the allow list (see {@link PipeAllowList}).
   * A page found before is trusted while it shows the same url; otherwise the tab list is asked
   * (through `send`), unless `cachedOnly`.
   */
  async page(send: Send, options: { cachedOnly?: boolean } = {}): Promise<Page> {
    const page = await this.#find(send, options);
    this.checkAlive(page, 'Nothing was sent there.');
    return this.#allow ? this.#allow.guard(page) : page;
  }

  /**
   * Throws `load-failed` when `page`'s renderer has crashed and it has loaded nothing since (see
   * {@link crashedPage}); `outcome` says what became of the step.
   */
  checkAlive(page: Page, outcome: string): void {
    if (!this.#crashes?.has(page)) return;
    const gone = crashedPage({ id: this.#current ?? undefined, url: page.url() }, outcome);
    throw new AiteError(gone.reason, gone.message, { detail: gone.detail });
  }

  /** Throws `navigation` when `page` shows a page outside the allow list now (see {@link PipeAllowList.check}). */
  async checkAllowed(page: Page, doing: string): Promise<void> {
    await this.#allow?.check(page, doing);
  }

  /**
   * Input took the run's tab to `url` (a new document, or a move within it): the step heard it
   * commit before the extension's event can say so, and the next step names its elements on that
   * page. Throws `navigation` when `url` is outside the allow list (see {@link PipeAllowList.landed}).
   */
  landed(url: string, action: string): void {
    this.#moved(url);
    this.#allow?.landed(redactUrl(url), action);
  }

  /** The run's tab is at `url`, heard or read before the extension's event of it. */
  #moved(url: string): void {
    const tab = this.#current;
    if (tab === null) return;
    this.#urls.set(tab, url);
    // Unless the extension has told of it already, its events until it does are older.
    if (this.#told.get(tab) === url) this.#ahead.delete(tab);
    else this.#ahead.set(tab, { url, until: Date.now() + CATCH_UP_MS });
  }

  async #find(send: Send, options: { cachedOnly?: boolean }): Promise<Page> {
    const pages = this.#pages;
    const tabId = this.#current;
    if (!pages) throw new AiteError('unsupported', 'This session has no debugging pipe (attach mode).');
    if (tabId === null) throw new AiteError('tab-closed', 'There is no run tab yet: navigate first.');
    const cached = pages.cached(tabId, this.#urls.get(tabId));
    if (cached) return cached;
    if (options.cachedOnly) throw new AiteError('connection-lost', "The run's page is not known yet and the extension cannot be asked.");
    const info = (await send({ cmd: 'tabs' })).tabs.find((tab) => tab.id === tabId);
    if (!info) throw new AiteError('tab-closed', `The run's tab ${tabId} is closed.`);
    this.#urls.set(tabId, info.url);
    const page = await pages.find(info);
    if ('refused' in page) throw new AiteError('internal', `Cannot reach the run's tab over the debugging pipe: ${page.refused}.`);
    return page;
  }
}
