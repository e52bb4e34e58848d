import { Wakeups } from '../Wakeups.js';

/**
 * How long page commands wait for the browser to catch up with a commit the debugger told: it is
 * milliseconds when it happens at all; the bound keeps a commit the browser reports otherwise
 * (or never) from holding every later command.
 */
const FENCE_MS = 1_000;
/** How long a commit the browser told first waits for the debugger's word of it. */
const MATCH_MS = 2_000;

/**
 * The debugger hears a top document commit from the page's renderer, and the runner may hear of
 * it (and send its next command) before the browser itself has made that document the tab's:
 * until then `chrome.scripting` and the tab's ports still reach the document it left, which is
 * alive and answers. So each commit the debugger relays is matched with the browser's own
 * (`webNavigation`, the top frame's commit or error page), and page commands to a tab wait here
 * while the debugger is ahead.
 */
export class CommitFence {
  /** Per tab: when each debugger commit the browser has not told yet was heard. */
  readonly #ahead = new Map<number, number[]>();
  /** Per tab: when each browser commit the debugger has not told yet was heard. */
  readonly #told = new Map<number, number[]>();
  readonly #wakeups = new Wakeups();

  constructor() {
    chrome.webNavigation.onCommitted.addListener(({ tabId, frameId }) => {
      if (frameId === 0) this.#browserCommitted(tabId);
    });
    // An error page commits too; ERR_ABORTED is a navigation replaced by another, nothing committed.
    chrome.webNavigation.onErrorOccurred.addListener(({ tabId, frameId, error }) => {
      if (frameId === 0 && error !== 'net::ERR_ABORTED') this.#browserCommitted(tabId);
    });
    chrome.tabs.onRemoved.addListener((tabId) => {
      this.#ahead.delete(tabId);
      this.#told.delete(tabId);
      this.#wakeups.wake();
    });
  }

  /** The debugger heard the tab's top frame commit a new document. */
  debuggerCommitted(tabId: number): void {
    if (!take(this.#told, tabId, MATCH_MS)) add(this.#ahead, tabId, FENCE_MS);
  }

  /** Resolves once the browser has told every commit of the tab the debugger heard (at most {@link FENCE_MS} after each, and by `deadline`); true when it waited. */
  async passed(tabId: number, deadline: number): Promise<boolean> {
    let waited = false;
    for (;;) {
      const ahead = fresh(this.#ahead.get(tabId), FENCE_MS);
      if (ahead.length === 0) {
        this.#ahead.delete(tabId);
        return waited;
      }
      this.#ahead.set(tabId, ahead);
      const until = Math.min(deadline, ahead[ahead.length - 1]! + FENCE_MS);
      if (Date.now() >= until) return waited;
      waited = true;
      await this.#wakeups.sleep(until - Date.now());
    }
  }

  #browserCommitted(tabId: number): void {
    if (take(this.#ahead, tabId, FENCE_MS)) this.#wakeups.wake();
    else add(this.#told, tabId, MATCH_MS);
  }
}

/** Takes the oldest of the tab's times within the last `ms`, if there is one (the older ones go too). */
function take(times: Map<number, number[]>, tabId: number, ms: number): boolean {
  const left = fresh(times.get(tabId), ms);
  const took = left.shift() !== undefined;
  if (left.length > 0) times.set(tabId, left);
  else times.delete(tabId);
  return took;
}

/** Adds now to the tab's times within the last `ms`. */
function add(times: Map<number, number[]>, tabId: number, ms: number): void {
  times.set(tabId, [...fresh(times.get(tabId), ms), Date.now()]);
}

/** The times in `times` within the last `ms`. */
function fresh(times: number[] | undefined, ms: number): number[] {
  const since = Date.now() - ms;
  return (times ?? []).filter((t) => t > since);
}

export const commitFence = new CommitFence();
