// Repair on the live page: reads the page with the one page model (dom/describe.ts, the code that
// answers `resolve` and records the lock file) and hands descriptors to the pure library
// (repair/index.ts), which shortlists, scores and answers. The candidate walk is resolve's
// (dom/query.ts `walkElements`): open and closed shadow roots, the target's own document.
import type { Descriptor } from '../../sdk/protocol/index.js';
import { isActionable } from './dom/aria.js';
import { DescribeCache, describe, elementText, neighbourKeys, peerKey, placeKey, twinOrder, twinsOf } from './dom/describe.js';
import { queryCssDeep, walkElements } from './dom/query.js';
import { isEnabled } from './dom/state.js';
import { isRendered } from './dom/visibility.js';
import { MAX_LOOKED_AT, MAX_SCORED, type Quick, capPool, inTwinPlace, isPeer, rankQuick } from './repair/candidates.js';
import {
  type Candidate,
  DRIFTED_AT,
  type ExactVerdict,
  type PlacedTwin,
  type Scored,
  checkExactMatch as checkExactOf,
  foundByField,
  rankCandidates,
  rememberedFields,
  rememberedTaken,
  slotSim,
  verdict,
} from './repair/index.js';
import type { RepairOutcome } from './repair/types.js';
import { describeChanges } from './repair/changes.js';
import { anotherAction } from './repair/actions.js';

export type { RepairOutcome } from './repair/types.js';

const NOT_NAMED = new Set(['html', 'body', 'br', 'hr', 'option', 'optgroup', 'title']);
const ALWAYS = new Set(['img', 'label', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'td', 'th', 'summary', 'legend']);
const SVG_NS = 'http://www.w3.org/2000/svg';

/** Could a script name this element? Interactive, named, or carrying text of its own (§2). */
export function isCandidate(el: Element): boolean {
  const tag = el.localName;
  if (NOT_NAMED.has(tag)) return false;
  if (el.namespaceURI === SVG_NS) return tag === 'svg' && el.hasAttribute('aria-label');
  if (ALWAYS.has(tag) || isActionable(el)) return true;
  if (el.id || el.hasAttribute('data-testid') || el.hasAttribute('aria-label') || el.hasAttribute('name') || el.hasAttribute('role')) return true;
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 3 && /\S/.test((n as Text).data)) return true;
  }
  return false;
}

const HAY_ATTRIBUTES = ['aria-label', 'placeholder', 'title', 'id', 'data-testid', 'name', 'value'];
const FIELD_TAGS = new Set(['input', 'select', 'textarea']);

function quickOf(el: Element, cache: DescribeCache): Quick {
  let hay = elementText(el, cache.texts);
  for (const a of HAY_ATTRIBUTES) {
    const v = el.getAttribute(a);
    if (v) hay += ` ${v}`;
  }
  // The labels' raw text is enough for a substring test (a wrapping label's own control and all).
  if (FIELD_TAGS.has(el.localName)) for (const l of (el as HTMLInputElement).labels ?? []) hay += ` ${l.textContent ?? ''}`;
  const type = (el as HTMLInputElement).type;
  return {
    tag: el.localName,
    hay: hay.toLowerCase(),
    type: typeof type === 'string' ? type : undefined,
    id: el.id,
    testid: el.getAttribute('data-testid'),
    nameAttr: el.getAttribute('name'),
    classes: Array.from(el.classList),
  };
}

/**
 * Whether the page says the element is recognisably another one than the remembered element: a
 * remembered peer, or a twin standing in its remembered place.
 */
function isOther(el: Element, old: Descriptor, cache: DescribeCache): 'peer' | 'twin' | undefined {
  if (old.peers?.length && isPeer(old, peerKey(el, cache))) return 'peer';
  return old.twinPlaces?.length && el.localName === old.tag && inTwinPlace(old, el.localName, placeKey(el, cache)) ? 'twin' : undefined;
}

/** Whether another element of its tree (document or shadow root) carries its `id`. */
function idShared(el: Element): boolean {
  const root = el.getRootNode() as Document | ShadowRoot;
  return root.querySelectorAll(`[id="${CSS.escape(el.id)}"]`).length > 1;
}

/**
 * The page's candidates for a remembered descriptor, described (§2): at most 2000 looked at, 60
 * kept; and the twins left out in their remembered places, described only when asked.
 */
export function pageCandidates(old: Descriptor, doc: Document, cache: DescribeCache = new DescribeCache(), holds?: (el: Element) => boolean): { candidates: Candidate<Element>[]; total: number; lookedAt: number; placedTwins: () => PlacedTwin[] } {
  const all: Element[] = [];
  walkElements(doc, (el) => {
    if (isCandidate(el)) all.push(el);
  });
  // Every control and heading is a candidate: none in a shadow root means none of them is.
  if (all.every((el) => el.getRootNode() === doc)) cache.markFlat(doc);
  const pool = capPool(all.map((el) => el.localName), old).map((i) => all[i]!);
  const order = rankQuick(pool.map((el) => quickOf(el, cache)), old);
  const kept: Element[] = [];
  const placed: Element[] = [];
  for (const i of order) {
    if (kept.length >= MAX_SCORED) break;
    const el = pool[i]!;
    // Only the leaders pay for the visibility check.
    if (!isRendered(el) || !isEnabled(el) || (holds && !holds(el))) continue;
    const other = isOther(el, old, cache);
    if (other === 'twin') placed.push(el);
    if (other) continue;
    kept.push(el);
  }
  const candidates = kept.map((el) => ({
    ref: el,
    descriptor: describe(el, { cache }),
    slot: old.peers ? slotSim(old, neighbourKeys(el, cache)) : undefined,
    interactive: isActionable(el),
    order: () => twinOrder(el, cache),
    ...(el.id && idShared(el) ? { sharedId: true } : {}),
  }));
  const placedTwins = (): PlacedTwin[] => placed.map((el) => ({ descriptor: describe(el, { cache }), order: () => twinOrder(el, cache) }));
  return { candidates, total: all.length, lookedAt: pool.length, placedTwins };
}

