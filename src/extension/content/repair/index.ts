// Locator repair (protocol-v1 `resolve`, docs/locator-repair.md). `resolve` calls it once per
// request, only when the request carries a remembered descriptor, the exact target found nothing
// (never for ambiguous or hidden matches), and the DOM has settled.
import { type Descriptor, withoutHandle } from '../../../sdk/protocol/index.js';
import { MAX_LOOKED_AT, collectPool, shortlist } from './candidates.js';
import { describeChanges } from './changes.js';
import { type DescribeCache, describeElement, inTwinPlace, isEnabled, isInteractive, isVisible, neighbourKeys, peerKey } from './features.js';
import { FIELDS, type FieldSim, type Weights, combine, contrastOf, fieldSims, rarity, slotSim, weightsFor } from './score.js';
import { fold } from './text.js';
import type { RepairOutcome, RepairStats } from './types.js';
import { WEIGHTS } from './weights.js';

export type { RepairOutcome, RepairStats } from './types.js';
export { describeElement } from './features.js';

/** Thresholds of protocol-v1: act at or above, with no rival within the gap. */
export const ACT_AT = 0.85;
export const DRIFTED_AT = 0.6;
export const GAP = 0.15;
/**
 * A remembered field whose element scores below this is not trusted (locator-repair.md §1): it
 * may not act on an element the score would not even propose.
 */
export const REMEMBERED_FLOOR = 0.6;
const MAX_AMBIGUOUS = 5;

export interface Scored {
  element: Element;
  descriptor: Descriptor;
  score: number;
  sims: FieldSim[];
}

