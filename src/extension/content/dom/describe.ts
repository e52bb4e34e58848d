// The one page model: what the extension reads of a live element. `resolve` answers it, the lock
// file remembers it (with `record`), and repair scores candidates described by the same code, so a
// remembered descriptor and a live one of the same unchanged element are equal field by field
// (docs/locator-repair.md §2).
import type { Descriptor } from '../../../sdk/protocol/index.js';
import { accessibleName, isActionable, isInteractive, nativeLabels, roleOf } from './aria.js';
import { pageRect, reachableTop } from './geometry.js';
import { isShadowRoot } from './nodes.js';
import { pictureOf } from './picture.js';
import { composedContains, composedParent, walkElements } from './query.js';
import { enclosingRegionName } from './regions.js';
import { cut, fold, TextIndex, visibleText } from './text.js';
import { isRendered } from './visibility.js';
import { pathOf, xpathOf } from './xpath.js';

const TEXT_MAX = 200;
const LABEL_MAX = 100;
const CLASSES_MAX = 20;
const HEADING = 'h1, h2, h3, h4, h5, h6, [role="heading"]';
/** What may be {@link isActionable}; the function decides. */
const ACTIONABLE = 'a[href], button, input, select, textarea, summary, [role], [onclick], [tabindex], [contenteditable]';

/** Elements of one kind in document order, with each one's index. */
interface KindList {
  list: Element[];
  at: Map<Element, number>;
}

/**
 * Per-evaluation lookups shared by the descriptors of one look at the page (one resolve, one
 * repair): the text index, each tree's headings, the elements of each kind. Never kept across
 * commands: the page changes between them.
 */
export class DescribeCache {
  readonly #headings = new Map<Document | ShadowRoot, Element[]>();
  readonly #kinds = new Map<Document, Map<string, KindList>>();
  readonly #headerRows = new Map<HTMLTableElement, HTMLTableRowElement | null>();
  readonly #flat = new Set<Document>();

  constructor(readonly texts: TextIndex = new TextIndex()) {}

  /** The headings of one tree (a document or a shadow root), in its document order. */
  headingsOf(root: Document | ShadowRoot): Element[] {
    let hs = this.#headings.get(root);
    if (!hs) {
      hs = [...root.querySelectorAll(HEADING)];
      this.#headings.set(root, hs);
    }
    return hs;
  }

  /** A table's header row: its `<thead>`'s first row, else its first row of only `<th>` cells. */
  headerRowOf(table: HTMLTableElement): HTMLTableRowElement | null {
    let row = this.#headerRows.get(table);
    if (row === undefined) {
      row = table.tHead?.rows[0] ?? Array.from(table.rows).find((r) => Array.from(r.cells).every((c) => c.localName === 'th')) ?? null;
      this.#headerRows.set(table, row);
    }
    return row;
  }

  /**
   * The caller walked `doc` and found no element in a shadow root: the kinds' lists can then be
   * read by the browser's own selector engine instead of a walk (a fifth of a repair's time on a
   * page of 3000 elements).
   */
  markFlat(doc: Document): void {
    this.#flat.add(doc);
  }

  /** Elements of the kind of `el` (see {@link kindOf}) in its document, shadow trees included. */
  kindOf(el: Element): KindList {
    const doc = el.ownerDocument;
    let kinds = this.#kinds.get(doc);
    if (!kinds) {
      kinds = new Map();
      this.#kinds.set(doc, kinds);
    }
    const kind = kindOf(el);
    let entry = kinds.get(kind);
    if (!entry && this.#flat.has(doc)) {
      const found = kind === ':interactive' ? [...doc.querySelectorAll(ACTIONABLE)].filter(isActionable) : kind === ':heading' ? [...doc.querySelectorAll(HEADING)] : [...doc.getElementsByTagName(kind)];
      const list = found.filter((x) => kindOf(x) === kind && !x.closest('[data-aite-overlay]'));
      entry = { list, at: new Map(list.map((x, i) => [x, i])) };
      kinds.set(kind, entry);
    }
    if (!entry) {
      // One walk lists the elements of this kind and of the two element kinds (controls,
      // headings) at once: neighbours and peers of candidates of every kind are asked for.
      const lists = new Map<string, Element[]>([[kind, []], [':interactive', []], [':heading', []]]);
      for (const k of lists.keys()) if (kinds.has(k)) lists.delete(k);
      walkElements(doc, (x) => {
        lists.get(kindOf(x))?.push(x);
      });
      for (const [k, list] of lists) kinds.set(k, { list, at: new Map(list.map((x, i) => [x, i])) });
      entry = kinds.get(kind)!;
    }
    return entry;
  }
}

