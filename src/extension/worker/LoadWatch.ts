import { CommandFailure, withTimeout } from '../../sdk/protocol/index.js';
import { Wakeups } from '../Wakeups.js';
import { commitFence } from './CommitFence.js';
import { pageGone } from './deadPages.js';
import { tabStatus } from './TabStatusCache.js';

/** What a load error means and what to do, where Chrome's code alone does not say. */
const LOAD_ERROR_MEANING: Partial<Record<string, string>> = {
  'net::ERR_INVALID_AUTH_CREDENTIALS':
    'The server asked for a user name and password (HTTP authentication), and aite answers no login prompt: give them in the address (http://user:password@host/...; reports show it as ***@).',
  'net::ERR_CONNECTION_REFUSED': 'Nothing answers at that address: is the server running, on that port?',
  'net::ERR_NAME_NOT_RESOLVED': 'The host name does not resolve: check its spelling, or the network.',
};

/** How often a load waited for asks whether the tab's renderer crashed (see LoadWatch#crashed). */
const CRASH_POLL_MS = 1_000;

/**
 * Watches tab loads from the moment it is made, so that a load that finishes before the caller
 * knows the tab's id (a tab just created) is not missed. With `topDocument`, the load of the
 * top document ends the wait too, whatever its frames still load (see {@link tabSettled}).
 */
