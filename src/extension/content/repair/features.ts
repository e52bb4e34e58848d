// What repair reads from a live element. `describeElement` yields a full Descriptor (the shape the
// lock file remembers); `cheapFeatures` is the few attribute reads the prefilter can afford for
// 2000 elements. Kept here, not in describe.ts, so repair does not depend on the resolver's
// internals; describe.ts should record the same fields (see docs/locator-repair.md §2).
import type { Descriptor } from '../../../sdk/protocol/descriptor.js';
import { fold } from './text.js';

const MAX_TEXT = 200;
const MAX_LABEL = 120;

export const HEADING_SELECTOR = 'h1,h2,h3,h4,h5,h6,[role="heading"]';

const BUTTON_INPUT_TYPES = new Set(['submit', 'button', 'reset', 'image']);
const TEXT_INPUT_TYPES = new Set(['text', 'email', 'password', 'search', 'tel', 'url', 'number', '']);

export function cut(s: string, n: number): string {
  return s.length > n ? s.slice(0, n) : s;
}

export function isVisible(el: Element): boolean {
  const r = el.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return false;
  const check = (el as Element & { checkVisibility?: (o: object) => boolean }).checkVisibility;
  if (check) return check.call(el, { visibilityProperty: true, checkVisibilityCSS: true });
  const st = getComputedStyle(el);
  return st.visibility !== 'hidden' && st.display !== 'none';
}

export function isEnabled(el: Element): boolean {
  if ((el as HTMLButtonElement).disabled === true) return false;
  if (el.getAttribute('aria-disabled') === 'true') return false;
  // A control inside a disabled fieldset is disabled (except in its first legend).
  if (/^(INPUT|BUTTON|SELECT|TEXTAREA)$/.test(el.tagName) && el.closest('fieldset[disabled]')) return false;
  return true;
}

export function isInteractive(el: Element): boolean {
  const t = el.tagName;
  if (t === 'A') return el.hasAttribute('href');
  if (t === 'BUTTON' || t === 'SELECT' || t === 'TEXTAREA' || t === 'SUMMARY') return true;
  if (t === 'INPUT') return (el as HTMLInputElement).type !== 'hidden';
  const role = el.getAttribute('role');
  if (role && WIDGET_ROLES.has(role)) return true;
  return el.hasAttribute('onclick') || el.hasAttribute('tabindex') || el.hasAttribute('contenteditable');
}

const WIDGET_ROLES = new Set([
  'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
  'option', 'textbox', 'searchbox', 'combobox', 'slider', 'spinbutton', 'treeitem', 'gridcell',
]);

/** Tags that can be interchanged between releases; equal families score nearly as equal tags. */
export function tagFamily(tag: string): string {
  if (/^h[1-6]$/.test(tag)) return 'h';
  switch (tag) {
    case 'b': case 'strong': case 'em': case 'i': case 'span': case 'small': case 'mark': case 'label':
      return 'inline';
    case 'div': case 'section': case 'article': case 'p': case 'li': case 'dd': case 'dt': case 'td': case 'th':
      return 'block';
    case 'ul': case 'ol': case 'dl': case 'menu':
      return 'list';
    case 'nav': case 'aside': case 'header': case 'footer': case 'main':
      return 'landmark';
    case 'a': case 'button': case 'summary':
      return 'action';
    case 'input': case 'textarea': case 'select':
      return 'field';
    default:
      return tag;
  }
}

