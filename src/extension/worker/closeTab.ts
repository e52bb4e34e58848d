import { CommandFailure, withTimeout } from '../../sdk/protocol/index.js';

/** How long the page may take to let go of its beforeunload handlers before the tab is closed anyway (a busy page cannot prompt either). */
const SILENCE_MS = 1_000;
/** How long Chrome may take to close the tab once asked. */
const CLOSE_MS = 3_000;

/**
 * Closes tab `tabId` as Playwright's `page.close()` does by default: without running the page's
 * beforeunload handlers, so no "Leave site?" prompt holds the tab (`chrome.tabs.remove` runs
 * them, and waits forever for a prompt that was dismissed). Answers whether the tab was already
 * gone. A page the extension may not script (outside the allow list) keeps its handlers; if one
 * of them keeps the tab open, that is said, within a few seconds.
 */
export async function closeTab(tabId: number): Promise<{ alreadyClosed: boolean }> {
  if (!(await chrome.tabs.get(tabId).catch(() => undefined))) return { alreadyClosed: true };
  const injected = chrome.scripting.executeScript({ target: { tabId, allFrames: true }, world: 'MAIN', func: silenceBeforeUnload }).catch(() => undefined);
  await within(injected, SILENCE_MS);
  const removed = await within(
    chrome.tabs.remove(tabId).then(
      () => true,
      () => true,
    ),
    CLOSE_MS,
  );
  if (removed || !(await chrome.tabs.get(tabId).catch(() => undefined))) return { alreadyClosed: false };
  throw new CommandFailure(
    'timeout',
    `Tab ${tabId} did not close within ${CLOSE_MS} ms: its page kept it open (a beforeunload "Leave site?" prompt, most likely, on a page outside the allow list, which aite may not script to switch it off). Answer the prompt with session.dialogs.next({ accept: true }) before closing it, or close it by hand.`,
    { tab: tabId },
  );
}

/** `promise`'s value, or undefined once `ms` have passed without one. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return withTimeout(promise, ms, 'late').catch(() => undefined);
}

/**
 * Runs in each frame's main world (`executeScript` sends its source text: it uses nothing from
 * outside). The page's beforeunload listeners never run: a capturing listener on the window runs
 * before every listener at the target that is not capturing, and stops them; and what a capturing
 * one of the page's would do to ask (preventDefault, returnValue, onbeforeunload) does nothing.
 */
function silenceBeforeUnload(): void {
  // The page's window: this worker has none, the function runs in the page.
  const page = globalThis as unknown as Window;
  page.addEventListener('beforeunload', (event) => event.stopImmediatePropagation(), true);
  page.onbeforeunload = null;
  Object.defineProperty(page, 'onbeforeunload', { configurable: true, get: () => null, set: () => undefined });
  const proto = BeforeUnloadEvent.prototype;
  Object.defineProperty(proto, 'returnValue', { configurable: true, get: () => '', set: () => undefined });
  Object.defineProperty(proto, 'preventDefault', { configurable: true, value: () => undefined });
}