export class LoadWatch {
  readonly #complete = new Set<number>();
  readonly #topLoaded = new Set<number>();
  readonly #errors = new Map<number, string>();
  readonly #removed = new Set<number>();
  /** Tabs seen loading since the watch began: one that reads `unloaded` after that has crashed. */
  readonly #loading = new Set<number>();
  /** When {@link LoadWatch#crashed} last asked: the wait starts without asking. */
  #askedAt = Date.now();
  readonly #wakeups = new Wakeups();
  #cancelled: string | undefined;
  readonly #onUpdated = (tabId: number, change: chrome.tabs.OnUpdatedInfo): void => {
    if (change.status === 'loading') {
      this.#complete.delete(tabId);
      this.#loading.add(tabId);
    }
    if (change.status === 'complete') this.#complete.add(tabId);
    this.#wakeups.wake();
  };
  readonly #onError = (details: chrome.webNavigation.WebNavigationFramedErrorCallbackDetails): void => {
    // ERR_ABORTED is a navigation replaced by another one, not a failed load.
    if (details.frameId === 0 && details.error !== 'net::ERR_ABORTED') this.#errors.set(details.tabId, details.error);
    this.#wakeups.wake();
  };
  readonly #onRemoved = (tabId: number): void => {
    this.#removed.add(tabId);
    this.#wakeups.wake();
  };

  readonly #onCompleted = (details: chrome.webNavigation.WebNavigationFramedCallbackDetails): void => {
    if (details.frameId !== 0) return;
    this.#topLoaded.add(details.tabId);
    this.#wakeups.wake();
  };

  constructor(private readonly topDocument = false) {
    chrome.tabs.onUpdated.addListener(this.#onUpdated);
    chrome.webNavigation.onErrorOccurred.addListener(this.#onError);
    chrome.tabs.onRemoved.addListener(this.#onRemoved);
    if (topDocument) chrome.webNavigation.onCompleted.addListener(this.#onCompleted);
  }

  /**
   * Says `tabId` was sent to load a page: its tab had a page (it is not one just opened, which
   * reads `unloaded` before its load starts), so reading `unloaded` from now on means its renderer
   * crashed, though the crash came before any tab event of the load (seen on a first load).
   */
  loading(tabId: number): void {
    this.#loading.add(tabId);
  }

  /**
   * Ends the wait at once: the runner knows the load will not come (see `CancelSchema`).
   * `why` is the failure's words.
   */
  cancel(why: string): void {
    this.#cancelled = why;
    this.#wakeups.wake();
  }

  /**
   * Resolves with the loaded tab; `load-failed`, `tab-closed` or `timeout` otherwise, and
   * `navigation` with `detail.cancelled` once {@link LoadWatch.cancel} is called.
   */
  async forTab(tabId: number, deadline: number, what: string): Promise<chrome.tabs.Tab> {
    try {
      for (;;) {
        if (this.#cancelled !== undefined) throw new CommandFailure('navigation', `Stopped ${what}: ${this.#cancelled}.`, { tab: tabId, cancelled: true });
        if (this.#removed.has(tabId)) throw new CommandFailure('tab-closed', `The tab closed while ${what}.`, { tab: tabId });
        const error = this.#errors.get(tabId);
        if (error) {
          const tab = await chrome.tabs.get(tabId).catch(() => undefined);
          const meaning = LOAD_ERROR_MEANING[error];
          throw new CommandFailure('load-failed', `The browser could not load the page (${error}) while ${what}.${meaning ? ` ${meaning}` : ''}`, {
            tab: tabId,
            error,
            url: tab?.url ?? tab?.pendingUrl,
          });
        }
        if (this.#topLoaded.has(tabId)) {
          const tab = await chrome.tabs.get(tabId).catch(() => undefined);
          if (!tab) throw new CommandFailure('tab-closed', `The tab closed while ${what}.`, { tab: tabId });
          return tab;
        }
        if (this.#complete.has(tabId)) {
          const tab = await chrome.tabs.get(tabId).catch(() => undefined);
          if (!tab) throw new CommandFailure('tab-closed', `The tab closed while ${what}.`, { tab: tabId });
          if (tab.status === 'complete') return tab;
          this.#complete.delete(tabId);
        }
        const remaining = deadline - Date.now();
        if (remaining <= 0) throw await timedOut(tabId, what);
        await this.#wakeups.sleep(Math.min(remaining, CRASH_POLL_MS));
        await this.#crashed(tabId, what);
      }
    } finally {
      this.dispose();
    }
  }

  /**
   * Throws `load-failed` when the tab's renderer crashed during the load: Chrome tells no event
   * of it (the tab just reads `unloaded`), and the load would never end. Asked once per
   * {@link CRASH_POLL_MS} of the wait; a tab not seen loading yet may still read `unloaded` before its load starts.
   */
  async #crashed(tabId: number, what: string): Promise<void> {
    if (Date.now() - this.#askedAt < CRASH_POLL_MS) return;
    this.#askedAt = Date.now();
    const tab = await chrome.tabs.get(tabId).catch(() => undefined);
    if (tab?.status === 'loading') this.#loading.add(tabId);
    else if (tab?.status === 'unloaded' && this.#loading.has(tabId)) throw pageGone(tab, `Stopped ${what}: it will not finish.`);
  }

  dispose(): void {
    chrome.tabs.onUpdated.removeListener(this.#onUpdated);
    chrome.webNavigation.onErrorOccurred.removeListener(this.#onError);
    chrome.tabs.onRemoved.removeListener(this.#onRemoved);
    if (this.topDocument) chrome.webNavigation.onCompleted.removeListener(this.#onCompleted);
    this.#wakeups.wake();
  }
}

/**
 * A load that did not end in time, saying what the tab shows then (the page it left, when the new
 * one never committed) and what to do: a page whose own script hangs never finishes loading, and
 * only closing its tab frees it.
 */
async function timedOut(tabId: number, what: string): Promise<CommandFailure> {
  const tab = await chrome.tabs.get(tabId).catch(() => undefined);
  // The page crashed while it loaded: Chrome tells no event of that, so the wait ran to its end.
  if (tab?.status === 'unloaded') return pageGone(tab, `Timed out while ${what}.`);
  const shows = tab?.url ? ` The tab shows ${tab.url}${tab.status === 'loading' ? ', still loading' : ''}.` : '';
  return new CommandFailure(
    'timeout',
    `Timed out while ${what}.${shows} A slow server or page needs a longer timeoutMs; a page whose script never returns stays stuck: close its tab (tab.close()) and open the page again.`,
    { tab: tabId, ...(tab?.url ? { url: tab.url } : {}), ...(tab?.status ? { status: tab.status } : {}) },
  );
}

/**
 * Waits until the top document of a tab that may be loading has loaded (no-op when the tab is
 * complete). A commit the debugger relayed is first waited for in the browser (see CommitFence).
 * With `fresh`, the browser is asked even when the tab events seen say it has loaded: a
 * navigation the runner has just seen commit may not have reached this worker's events yet.
 *
 * A tab's status also reads 'loading' while a frame the page added after its load is loading,
 * and Chrome sends no 'complete' update when that ends (only the first stop after a top-level
 * commit is told). So a loading tab whose top document is complete is settled, and a wait ends
 * on the top document's load as well as on the tab's.
 */
export async function tabSettled(tabId: number, deadline: number, what: string, fresh = false): Promise<chrome.tabs.Tab> {
  // Every page command comes through here, and the tab has nearly always finished loading: answer
  // that case from the tab events seen, else with one question to the browser, without adding
  // and removing four event listeners (each a message to the browser).
  const caughtUp = await commitFence.passed(tabId, deadline);
  const known = fresh || caughtUp ? undefined : tabStatus.loaded(tabId);
  if (known) return known;
  const first = await chrome.tabs.get(tabId).catch(() => undefined);
  tabStatus.remember(first);
  if (first?.status === 'complete') return first;
  if (first?.status === 'unloaded') throw pageGone(first, `Stopped ${what}: nothing was sent there.`);
  // Otherwise watch before looking again, so a load that finishes in between is not missed.
  const watch = new LoadWatch(true);
  const tab = await chrome.tabs.get(tabId).catch(() => undefined);
  if (!tab) {
    watch.dispose();
    throw new CommandFailure('tab-closed', `The tab closed while ${what}.`, { tab: tabId });
  }
  if (tab.status === 'complete' || (await topDocumentLoaded(tabId, deadline))) {
    watch.dispose();
    return tab;
  }
  return watch.forTab(tabId, deadline, what);
}

/**
 * How long the top document is asked whether it has loaded: a page whose main thread is busy
 * answers nothing, and its tab's own load is waited for instead, within the command's deadline.
 */
const READY_STATE_PROBE_MS = 1_000;

/** Whether the tab's top document has loaded; false when it cannot be asked in time (then the tab's own load is waited for). */
async function topDocumentLoaded(tabId: number, deadline: number): Promise<boolean> {
  const [injected] = await withTimeout(
    // Runs in the page (executeScript sends its source): the worker itself has no document.
    chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, func: () => (globalThis as unknown as { document: { readyState: string } }).document.readyState }),
    Math.max(1, Math.min(READY_STATE_PROBE_MS, deadline - Date.now())),
    'the page did not say its readyState',
  ).catch(() => [undefined]);
  return injected?.result === 'complete';
}
