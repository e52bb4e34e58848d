/**
 * Handles of resolved elements, valid only in the document this content script runs in.
 * A handle is `<documentId>:<n>`; the documentId is random per content-script instance, so a
 * handle from before a navigation or reload is recognised as foreign, never mistaken for an
 * element of the new page. Elements are held weakly: the registry never keeps a removed
 * element alive.
 */
export class Handles {
  readonly documentId: string;
  #next = 1;
  readonly #byNumber = new Map<number, WeakRef<Element>>();
  readonly #numberOf = new WeakMap<Element, number>();

  constructor(documentId: string = randomId()) {
    this.documentId = documentId;
  }

  /** The element's handle; the same element always gets the same one. */
  handleOf(el: Element): string {
    let n = this.#numberOf.get(el);
    if (n === undefined) {
      n = this.#next++;
      this.#numberOf.set(el, n);
      this.#byNumber.set(n, new WeakRef(el));
      if (n % 256 === 0) this.#prune();
    }
    return `${this.documentId}:${n}`;
  }

  /** What a handle points at now. */
  lookup(handle: string): HandleLookup {
    const at = handle.lastIndexOf(':');
    const doc = at > 0 ? handle.slice(0, at) : '';
    const n = Number(handle.slice(at + 1));
    if (!doc || !Number.isInteger(n)) return { kind: 'malformed' };
    if (doc !== this.documentId) return { kind: 'other-document' };
    const el = this.#byNumber.get(n)?.deref();
    if (!el || !el.isConnected) return { kind: 'gone' };
    return { kind: 'found', element: el };
  }

  #prune(): void {
    for (const [n, ref] of this.#byNumber) if (!ref.deref()) this.#byNumber.delete(n);
  }
}

export type HandleLookup =
  | { kind: 'found'; element: Element }
  | { kind: 'gone' }
  | { kind: 'other-document' }
  | { kind: 'malformed' };

// crypto.randomUUID needs a secure context; test and intranet pages are often plain http.
function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The registry of this content-script instance (one per document). */
export const handles = new Handles();
