/**
 * The load state and address of the tabs page commands went to, kept from Chrome's tab events
 * so that a command to a loaded tab does not first ask the browser about it (one message to
 * the browser process per command). Filled by what `tabs.get` answered, emptied on 'loading',
 * a top frame's navigation or commit, and removal; a worker that restarts starts empty and asks again.
 */
export class TabStatusCache {
  readonly #complete = new Map<number, chrome.tabs.Tab>();

  constructor() {
    chrome.tabs.onUpdated.addListener((tabId, change, tab) => {
      if (change.status === 'complete' && tab.status === 'complete') this.#complete.set(tabId, tab);
      else if (change.status === 'loading' || change.url !== undefined || tab.status !== 'complete') this.#complete.delete(tabId);
      else if (this.#complete.has(tabId)) this.#complete.set(tabId, tab);
    });
    chrome.tabs.onRemoved.addListener((tabId) => this.#complete.delete(tabId));
    // The tab's 'loading' update can come after the new document's commit, or not at all.
    const top = ({ tabId, frameId }: { tabId: number; frameId: number }): void => {
      if (frameId === 0) this.#complete.delete(tabId);
    };
    chrome.webNavigation.onBeforeNavigate.addListener(top);
    chrome.webNavigation.onCommitted.addListener(top);
  }

  /** The tab, if it is known to have finished loading and nothing has started since. */
  loaded(tabId: number): chrome.tabs.Tab | undefined {
    return this.#complete.get(tabId);
  }

  remember(tab: chrome.tabs.Tab | undefined): void {
    if (tab?.id !== undefined && tab.status === 'complete') this.#complete.set(tab.id, tab);
  }
}

export const tabStatus = new TabStatusCache();
