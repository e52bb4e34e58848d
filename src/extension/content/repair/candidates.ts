// Which elements repair looks at, and the cheap comparison that keeps the best 60 of them
// (locator-repair.md §2).
import type { Descriptor } from '../../../sdk/protocol/descriptor.js';
import { type DescribeCache, elementText, inTwinPlace, isEnabled, isInteractive, isVisible, peerKey, tagFamily } from './features.js';
import { identWords, words } from './text.js';

export const MAX_LOOKED_AT = 2000;
export const MAX_SCORED = 60;

const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'BR', 'HR', 'LINK', 'META', 'OPTION', 'OPTGROUP', 'HEAD', 'TITLE']);
const ALWAYS = new Set(['IMG', 'LABEL', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'LI', 'TD', 'TH', 'SUMMARY', 'LEGEND']);
const SVG_NS = 'http://www.w3.org/2000/svg';

/** Could a script name this element? Interactive, named, or carrying text of its own. */
export function isCandidate(el: Element): boolean {
  if (SKIP.has(el.tagName)) return false;
  if (el.namespaceURI === SVG_NS) return el.tagName === 'svg' && el.hasAttribute('aria-label');
  if (ALWAYS.has(el.tagName) || isInteractive(el)) return true;
  if (el.id || el.hasAttribute('data-testid') || el.hasAttribute('aria-label') || el.hasAttribute('name') || el.hasAttribute('role')) {
    return true;
  }
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 3 && /\S/.test(n.nodeValue ?? '')) return true;
  }
  return false;
}

export interface Pool {
  elements: Element[];
  /** Candidates on the page before the cap. */
  total: number;
}

/**
 * Candidates in document order, at most {@link MAX_LOOKED_AT}. When the page has more, the ones whose
 * tag is in the remembered element's family come first, so a big page does not push the target out.
 */
export function collectPool(doc: Document, old: Descriptor): Pool {
  const list: Element[] = [];
  const all = (doc.body ?? doc.documentElement).getElementsByTagName('*');
  for (let i = 0; i < all.length; i++) {
    const el = all[i]!;
    if (isCandidate(el)) list.push(el);
  }
  if (list.length <= MAX_LOOKED_AT) return { elements: list, total: list.length };
  const fam = tagFamily(old.tag);
  const first: Element[] = [];
  const rest: Element[] = [];
  for (const el of list) (tagFamily(el.tagName.toLowerCase()) === fam ? first : rest).push(el);
  return { elements: first.concat(rest).slice(0, MAX_LOOKED_AT), total: list.length };
}

/** The remembered words that the cheap comparison looks for. */
export function queryWords(old: Descriptor): Set<string> {
  const q = new Set<string>();
  for (const s of [old.text, old.name, old.label, old.ariaLabel, old.placeholder, old.title as string | undefined]) {
    for (const w of words(s)) q.add(w);
  }
  for (const s of [old.id, old.testid, old.nameAttr]) for (const w of identWords(s)) q.add(w);
  return q;
}

function labelsText(el: Element): string {
  const labels = (el as HTMLInputElement).labels;
  if (!labels || labels.length === 0) return '';
  let s = '';
  for (const l of labels) s += ' ' + (l.textContent ?? '');
  return s;
}

/**
 * The quick comparison: share of remembered words found (as substrings, lower-cased) in the
 * element's text and naming attributes, plus tag, type, class and identifier agreement. Attribute
 * reads and `textContent` only: no layout, no tokenising.
 */
export function cheapScore(el: Element, old: Descriptor, q: readonly string[], oldClasses: Set<string>): number {
  const tag = el.tagName.toLowerCase();
  let s = tag === old.tag ? 1 : tagFamily(tag) === tagFamily(old.tag) ? 0.7 : 0;
  if (q.length > 0) {
    let hay = elementText(el, true);
    for (const a of ['aria-label', 'placeholder', 'title', 'id', 'data-testid', 'name', 'value']) {
      const v = el.getAttribute(a);
      if (v) hay += ' ' + v;
    }
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName)) hay += labelsText(el);
    hay = hay.toLowerCase();
    let hit = 0;
    for (const w of q) if (hay.includes(w)) hit++;
    s += 3 * (hit / q.length);
  }
  if (old.type !== undefined && (el as HTMLInputElement).type === old.type) s += 0.3;
  if (old.id !== undefined && el.id === old.id) s += 1;
  if (old.testid !== undefined && el.getAttribute('data-testid') === old.testid) s += 1;
  if (old.nameAttr !== undefined && el.getAttribute('name') === old.nameAttr) s += 1;
  if (oldClasses.size > 0) {
    const cls = el.classList;
    let common = 0;
    for (const c of cls) if (oldClasses.has(c)) common++;
    if (cls.length) s += (0.5 * common) / (oldClasses.size + cls.length - common);
  }
  return s;
}

/**
 * Pool elements ranked by the quick comparison; the best {@link MAX_SCORED} that are visible and
 * enabled, and not recognisably one of the remembered element's peers (its key a remembered peer's,
 * or its tag the remembered tag in a remembered twin's place), are kept. Visibility is
 * checked in rank order, so only the leaders pay for it.
 */
export function shortlist(pool: readonly Element[], old: Descriptor, cache: DescribeCache = {}, limit = MAX_SCORED): Element[] {
  const peers = new Set(old.peers ?? []);
  const q = [...queryWords(old)];
  const oldClasses = new Set(old.classes ?? []);
  const ranked: { el: Element; s: number; i: number }[] = [];
  for (let i = 0; i < pool.length; i++) {
    const el = pool[i]!;
    ranked.push({ el, s: cheapScore(el, old, q, oldClasses), i });
  }
  ranked.sort((a, b) => b.s - a.s || a.i - b.i);
  const out: Element[] = [];
  for (const r of ranked) {
    if (out.length >= limit) break;
    if (!isVisible(r.el) || !isEnabled(r.el)) continue;
    if (peers.size > 0 && peers.has(peerKey(r.el))) continue;
    if (inTwinPlace(r.el, old, cache)) continue;
    out.push(r.el);
  }
  return out;
}
