import { isElement, isShadowRoot, shadowRootOf, styleOf } from './nodes.js';
import { shadowHostsIn } from './hosts.js';
import { composedParent } from './query.js';
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
 * whole and case-sensitive. Both sides are folded first. Without `exact`, a field's marks
 * after its words (`Password *`, `Email:`, a hidden `(required)`) do not stop a whole match:
 * a person reads "Password *" as "Password", not as part of "Confirm password *".
 */
export function matchText(actual: string, wanted: string | RegExp, exact: boolean): TextMatch | undefined {
  // A pattern asked for precisely what it says: any match is whole (Playwright's getByText(/…/)).
  if (typeof wanted !== 'string') return wanted.test(fold(actual)) ? 'whole' : undefined;
  const a = fold(actual);
  const w = fold(wanted);
  if (exact) return a === w ? 'whole' : undefined;
  const al = a.toLowerCase();
  const wl = w.toLowerCase();
  if (al === wl) return 'whole';
  if (!al.includes(wl)) return undefined;
  return wl.length > 0 && al.length > wl.length && al.startsWith(wl) && FIELD_MARKS.test(al.slice(wl.length)) ? 'whole' : 'part';
}

/** What may follow a field's words in its label: required and optional marks, a colon. */
const FIELD_MARKS = /^(?:\s*(?:\*+|:|\((?:required|optional)\)))+\s*$/;

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
   * Takes the text of `doc` kept from an earlier look, brought up to date with what changed since
   * (see {@link KeptTexts}): `roots` are the shadow roots a walk of the whole document found just
   * now (attaching one is no DOM mutation, so it is looked for, not heard). Says whether it did.
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
    return this.#labelsIn(el.getRootNode()).get(el) ?? [];
  }

  /** The controls some label of `root` (a document or shadow root) names. */
  labelledControls(root: Document | ShadowRoot): Iterable<Element> {
    return this.#labelsIn(root).keys();
  }

  #labelsIn(root: Node): Map<Element, HTMLLabelElement[]> {
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
    return byControl;
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
    return indexed.text.slice(span.start, span.end).trim();
  }

  /** `matchText(this.of(el), wanted, exact)`, without building the element's string. */
  match(el: Element, wanted: string | RegExp, exact: boolean): TextMatch | undefined {
    if (typeof wanted !== 'string') return matchText(this.of(el), wanted, exact);
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
      // A host is an element of its own tree, and the walk does not enter an overlay's.
      if (parent.host.hasAttribute('data-aite-overlay')) return false;
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
 * Each document's text, kept from one page command to the next and brought up to date from what
 * changed: a MutationObserver on the document and on every shadow root the text was read through
 * (child lists, character data and the attributes the text depends on, in their whole subtrees)
 * collects the changes, and the next look reads again only the elements they touched (a change in
 * a shadow tree: its host's whole tree, since slots there may now take other nodes). The whole text
 * is dropped, and read afresh, when that cannot be done (see {@link DocText.reread}), when a change
 * reaches the document itself, after too many changes, and when a shadow root turns up that the
 * text was not read through (attaching one is no mutation). Text read through a slot the page
 * assigns by hand (`slotAssignment: "manual"`, changed without a mutation) is never kept. A
 * 2000-element page's text is about 1 ms to read.
 */
class KeptTexts {
  readonly #kept = new WeakMap<Document, { text: DocText; observer: MutationObserver; changes: MutationRecord[] }>();

  offer(doc: Document, text: DocText): void {
    this.#forget(doc);
    if (!text.keepable) return;
    const kept = {
      text,
      changes: [] as MutationRecord[],
      observer: new MutationObserver((records) => {
        for (const r of records) kept.changes.push(r);
        if (kept.changes.length > CHANGES_MAX) this.#forget(doc);
      }),
    };
    kept.observer.observe(doc, WATCH);
    for (const root of text.roots) kept.observer.observe(root, WATCH);
    this.#kept.set(doc, kept);
  }

  take(doc: Document, roots: readonly ShadowRoot[]): DocText | undefined {
    const kept = this.#kept.get(doc);
    if (!kept) return undefined;
    // Changes not yet delivered to the observer count as much as the ones that were.
    const changes = kept.changes.concat(kept.observer.takeRecords());
    kept.changes = [];
    const read = changes.length > CHANGES_MAX ? undefined : rereadChanged(doc, kept.text, changes);
    // A root the text was not read through counts only where the text reads (one in an overlay,
    // or in a light child no slot takes, is read through once a change brings it there).
    if (!read || roots.some((root) => !kept.text.roots.has(root) && reachedByWalk(root.host))) {
      this.#forget(doc);
      return undefined;
    }
    for (const root of read) kept.observer.observe(root, WATCH);
    return kept.text;
  }

  #forget(doc: Document): void {
    const kept = this.#kept.get(doc);
    if (!kept) return;
    kept.observer.disconnect();
    this.#kept.delete(doc);
  }
}

/** What kept text watches: every change of its trees that can change the text read from them. */
const WATCH: MutationObserverInit = {
  subtree: true,
  childList: true,
  characterData: true,
  // A button input's text is its value (its `value` property sets the attribute); an overlay is
  // not read; `slot` and a slot's `name` say which slot takes a node.
  attributeFilter: ['value', 'type', 'data-aite-overlay', 'slot', 'name'],
};

/** More changes than this between two looks: the text is read afresh (cheaper than patching). */
const CHANGES_MAX = 200;

/**
 * Brings `text` up to date with `changes` by reading again the elements they touched, outermost
 * first; answers the shadow roots read through for the first time, or undefined when the text
 * must be read afresh.
 */
function rereadChanged(doc: Document, text: DocText, changes: readonly MutationRecord[]): ShadowRoot[] | undefined {
  const touched = new Set<Element>();
  for (const change of changes) {
    const el = touchedBy(change);
    if (el === 'document') return undefined;
    if (el) touched.add(el);
  }
  const found: ShadowRoot[] = [];
  for (const el of touched) {
    // Removed since (its removal is among the changes), or inside another element read again.
    if (el.getRootNode({ composed: true }) !== doc) continue;
    let outer = false;
    for (let p = composedParent(el); p && !outer; p = composedParent(p)) outer = touched.has(p);
    if (outer) continue;
    if (!text.spans.has(el)) {
      // Never part of the text (in a script, an overlay, a light child no slot takes), unless the
      // text missed it.
      if (reachedByWalk(el)) return undefined;
      continue;
    }
    const roots = text.reread(el);
    if (!roots) return undefined;
    found.push(...roots);
  }
  return found;
}

/**
 * The element whose text a change can have changed (its own, its descendants' and its shadow
 * tree's): for a change inside a shadow tree, the tree's host, since which slot takes which node
 * is decided over the whole tree. Null: nothing the text reads (a comment, a node out of the
 * document); 'document': the document's own children.
 */
function touchedBy(change: MutationRecord): Element | null | 'document' {
  let node: Node | null = change.target;
  if (change.type === 'characterData') node = node.nodeType === 3 ? node.parentNode : null;
  else if (change.type === 'attributes' && change.attributeName === 'slot') node = node.parentNode;
  if (!node) return null;
  if (node.nodeType === 9) return 'document';
  const tree = isShadowRoot(node) ? node : node.getRootNode();
  if (isShadowRoot(tree)) return tree.host;
  return tree.nodeType === 9 ? (node as Element) : null;
}

const keptTexts = new KeptTexts();

/**
 * Where an element's text lies in its document's: `[start, end)`, and how many elements with a
 * span the walk met inside it (they follow it in {@link DocText}'s walk order).
 */
interface Span {
  start: number;
  end: number;
  inside: number;
  readonly el: Element;
}

/** A string asked of a text: folded, lower-cased, and where it occurs in the lower-cased text. */
interface Wanted {
  readonly w: string;
  readonly wl: string;
  readonly hits: readonly number[];
}

/** One document's text (or one element's: the same walk from it), folded, with each element's span in it. */
class DocText {
  text = '';
  /** The shadow roots the text was read through. */
  readonly roots = new Set<ShadowRoot>();
  /** False when some of it came through a slot assigned by hand (it changes without a mutation). */
  keepable = true;
  #lower: string | undefined;
  readonly spans = new Map<Element, Span>();
  /** The spans in the order the walk met their elements (an element before what it holds). */
  #walk: Span[] = [];
  readonly #wanted = new Map<string, Wanted>();
  #parts: string[] = [];
  #len = 0;
  #space: boolean;

  /** `space`: whether the text before `root` ends in a space (folding drops a leading one then). */
  constructor(root: Document | Element, space = true) {
    this.#space = space;
    const start = root.nodeType === 9 ? (root as Document).documentElement : (root as Element);
    if (start) this.#visitNode(start);
    this.text = this.#parts.join('');
    this.#parts = [];
  }

  /**
   * Reads `el`'s part of the text again from the page as it is now, in place; the spans after it
   * move by the change in length. Answers the shadow roots read through for the first time, or
   * undefined, changing nothing, when it cannot: `el` has no span, its text now ends in a space
   * where it did not or the other way round (folding would join or split the text after it), or
   * it is now read through a slot assigned by hand.
   */
  reread(el: Element): ShadowRoot[] | undefined {
    const span = this.spans.get(el);
    if (!span) return undefined;
    const { start, end, inside } = span;
    const part = new DocText(el, endsInSpace(this.text, start));
    if (!part.keepable) return undefined;
    const text = this.text.slice(0, start) + part.text + this.text.slice(end);
    const delta = part.text.length - (end - start);
    if (endsInSpace(text, end + delta) !== endsInSpace(this.text, end)) return undefined;
    const walk = this.#walk;
    const at = walk.indexOf(span);
    const grown = part.#walk.length - 1 - inside;
    for (let k = 0; k < at; k++) {
      const s = walk[k]!;
      if (k + s.inside >= at) {
        s.end += delta;
        s.inside += grown;
      }
    }
    for (let k = at + inside + 1; k < walk.length; k++) {
      walk[k]!.start += delta;
      walk[k]!.end += delta;
    }
    // An element moved from here to a part read again before keeps its new span.
    for (let k = at; k <= at + inside; k++) if (this.spans.get(walk[k]!.el) === walk[k]) this.spans.delete(walk[k]!.el);
    for (const s of part.#walk) {
      s.start += start;
      s.end += start;
      this.spans.set(s.el, s);
    }
    this.#walk = walk.slice(0, at).concat(part.#walk, walk.slice(at + inside + 1));
    this.text = text;
    this.#lower = undefined;
    this.#wanted.clear();
    const found = [...part.roots].filter((root) => !this.roots.has(root));
    for (const root of found) this.roots.add(root);
    return found;
  }

  /** The text lower-cased, each character in its place (built on the first match). */
  get #lowered(): string {
    return (this.#lower ??= lowerSameLength(this.text));
  }

  match(span: Span, wanted: string, exact: boolean): TextMatch | undefined {
    const { w, wl, hits } = this.#wantedOf(wanted);
    let { start, end } = span;
    if (this.text.charCodeAt(start) === 32) start++;
    if (end > start && this.text.charCodeAt(end - 1) === 32) end--;
    if (exact) return end - start === w.length && this.text.startsWith(w, start) ? 'whole' : undefined;
    if (this.#lowered.startsWith(wl, start)) {
      // The whole of it, or its words and a field's marks after them (see matchText).
      if (end - start === wl.length || (wl.length > 0 && end - start > wl.length && FIELD_MARKS.test(this.#lowered.slice(start + wl.length, end)))) return 'whole';
    }
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

  /** A wanted string folded, lower-cased, and where it occurs in the lower-cased text (once per string: a match asks it of every element). */
  #wantedOf(wanted: string): Wanted {
    let found = this.#wanted.get(wanted);
    if (!found) {
      const w = fold(wanted);
      const wl = lowerSameLength(w);
      const hits: number[] = [];
      const lower = this.#lowered;
      if (wl.length > 0) for (let at = lower.indexOf(wl); at >= 0; at = lower.indexOf(wl, at + 1)) hits.push(at);
      found = { w, wl, hits };
      this.#wanted.set(wanted, found);
    }
    return found;
  }

  #append(s: string): void {
    let t = WHITESPACE.test(s) ? s.replace(WHITESPACE_RUNS, ' ') : s;
    if (this.#space && t.charCodeAt(0) === 32) t = t.slice(1);
    if (t.length === 0) return;
    this.#parts.push(t);
    this.#len += t.length;
    this.#space = t.charCodeAt(t.length - 1) === 32;
  }

  /** Starts `el`'s span where the text is now; {@link #close} ends it. */
  #open(el: Element): Span {
    const span = { start: this.#len, end: this.#len, inside: 0, el };
    this.spans.set(el, span);
    this.#walk.push(span);
    return span;
  }

  /** `from`: the walk's length before `span` was opened. */
  #close(span: Span, from: number): void {
    span.end = this.#len;
    span.inside = this.#walk.length - from - 1;
  }

  #visit(el: Element): void {
    const from = this.#walk.length;
    const span = this.#open(el);
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
    this.#close(span, from);
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
        const from = this.#walk.length;
        const span = this.#open(e);
        if (assigned.length > 0) for (const a of assigned) this.#visitNode(a);
        else this.#visitChildren(e);
        this.#close(span, from);
      } else this.#visit(e);
    }
  }
}