export interface RepairOptions {
  weights?: Weights;
  /** Replaces the score (benchmark baselines). */
  scorer?: (old: Descriptor, cand: Descriptor) => number;
  /** Merge an element with its same-text wrapper (default true). */
  merge?: boolean;
  /** Skip the remembered-field step (to measure the score alone). */
  scoreOnly?: boolean;
  doc?: Document;
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * The weights without calibration (`power` and `scale` 1): the floors of a remembered field and of an exact
 * match are on the plain weighted mean, so calibrating the score for repair does not lower them.
 */
const plain = (W: Weights): Weights => (W.power === 1 && W.scale === 1 ? W : { ...W, power: 1, scale: 1 });

interface MergeKey {
  text: string;
  area: number;
}

function mergeKey(c: Scored): MergeKey {
  const r = c.descriptor.rect;
  return {
    text: fold(c.descriptor.text ?? c.descriptor.name).toLowerCase(),
    area: r ? Math.max(r.width * r.height, 1) : 0,
  };
}

/** Same text and nearly the same box, one inside the other: one candidate, not two. */
function sameThing(a: Scored, ka: MergeKey, b: Scored, kb: MergeKey): boolean {
  if (ka.text !== kb.text || ka.area === 0 || kb.area === 0) return false;
  if (Math.min(ka.area, kb.area) / Math.max(ka.area, kb.area) < (ka.text ? 0.3 : 0.7)) return false;
  return a.element.contains(b.element) || b.element.contains(a.element);
}

/**
 * Merges nested same-text candidates, keeping the best score; the answer is the one with the
 * remembered tag, else the interactive one.
 */
export function mergeWrappers(sorted: Scored[], oldTag?: string): Scored[] {
  const kept: Scored[] = [];
  const keys: MergeKey[] = [];
  for (const c of sorted) {
    const kc = mergeKey(c);
    const k = kept.findIndex((x, i) => sameThing(x, keys[i]!, c, kc));
    if (k < 0) {
      kept.push(c);
      keys.push(kc);
      continue;
    }
    const host = kept[k]!;
    const hostTag = host.element.tagName.toLowerCase() === oldTag;
    const cTag = c.element.tagName.toLowerCase() === oldTag;
    if ((cTag && !hostTag) || (cTag === hostTag && !isInteractive(host.element) && isInteractive(c.element))) {
      kept[k] = { ...c, score: host.score, sims: host.sims };
    }
  }
  return kept;
}

/** A described candidate, and its `slot` similarity when the page could say (score.ts `slotSim`). */
export interface Described {
  descriptor: Descriptor;
  slot?: number | undefined;
}

/**
 * The score of each described candidate against the remembered descriptor, in their order: the
 * part of repair that needs no page (the benchmark's replay calls it with a dump's descriptors).
 */
export function scoreDescribed(old: Descriptor, described: readonly Described[], opts: Pick<RepairOptions, 'weights' | 'scorer'> = {}): { score: number; sims: FieldSim[] }[] {
  const W = weightsFor(old, opts.weights ?? WEIGHTS);
  const rare = rarity(described.map((d) => d.descriptor));
  const allSims = described.map(({ descriptor, slot }) => fieldSims(old, descriptor, W.tagFamily, rare, slot));
  const contrast = contrastOf(allSims, W);
  return described.map(({ descriptor }, i) => {
    const sims = allSims[i]!;
    return { score: opts.scorer ? opts.scorer(old, descriptor) : combine(sims, W, contrast), sims };
  });
}

/**
 * A second look at the close candidates (locator-repair.md §3):
 * when the best scores at least {@link ACT_AT} and others are within {@link GAP} of it, those are
 * scored again with the contrast taken over just them, so the fields they all share (a decoy
 * cloned beside the target shares its tag, classes, row and place) weigh the contrast floor and
 * what tells them apart (their text) decides. A best below {@link ACT_AT} is left as it is: it
 * could only be proposed, and a second look must not make a proposal an act. Returns the
 * candidates sorted again.
 */
export function contrastClose<T extends { score: number; sims: FieldSim[] }>(old: Descriptor, ranked: readonly T[], weights: Weights = WEIGHTS): T[] {
  const best = ranked[0];
  if (!best || best.score < ACT_AT) return [...ranked];
  const close = ranked.filter((r) => best.score - r.score <= GAP);
  if (close.length < 2) return [...ranked];
  const W = weightsFor(old, weights);
  const contrast = contrastOf(close.map((r) => r.sims), W, { ...W.contrast, top: close.length });
  const again = new Set<T>(close);
  return ranked.map((r) => (again.has(r) ? { ...r, score: combine(r.sims, W, contrast) } : r)).sort((a, b) => b.score - a.score);
}

/** Scores the visible, enabled candidates of the page against the remembered descriptor. */
export function scoreCandidates(
  old: Descriptor,
  opts: RepairOptions = {},
): { ranked: Scored[]; candidates: number; lookedAt: number } {
  const doc = opts.doc ?? document;
  const pool = collectPool(doc, old);
  const cache: DescribeCache = {};
  const short = shortlist(pool.elements, old, cache);
  const described = short.map((element) => ({
    element,
    descriptor: describeElement(element, cache),
    slot: old.peers ? slotSim(old, neighbourKeys(element, cache)) : undefined,
  }));
  const scored = scoreDescribed(old, described, opts);
  let ranked: Scored[] = described.map(({ element, descriptor }, i) => ({ element, descriptor, ...scored[i]! }));
  ranked.sort((a, b) => b.score - a.score);
  if (opts.merge !== false) ranked = mergeWrappers(ranked, old.tag);
  if (!opts.scorer) ranked = contrastClose(old, ranked, opts.weights);
  return { ranked, candidates: pool.total, lookedAt: pool.elements.length };
}

function rememberedMatch(old: Descriptor, doc: Document): { element: Element; field: string } | undefined {
  const fields: [keyof Descriptor, string][] = [
    ['testid', 'data-testid'],
    ['id', 'id'],
    ['ariaLabel', 'aria-label'],
    ['nameAttr', 'name'],
  ];
  const peers = new Set(old.peers ?? []);
  for (const [field, attr] of fields) {
    const value = old[field];
    if (typeof value !== 'string' || value === '') continue;
    // A radio's or checkbox's `name` names its group, not the element: with the remembered one
    // gone, the group's other member would be "exactly one".
    if (field === 'nameAttr' && (old.type === 'radio' || old.type === 'checkbox')) continue;
    const found = [...doc.querySelectorAll(`[${attr}="${CSS.escape(value)}"]`)].filter(
      (el) => isVisible(el) && isEnabled(el) && !peers.has(peerKey(el)),
    );
    if (found.length === 1) return { element: found[0]!, field };
  }
  return undefined;
}

/** An exact match that scores at least this against the remembered element is not checked further. */
export const EXACT_SURE = 0.95;
/** Another element that scores this much more than the exact match is the better match. */
export const EXACT_MARGIN = 0.05;

/** Why an exact match is not taken (locator-repair.md §1). */
export type ExactVerdict =
  | { ok: true; score: number }
  | { ok: false; score: number; why: 'peer' | 'low' | 'context' | 'better'; better?: Scored };

/**
 * Whether an element the exact target found is still the remembered one (`checkExact`). It is
 * not when it is recognisably one of the remembered element's peers, when it scores below
 * {@link DRIFTED_AT} against it (the score without contrast, as for a remembered field), or when
 * it scores under {@link EXACT_SURE} and another element of the page scores more than
 * {@link EXACT_MARGIN} higher: the target now names something else (a positional target after a
 * list was reordered, a text that became part of another element's). When the remembered element
 * had twins, its context told it apart: the match may not stand in a remembered twin's place
 * (`twinPlaces`), and its row (else heading, else the text around it) must still be the
 * remembered one's (similarity at least {@link DRIFTED_AT}).
 */
export function checkExactMatch(old: Descriptor, el: Element, opts: RepairOptions = {}): ExactVerdict {
  const W = weightsFor(old, opts.weights ?? WEIGHTS);
  const d = describeElement(el);
  const sims = fieldSims(old, d, W.tagFamily);
  const score = opts.scorer ? opts.scorer(old, d) : combine(sims, plain(W));
  if (old.peers?.includes(peerKey(el))) return { ok: false, score, why: 'peer' };
  // In a remembered twin's place stands that twin (its row or card), not the remembered element.
  if (inTwinPlace(el, old)) return { ok: false, score, why: 'context' };
  if (score < DRIFTED_AT) return { ok: false, score, why: 'low' };
  if (score >= EXACT_SURE && !old.twins) return { ok: true, score };
  // The match's own document: a target in a frame is compared with that frame's elements.
  const { ranked } = scoreCandidates(old, { ...opts, doc: el.ownerDocument });
  const mine = ranked.find((r) => r.element === el || r.element.contains(el) || el.contains(r.element));
  if (old.twins) {
    // Read with the words' rarity among the candidates, as repair reads it: rows share most words.
    const ctx = old.context?.row ? 'row' : old.context?.heading ? 'heading' : old.near ? 'near' : undefined;
    const sim = ctx ? ((mine?.sims ?? sims).find(([f]) => FIELDS[f] === ctx)?.[1] ?? 0) : 1;
    if (sim < DRIFTED_AT) return { ok: false, score, why: 'context' };
  }
  const other = ranked.find((r) => r !== mine && !(r.element.contains(el) || el.contains(r.element)));
  const base = mine?.score ?? score;
  if (other && other.score - base > EXACT_MARGIN) return { ok: false, score: base, why: 'better', better: other };
  return { ok: true, score };
}

/**
 * The protocol's answer for the best and second scores (protocol-v1): below {@link DRIFTED_AT}
 * not-found; a rival within {@link GAP} ambiguous; below {@link ACT_AT} drifted; else found.
 */
export function answerKind(best: number | undefined, second: number | undefined): 'not-found' | 'ambiguous' | 'drifted' | 'found' {
  if (best === undefined || best < DRIFTED_AT) return 'not-found';
  if (second !== undefined && best - second <= GAP) return 'ambiguous';
  return best < ACT_AT ? 'drifted' : 'found';
}

/**
 * Repairs a target whose exact match is gone, from the descriptor the lock file remembers.
 * Returns undefined only when there is no document to look in (resolve then keeps waiting).
 */
export function repair(old: Descriptor, opts: RepairOptions = {}): RepairOutcome | undefined {
  const t0 = performance.now();
  const doc = opts.doc ?? (typeof document === 'undefined' ? undefined : document);
  if (!doc?.body) return undefined;
  const W = weightsFor(old, opts.weights ?? WEIGHTS);
  const stats = (candidates: number, lookedAt: number, scored: number): RepairStats => ({
    candidates,
    lookedAt,
    scored,
    ms: round(performance.now() - t0),
  });
  const oldClean = withoutHandle(old);

  if (!opts.scoreOnly) {
    const hit = rememberedMatch(old, doc);
    if (hit) {
      const descriptor = describeElement(hit.element);
      const s = opts.scorer ? opts.scorer(old, descriptor) : combine(fieldSims(old, descriptor, W.tagFamily), plain(W));
      if (s >= REMEMBERED_FLOOR) {
        return {
          kind: 'found',
          via: 'descriptor',
          element: hit.element,
          repair: { score: round(s), runnerUp: 0, old: oldClean, ...describeChanges(old, descriptor) },
          elements: [hit.element],
          stats: stats(0, 0, 1),
        };
      }
    }
  }

  const { ranked, candidates, lookedAt } = scoreCandidates(old, { ...opts, doc });
  const best = ranked[0];
  const second = ranked[1];
  const bestScore = best ? round(best.score) : 0;
  const runnerUp = second ? round(second.score) : 0;
  const st = stats(candidates, lookedAt, ranked.length);
  const kind = answerKind(best?.score, second?.score);

  if (!best || kind === 'not-found') {
    const note =
      candidates > MAX_LOOKED_AT
        ? `the page has ${candidates} candidate elements; repair looked at ${lookedAt} of them`
        : undefined;
    return { kind: 'not-found', bestScore, ...(note ? { note } : {}), elements: [], stats: st };
  }

  if (kind === 'ambiguous') {
    const close = ranked.filter((r) => best.score - r.score <= GAP).slice(0, MAX_AMBIGUOUS);
    return {
      kind: 'ambiguous',
      candidates: close.map((c) => ({ descriptor: c.descriptor, score: round(c.score) })),
      old: oldClean,
      elements: close.map((c) => c.element),
      stats: st,
    };
  }

  const diff = describeChanges(old, best.descriptor);
  if (kind === 'drifted') {
    return {
      kind: 'drifted',
      candidate: best.descriptor,
      score: bestScore,
      runnerUp,
      old: oldClean,
      ...diff,
      elements: [best.element],
      stats: st,
    };
  }

  return {
    kind: 'found',
    via: 'repair',
    element: best.element,
    repair: { score: bestScore, runnerUp, old: oldClean, ...diff },
    elements: [best.element],
    stats: st,
  };
}
