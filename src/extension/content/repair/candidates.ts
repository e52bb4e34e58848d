// The quick comparison that keeps the best 60 of at most 2000 candidates (locator-repair.md §2),
// over the few facts the page read of each (`Quick`): no DOM here.
import type { Descriptor } from '../../../sdk/protocol/descriptor.js';
import { identWords, words } from './text.js';

export const MAX_LOOKED_AT = 2000;
export const MAX_SCORED = 60;

/** What the quick comparison knows of a candidate: attribute reads and its structural text, no layout. */
export interface Quick {
  tag: string;
  /** Its text, naming attributes (aria-label, placeholder, title, id, data-testid, name, value) and a field's `<label>`s, lower-cased. */
  hay: string;
  type?: string | undefined;
  id: string;
  testid: string | null;
  nameAttr: string | null;
  classes: readonly string[];
}

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

/**
 * The pool cut at {@link MAX_LOOKED_AT}, given the candidates' tags in document order: when the
 * page has more, those whose tag is in the remembered element's family come first, so a big page
 * does not push the target out. Returns the indices kept.
 */
export function capPool(tags: readonly string[], old: Descriptor): number[] {
  const all = tags.map((_, i) => i);
  if (tags.length <= MAX_LOOKED_AT) return all;
  const fam = tagFamily(old.tag);
  const first = all.filter((i) => tagFamily(tags[i]!) === fam);
  const rest = all.filter((i) => tagFamily(tags[i]!) !== fam);
  return first.concat(rest).slice(0, MAX_LOOKED_AT);
}

/** The remembered words that the quick comparison looks for. */
export function queryWords(old: Descriptor): Set<string> {
  const q = new Set<string>();
  for (const s of [old.text, old.name, old.label, old.ariaLabel, old.placeholder, old.title as string | undefined]) {
    for (const w of words(s)) q.add(w);
  }
  for (const s of [old.id, old.testid, old.nameAttr]) for (const w of identWords(s)) q.add(w);
  return q;
}

/**
 * The quick comparison: share of remembered words found (as substrings) in the candidate's
 * text and naming attributes, plus tag, type, class and identifier agreement.
 */
export function quickScore(c: Quick, old: Descriptor, q: readonly string[], oldClasses: ReadonlySet<string>): number {
  let s = c.tag === old.tag ? 1 : tagFamily(c.tag) === tagFamily(old.tag) ? 0.7 : 0;
  if (q.length > 0) {
    let hit = 0;
    for (const w of q) if (c.hay.includes(w)) hit++;
    s += 3 * (hit / q.length);
  }
  if (old.type !== undefined && c.type === old.type) s += 0.3;
  if (old.id !== undefined && c.id === old.id) s += 1;
  if (old.testid !== undefined && c.testid === old.testid) s += 1;
  if (old.nameAttr !== undefined && c.nameAttr === old.nameAttr) s += 1;
  if (oldClasses.size > 0 && c.classes.length > 0) {
    let common = 0;
    for (const cl of c.classes) if (oldClasses.has(cl)) common++;
    s += (0.5 * common) / (oldClasses.size + c.classes.length - common);
  }
  return s;
}

/** The candidates' indices by quick score, best first (ties: document order). */
export function rankQuick(quick: readonly Quick[], old: Descriptor): number[] {
  const q = [...queryWords(old)];
  const oldClasses = new Set(old.classes ?? []);
  const s = quick.map((c) => quickScore(c, old, q, oldClasses));
  return quick.map((_, i) => i).sort((a, b) => s[b]! - s[a]! || a - b);
}

/**
 * Whether a candidate is recognisably another element than the remembered one (§1): its key is
 * one of the remembered `peers`, or it has the remembered tag and stands in a remembered twin's
 * place (`twinPlaces`). The page reads the key and place (dom/describe.ts `peerKey`, `placeKey`).
 */
export function isPeer(old: Descriptor, key: string): boolean {
  return !!old.peers?.length && old.peers.includes(key);
}

export function inTwinPlace(old: Descriptor, tag: string, place: string): boolean {
  return !!old.twinPlaces?.length && tag === old.tag && old.twinPlaces.includes(place);
}
