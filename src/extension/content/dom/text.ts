import { isElement, isShadowRoot, shadowRootOf, styleOf } from './nodes.js';
import { isRendered } from './visibility.js';

/** Collapses every run of whitespace (incl. nbsp) to one space and trims; nothing folds to ''. */
export function fold(s: string | null | undefined): string {
  return (s ?? '').replace(/\s+/g, ' ').trim();
}

/** Cuts to `max` characters, marking the cut with an ellipsis. */
export function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/**
 * At most `max` characters of `text` (folded) around where it comes closest to `wanted`: the
 * window holding most of `wanted`'s words, so a long page shows its "Count: 1" next to an
 * expected "Count: 2", not its first lines. With no word of `wanted` in it, the start.
 */
export function excerptAround(text: string, wanted: string, max: number): string {
  const page = fold(text);
  if (page.length <= max) return page;
  const lower = page.toLowerCase();
  const words = [...new Set(fold(wanted).toLowerCase().split(' ').filter((w) => w.length > 0))];
  const span = Math.max(fold(wanted).length * 2, 40);
  let best = -1;
  let bestScore = 0;
  for (const word of words) {
    for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
      // Score the window that starts a little before this occurrence by the wanted words in it.
      const from = Math.max(0, at - span / 2);
      const window = lower.slice(from, from + span);
      const score = words.reduce((n, w) => n + (window.includes(w) ? w.length : 0), 0);
      if (score > bestScore) {
        bestScore = score;
        best = at;
      }
    }
  }
  if (best < 0) return cut(page, max);
  const start = Math.max(0, Math.min(best - Math.floor((max - 2) / 2), page.length - (max - 2)));
  const end = Math.min(page.length, start + max - 2);
  return `${start > 0 ? '…' : ''}${page.slice(start, end)}${end < page.length ? '…' : ''}`;
}

/** How a string matched: the whole of it, or only a part. */
export type TextMatch = 'whole' | 'part';

/**
 * The matching rule every text-like target key shares (text, name, label, placeholder, region):
 * without `exact`, whole (case-insensitive, whitespace folded) or contained; with `exact`,
 * whole and case-sensitive. Both sides are folded first.
 */
export function matchText(actual: string, wanted: string, exact: boolean): TextMatch | undefined {
  const a = fold(actual);
  const w = fold(wanted);
  if (exact) return a === w ? 'whole' : undefined;
  const al = a.toLowerCase();
  const wl = w.toLowerCase();
  if (al === wl) return 'whole';
  return al.includes(wl) ? 'part' : undefined;
}

/**
 * Where `wanted` occurs in `actual` under the case-insensitive folded rule, returned with the
 * page's own spelling (so a verify answer shows what the page said, not what was asked).
 */
export function findFolded(actual: string, wanted: string): string | undefined {
  const a = fold(actual);
  const w = fold(wanted);
  const al = a.toLowerCase();
  const at = al.indexOf(w.toLowerCase());
  if (at < 0) return undefined;
  // Lower-casing can change the length of a few characters (e.g. U+0130); then the
  // indices no longer line up and the asked string is the best we can report.
  return al.length === a.length ? a.slice(at, at + w.length) : w;
}

// Elements whose content is never page text.
const NOT_TEXT = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link']);
// Tags whose boundaries separate words even in textContent-like text ("<p>a</p><p>b</p>" is "a b").
const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'details', 'dialog', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header',
  'hr', 'li', 'main', 'nav', 'ol', 'option', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td',
  'tfoot', 'th', 'thead', 'tr', 'ul', 'select', 'textarea', 'img',
]);
const BUTTON_INPUTS = new Set(['button', 'submit', 'reset']);

/**
 * The text a target's `text` key is matched against, for one evaluation of the page.
 * Like Playwright's, it is structural (textContent-like, hidden descendants included);
 * visibility is judged on the matched element itself. Open shadow roots are read in place of
 * their host's light children (slots take their assigned nodes), and
 * `<input type=button|submit|reset>` counts by its value.
 *
 * Speed: every element's text is a slice of ONE folded string of its document, built in a
 * single walk, so matching a 2000-element page is linear instead of building and folding a
 * string per element (an element's folded text is always a contiguous piece of its parent's).
 */
export class TextIndex {
  readonly #docs = new Map<Document, DocText>();
  readonly #slow = new Map<Element, string>();
  readonly #labels = new Map<Node, Map<Element, HTMLLabelElement[]>>();
  readonly #own = new Map<Element, string>();