export function implicitRole(el: Element): string | undefined {
  const explicit = el.getAttribute('role');
  if (explicit) return explicit.split(/\s+/)[0];
  const tag = el.tagName.toLowerCase();
  switch (tag) {
    case 'a':
      return el.hasAttribute('href') ? 'link' : undefined;
    case 'button':
      return 'button';
    case 'select':
      return (el as HTMLSelectElement).multiple ? 'listbox' : 'combobox';
    case 'textarea':
      return 'textbox';
    case 'img':
      return 'img';
    case 'nav':
      return 'navigation';
    case 'li':
      return 'listitem';
    case 'ul': case 'ol':
      return 'list';
    case 'table':
      return 'table';
    case 'tr':
      return 'row';
    case 'td':
      return 'cell';
    case 'th':
      return 'columnheader';
    case 'form':
      return 'form';
    case 'dialog':
      return 'dialog';
    case 'main':
      return 'main';
    case 'summary':
      return 'button';
    case 'input': {
      const type = (el as HTMLInputElement).type;
      if (type === 'checkbox' || type === 'radio') return type;
      if (BUTTON_INPUT_TYPES.has(type)) return 'button';
      if (type === 'range') return 'slider';
      if (type === 'search') return 'searchbox';
      if (type === 'number') return 'spinbutton';
      if (TEXT_INPUT_TYPES.has(type)) return 'textbox';
      return undefined;
    }
    default:
      return /^h[1-6]$/.test(tag) ? 'heading' : undefined;
  }
}

/** Text a person sees on the element itself. Meaningless values (a checkbox's "on") are not text. */
export function elementText(el: Element, cheap = false): string {
  const tag = el.tagName;
  if (tag === 'INPUT') {
    const input = el as HTMLInputElement;
    if (BUTTON_INPUT_TYPES.has(input.type)) return cut(fold(input.value || input.alt || ''), MAX_TEXT);
    return '';
  }
  if (tag === 'SELECT') {
    const sel = el as HTMLSelectElement;
    return cut(fold(sel.selectedOptions[0]?.textContent ?? ''), MAX_TEXT);
  }
  if (tag === 'TEXTAREA') return '';
  if (tag === 'IMG') return cut(fold((el as HTMLImageElement).alt), MAX_TEXT);
  if (cheap || el.childElementCount > 60) {
    // Big containers: their own text nodes only, so one huge wrapper does not cost a page's text.
    if (el.childElementCount > 60) {
      let own = '';
      for (const n of el.childNodes) if (n.nodeType === 3) own += n.nodeValue;
      return cut(fold(own), MAX_TEXT);
    }
    return cut(fold(el.textContent), MAX_TEXT);
  }
  const html = el as HTMLElement;
  const t = typeof html.innerText === 'string' ? html.innerText : el.textContent;
  return cut(fold(t), MAX_TEXT);
}