/**
 * What the lock file remembers of an element: every field repair compares (see REPAIR-NOTES:
 * the visual label and the row/heading context are the strongest evidence). `frame` is the
 * target's frame key, so the xpath is read in that frame's document. `record` adds what only the
 * lock file needs (`twins`, `twinPlaces`, `peers`: a look at the rest of the page). `texts` seeds
 * the cache with an evaluation's text index.
 */
export function describe(
  el: Element,
  opts: { cache?: DescribeCache; texts?: TextIndex; record?: boolean; frame?: string | string[] | undefined } = {},
): Descriptor {
  const cache = opts.cache ?? new DescribeCache(opts.texts);
  const texts = cache.texts;
  const d: Descriptor = { v: 1, tag: el.localName, xpath: xpathOf(el) };
  const set = <K extends keyof Descriptor>(key: K, value: Descriptor[K] | '' | undefined | null): void => {
    if (value !== undefined && value !== null && value !== '') d[key] = value as Descriptor[K];
  };
  set('role', roleOf(el));
  const icons = iconsOf(el, texts);
  const words = icons?.ligatures ?? [];
  const name = accessibleName(el, texts);
  // A name read from the content holds the ligature words too; an `aria-label` or a label is kept as written.
  set('name', cut(words.length > 0 && name === texts.of(el) ? withoutWords(name, words) : name, TEXT_MAX));
  set('text', cut(withoutWords(elementText(el), [...words, ...unseenTexts(el, texts)]), TEXT_MAX));
  const ariaLabel = fold(el.getAttribute('aria-label') ?? '');
  const title = fold(el.getAttribute('title') ?? '');
  // An element that says nothing is known by the one picture it shows (a store badge, a logo).
  set('icon', icons ? icons.names.join(' ') : saysNothing([d.text, d.name, ariaLabel, title]) ? pictureOf(el) : undefined);
  set('testid', el.getAttribute('data-testid'));
  set('id', el.id);
  set('ariaLabel', ariaLabel);
  set('nameAttr', el.getAttribute('name'));
  if (el.localName === 'input' || el.localName === 'button') set('type', (el as HTMLInputElement).type);
  set('placeholder', fold(el.getAttribute('placeholder') ?? ''));
  set('href', el.getAttribute('href'));
  const classes = stableClasses(el);
  if (classes.length > 0) d.classes = classes;
  set('label', visualLabel(el, cache));
  const context = {
    heading: nearestHeading(el, cache),
    region: enclosingRegionName(el, texts, composedParent),
    row: rowText(el),
  };
  const ctx = Object.fromEntries(Object.entries(context).filter(([, v]) => v)) as Descriptor['context'];
  if (ctx && Object.keys(ctx).length > 0) d.context = ctx;
  set('near', nearText(el, d.text ?? '', texts));
  set('title', title);
  set('path', pathOf(el));
  d.rect = pageRect(el);
  d.page = pageSize(el);
  set('frame', opts.frame);
  return opts.record ? { ...d, ...recordFields(el, cache) } : d;
}

/** A word: what a text or a name must hold to say anything (an image's alt "..." says nothing). */
const WORD = /[\p{L}\p{N}]/u;

/** Whether an element says nothing a person reads or hears: no word in its text, name, aria-label or title. */
function saysNothing(said: readonly (string | undefined)[]): boolean {
  return !said.some((t) => t && WORD.test(t));
}