  /**
   * Takes the text of `doc` kept from an earlier look, when nothing it was read from can have
   * changed since: `roots` are the shadow roots a walk of the whole document found just now
   * (attaching one is no DOM mutation, so it is looked for, not heard). Says whether it did.
   */
  adopt(doc: Document, roots: readonly ShadowRoot[]): boolean {
    if (this.#docs.has(doc)) return false;
    const kept = keptTexts.take(doc, roots);
    if (kept) this.#docs.set(doc, kept);
    return kept !== undefined;
  }

  /**
   * `el.labels`, from the labels' side: the look also caches, per tree (document or shadow
   * root), the label elements naming each control (`label.control`, in tree order, as
   * `labels` lists them). Chromium builds an element's `labels` by walking its whole tree the
   * first time it is asked (and again after a change): asked for every element of a
   * 2000-element page (a `label` or `name` target), that was 45-75 ms; this is one query.
   */
  labelsOf(el: Element): readonly HTMLLabelElement[] {
    if (!('labels' in el)) return [];
    const root = el.getRootNode();
    let byControl = this.#labels.get(root);
    if (!byControl) {
      byControl = new Map();
      const labels = (root as ParentNode).querySelectorAll?.('label') ?? [];
      for (const label of labels as Iterable<HTMLLabelElement>) {
        const control = label.control;
        if (!control) continue;
        const list = byControl.get(control);
        if (list) list.push(label);
        else byControl.set(control, [label]);
      }
      this.#labels.set(root, byControl);
    }
    return byControl.get(el) ?? [];
  }

  /**
   * Folded match text of an element. Until its document is indexed (a match indexes it), the
   * first few elements asked about get their text from a walk of their own subtree, the same
   * walk the index makes, instead of the whole page's: describing one element (a css target's
   * descriptor, a label, a heading) does not pay for a 2000-element page.
   */
  of(el: Element): string {
    const doc = this.#docs.get(el.ownerDocument);
    if (!doc && this.#own.size < OWN_TEXTS_MAX) {
      let own = this.#own.get(el);
      if (own === undefined) {
        own = reachedByWalk(el) ? new DocText(el).text.trim() : this.#slowOf(el);
        this.#own.set(el, own);
      }
      return own;
    }
    const indexed = doc ?? this.#doc(el);
    const span = indexed.spans.get(el);
    if (!span) return this.#slowOf(el);
    return indexed.text.slice(span[0], span[1]).trim();
  }

  /** `matchText(this.of(el), wanted, exact)`, without building the element's string. */
  match(el: Element, wanted: string, exact: boolean): TextMatch | undefined {
    const doc = this.#doc(el);
    const span = doc.spans.get(el);
    if (!span) return matchText(this.#slowOf(el), wanted, exact);
    return doc.match(span, wanted, exact);
  }

  #doc(el: Element): DocText {
    const d = el.ownerDocument;
    let t = this.#docs.get(d);
    if (!t) {
      t = new DocText(d);
      this.#docs.set(d, t);
      keptTexts.offer(d, t);
    }
    return t;
  }

  // For elements the composed walk does not reach (light children a shadow root does not slot).
  #slowOf(el: Element): string {
    let t = this.#slow.get(el);
    if (t === undefined) {
      t = fold(rawText(el));
      this.#slow.set(el, t);
    }
    return t;
  }
}

const WHITESPACE = /\s/;
const WHITESPACE_RUNS = /\s+/g;

/** How many elements {@link TextIndex.of} walks one by one before it indexes their document. */
const OWN_TEXTS_MAX = 16;

/**
 * Whether the index's walk of the document reaches `el` (so gives it a span): not inside a
 * script, template or overlay, not a host's light child that no slot takes, not the fallback of
 * a slot that has nodes assigned.
 */
function reachedByWalk(el: Element): boolean {
  for (let n: Node = el; ; ) {
    const parent = n.parentNode;
    if (!parent) return false;
    if (parent.nodeType === 9) return true;
    if (isShadowRoot(parent)) {
      n = parent.host;
      continue;
    }
    const p = parent as Element;
    if (NOT_TEXT.has(p.localName) || p.hasAttribute('data-aite-overlay') || p.localName === 'input') return false;
    if (shadowRootOf(p)) {
      const slot = (n as Element | Text).assignedSlot;
      if (!slot) return false;
      n = slot;
      continue;
    }
    if (p.localName === 'slot' && (p as HTMLSlotElement).assignedNodes().length > 0) return false;
    n = p;
  }
}

