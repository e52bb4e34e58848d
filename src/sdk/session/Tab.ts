import { optionNames, parseStepOptions, withOptions } from '../errors/parseOptions.js';
import { TabMatchSchema, type ResultOf, type TabInfo, type TabMatch } from '../protocol/index.js';
import type { ResultSend } from './Channel.js';

/**
 * The run's tabs. Each method sends one protocol request.
 *
 * @example
 * ```ts
 * import type { Session } from 'aite';
 *
 * declare const session: Session;
 * await session.tab.navigate('http://127.0.0.1:4173/');
 * await session.click({ text: 'Open receipt' });        // opens a new tab
 * await session.tab.switchTo({ new: true });
 * await session.verify.title('Receipt');
 * await session.tab.close();                           // back to the tab the run came from
 * console.log(session.tab.current, session.tab.url, (await session.tab.list()).length);
 * ```
 * @public
 */
export class Tab {
  /** @internal */
  constructor(
    private readonly send: ResultSend,
    private readonly currentTab: () => number | null,
    private readonly currentUrl: () => string | undefined,
    /** When the run's last input steps began (ms since the epoch), oldest first. */
    private readonly inputAt: () => readonly number[],
  ) {}

  /** The run's tab id, or null before the first navigate. */
  get current(): number | null {
    return this.currentTab();
  }

  /**
   * The address the run's tab shows, as the run last heard it; undefined before the first
   * navigate. It follows the page wherever it goes: a load, a link, a history move, and a
   * single-page app's route change that loads nothing (`history.pushState`, `replaceState`, a
   * `#fragment`, a popstate). A step whose input moved the page has it when it returns; a move the
   * page makes by itself later is heard a moment after it happens.
   */
  get url(): string | undefined {
    return this.currentUrl();
  }

  /** Every open tab. */
  async list(): Promise<TabInfo[]> {
    return (await this.send({ cmd: 'tabs' })).tabs;
  }

  /** Loads `url` in the run's tab (a new tab the first time) and waits for it to load. */
  navigate(url: string, options: { tab?: number; timeoutMs?: number } = {}): Promise<ResultOf<'navigate'>> {
    return withOptions('tab.navigate', options, NAVIGATE, (o) => this.send({ cmd: 'navigate', url, tab: o.tab ?? this.current ?? undefined, timeoutMs: o.timeoutMs }));
  }

  /** Goes back one page in the run's tab and waits for it to load (a back/forward-cache restore included). */
  back(options: { timeoutMs?: number } = {}): Promise<ResultOf<'history'>> {
    return withOptions('tab.back', options, TIMEOUT, (o) => this.send({ cmd: 'history', action: 'back', tab: this.current ?? undefined, timeoutMs: o.timeoutMs }));
  }

  /** Goes forward one page in the run's tab and waits for it to load. */
  forward(options: { timeoutMs?: number } = {}): Promise<ResultOf<'history'>> {
    return withOptions('tab.forward', options, TIMEOUT, (o) => this.send({ cmd: 'history', action: 'forward', tab: this.current ?? undefined, timeoutMs: o.timeoutMs }));
  }

  /** Reloads the run's page and waits for it to load. */
  reload(options: { timeoutMs?: number } = {}): Promise<ResultOf<'history'>> {
    return withOptions('tab.reload', options, TIMEOUT, (o) => this.send({ cmd: 'history', action: 'reload', tab: this.current ?? undefined, timeoutMs: o.timeoutMs }));
  }

  /**
   * Makes a matching tab (not the current one) the run's tab, once it has loaded: by a part of
   * its URL or title, the tab that opened by itself (`new`), or its `id` (from {@link Tab.list}
   * or a `tab-opened` event). A popup opened blank is waited for until it has its own address.
   * A match of no such form (`{ url }`, two keys) is refused before anything is sent; no tab in
   * time fails `timeout` naming the open tabs.
   */
  switchTo(match: TabMatch, options: { timeoutMs?: number } = {}): Promise<ResultOf<'switchTab'>> {
    return withOptions('tab.switchTo', options, TIMEOUT, (o) => {
      let checked: TabMatch;
      try {
        checked = parseStepOptions(TabMatchSchema, match, 'switchTo');
      } catch (error) {
        return Promise.reject(error);
      }
      const inputAt = 'new' in checked ? { inputAt: [...this.inputAt()] } : {};
      return this.send({ cmd: 'switchTab', match: checked, ...inputAt, tab: this.current ?? undefined, timeoutMs: o.timeoutMs });
    });
  }

  /**
   * Closes a tab (default: the run's) and goes back to the tab the run switched from. As
   * Playwright's `page.close()` by default, the page's beforeunload handlers do not run: no
   * "Leave site?" prompt, the tab closes at once.
   */
  close(tab?: number): Promise<ResultOf<'closeTab'>> {
    // Playwright's page.close takes options (`runBeforeUnload`); this takes a tab id, and no options.
    if (typeof tab === 'object' && tab !== null) return withOptions('tab.close', tab, [], () => this.send({ cmd: 'closeTab', tab: this.current ?? undefined }));
    return this.send({ cmd: 'closeTab', tab: tab ?? this.current ?? undefined });
  }
}

// The options each call takes, by name: another is refused before anything is sent (a script
// without types passes Playwright's `timeout` as readily as aite's `timeoutMs`).
const NAVIGATE = optionNames<NonNullable<Parameters<Tab['navigate']>[1]>>()(['tab', 'timeoutMs']);
const TIMEOUT = optionNames<{ timeoutMs?: number }>()(['timeoutMs']);
