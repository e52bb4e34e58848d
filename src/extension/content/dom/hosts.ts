import { composedContains } from './query.js';
import { canHostShadow, isElement, shadowRootOf } from './nodes.js';

/**
 * The shadow hosts (open or closed, see {@link shadowRootOf}) in `el`'s composed subtree, `el`
 * included. For a whole page (its body or root element) they come from the document's kept
 * candidates (see {@link HostCandidates}); for anything smaller, from a walk of its subtree.
 */
export function shadowHostsIn(el: Element): Element[] {
  const doc = el.ownerDocument;
  if (el !== doc.body && el !== doc.documentElement) return walkHosts(el);
  return hostCandidates.hostsOf(doc).filter((host) => composedContains(el, host));
}

function walkHosts(root: Element): Element[] {
  const found: Element[] = [];
  const stack: (Element | ShadowRoot)[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const sr = isElement(node) ? shadowRootOf(node) : null;
    if (sr) {
      found.push(node as Element);
      stack.push(sr);
    }
    for (let c = node.firstElementChild; c; c = c.nextElementSibling) stack.push(c);
  }
  return found;
}

/**
 * Per document, the elements that can host a shadow root (their tag allows one, see
 * {@link shadowRootOf}), in the document and in every shadow tree found in it, kept from one look
 * to the next while no element is added or removed: a MutationObserver on the document and on
 * those shadow trees (child lists only) drops them at the first such change, and a tag never
 * changes. Which of them hosts a root is asked again at every look, since attaching one is no
 * mutation; a root seen for the first time is walked for its own candidates then. On a page of
 * 2000 rows, a look asks the few dozen elements that can host a root instead of walking all.
 */
class HostCandidates {
  readonly #kept = new WeakMap<Document, { candidates: Element[]; roots: Set<ShadowRoot>; observer: MutationObserver }>();

  hostsOf(doc: Document): Element[] {
    let kept = this.#kept.get(doc);
    // Changes not yet delivered to the observer count as much as the ones that were.
    if (kept && kept.observer.takeRecords().length > 0) this.#forget(doc);
    kept = this.#kept.get(doc);
    if (!kept) {
      const observer = new MutationObserver(() => this.#forget(doc));
      kept = { candidates: [], roots: new Set(), observer };
      observer.observe(doc, WATCH);
      if (doc.documentElement) addCandidates(doc.documentElement, kept.candidates);
      this.#kept.set(doc, kept);
    }
    const hosts: Element[] = [];
    // The list grows while it is read: a root seen for the first time adds its own candidates.
    for (let i = 0; i < kept.candidates.length; i++) {
      const host = kept.candidates[i]!;
      const root = shadowRootOf(host);
      if (!root) continue;
      hosts.push(host);
      if (kept.roots.has(root)) continue;
      kept.roots.add(root);
      kept.observer.observe(root, WATCH);
      for (let c = root.firstElementChild; c; c = c.nextElementSibling) addCandidates(c, kept.candidates);
    }
    return hosts;
  }

  #forget(doc: Document): void {
    this.#kept.get(doc)?.observer.disconnect();
    this.#kept.delete(doc);
  }
}

const hostCandidates = new HostCandidates();

const WATCH: MutationObserverInit = { childList: true, subtree: true };

/** Adds `el` and its light descendants whose tag can host a shadow root (their roots are walked when seen). */
function addCandidates(el: Element, out: Element[]): void {
  if (canHostShadow(el.localName)) out.push(el);
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) addCandidates(c, out);
}
