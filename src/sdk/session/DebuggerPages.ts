import type { ExtensionEvent, NavigationEvents, WatchedEvents, WatchedMethod } from '../protocol/index.js';
import type { PageEventSource, PageWatch } from './PageWatch.js';

type Listener = (params: never) => void;

/**
 * Attach mode's pages for the {@link PageWatch}: the events the extension's chrome.debugger hears
 * in each run tab it holds, relayed as `page-watch` events (cut to what the watch reads), one
 * source per tab. The extension turns the domains on as it attaches and reads the first
 * document itself, so `start` has nothing to do.
 */
export class DebuggerPages {
  readonly #tabs = new Map<number, { source: PageEventSource; listeners: Map<WatchedMethod, Listener[]> }>();
  /** Each tab's address, as its last committed navigation says. */
  readonly #urls = new Map<number, string>();

  constructor(private readonly watch: PageWatch) {}

  onEvent(event: ExtensionEvent): void {
    if (event.kind === 'navigated' || event.kind === 'tab-opened') {
      if (event.url) this.#urls.set(event.tab, event.url);
      return;
    }
    if (event.kind === 'tab-closed') {
      const tab = this.#tabs.get(event.tab);
      if (tab) this.watch.forget(tab.source);
      this.#tabs.delete(event.tab);
      this.#urls.delete(event.tab);
      return;
    }
    if (event.kind === 'navigation') {
      // The tab's top frame committed a new document: what the old one (and its frames) began and
      // was not answered by now is over, and Chrome does not always tell the debugger so.
      const committed = event.method === 'Page.frameNavigated' && (event.params as NavigationEvents['Page.frameNavigated']).frame?.parentId === undefined;
      const tab = committed ? this.#tabs.get(event.tab) : undefined;
      if (tab) this.watch.forget(tab.source);
      return;
    }
    if (event.kind !== 'page-watch') return;
    if (event.method === 'detached') {
      // What the tab began and never answered will not be heard of again.
      const tab = this.#tabs.get(event.tab);
      if (tab) this.watch.forget(tab.source);
      return;
    }
    if (event.method === 'frameDetached') {
      // A cross-site frame went away with these requests unanswered: none will be heard of again.
      const tab = this.#tabs.get(event.tab);
      const ids = (event.params as { requestIds?: unknown }).requestIds;
      if (tab && Array.isArray(ids)) this.watch.forget(tab.source, ids.filter((id): id is string => typeof id === 'string'));
      return;
    }
    const tab = this.#tab(event.tab);
    for (const listener of tab.listeners.get(event.method) ?? []) listener(event.params as never);
  }

  /** Waits until `tab` has had no request in flight for `idleMs` (see {@link PageWatch.idle}). */
  idle(tab: number, idleMs: number, timeoutMs: number): Promise<void> {
    const { source } = this.#tab(tab);
    return this.watch.idle((s) => s === source, idleMs, timeoutMs);
  }

  #tab(id: number): { source: PageEventSource; listeners: Map<WatchedMethod, Listener[]> } {
    const known = this.#tabs.get(id);
    if (known) return known;
    const listeners = new Map<WatchedMethod, Listener[]>();
    const tab = {
      listeners,
      source: {
        on<M extends WatchedMethod>(method: M, listener: (params: WatchedEvents[M]) => void): void {
          listeners.set(method, [...(listeners.get(method) ?? []), listener as Listener]);
        },
        isPage: () => true,
        url: () => this.#urls.get(id) ?? '',
        start: () => undefined,
      },
    };
    this.#tabs.set(id, tab);
    this.watch.watch(tab.source);
    return tab;
  }
}
