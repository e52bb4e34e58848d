import { CommandFailure, crashedPage, redactUrl } from '../../sdk/protocol/index.js';

// Tabs with no page to run in: its renderer crashed (or Chrome discarded it), or it shows Chrome's
// own error page. Apart from LoadWatch.ts, whose import starts listening to Chrome's tab events.

/**
 * The failure of a step in a tab whose page is gone (its renderer crashed, or Chrome discarded
 * it): Chrome calls such a tab `unloaded`, tells no tab event of the crash, and loads nothing
 * there until it is reloaded or navigated. `outcome`: a sentence on what became of the step.
 */
export function pageGone(tab: chrome.tabs.Tab, outcome: string): CommandFailure {
  const gone = crashedPage(tab, outcome);
  return new CommandFailure(gone.reason, gone.message, gone.detail);
}

/** Whether a refusal of `chrome.scripting` says the frame shows Chrome's own error page. */
export function showsErrorPage(error: unknown): boolean {
  return /showing error page/i.test(String(error));
}

/**
 * The failure of a step in a tab that shows Chrome's own error page (its last load failed: the
 * server did not answer, refused a login, ...): no page is there to run in. `outcome`: a sentence
 * on what became of the step.
 */
export function errorPageShown(tab: chrome.tabs.Tab | undefined, tabId: number, outcome: string): CommandFailure {
  const shown = tab?.url || tab?.pendingUrl;
  const url = shown ? redactUrl(shown) : undefined;
  return new CommandFailure(
    'load-failed',
    `Tab ${tabId} shows Chrome's error page${url ? ` for ${url}` : ''}: the page did not load. ${outcome} Navigate again (or tab.reload()) once it can load; the failed navigate said why it did not.`,
    { tab: tabId, ...(url ? { url } : {}), errorPage: true },
  );
}