/**
 * Icon fonts that draw a word as a glyph (`<i class="material-icons">person</i>`): the word is the
 * icon's name, not text a person reads beside it.
 */
const LIGATURE_ICON = /^material-(icons|symbols)(-[a-z]+)*$/;
/** The icon classes of the common icon fonts: the set's prefix, then the icon's name (`fa-twitter`, `fe-user`, `bi-trash`). */
const ICON_CLASS = /^(?:fa|fe|bi|ti|mdi|ion|ri|la|bx|bxs|bxl|glyphicon|icon|feather|oi|typcn|zmdi|ni)-([a-z0-9-]+)$/;
/** Font Awesome's modifiers: how an icon is drawn, not which one. */
const ICON_MODIFIER = /^fa-(fw|lg|xs|sm|xl|\d+x|stack(-\dx)?|inverse|spin|pulse|border|pull-(left|right)|li|ul|rotate-\d+|flip(-\w+)?|solid|regular|brands|light|thin|duotone|sharp|beat(-fade)?|bounce|fade|shake)$/;
/** An element holding more icons than this is a container, not an icon-bearing control. */
const ICONS_MAX = 3;
const ICON_ELEMENTS = 'i, span, em';

/**
 * The icons an element shows (itself or up to three descendants, in document order): each one's
 * name (`twitter` for `fab fa-twitter`, `person` for a `material-icons` ligature), and the
 * ligature words, which are not text a person reads. Undefined when it shows none or more than
 * three. An icon-only link ("Twitter" drawn, nothing written) is known by it.
 */
export function iconsOf(el: Element, texts: TextIndex): { names: string[]; ligatures: string[] } | undefined {
  const names: string[] = [];
  const ligatures: string[] = [];
  const one = (x: Element): boolean => {
    let name: string | undefined;
    for (const c of x.classList) {
      if (LIGATURE_ICON.test(c)) {
        const word = texts.of(x);
        if (word) ligatures.push(word);
        name = word.toLowerCase();
        break;
      }
      const m = ICON_CLASS.exec(c);
      if (m && !ICON_MODIFIER.test(c)) name ??= m[1];
    }
    if (!name) return true;
    names.push(name);
    return names.length <= ICONS_MAX;
  };
  if (!one(el)) return undefined;
  if (names.length === 0) for (const x of el.querySelectorAll(ICON_ELEMENTS)) if (!one(x)) return undefined;
  return names.length > 0 ? { names, ligatures } : undefined;
}

/** The classes that hide a label from sight and keep it for screen readers (Bootstrap, WordPress, HTML5 Boilerplate). */
const UNSEEN = '.sr-only, .visually-hidden, .screen-reader-text, .visuallyhidden';

/**
 * The texts inside the element that a screen reader reads and a person does not see: those of
 * its descendants with a screen-reader-only class whose box is clipped to a pixel or less
 * (Bootstrap's "Home <span class="sr-only">(current)</span>" reads "Home"). They stay in its name.
 */
function unseenTexts(el: Element, texts: TextIndex): string[] {
  const out: string[] = [];
  for (const x of el.querySelectorAll(UNSEEN)) {
    const r = x.getBoundingClientRect();
    const t = texts.of(x);
    if (t && r.width <= 1 && r.height <= 1) out.push(t);
  }
  return out;
}

/**
 * `text` without the given words (ligature words, unseen texts; each where a word starts, case
 * ignored: an icon draws its word before the label, often without a space), unless nothing else
 * is left: an icon alone is all an icon-only button says, a hidden label all a toggler says.
 */
function withoutWords(text: string, remove: readonly string[]): string {
  if (remove.length === 0) return text;
  let t = text;
  for (const w of remove) {
    const lower = t.toLowerCase();
    const word = w.toLowerCase();
    for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
      if (at === 0 || /\s/.test(lower[at - 1]!)) {
        t = `${t.slice(0, at)} ${t.slice(at + word.length)}`;
        break;
      }
    }
  }
  return fold(t) || text;
}

// Classes that flip at run time say nothing about which element it is.
const STATE_CLASS = /^(active|focus|focused|hover|show|open|selected|is-\w+|ng-\w+)$/;