/** The one element a remembered field still names, visible, enabled and not a remembered peer (§1). */
export function rememberedMatch(old: Descriptor, doc: Document, cache: DescribeCache): Element | undefined {
  for (const { attr, value } of rememberedFields(old)) {
    const found = [...queryCssDeep(doc, `[${attr}="${CSS.escape(value)}"]`)].filter(
      (el) => isRendered(el) && isEnabled(el) && !(old.peers?.length && isPeer(old, peerKey(el, cache))),
    );
    if (found.length === 1) return found[0]!;
  }
  return undefined;
}

const msSince = (t0: number): number => Math.round((performance.now() - t0) * 1000) / 1000;

/**
 * Step 1 (§1): the element a remembered field still names, when it scores at least the floor,
 * has the role the target names, if it names one, and its name says no other action (§3).
 */
export function repairByField(old: Descriptor, doc: Document, cache: DescribeCache, role?: string, holds?: (el: Element) => boolean): RepairOutcome | undefined {
  const t0 = performance.now();
  const hit = rememberedMatch(old, doc, cache);
  if (!hit) return undefined;
  const found = describe(hit, { cache });
  // A remembered id on a button that now says another action is another button (§3): the score
  // holds it under the act threshold and says why.
  if ((role && found.role !== role) || (holds && !holds(hit)) || anotherAction(old, found)) return undefined;
  const s = rememberedTaken(old, found);
  return s === undefined ? undefined : { ...foundByField(old, hit, found, s), stats: { candidates: 0, lookedAt: 0, scored: 1, ms: msSince(t0) } };
}

/** Step 2 (§2–§4): the page's candidates, scored and answered. */
export function repairByScore(old: Descriptor, doc: Document, cache: DescribeCache, role?: string, holds?: (el: Element) => boolean): RepairOutcome {
  const t0 = performance.now();
  const { candidates, total, lookedAt, placedTwins } = pageCandidates(old, doc, cache, holds);
  const ranked = rankCandidates(old, candidates, { placedTwins, role });
  const note = total > MAX_LOOKED_AT ? `the page has ${total} candidate elements; repair looked at ${lookedAt} of them` : undefined;
  const out = verdict(old, ranked, note);
  const stats = { candidates: total, lookedAt, scored: ranked.length, ms: msSince(t0) };
  if (out.kind !== 'not-found') return { ...out, stats };
  // Said in the failure, never acted on: what came closest, and for a role target the element
  // most like the remembered one that now has another role (a button that became a link).
  const best = ranked[0];
  const other = role ? rankCandidates(old, candidates, { placedTwins })[0] : undefined;
  return {
    ...out,
    ...(best ? { closest: { descriptor: best.descriptor, changes: describeChanges(old, best.descriptor).changes } } : {}),
    ...(other && other.descriptor.role !== role && other.score >= DRIFTED_AT ? { otherRole: { descriptor: other.descriptor, score: Math.round(other.score * 1000) / 1000, changes: describeChanges(old, other.descriptor).changes } } : {}),
    stats,
  };
}

/**
 * Repairs a target whose exact match is gone, from the descriptor the lock file remembers: the
 * remembered fields, then the score; `role` is the role the target names, if any (only elements
 * of that role are candidates), and `holds` its role filters (only elements that pass them are:
 * the checked box is never repaired to an unchecked one). Returns undefined only when there is no document to look in
 * (resolve then keeps waiting).
 */
export function repair(old: Descriptor, opts: { doc?: Document; role?: string | undefined; holds?: ((el: Element) => boolean) | undefined } = {}): RepairOutcome | undefined {
  const t0 = performance.now();
  const doc = opts.doc ?? (typeof document === 'undefined' ? undefined : document);
  if (!doc?.body) return undefined;
  const cache = new DescribeCache();
  const out = repairByField(old, doc, cache, opts.role, opts.holds) ?? repairByScore(old, doc, cache, opts.role, opts.holds);
  return { ...out, stats: { ...out.stats!, ms: msSince(t0) } };
}

/** `checkExact` for an element the exact target found (repair/index.ts `checkExactMatch`), read on its own document. */
export function checkExactMatch(old: Descriptor, el: Element): ExactVerdict<Element> {
  const cache = new DescribeCache();
  const exact = {
    ref: el,
    descriptor: describe(el, { cache }),
    key: peerKey(el, cache),
    place: old.twinPlaces?.length ? placeKey(el, cache) : '',
    twins: old.twins ? old.twins : twinsOf(el, cache).length,
  };
  const ranked = (): Scored<Element>[] => {
    const { candidates, placedTwins } = pageCandidates(old, el.ownerDocument, cache);
    return rankCandidates(old, candidates, { placedTwins });
  };
  return checkExactOf(old, exact, ranked);
}