/** Whether the folded text before `at` ends in a space (the start counts as one). */
function endsInSpace(text: string, at: number): boolean {
  return at === 0 || text.charCodeAt(at - 1) === 32;
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

/**
 * An element's page text read without an index, as {@link TextIndex.of} reads it (never the
 * content of a script, style or template): for a message, or an element outside the document.
 */
export function pageText(el: Element): string {
  return fold(rawText(el));
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

function walkVisible(el: Element, onPath: Set<Node>): string {
  if (!isRendered(el, { box: false })) return '';
  // innerText reads neither shadow roots nor, in a shadow tree, what its slots show.
  if (!onPath.has(el) && !showsSlotted(el)) return ` ${innerTextOf(el)} `;
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

/** An element of a shadow tree with a slot in it: what it shows comes partly from its host's light nodes. */
function showsSlotted(el: Element): boolean {
  return isShadowRoot(el.getRootNode()) && el.querySelector('slot') !== null;
}

function* flatten(nodes: Iterable<Node>): Generator<Node> {
  for (const n of nodes) {
    if (isElement(n) && n.localName === 'slot') {
      const assigned = (n as HTMLSlotElement).assignedNodes();
      yield* flatten(assigned.length > 0 ? assigned : n.childNodes);
    } else yield n;
  }
}