function stableClasses(el: Element): string[] {
  return Array.from(el.classList).filter((c) => !STATE_CLASS.test(c)).slice(0, CLASSES_MAX);
}

const NEAR_LEVELS = 4;
const NEAR_CHILDREN_MAX = 40;

/**
 * Text of the closest ancestor (at most 4 levels up, none with more than 40 children) that
 * says more than the element itself: the card, row or group it sits in (Similo's neighbour text).
 * Page text as targets match it: never the source of a script or style sitting in the card.
 */
function nearText(el: Element, own: string, texts: TextIndex): string | undefined {
  let n = composedParent(el);
  for (let depth = 0; n && depth < NEAR_LEVELS && n !== el.ownerDocument.body; depth++, n = composedParent(n)) {
    if (n.childElementCount > NEAR_CHILDREN_MAX) break;
    const t = texts.of(n);
    if (t.length > own.length + 1) return cut(t, TEXT_MAX);
  }
  return undefined;
}

/** The top page's scroll size, the frame of reference of `rect` (repair compares positions relative to it). */
function pageSize(el: Element): { width: number; height: number } {
  const top = reachableTop(el.ownerDocument.defaultView ?? window).document.documentElement;
  return { width: Math.max(top.scrollWidth, top.clientWidth, 1), height: Math.max(top.scrollHeight, top.clientHeight, 1) };
}

const BUTTON_INPUTS = new Set(['button', 'submit', 'reset']);
/** Above this many children an element's quick text is its own text nodes only (a page-wide wrapper). */
const QUICK_CHILDREN_MAX = 60;

/**
 * The text a person sees on the element itself. A control's typed value is state, not identity
 * (every checkbox's value is "on"): only button inputs count theirs; a select shows its chosen
 * option and an image its alt. `quick` reads the structural text of the evaluation's index
 * instead of the rendered text (no layout: for the thousands of elements repair and recording
 * compare), and a container of more than 60 children only by its own text nodes.
 */
export function elementText(el: Element, quick?: TextIndex): string {
  const tag = el.localName;
  if (tag === 'input') {
    const input = el as HTMLInputElement;
    return BUTTON_INPUTS.has(input.type) || input.type === 'image' ? fold(input.value || input.alt || '') : '';
  }
  if (tag === 'textarea') return '';
  if (tag === 'select') return fold((el as HTMLSelectElement).selectedOptions[0]?.text ?? '');
  if (tag === 'img') return fold((el as HTMLImageElement).alt);
  if (!quick) return visibleText(el);
  if (el.childElementCount > QUICK_CHILDREN_MAX) {
    let own = '';
    for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 3) own += (n as Text).data;
    return fold(own);
  }
  return quick.of(el);
}

const CONTROL_ROLES = new Set(['checkbox', 'radio', 'switch', 'textbox', 'searchbox', 'combobox', 'slider', 'spinbutton', 'listbox']);

function isControl(el: Element): boolean {
  const tag = el.localName;
  if (tag === 'input') return (el as HTMLInputElement).type !== 'hidden';
  if (tag === 'select' || tag === 'textarea') return true;
  return CONTROL_ROLES.has(roleOf(el));
}

/**
 * The label a person reads next to a control: its `<label>`s, its aria-labelledby, the column
 * header of its table cell, or the nearest text on the same row. Other elements only get the
 * column header of the table cell they sit in.
 */
export function visualLabel(el: Element, cache: DescribeCache): string | undefined {
  const texts = cache.texts;
  if (!isControl(el)) {
    // A link or button in a table cell is labelled by its column ("Edit" under "Action").
    const cell = el.closest('td, th');
    return cell && cell !== el ? columnHeader(cell as HTMLTableCellElement, cache) : undefined;
  }
  const labels = nativeLabels(el, texts);
  if (labels.length > 0) return cut(fold(labels.join(' ')), LABEL_MAX);
  const ids = el.getAttribute('aria-labelledby')?.trim();
  if (ids) {
    const root = el.getRootNode() as Document | ShadowRoot;
    const t = fold(ids.split(/\s+/).map((id) => (root.getElementById(id) ? texts.of(root.getElementById(id)!) : '')).join(' '));
    if (t) return cut(t, LABEL_MAX);
  }
  const cell = el.closest('td, th');
  const header = cell ? columnHeader(cell as HTMLTableCellElement, cache) : undefined;
  if (header) return cut(header, LABEL_MAX);
  const near = textOnSameRow(el);
  return near ? cut(near, LABEL_MAX) : undefined;
}