/**
 * Each document's text, kept from one page command to the next while nothing it was read from
 * can have changed: a MutationObserver on the document and on every shadow root the text was read
 * through (child lists, attributes, character data, in their whole subtrees) drops it at the
 * first change, and so does a shadow root it was not read through (attached since; attaching is
 * no mutation). Text read through a slot the page assigns by hand (`slotAssignment: "manual"`,
 * changed without a mutation) is never kept. A 2000-element page's text is about 1 ms to read.
 */
class KeptTexts {
  readonly #kept = new WeakMap<Document, { text: DocText; observer: MutationObserver; changed: boolean }>();

  offer(doc: Document, text: DocText): void {
    this.#forget(doc);
    if (!text.keepable) return;
    const kept = { text, changed: false, observer: new MutationObserver(() => this.#forget(doc)) };
    const watch = { subtree: true, childList: true, attributes: true, characterData: true };
    kept.observer.observe(doc, watch);
    for (const root of text.roots) kept.observer.observe(root, watch);
    this.#kept.set(doc, kept);
  }

  take(doc: Document, roots: readonly ShadowRoot[]): DocText | undefined {
    const kept = this.#kept.get(doc);
    if (!kept) return undefined;
    // Changes not yet delivered to the observer count as much as the ones that were.
    if (kept.observer.takeRecords().length > 0 || roots.some((root) => !kept.text.roots.has(root))) {
      this.#forget(doc);
      return undefined;
    }
    return kept.text;
  }

  #forget(doc: Document): void {
    const kept = this.#kept.get(doc);
    if (!kept) return;
    kept.observer.disconnect();
    this.#kept.delete(doc);
  }
}

const keptTexts = new KeptTexts();

/** One document's text (or one element's: the same walk from it), folded, with each element's span in it. */
class DocText {
  text = '';
  /** The shadow roots the text was read through. */
  readonly roots = new Set<ShadowRoot>();
  /** False when some of it came through a slot assigned by hand (it changes without a mutation). */
  keepable = true;
  #lower: string | undefined;
  readonly spans = new Map<Element, [number, number]>();
  readonly #hits = new Map<string, number[]>();
  #parts: string[] = [];
  #len = 0;
  #space = true;

  constructor(root: Document | Element) {
    const start = root.nodeType === 9 ? (root as Document).documentElement : (root as Element);
    if (start) this.#visitNode(start);
    this.text = this.#parts.join('');
    this.#parts = [];
  }

  /** The text lower-cased, each character in its place (built on the first match). */
  get #lowered(): string {
    return (this.#lower ??= lowerSameLength(this.text));
  }

  match(span: [number, number], wanted: string, exact: boolean): TextMatch | undefined {
    const w = fold(wanted);
    let [start, end] = span;
    if (this.text.charCodeAt(start) === 32) start++;
    if (end > start && this.text.charCodeAt(end - 1) === 32) end--;
    if (exact) return end - start === w.length && this.text.startsWith(w, start) ? 'whole' : undefined;
    const wl = lowerSameLength(w);
    if (end - start === wl.length && this.#lowered.startsWith(wl, start)) return 'whole';
    const hits = this.#hitsOf(wl);
    // The first occurrence at or after the span's start must also end inside it.
    let lo = 0;
    let hi = hits.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (hits[mid]! < start) lo = mid + 1;
      else hi = mid;
    }
    return lo < hits.length && hits[lo]! + wl.length <= end ? 'part' : undefined;
  }

  #hitsOf(wl: string): number[] {
    let hits = this.#hits.get(wl);
    if (!hits) {
      hits = [];
      const lower = this.#lowered;
      if (wl.length > 0) for (let at = lower.indexOf(wl); at >= 0; at = lower.indexOf(wl, at + 1)) hits.push(at);
      this.#hits.set(wl, hits);
    }
    return hits;
  }

  #append(s: string): void {
    let t = WHITESPACE.test(s) ? s.replace(WHITESPACE_RUNS, ' ') : s;
    if (this.#space && t.charCodeAt(0) === 32) t = t.slice(1);
    if (t.length === 0) return;
    this.#parts.push(t);
    this.#len += t.length;
    this.#space = t.charCodeAt(t.length - 1) === 32;
  }

