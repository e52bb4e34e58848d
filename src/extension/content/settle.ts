import { shadowRootOf } from './dom/nodes.js';
import { sameOriginDocument, walkElements } from './dom/query.js';
import { Wakeups } from '../Wakeups.js';

/** A check that is not satisfied yet, with what it saw (for the failure at the deadline). */
export interface Pending<F> {
  done: false;
  last: F;
  /** Ask to be checked again this soon even if nothing changes (e.g. to see a quiet period end). */
  recheckInMs?: number;
}
export interface Done<T> {
  done: true;
  value: T;
}
export type Step<T, F> = Done<T> | Pending<F>;

export const done = <T>(value: T): Done<T> => ({ done: true, value });
export const pending = <F>(last: F, recheckInMs?: number): Pending<F> =>
  recheckInMs === undefined ? { done: false, last } : { done: false, last, recheckInMs };

/**
 * Watches the page for DOM changes: the top document, every open shadow root and every
 * same-origin frame document (a document-level observer does not see into shadow trees).
 * Attaching a shadow root is not itself a mutation, so roots are looked for again at each check.
 */
class DomActivity {
  #observer: MutationObserver | undefined;
  readonly #watched = new WeakSet<Node>();
  /** When each element seen added to the page since the watch started was added. */
  readonly #added = new WeakMap<Node, number>();
  #lastMutation = performance.now();
  #lastMove = performance.now();
  #seq = 0;
  readonly #wakeups = new Wakeups();

  /** Starts watching (once); counts the start as a change, since earlier ones were not seen. */
  start(): void {
    if (this.#observer) return;
    this.#lastMutation = performance.now();
    this.#lastMove = this.#lastMutation;
    this.#observer = new MutationObserver((records) => {
      const now = performance.now();
      this.#lastMutation = now;
      for (const record of records) for (const node of record.addedNodes) if (node.nodeType === Node.ELEMENT_NODE) this.#added.set(node, now);
      this.#seq++;
      this.#wakeups.wake();
    });
    this.watchRoots();
    // What moves boxes without a DOM change: scrolling (a script's too), a resize, an image or
    // a font arriving. Scroll and load do not bubble; the capture phase of the window sees them.
    const moved = (): void => {
      this.#lastMove = performance.now();
    };
    for (const type of ['scroll', 'resize', 'load']) window.addEventListener(type, moved, { capture: true, passive: true });
    document.fonts?.addEventListener('loadingdone', moved);
  }

  /** Observes roots not yet observed: documents of same-origin frames and shadow roots (open or closed). */
  watchRoots(doc: Document = document): void {
    const observer = this.#observer;
    if (!observer) return;
    this.#observe(doc);
    walkElements(doc, (el) => {
      const sr = shadowRootOf(el);
      if (sr) this.#observe(sr);
      if (el.localName === 'iframe' || el.localName === 'frame') {
        const inner = sameOriginDocument(el);
        if (inner) this.watchRoots(inner);
      }
    });
  }

  #observe(root: Node): void {
    if (this.#watched.has(root)) return;
    this.#watched.add(root);
    this.#observer!.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
  }

  /**
   * Milliseconds since the element, or the nearest element holding it (across shadow roots), was
   * added to the page; undefined when none was added since the watch started.
   */
  addedMsAgo(el: Element): number | undefined {
    for (let node: Node | null = el; node; node = node.parentNode ?? (node as ShadowRoot).host ?? null) {
      const at = this.#added.get(node);
      if (at !== undefined) return performance.now() - at;
    }
    return undefined;
  }

  /** Milliseconds since the last DOM change seen. */
  quietMs(): number {
    return performance.now() - this.#lastMutation;
  }

  /** Milliseconds since the last DOM change, scroll, resize or load seen in the top document. */
  stillMs(): number {
    return performance.now() - Math.max(this.#lastMutation, this.#lastMove);
  }

  get seq(): number {
    return this.#seq;
  }

  /** Resolves at the next DOM change after `sinceSeq`, or after `maxMs`, whichever is first. */
  nextChange(sinceSeq: number, maxMs: number): Promise<void> {
    // A change came while the check ran: look again, but let the page finish its task first.
    if (this.#seq !== sinceSeq) return new Promise((resolve) => setTimeout(resolve, 0));
    return this.#wakeups.sleep(maxMs);
  }
}

export const activity = new DomActivity();

/** The document has loaded and its DOM has not changed for `quietMs`: what repair waits for. */
export function documentSettled(quietMs: number): boolean {
  return document.readyState === 'complete' && activity.quietMs() >= quietMs;
}

// Checks also run on this schedule when nothing in the DOM changes (styles, scrolling, the URL
// and the passing of time do not cause mutations). The gaps grow so a long wait stays cheap.
const POLL_MS = [16, 32, 64, 100];
// Mutation bursts (an animation driven through the DOM) would otherwise re-run checks back to back.
const MIN_GAP_MS = 8;

/**
 * Runs `check` until it is done or `timeoutMs` has passed, re-checking when the DOM changes
 * and on a backing-off poll. Returns the done step, or the last pending step at the deadline.
 * The check always runs at least once and once more at the deadline if time passed since.
 */
export async function settle<T, F>(check: () => Step<T, F> | Promise<Step<T, F>>, timeoutMs: number): Promise<Step<T, F>> {
  const deadline = performance.now() + timeoutMs;
  activity.start();
  for (let round = 0; ; round++) {
    const seq = activity.seq;
    const step = await check();
    if (step.done) return step;
    // Only a check that has to wait looks for new shadow roots and frames (a walk of the whole
    // page): most checks pass at once. A change in a root found now is still caught by the poll.
    activity.watchRoots();
    const left = deadline - performance.now();
    if (left <= 0) return step;
    const poll = POLL_MS[Math.min(round, POLL_MS.length - 1)]!;
    const wait = Math.min(left, poll, step.recheckInMs ?? Infinity);
    const before = performance.now();
    await activity.nextChange(seq, wait);
    const gap = performance.now() - before;
    if (gap < MIN_GAP_MS && performance.now() + MIN_GAP_MS < deadline) await sleepFrame(MIN_GAP_MS - gap);
  }
}

// Not a stand-in for a condition: only spaces out re-checks during a burst of mutations.
function sleepFrame(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The next animation frame of a window, or `fallbackMs` later if frames are not running
 * (a background tab gets none), so a stability check can never hang.
 */
export function nextFrame(win: Window = window, fallbackMs = 100): Promise<void> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(finish, fallbackMs);
    win.requestAnimationFrame(() => finish());
  });
}
