import { redactUrl } from './redactUrl.js';

/**
 * A tab whose page is gone though the tab is open: its renderer crashed (Chrome shows its
 * "Aw, Snap!" page in its place), or Chrome discarded it to save memory. Nothing can run in it
 * until it loads a page again, and a load waited for there would never come. The extension sees
 * such a tab as `unloaded`; the runner hears the crash over the debugging pipe. One wording for both;
 * `outcome` is a sentence on what became of the step.
 */
export function crashedPage(
  tab: { id?: number | undefined; url?: string | undefined; discarded?: boolean | undefined },
  outcome: string,
): { reason: 'load-failed'; message: string; detail: { tab?: number; url?: string; crashed: boolean; discarded: boolean } } {
  const discarded = tab.discarded === true;
  const url = tab.url ? redactUrl(tab.url) : undefined;
  const why = discarded ? 'Chrome discarded it to save memory' : 'its renderer crashed, and Chrome shows its "Aw, Snap!" page in its place';
  return {
    reason: 'load-failed',
    message: `The page in ${tab.id === undefined ? "the run's tab" : `tab ${tab.id}`}${url ? ` (${url})` : ''} is gone: ${why}. ${outcome} Reload the tab (tab.reload()) or navigate to go on.`,
    detail: { ...(tab.id === undefined ? {} : { tab: tab.id }), ...(url ? { url } : {}), crashed: !discarded, discarded },
  };
}

/** Whether `detail` is a {@link crashedPage} failure's. */
export function isCrashedPage(reason: string, detail: Record<string, unknown> | undefined): boolean {
  return reason === 'load-failed' && typeof detail?.crashed === 'boolean';
}
