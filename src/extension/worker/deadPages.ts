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

/**
 * Why a script could not be run in `tab` when its page is not there to run in, as a failure:
 * the renderer crashed since the tab was last seen loaded (Chrome tells no tab event of that),
 * or `refusal` (what `chrome.scripting` threw) says the tab shows Chrome's own error page (its
 * last load failed). Undefined otherwise. `outcome`: a sentence on what became of the step
 * (`crashedOutcome` for a crash, when it differs).
 */
export function noPageThere(tab: chrome.tabs.Tab, refusal: unknown, outcome: string, crashedOutcome = outcome): CommandFailure | undefined {
  if (tab.status === 'unloaded') return pageGone(tab, crashedOutcome);
  if (!/showing error page/i.test(String(refusal))) return undefined;
  const shown = tab.url || tab.pendingUrl;
  const url = shown ? redactUrl(shown) : undefined;
  return new CommandFailure(
    'load-failed',
    `Tab ${tab.id} shows Chrome's error page${url ? ` for ${url}` : ''}: the page did not load. ${outcome} Navigate again (or tab.reload()) once it can load; the failed navigate said why it did not.`,
    { tab: tab.id, ...(url ? { url } : {}), errorPage: true },
  );
}