function textOfIds(ids: string, doc: Document): string {
  return fold(
    ids
      .split(/\s+/)
      .map((id) => doc.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

function isFormControl(el: Element): boolean {
  const t = el.tagName;
  if (t === 'SELECT' || t === 'TEXTAREA') return true;
  if (t === 'INPUT') return !BUTTON_INPUT_TYPES.has((el as HTMLInputElement).type);
  const role = el.getAttribute('role');
  return role !== null && /^(checkbox|radio|switch|textbox|searchbox|combobox|slider|spinbutton)$/.test(role);
}

/** Text of a label element without the text of the control it wraps. */
function labelText(label: Element, control: Element): string {
  if (!label.contains(control)) return fold(label.textContent);
  let s = '';
  const walk = (n: Node): void => {
    if (n === control) return;
    if (n.nodeType === 3) s += n.nodeValue + ' ';
    else if (n.nodeType === 1 && !/^(SELECT|TEXTAREA|SCRIPT|STYLE)$/.test((n as Element).tagName)) {
      for (const c of n.childNodes) walk(c);
    }
  };
  walk(label);
  return fold(s);
}

/** Non-empty text of a sibling node, ignoring other controls. */
function siblingText(n: Node): string {
  if (n.nodeType === 3) return fold(n.nodeValue);
  if (n.nodeType !== 1) return '';
  const el = n as Element;
  if (/^(INPUT|SELECT|TEXTAREA|BUTTON|SCRIPT|STYLE|TEMPLATE)$/.test(el.tagName)) return '';
  if (el.querySelector('input,select,textarea,button')) return '';
  return fold(el.textContent);
}

function columnHeader(el: Element): string {
  const cell = el.closest('td,th');
  if (!cell || cell === el.closest('table')) return '';
  const table = cell.closest('table');
  const row = cell.parentElement;
  if (!table || !row) return '';
  const index = Array.prototype.indexOf.call(row.children, cell);
  const headRow = table.tHead?.rows[0] ?? (table.rows[0] !== row ? table.rows[0] : undefined);
  const th = headRow?.cells[index];
  return th && th !== cell ? fold(th.textContent) : '';
}

/**
 * The visual label of a control: aria-labelledby, its `<label>`, the column header of its cell, or
 * the nearest text before it (after it, for checkboxes and radios) within three ancestor levels.
 */
export function visualLabel(el: Element): string {
  const doc = el.ownerDocument;
  const by = el.getAttribute('aria-labelledby');
  if (by) {
    const t = textOfIds(by, doc);
    if (t) return cut(t, MAX_LABEL);
  }
  if (!isFormControl(el) && elementText(el, true)) {
    const header = columnHeader(el);
    return header ? cut(header, MAX_LABEL) : '';
  }
  const labels = (el as HTMLInputElement).labels;
  if (labels && labels.length > 0) {
    const t = fold([...labels].map((l) => labelText(l, el)).join(' '));
    if (t) return cut(t, MAX_LABEL);
  }
  const header = columnHeader(el);
  if (header) return cut(header, MAX_LABEL);
  const after = el.tagName === 'INPUT' && /^(checkbox|radio)$/.test((el as HTMLInputElement).type);
  let node: Element | null = el;
  for (let depth = 0; depth < 3 && node && node !== doc.body; depth++) {
    const order: ('previousSibling' | 'nextSibling')[] = after
      ? ['nextSibling', 'previousSibling']
      : ['previousSibling', 'nextSibling'];
    for (const dir of order) {
      let sib: Node | null = node[dir];
      for (let i = 0; sib && i < 6; i++, sib = sib[dir]) {
        if (sib.nodeType === 1 && /^(INPUT|SELECT|TEXTAREA)$/.test((sib as Element).tagName)) break;
        const t = siblingText(sib);
        if (t) return cut(t, MAX_LABEL);
      }
      // Text after a text field is a hint, not its label: look after only for checkboxes.
      if (!after) break;
    }
    node = node.parentElement;
  }
  return '';
}

/** Accessible name, approximated the way the resolver's `name` target reads it. */
export function accessibleName(el: Element, text: string, label: string): string {
  const doc = el.ownerDocument;
  const by = el.getAttribute('aria-labelledby');
  if (by) {
    const t = textOfIds(by, doc);
    if (t) return cut(t, MAX_TEXT);
  }
  const aria = fold(el.getAttribute('aria-label'));
  if (aria) return cut(aria, MAX_TEXT);
  if (isFormControl(el)) {
    const labels = (el as HTMLInputElement).labels;
    if (labels && labels.length > 0) return cut(fold([...labels].map((l) => labelText(l, el)).join(' ')), MAX_TEXT);
    const ph = fold(el.getAttribute('placeholder') ?? el.getAttribute('title'));
    return cut(ph || label, MAX_TEXT);
  }
  if (text) return text;
  return cut(fold(el.getAttribute('title') ?? el.getAttribute('alt') ?? ''), MAX_TEXT);
}

const REGION_SELECTOR =
  'dialog,[role="dialog"],[role="alertdialog"],form,fieldset,section,nav,aside,header,footer,main,[role="region"],[role="navigation"],[role="form"],[role="banner"],[role="contentinfo"],[role="complementary"],[role="main"],[role="tabpanel"]';

function regionName(el: Element): string {
  const region = el.parentElement?.closest(REGION_SELECTOR);
  if (!region) return '';
  const aria = fold(region.getAttribute('aria-label'));
  if (aria) return cut(aria, MAX_LABEL);
  const by = region.getAttribute('aria-labelledby');
  if (by) {
    const t = textOfIds(by, region.ownerDocument);
    if (t) return cut(t, MAX_LABEL);
  }
  if (region.tagName === 'FIELDSET') {
    const legend = region.querySelector(':scope > legend');
    if (legend) return cut(fold(legend.textContent), MAX_LABEL);
  }
  const heading = region.querySelector(HEADING_SELECTOR);
  if (heading && !heading.contains(el)) return cut(fold(heading.textContent), MAX_LABEL);
  return implicitRole(region) ?? region.tagName.toLowerCase();
}

/** Per-document lookups shared by the descriptors of one repair. */
export interface DescribeCache {
  headings?: Element[];
  /** Elements of each kind (see `kindIndex`), in document order, with each one's index. */
  kinds?: Map<string, { list: Element[]; at: Map<Element, number> }>;
}

/** The nearest heading before the element in document order (not one that contains it). */
function nearestHeading(el: Element, cache: DescribeCache): string {
  const hs = (cache.headings ??= [...el.ownerDocument.querySelectorAll(HEADING_SELECTOR)]);
  let lo = 0;
  let hi = hs.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (hs[mid]!.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  while (found >= 0 && hs[found]!.contains(el)) found--;
  return found >= 0 ? cut(fold(hs[found]!.textContent), MAX_LABEL) : '';
}

/** The row's rendered text, its cells apart (as describe.ts records it: "Ada Lovelace Edit", not "Ada LovelaceEdit"). */
function rowText(el: Element): string {
  const row = el.parentElement?.closest('tr,[role="row"],li');
  if (!row) return '';
  const t = typeof (row as HTMLElement).innerText === 'string' ? (row as HTMLElement).innerText : row.textContent;
  return cut(fold(t), MAX_TEXT);
}

/** Text of the closest ancestor that says more than the element itself (Similo's neighbour text). */
function nearText(el: Element, own: string): string {
  let node = el.parentElement;
  for (let depth = 0; node && depth < 4 && node !== el.ownerDocument.body; depth++, node = node.parentElement) {
    if (node.childElementCount > 40) break;
    const t = fold(node.textContent);
    if (t.length > own.length + 1) return cut(t, MAX_TEXT);
  }
  return '';
}

export function tagPath(el: Element): string {
  const parts: string[] = [];
  for (let n: Element | null = el; n; n = n.parentElement) parts.push(n.tagName.toLowerCase());
  return parts.reverse().join('/');
}

export function xpathOf(el: Element): string {
  const parts: string[] = [];
  for (let n: Element | null = el; n; n = n.parentElement) {
    let i = 1;
    for (let s = n.previousElementSibling; s; s = s.previousElementSibling) if (s.tagName === n.tagName) i++;
    parts.push(`${n.tagName.toLowerCase()}[${i}]`);
  }
  return '/' + parts.reverse().join('/');
}

export function pageRect(el: Element): { x: number; y: number; width: number; height: number } {
  const r = el.getBoundingClientRect();
  const win = el.ownerDocument.defaultView;
  const sx = win?.scrollX ?? 0;
  const sy = win?.scrollY ?? 0;
  return { x: Math.round(r.left + sx), y: Math.round(r.top + sy), width: Math.round(r.width), height: Math.round(r.height) };
}

export function pageSize(doc: Document): { width: number; height: number } {
  const root = doc.documentElement;
  return {
    width: Math.max(root.scrollWidth, root.clientWidth, 1),
    height: Math.max(root.scrollHeight, root.clientHeight, 1),
  };
}

/** Classes, minus benchmark markers and state classes that flip at run time. */
export function classList(el: Element): string[] {
  const out: string[] = [];
  for (const c of el.classList) {
    if (/^(active|focus|focused|hover|show|open|selected|is-\w+|ng-\w+)$/.test(c)) continue;
    out.push(c);
  }
  return out;
}

const TWINS_MAX = 9;
const TWINS_LOOK = 3000;
const PEERS_MAX = 24;
/** How far from the element, in document order, peers are looked for. */
const PEERS_LOOK = 400;
const PEER_KEY_MAX = 60;
const INTERACTIVE_SELECTOR =
  'a[href],button,input:not([type="hidden"]),select,textarea,summary,[role],[onclick],[tabindex],[contenteditable]';

/**
 * What the element calls itself, to tell it from its neighbours: its own text, else its
 * aria-label, its `<label>`s, placeholder or title; folded, lower-cased, at most 60 characters.
 * Not the nearest text a control's visual label falls back to: a control that moves gets
 * another neighbour's text, and would be taken for that neighbour.
 */
export function peerKey(el: Element): string {
  const labels = (el as HTMLInputElement).labels;
  const own =
    elementText(el, true) ||
    fold(el.getAttribute('aria-label')) ||
    (labels && labels.length > 0 ? fold([...labels].map((l) => l.textContent).join(' ')) : '') ||
    fold(el.getAttribute('placeholder')) ||
    fold(el.getAttribute('title'));
  return cut(own.toLowerCase(), PEER_KEY_MAX);
}

function kindOf(el: Element): string {
  if (isInteractive(el)) return ':interactive';
  if (/^H[1-6]$/.test(el.tagName) || el.getAttribute('role') === 'heading') return ':heading';
  return el.localName;
}

/**
 * Elements of the same kind as `el` in document order (controls and links, headings, or its
 * tag), with each one's index; listed once per kind and document in the cache.
 */
function kindIndex(el: Element, cache: DescribeCache): { list: Element[]; at: Map<Element, number> } {
  const kinds = (cache.kinds ??= new Map());
  const kind = kindOf(el);
  let entry = kinds.get(kind);
  if (!entry) {
    const doc = el.ownerDocument;
    const list =
      kind === ':interactive'
        ? [...doc.querySelectorAll(INTERACTIVE_SELECTOR)].filter(isInteractive)
        : kind === ':heading'
          ? [...doc.querySelectorAll(HEADING_SELECTOR)]
          : [...doc.getElementsByTagName(el.localName)];
    entry = { list, at: new Map(list.map((x, i) => [x, i])) };
    kinds.set(kind, entry);
  }
  return entry;
}

/** How many of its kind on each side {@link neighbourKeys} reads, and how far it looks for them. */
const SLOT_SIDE = 2;
const SLOT_LOOK = 20;

/**
 * The keys of the nearest visible elements of its kind on each side of it in document order
 * (up to {@link SLOT_SIDE} a side, keys that are empty or its own skipped): what it stands
 * between. Compared with the remembered `peers`, whose first ones are the remembered element's
 * nearest neighbours.
 */
export function neighbourKeys(el: Element, cache: DescribeCache = {}): string[] {
  const entry = kindIndex(el, cache);
  const at = entry.at.get(el);
  if (at === undefined) return [];
  const own = peerKey(el);
  const out: string[] = [];
  for (const step of [-1, 1]) {
    let found = 0;
    for (let i = at + step, looked = 0; i >= 0 && i < entry.list.length && found < SLOT_SIDE && looked < SLOT_LOOK; i += step, looked++) {
      const other = entry.list[i]!;
      const key = peerKey(other);
      if (!key || key === own || !isVisible(other)) continue;
      out.push(key);
      found++;
    }
  }
  return out;
}

/**
 * What a target remembers of its page when it is recorded for the lock file
 * (locator-repair.md §1): `twins`, how many other visible elements have its tag and text (then
 * its text did not tell it apart, its row, card or heading did), and `peers`, the keys
 * ({@link peerKey}) of up to 24 visible elements of its kind nearest to it in document order
 * whose key differs from its own. A candidate that is recognisably one of those peers is
 * another element, never the target: when a target is removed, its look-alike is most often
 * the neighbour that stood beside it all along.
 */
export function recordFields(el: Element): Pick<Descriptor, 'twins' | 'twinPlaces' | 'peers'> {
  const own = elementText(el, true);
  let twins = 0;
  const places = new Set<string>();
  const cache: DescribeCache = {};
  if (own) {
    const same = el.ownerDocument.getElementsByTagName(el.localName);
    const ownPlace = placeKey(el, cache);
    // A page of thousands of divs is not read whole to record one target: the first 3000 say enough.
    for (let i = 0; i < same.length && i < TWINS_LOOK; i++) {
      const other = same[i]!;
      if (other === el || elementText(other, true) !== own || !isVisible(other)) continue;
      const place = placeKey(other, cache);
      if (place && place !== ownPlace) places.add(place);
      if (++twins >= TWINS_MAX) break;
    }
  }
  const ownKey = peerKey(el);
  const { list: kind, at: index } = kindIndex(el, cache);
  const at = index.get(el) ?? -1;
  const peers = new Set<string>();
  for (let d = 1; d <= PEERS_LOOK && peers.size < PEERS_MAX && (at - d >= 0 || at + d < kind.length); d++) {
    for (const other of [kind[at - d], kind[at + d]]) {
      if (!other || peers.size >= PEERS_MAX) continue;
      const key = peerKey(other);
      if (key && key !== ownKey && !peers.has(key) && isVisible(other)) peers.add(key);
    }
  }
  return {
    ...(twins > 0 ? { twins } : {}),
    ...(places.size > 0 ? { twinPlaces: [...places] } : {}),
    ...(peers.size > 0 ? { peers: [...peers] } : {}),
  };
}

/**
 * Where an element stands among look-alikes: its row's text, else its nearest heading's;
 * folded, lower-cased, at most 60 characters ('' when it has neither). Twins (same tag and
 * text) are told apart by it.
 */
export function placeKey(el: Element, cache: DescribeCache = {}): string {
  return cut(fold(rowText(el) || nearestHeading(el, cache)).toLowerCase(), PEER_KEY_MAX);
}

/** Whether `el` has the remembered tag and stands in a remembered twin's place: then it is that twin. */
export function inTwinPlace(el: Element, old: Descriptor, cache: DescribeCache = {}): boolean {
  return !!old.twinPlaces?.length && el.localName === old.tag && old.twinPlaces.includes(placeKey(el, cache));
}

/** The full descriptor of a live element (the lock file's shape, plus repair's optional fields). */
export function describeElement(el: Element, cache: DescribeCache = {}): Descriptor {
  const tag = el.tagName.toLowerCase();
  const text = elementText(el);
  const label = visualLabel(el);
  const name = accessibleName(el, text, label);
  const d: Descriptor = { v: 1, tag, xpath: xpathOf(el) };
  const set = <K extends keyof Descriptor>(k: K, v: Descriptor[K] | '' | undefined | null): void => {
    if (v !== undefined && v !== null && v !== '') d[k] = v as Descriptor[K];
  };
  set('role', implicitRole(el));
  set('name', name);
  set('text', text);
  set('testid', el.getAttribute('data-testid'));
  set('id', el.id);
  set('ariaLabel', fold(el.getAttribute('aria-label')));
  set('nameAttr', el.getAttribute('name'));
  if (/^(INPUT|BUTTON)$/.test(el.tagName)) set('type', (el as HTMLInputElement).type);
  set('placeholder', fold(el.getAttribute('placeholder')));
  if (el.tagName === 'A') set('href', el.getAttribute('href'));
  const classes = classList(el);
  if (classes.length) d.classes = classes;
  set('label', label);
  const heading = nearestHeading(el, cache);
  const region = regionName(el);
  const row = rowText(el);
  if (heading || region || row) {
    d.context = {};
    if (heading) d.context.heading = heading;
    if (region) d.context.region = region;
    if (row) d.context.row = row;
  }
  set('near', nearText(el, text));
  set('title', fold(el.getAttribute('title')));
  d.path = tagPath(el);
  d.rect = pageRect(el);
  d.page = pageSize(el.ownerDocument);
  return d;
}