function columnHeader(cell: HTMLTableCellElement, cache: DescribeCache): string | undefined {
  const table = cell.closest('table');
  const row = cell.parentElement as HTMLTableRowElement | null;
  if (!table || !row) return undefined;
  let col = 0;
  for (const c of row.cells) {
    if (c === cell) break;
    col += c.colSpan || 1;
  }
  const headerRow = cache.headerRowOf(table);
  if (!headerRow || headerRow === row) return undefined;
  let at = 0;
  for (const h of headerRow.cells) {
    const span = h.colSpan || 1;
    if (col >= at && col < at + span) return cache.texts.of(h) || undefined;
    at += span;
  }
  return undefined;
}

const ROW_TEXT_NODES_MAX = 300;
const ROW_ANCESTORS_MAX = 4;

/**
 * The text node nearest to the control, horizontally, among those on its row (vertically
 * overlapping its middle), looking in ever wider ancestors. Text inside other controls (a
 * button's caption next to a field) does not label it.
 */
function textOnSameRow(el: Element): string | undefined {
  const r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) return undefined;
  const midY = r.top + r.height / 2;
  const doc = el.ownerDocument;
  const range = doc.createRange();
  let anc = composedParent(el);
  for (let depth = 0; anc && depth < ROW_ANCESTORS_MAX; depth++, anc = composedParent(anc)) {
    let best: { text: string; gap: number } | undefined;
    const walker = doc.createTreeWalker(anc, NodeFilter.SHOW_TEXT);
    let seen = 0;
    for (let n = walker.nextNode() as Text | null; n && seen < ROW_TEXT_NODES_MAX; n = walker.nextNode() as Text | null, seen++) {
      const t = fold(n.data);
      if (!t || composedContains(el, n)) continue;
      const parent = n.parentElement;
      if (!parent || inOtherControl(parent, anc) || !isRendered(parent, { box: false })) continue;
      range.selectNodeContents(n);
      const tr = range.getBoundingClientRect();
      if (tr.width === 0 || tr.top > midY || tr.bottom < midY) continue;
      const gap = tr.right <= r.left ? r.left - tr.right : tr.left >= r.right ? tr.left - r.right : Infinity;
      if (gap === Infinity) continue;
      if (!best || gap < best.gap) best = { text: t, gap };
    }
    if (best) return best.text;
  }
  return undefined;
}

function inOtherControl(node: Element, stop: Element): boolean {
  for (let n: Element | null = node; n && n !== stop; n = n.parentElement) {
    if (isInteractive(n) && n.localName !== 'label') return true;
  }
  return false;
}

/**
 * The nearest rendered, non-empty heading before the element in its tree's document order (not
 * one that contains it); from inside a shadow tree, then before its host.
 */
function nearestHeading(el: Element, cache: DescribeCache): string | undefined {
  let node: Element = el;
  for (;;) {
    const root = node.getRootNode() as Document | ShadowRoot;
    const near = headingBack(node, cache);
    const text = near !== undefined ? near : headingListed(node, root, cache);
    if (text) return text;
    if (!isShadowRoot(root)) return undefined;
    node = root.host;
  }
}

/** How many elements back from an element {@link headingBack} looks before listing the tree's headings. */
const HEADING_BACK_MAX = 100;

/**
 * The nearest heading's text found by walking back from `node` in its tree's document order
 * (previous siblings' last descendants, then the parent): a heading near the element is found
 * without listing every heading of the tree (a selector over the whole tree). '' when there is
 * none before it; undefined when none came within {@link HEADING_BACK_MAX} elements.
 */