  #visit(el: Element): void {
    const start = this.#len;
    const tag = el.localName;
    if (!NOT_TEXT.has(tag) && !el.hasAttribute('data-aite-overlay')) {
      const block = BLOCK.has(tag);
      if (block) this.#append(' ');
      if (tag === 'input') {
        const input = el as HTMLInputElement;
        if (BUTTON_INPUTS.has(input.type)) this.#append(input.value);
      } else {
        const root = shadowRootOf(el, tag);
        if (root) this.roots.add(root);
        this.#visitChildren(root ?? el);
      }
      if (block) this.#append(' ');
    }
    this.spans.set(el, [start, this.#len]);
  }

  #visitChildren(parent: ParentNode): void {
    for (let n = (parent as Node).firstChild; n; n = n.nextSibling) this.#visitNode(n);
  }

  #visitNode(n: Node): void {
    if (n.nodeType === 3) this.#append((n as Text).data);
    else if (n.nodeType === 1) {
      const e = n as Element;
      if (e.localName === 'slot') {
        const assigned = (e as HTMLSlotElement).assignedNodes();
        if ((e.getRootNode() as Partial<ShadowRoot>).slotAssignment === 'manual') this.keepable = false;
        const start = this.#len;
        if (assigned.length > 0) for (const a of assigned) this.#visitNode(a);
        else this.#visitChildren(e);
        this.spans.set(e, [start, this.#len]);
      } else this.#visit(e);
    }
  }
}

/** Lower case without changing the length (a few characters, like U+0130, grow when lowered). */
function lowerSameLength(s: string): string {
  const l = s.toLowerCase();
  if (l.length === s.length) return l;
  let out = '';
  for (const ch of s) {
    const c = ch.toLowerCase();
    out += c.length === ch.length ? c : ch;
  }
  return out;
}

function rawText(el: Element): string {
  const tag = el.localName;
  let out = '';
  if (NOT_TEXT.has(tag) || el.hasAttribute('data-aite-overlay')) out = '';
  else if (tag === 'input') out = BUTTON_INPUTS.has((el as HTMLInputElement).type) ? (el as HTMLInputElement).value : '';
  else {
    for (const n of (shadowRootOf(el) ?? el).childNodes) {
      if (n.nodeType === 3) out += (n as Text).data;
      else if (n.nodeType === 1) out += rawText(n as Element);
    }
  }
  return BLOCK.has(tag) ? ` ${out} ` : out;
}

/**
 * What a person sees of an element, whitespace folded. `innerText` already skips what is not
 * rendered, but it ignores shadow roots (measured in Chromium 156: a host's innerText is its
 * light text only), so subtrees holding an open shadow root are walked by hand.
 */
export function visibleText(el: Element): string {
  if (!isRendered(el)) return '';
  const hosts = shadowHostsIn(el);
  if (hosts.length === 0) return fold(innerTextOf(el));
  const onPath = new Set<Node>();
  for (const h of hosts) {
    for (let n: Node | null = h; n && n !== el; n = parentAcrossShadow(n)) onPath.add(n);
  }
  onPath.add(el);
  return fold(walkVisible(el, onPath));
}

function innerTextOf(el: Element): string {
  if ('innerText' in el) return (el as HTMLElement).innerText;
  return el.textContent ?? ''; // SVG and other non-HTML elements
}

function parentAcrossShadow(n: Node): Node | null {
  if (isShadowRoot(n.parentNode)) return n.parentNode.host;
  return n.parentNode;
}

function shadowHostsIn(root: Element): Element[] {
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

function walkVisible(el: Element, onPath: Set<Node>): string {
  if (!isRendered(el, { box: false })) return '';
  if (!onPath.has(el)) return ` ${innerTextOf(el)} `;
  const kids: Iterable<Node> = (shadowRootOf(el) ?? el).childNodes;
  let out = '';
  for (const n of flatten(kids)) {
    if (n.nodeType === Node.TEXT_NODE) {
      const parent = n.parentElement;
      if (!parent || isRendered(parent, { box: false })) out += (n as Text).data;
    } else if (n.nodeType === Node.ELEMENT_NODE) {
      const e = n as Element;
      if (NOT_TEXT.has(e.localName)) continue;
      const display = styleOf(e).display;
      const part = walkVisible(e, onPath);
      out += display.startsWith('inline') ? part : ` ${part} `;
    }
  }
  return out;
}

function* flatten(nodes: Iterable<Node>): Generator<Node> {
  for (const n of nodes) {
    if (isElement(n) && n.localName === 'slot') {
      const assigned = (n as HTMLSlotElement).assignedNodes();
      yield* flatten(assigned.length > 0 ? assigned : n.childNodes);
    } else yield n;
  }
}
