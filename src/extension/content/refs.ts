import { CommandFailure } from '../../sdk/protocol/index.js';
import { frameHop } from './frames.js';

/**
 * The refs (`e1`, `e2`, ...) a `snapshot` hands out, valid in the document this content script
 * runs in. The same element keeps its ref across snapshots; a ref stays a valid target until
 * the element leaves the page (re-rendered, removed) or the document changes (a navigation or
 * reload starts a new content script, which knows no refs; a document shown again from the
 * back/forward cache keeps its script, so it is told to {@link Refs.forget}). Elements are held weakly.
 */
export class Refs {
  #next = 1;
  readonly #byRef = new Map<string, { element: WeakRef<Element>; frame?: string | string[] }>();
  /** Refs a cross-site iframe's own document gave out for this document's snapshot: that iframe, and its frame keys from here. */
  #inFrames = new Map<string, { iframe: WeakRef<Element>; path: string[] }>();
  #refOf = new WeakMap<Element, string>();

  /**
   * Numbers new refs from `first` on, when that is past where this document is: the runner
   * carries the numbering from document to document, so no two documents of a run share a ref.
   */
  numberFrom(first: number): void {
    this.#next = Math.max(this.#next, first);
  }

  /** The number the next new ref takes. */
  get next(): number {
    return this.#next;
  }

  /** The element's ref, given out once; `frame` is the iframe key (or path) the element is reached by. */
  refOf(el: Element, frame?: string | string[]): string {
    let ref = this.#refOf.get(el);
    if (ref === undefined) {
      ref = `e${this.#next++}`;
      this.#refOf.set(el, ref);
      this.#byRef.set(ref, { element: new WeakRef(el), ...(frame !== undefined ? { frame } : {}) });
      if (this.#next % 512 === 0) this.#prune();
    }
    return ref;
  }

  /**
   * The element a ref names now. A stale ref fails at once (`not-found`): waiting cannot bring
   * its element back, only a new snapshot can.
   */
  element(ref: string): Element {
    const entry = this.#byRef.get(ref);
    const inFrame = entry ? undefined : this.#inFrames.get(ref);
    if (inFrame) {
      // The frame's own document knows the ref: the worker sends the command on to it, and it
      // fails there at once if that document has changed since.
      const iframe = inFrame.iframe.deref();
      if (iframe?.isConnected) throw frameHop(iframe, inFrame.path.join(' > '), { consumed: 0, path: inFrame.path });
      throw new CommandFailure('not-found', `The iframe that held the element of ref ${ref} is no longer in the page (the page removed or replaced it). Take a new snapshot and use its refs.`, {
        ref,
        stale: 'removed',
      });
    }
    if (!entry) {
      throw new CommandFailure(
        'not-found',
        `The ref ${ref} is not one of this page's: the page navigated, reloaded or was shown again by going back or forward since the snapshot that gave it, or no snapshot gave it. Take a new snapshot and use its refs.`,
        { ref, stale: 'unknown' },
      );
    }
    const element = entry.element.deref();
    if (!element || !element.isConnected) {
      throw new CommandFailure('not-found', `The element of ref ${ref} is no longer in the page (the page re-rendered or removed it). Take a new snapshot and use its refs.`, {
        ref,
        stale: 'removed',
      });
    }
    return element;
  }

  /**
   * Ends every ref given so far. A document restored from the back/forward cache was left by a
   * navigation, and other documents handed out the same numbers meanwhile: a ref the agent holds
   * now names an element of one of them, never one here. Numbering goes on from where it was,
   * so a later snapshot here never reuses an ended ref.
   */
  forget(): void {
    this.#byRef.clear();
    this.#inFrames.clear();
    this.#refOf = new WeakMap();
  }

  /**
   * Records refs that the document in the cross-site `iframe` (reached by the frame keys `path`
   * from here) gave out for this document's snapshot, so that a command naming one of them from
   * here is sent on to that document.
   */
  inFrame(iframe: Element, path: string[], given: readonly string[]): void {
    const entry = { iframe: new WeakRef(iframe), path };
    for (const ref of given) if (!this.#byRef.has(ref)) this.#inFrames.set(ref, entry);
  }

  /** The iframe key (or path) of the element a ref names (absent: this script's document). */
  frameOf(ref: string): string | string[] | undefined {
    return this.#byRef.get(ref)?.frame;
  }

  #prune(): void {
    for (const [ref, entry] of this.#byRef) if (!entry.element.deref()?.isConnected) this.#byRef.delete(ref);
    for (const [ref, entry] of this.#inFrames) if (!entry.iframe.deref()?.isConnected) this.#inFrames.delete(ref);
  }
}

/** The refs of this content-script instance (one per document). */
export const refs = new Refs();
