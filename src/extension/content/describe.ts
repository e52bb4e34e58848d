import type { Descriptor } from '../../sdk/protocol/index.js';
import { accessibleName, isInteractive, nativeLabels, roleOf } from './dom/aria.js';
import { pageRect, reachableTop } from './dom/geometry.js';
import { isShadowRoot } from './dom/nodes.js';
import { composedContains, composedParent } from './dom/query.js';
import { enclosingRegionName } from './dom/regions.js';
import { cut, fold, TextIndex, visibleText } from './dom/text.js';
import { isRendered } from './dom/visibility.js';
import { pathOf, xpathOf } from './dom/xpath.js';
import { recordFields } from './repair/features.js';

const TEXT_MAX = 200;
const LABEL_MAX = 100;
const CLASSES_MAX = 20;

/**
 * What the lock file remembers of an element: every field repair may compare (see
 * REPAIR-NOTES: the visual label and the row/heading context are the strongest evidence).
 * `frame` is the target's frame key, so the xpath is read in that frame's document. `record`
 * adds what only the lock file needs (`twins`, `twinPlaces`, `peers`: a look at the rest of the page).
 */
export function describe(el: Element, opts: { frame?: string | string[] | undefined; texts?: TextIndex; record?: boolean } = {}): Descriptor {
  const texts = opts.texts ?? new TextIndex();
  const d: Descriptor = { v: 1, tag: el.localName, xpath: xpathOf(el) };
  const set = <K extends keyof Descriptor>(key: K, value: Descriptor[K] | '' | undefined | null): void => {
    if (value !== undefined && value !== null && value !== '') d[key] = value as Descriptor[K];
  };
  set('role', roleOf(el));
  set('name', cut(accessibleName(el, texts), TEXT_MAX));
  set('text', cut(elementText(el), TEXT_MAX));
  set('testid', el.getAttribute('data-testid'));
  set('id', el.id);
  set('ariaLabel', fold(el.getAttribute('aria-label') ?? ''));
  set('nameAttr', el.getAttribute('name'));
  if (el.localName === 'input' || el.localName === 'button') set('type', (el as HTMLInputElement).type);
  set('placeholder', fold(el.getAttribute('placeholder') ?? ''));
  set('href', el.getAttribute('href'));
  const classes = stableClasses(el);
  if (classes.length > 0) d.classes = classes;
  set('label', visualLabel(el, texts));
  const context = {
    heading: nearestHeading(el, texts),
    region: enclosingRegionName(el, texts, composedParent),
    row: rowText(el),
  };
  const ctx = Object.fromEntries(Object.entries(context).filter(([, v]) => v)) as Descriptor['context'];
  if (ctx && Object.keys(ctx).length > 0) d.context = ctx;
  set('near', nearText(el, d.text ?? ''));
  set('title', fold(el.getAttribute('title') ?? ''));
  set('path', pathOf(el));
  d.rect = pageRect(el);
  d.page = pageSize(el);
  set('frame', opts.frame);
  return opts.record ? { ...d, ...recordFields(el) } : d;
}

// Classes that flip at run time say nothing about which element it is. The same list as
// repair/features.ts, so a remembered descriptor and a repair candidate are read alike.
const STATE_CLASS = /^(active|focus|focused|hover|show|open|selected|is-\w+|ng-\w+)$/;

function stableClasses(el: Element): string[] {
  return Array.from(el.classList).filter((c) => !STATE_CLASS.test(c)).slice(0, CLASSES_MAX);
}

const NEAR_LEVELS = 4;
const NEAR_CHILDREN_MAX = 40;

/**
 * Text of the closest ancestor (at most 4 levels up, none with more than 40 children) that
 * says more than the element itself: the card, row or group it sits in. Defined as repair's
 * `near` is (repair/features.ts), which compares it as a word set.
 */
function nearText(el: Element, own: string): string | undefined {
  let n = composedParent(el);
  for (let depth = 0; n && depth < NEAR_LEVELS && n !== el.ownerDocument.body; depth++, n = composedParent(n)) {
    if (n.childElementCount > NEAR_CHILDREN_MAX) break;
    const t = fold(n.textContent ?? '');
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

// A control's typed value is state, not identity (every checkbox's value is "on"): only button
// inputs count theirs. A select shows its chosen option and an image its alt, as in
// repair/features.ts, so remembered and candidate descriptors are read alike.
function elementText(el: Element): string {
  const tag = el.localName;
  if (tag === 'input') {
    const input = el as HTMLInputElement;
    return BUTTON_INPUTS.has(input.type) || input.type === 'image' ? fold(input.value || input.alt || '') : '';
  }
  if (tag === 'textarea') return '';
  if (tag === 'select') return fold((el as HTMLSelectElement).selectedOptions[0]?.text ?? '');
  if (tag === 'img') return fold((el as HTMLImageElement).alt);
  return visibleText(el);
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
export function visualLabel(el: Element, texts: TextIndex): string | undefined {
  if (!isControl(el)) {
    // A link or button in a table cell is labelled by its column ("Edit" under "Action").
    const cell = el.closest('td, th');
    return cell && cell !== el ? columnHeader(cell as HTMLTableCellElement, texts) : undefined;
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
  const header = cell ? columnHeader(cell as HTMLTableCellElement, texts) : undefined;
  if (header) return cut(header, LABEL_MAX);
  const near = textOnSameRow(el);
  return near ? cut(near, LABEL_MAX) : undefined;
}

function columnHeader(cell: HTMLTableCellElement, texts: TextIndex): string | undefined {
  const table = cell.closest('table');
  const row = cell.parentElement as HTMLTableRowElement | null;
  if (!table || !row) return undefined;
  let col = 0;
  for (const c of row.cells) {
    if (c === cell) break;
    col += c.colSpan || 1;
  }
  const headerRow = table.tHead?.rows[0] ?? Array.from(table.rows).find((r) => Array.from(r.cells).every((c) => c.localName === 'th'));
  if (!headerRow || headerRow === row) return undefined;
  let at = 0;
  for (const h of headerRow.cells) {
    const span = h.colSpan || 1;
    if (col >= at && col < at + span) return texts.of(h) || undefined;
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

const HEADING = 'h1, h2, h3, h4, h5, h6, [role="heading"]';
const HEADING_STEPS_MAX = 5000;

/** The nearest heading before the element in document order (not one that contains it, as in repair). */
function nearestHeading(el: Element, texts: TextIndex): string | undefined {
  let node: Element = el;
  for (;;) {
    const root = node.getRootNode() as Document | ShadowRoot;
    const walker = node.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    walker.currentNode = node;
    let steps = 0;
    for (let prev = walker.previousNode() as Element | null; prev && steps < HEADING_STEPS_MAX; prev = walker.previousNode() as Element | null, steps++) {
      if (prev.matches(HEADING) && !prev.contains(el) && isRendered(prev)) {
        const t = texts.of(prev);
        if (t) return cut(t, TEXT_MAX);
      }
    }
    if (!isShadowRoot(root)) return undefined;
    node = root.host;
  }
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