function headingBack(node: Element, cache: DescribeCache): string | undefined {
  let steps = 0;
  for (let p = previousInTree(node); p; p = previousInTree(p)) {
    if (++steps > HEADING_BACK_MAX) return undefined;
    if (!isHeading(p) || p.contains(node) || !isRendered(p)) continue;
    const t = cache.texts.of(p);
    if (t) return cut(t, TEXT_MAX);
  }
  return '';
}

/** The element before `el` in its tree's document order (null at the tree's start). */
function previousInTree(el: Element): Element | null {
  let p = el.previousElementSibling;
  if (!p) return el.parentElement;
  while (p.lastElementChild) p = p.lastElementChild;
  return p;
}

/** {@link headingBack} over the tree's list of headings, for an element far from any. */
function headingListed(node: Element, root: Document | ShadowRoot, cache: DescribeCache): string | undefined {
  const hs = cache.headingsOf(root);
  // The last heading that comes before `node` (or contains it) in document order.
  let lo = 0;
  let hi = hs.length - 1;
  let at = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const h = hs[mid]!;
    if (h === node || h.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING) {
      at = h === node ? mid - 1 : mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  for (let i = at; i >= 0; i--) {
    const h = hs[i]!;
    if (h === node || h.contains(node) || !isRendered(h)) continue;
    const t = cache.texts.of(h);
    if (t) return cut(t, TEXT_MAX);
  }
  return undefined;
}

/** An element the tree's heading list holds: one rule, `HEADING`, for the list and the walk back. */
function isHeading(el: Element): boolean {
  return el.matches(HEADING);
}

/** The text of the table row or list item the element sits in. */
function rowText(el: Element): string | undefined {
  for (let n = composedParent(el); n; n = composedParent(n)) {
    const role = n.getAttribute('role');
    if (n.localName === 'tr' || n.localName === 'li' || role === 'row' || role === 'listitem') {
      const t = visibleText(n);
      return t ? cut(t, TEXT_MAX) : undefined;
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// What a recorded target remembers of the rest of its page (locator-repair.md §1)
// ---------------------------------------------------------------------------------------------

const TWINS_MAX = 9;
const TWINS_LOOK = 3000;
const PEERS_MAX = 24;
/** How far from the element, in document order, peers are looked for. */
const PEERS_LOOK = 400;
const KEY_MAX = 60;

/** Controls and links; headings; else its tag: the elements an element is told apart from. */
function kindOf(el: Element): string {
  if (isActionable(el)) return ':interactive';
  if (isHeading(el)) return ':heading';
  return el.localName;
}

/**
 * What the element calls itself, to tell it from its neighbours: its own text, else its
 * aria-label, its `<label>`s, placeholder or title; folded, lower-cased, at most 60 characters.
 * Not the nearest text a control's visual label falls back to: a control that moves gets
 * another neighbour's text, and would be taken for that neighbour.
 */
export function peerKey(el: Element, cache: DescribeCache): string {
  const own =
    elementText(el, cache.texts) ||
    fold(el.getAttribute('aria-label') ?? '') ||
    fold(nativeLabels(el, cache.texts).join(' ')) ||
    fold(el.getAttribute('placeholder') ?? '') ||
    fold(el.getAttribute('title') ?? '');
  return cut(own.toLowerCase(), KEY_MAX);
}

/**
 * Where an element stands among look-alikes: its row's text, else its nearest heading's;
 * folded, lower-cased, at most 60 characters ('' when it has neither). Twins (same tag and
 * text) are told apart by it.
 */
export function placeKey(el: Element, cache: DescribeCache): string {
  return cut(fold(rowText(el) || nearestHeading(el, cache) || '').toLowerCase(), KEY_MAX);
}

/** How many of its kind on each side {@link neighbourKeys} reads, and how far it looks for them. */
const SLOT_SIDE = 2;
const SLOT_LOOK = 20;

/**
 * The keys of the nearest visible elements of its kind on each side of it in document order
 * (up to {@link SLOT_SIDE} a side, keys that are empty or its own skipped): what it stands
 * between. Repair compares them with the remembered `peers`.
 */
export function neighbourKeys(el: Element, cache: DescribeCache): string[] {
  const entry = cache.kindOf(el);
  const at = entry.at.get(el);
  if (at === undefined) return [];
  const own = peerKey(el, cache);
  const out: string[] = [];
  for (const step of [-1, 1]) {
    let found = 0;
    for (let i = at + step, looked = 0; i >= 0 && i < entry.list.length && found < SLOT_SIDE && looked < SLOT_LOOK; i += step, looked++) {
      const other = entry.list[i]!;
      const key = peerKey(other, cache);
      if (!key || key === own || !isRendered(other)) continue;
      out.push(key);
      found++;
    }
  }
  return out;
}

/**
 * The other visible elements with its tag and its text (at most 9; among the first 3000 of its
 * tag: a page of thousands of divs is not read whole for one element).
 */
export function twinsOf(el: Element, cache: DescribeCache): Element[] {
  const own = elementText(el, cache.texts);
  if (!own) return [];
  const tag = el.localName;
  const same: Element[] = [];
  walkElements(el.ownerDocument, (x) => {
    if (x.localName === tag && same.length < TWINS_LOOK) same.push(x);
  });
  const out: Element[] = [];
  for (const other of same) {
    if (other === el || elementText(other, cache.texts) !== own || !isRendered(other)) continue;
    out.push(other);
    if (out.length >= TWINS_MAX) break;
  }
  return out;
}

/**
 * How many visible elements of its tag and its text stand before it in document order (0: the
 * first of its twins, or it has none); undefined when it has no text. The walk is resolve's
 * (shadow roots in place). Repair tells twins that nothing else tells apart by it.
 */
export function twinOrder(el: Element, cache: DescribeCache): number | undefined {
  const own = elementText(el, cache.texts);
  if (!own) return undefined;
  const tag = el.localName;
  let before = 0;
  let reached = false;
  walkElements(el.ownerDocument, (x) => {
    if (reached) return;
    if (x === el) reached = true;
    else if (x.localName === tag && elementText(x, cache.texts) === own && isRendered(x)) before++;
  });
  return reached ? before : undefined;
}

/**
 * `twins`: how many other visible elements have its tag and its text (then its text did not
 * tell it apart; its row, card or heading did), and where they stood (`twinPlaces`); `peers`:
 * the keys ({@link peerKey}) of up to 24 visible elements of its kind nearest to it in document
 * order whose key differs from its own. A candidate that is recognisably one of those is
 * another element, never the target.
 */
function recordFields(el: Element, cache: DescribeCache): Pick<Descriptor, 'twins' | 'twinPlaces' | 'twinIndex' | 'peers'> {
  const twinList = twinsOf(el, cache);
  const twins = twinList.length;
  const places = new Set<string>();
  if (twins > 0) {
    const ownPlace = placeKey(el, cache);
    for (const other of twinList) {
      const place = placeKey(other, cache);
      if (place && place !== ownPlace) places.add(place);
    }
  }
  const twinIndex = twins > 0 ? twinOrder(el, cache) : undefined;
  const ownKey = peerKey(el, cache);
  const { list: kind, at: index } = cache.kindOf(el);
  const at = index.get(el) ?? -1;
  const peers = new Set<string>();
  for (let d = 1; d <= PEERS_LOOK && peers.size < PEERS_MAX && (at - d >= 0 || at + d < kind.length); d++) {
    for (const other of [kind[at - d], kind[at + d]]) {
      if (!other || peers.size >= PEERS_MAX) continue;
      const key = peerKey(other, cache);
      if (key && key !== ownKey && !peers.has(key) && isRendered(other)) peers.add(key);
    }
  }
  return {
    ...(twins > 0 ? { twins } : {}),
    ...(places.size > 0 ? { twinPlaces: [...places] } : {}),
    ...(twinIndex !== undefined ? { twinIndex } : {}),
    ...(peers.size > 0 ? { peers: [...peers] } : {}),
  };
}
