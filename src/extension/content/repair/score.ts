// The similarity score of a candidate to the remembered descriptor (locator-repair.md §3).
// score = Σ w_f · m_f · s_f / Σ w_f · m_f over the fields f that either side has, where s_f ∈ [0, 1]
// is the field's similarity and m_f is 1 when both sides have the field, `missing[f]` when only the
// remembered element had it, `added[f]` when only the candidate has it.
import type { Descriptor } from '../../../sdk/protocol/descriptor.js';
import { type WordWeight, hrefSim, iconSim, identSim, identWords, meaningfulHref, pathSim, setSim, textSim, withStops, wordSetSim, words } from './text.js';
import { tagFamily } from './candidates.js';

export const FIELDS = [
  'tag',
  'role',
  'text',
  'name',
  'label',
  'ariaLabel',
  'placeholder',
  'title',
  'id',
  'testid',
  'nameAttr',
  'type',
  'href',
  'classes',
  'icon',
  'heading',
  'region',
  'row',
  'near',
  'path',
  'pos',
  'size',
  'slot',
] as const;
export type Field = (typeof FIELDS)[number];

export interface Weights {
  /** Weight of each field. */
  w: Record<Field, number>;
  /** Multiplier of the weight when only the remembered element had the field. */
  missing: Record<Field, number>;
  /** Multiplier of the weight when only the candidate has the field. */
  added: Record<Field, number>;
  /** Similarity of two different tags of one family (h2/h3, div/section). */
  tagFamily: number;
  /**
   * Calibration: the weighted mean is raised to this power, so that the protocol's fixed
   * thresholds (0.85 act, 0.60 drifted, 0.15 gap) fall where the corpus says they should.
   * Monotone: it never changes which candidate is best.
   */
  power: number;
  /**
   * Calibration, after `power`: the score is divided by `scale` and capped at 1, so a weighted
   * mean of `scale` or more reads as 1. Unlike a power below 1 it widens the gaps between
   * candidates instead of pressing the best ones together; two candidates at or above `scale`
   * both read 1, and are ambiguous.
   */
  scale: number;
  /**
   * Contrast: a field on which the leading candidates all agree (same tag, same classes, same
   * form) tells them nothing, and only compresses their scores together. Its weight is scaled
   * by floor + (1 − floor) · min(1, spread / range), where spread is the max − min of the
   * field's weighted similarity over the `top` candidates by the plain score.
   */
  contrast: { floor: number; top: number; range: number };
  /**
   * When the remembered element had twins (other visible elements with its tag and text, see
   * `Descriptor.twins`), its text and name did not tell it apart on the old page: their
   * weights are multiplied by `text`, those of its context (heading, row) by `context`, and the
   * text around it (`near`) weighs `near`.
   */
  twins: { text: number; context: number; near: number };
  /**
   * The multiplier of the icon's weight when the remembered element has a text or a name: then
   * what it says tells it apart, and its icon is a picture a redesign redraws (`folder` became
   * `book-open`); an icon-only link is known by its icon.
   */
  iconLabelled: number;
}

/** Whether nothing names the remembered element but its icon: no text, name, label or identifier. */
export function knownByIconOnly(old: Descriptor): boolean {
  return !!old.icon && !old.text && !old.name && !old.label && !old.ariaLabel && !old.placeholder && !old.title && !old.id && !old.testid && !old.nameAttr && !meaningfulHref(old.href);
}

/**
 * The weights to score candidates against this remembered element with (see {@link Weights.twins},
 * {@link Weights.iconLabelled}). An element known by its icon alone ({@link knownByIconOnly}) shares
 * its icon with its kind (a team's Twitter links), as twins share their text: its context (row,
 * heading) is what told it apart, and weighs as a twin's (`twins.context`); it has no text to
 * weigh less.
 */
export function weightsFor(old: Descriptor, W: Weights): Weights {
  const labelled = !!old.icon && !!(old.text || old.name);
  const iconOnly = !old.twins && knownByIconOnly(old);
  if (!old.twins && !labelled && !iconOnly) return W;
  const w = { ...W.w };
  if (labelled) w.icon *= W.iconLabelled;
  if (iconOnly) {
    w.heading *= W.twins.context;
    w.row *= W.twins.context;
  }
  if (!old.twins) return { ...W, w };
  w.text *= W.twins.text;
  w.name *= W.twins.text;
  w.icon *= W.twins.text;
  w.heading *= W.twins.context;
  w.row *= W.twins.context;
  w.near = W.twins.near;
  return { ...W, w };
}

/** How a field is present: 1 both, 2 only the remembered element, 3 only the candidate. */
export type Presence = 1 | 2 | 3;

/** One field's similarity: [field, similarity, presence]. */
export type FieldSim = [Field, number, Presence];

/** A multiplier per field (the contrast of one page's candidates); a field not in it counts 1. */
export type FieldScale = Partial<Record<Field, number>>;

function presence(a: unknown, b: unknown): Presence | 0 {
  const ha = a !== undefined && a !== '' && !(Array.isArray(a) && a.length === 0);
  const hb = b !== undefined && b !== '' && !(Array.isArray(b) && b.length === 0);
  return ha && hb ? 1 : ha ? 2 : hb ? 3 : 0;
}

function classSim(a: readonly string[], b: readonly string[]): number {
  const exact = setSim(a, b);
  if (exact === 1) return 1;
  return Math.max(exact, 0.9 * wordSetSim(identWords(a.join(' ')), identWords(b.join(' '))));
}

function posSim(a: Descriptor, b: Descriptor): number {
  const ra = a.rect!;
  const rb = b.rect!;
  const pa = a.page ?? { width: 1280, height: 800 };
  const pb = b.page ?? { width: 1280, height: 800 };
  const dx = Math.abs((ra.x + ra.width / 2) / pa.width - (rb.x + rb.width / 2) / pb.width);
  const dy = Math.abs((ra.y + ra.height / 2) / pa.height - (rb.y + rb.height / 2) / pb.height);
  return Math.max(0, 1 - 2 * (dx + dy));
}

function sizeSim(a: Descriptor, b: Descriptor): number {
  const ra = a.rect!;
  const rb = b.rect!;
  const w = Math.min(ra.width, rb.width) / Math.max(ra.width, rb.width, 1);
  const h = Math.min(ra.height, rb.height) / Math.max(ra.height, rb.height, 1);
  return Math.sqrt(w * h);
}

/** Word weights from the candidates themselves: rare words tell candidates apart. */
export interface Rarity {
  /** Over the candidates' text, name, label, aria-label and placeholder. */
  text: WordWeight;
  /** Over the candidates' row and neighbour text. */
  context: WordWeight;
}

function idfOf(cands: readonly Descriptor[], pick: (d: Descriptor) => (string | undefined)[]): WordWeight {
  const df = new Map<string, number>();
  for (const d of cands) {
    const seen = new Set<string>();
    for (const s of pick(d)) for (const w of words(s)) seen.add(w);
    for (const w of seen) df.set(w, (df.get(w) ?? 0) + 1);
  }
  const n = cands.length;
  // A word no candidate has tells none of them apart: it weighs as a word one candidate has,
  // not as the rarest of all (a dropped "CSV" in "Export CSV" → "Export" would outweigh "Export").
  return withStops((t: string): number => Math.log((n + 1) / ((df.get(t) ?? 1) + 0.5)));
}

/**
 * Inverse document frequency of words over the scored candidates: the rows of one table share
 * most words ("Edit Delete example com"), "Sign in using Facebook" and "... Google" share three;
 * the rare words (a name, "Facebook") tell them apart.
 */
export function rarity(cands: readonly Descriptor[]): Rarity {
  return {
    text: idfOf(cands, (d) => [d.text, d.name, d.label, d.ariaLabel, d.placeholder]),
    context: idfOf(cands, (d) => [d.context?.row, d.near as string | undefined]),
  };
}

/**
 * Whether a candidate stands where the remembered element stood: the share of its nearest
 * neighbours of its kind (`neighbourKeys`) that were among the remembered element's nearest
 * peers (the first {@link SLOT_PEERS} of `peers`). Undefined when either side has none.
 */
export function slotSim(old: Descriptor, neighbours: readonly string[]): number | undefined {
  if (!old.peers?.length || neighbours.length === 0) return undefined;
  const near = new Set(old.peers.slice(0, SLOT_PEERS));
  let hit = 0;
  for (const k of neighbours) if (near.has(k)) hit++;
  return hit / neighbours.length;
}
const SLOT_PEERS = 4;

/**
 * Whether the remembered element's region or row is its own name or text again: a section it
 * titles, a list item holding nothing but it.
 */
export function ownContext(d: Descriptor, which: 'region' | 'row'): boolean {
  const ctx = d.context?.[which];
  const own = d.name ?? d.text;
  return ctx !== undefined && own !== undefined && ctx.toLowerCase() === own.toLowerCase();
}

const GROUPED = new Set(['radio', 'checkbox']);

/** The per-field similarities of a candidate (independent of the weights, so the fitter can reuse them). */
export function fieldSims(old: Descriptor, cand: Descriptor, tagFamilySim: number, rare?: Rarity, slot?: number): FieldSim[] {
  const out: FieldSim[] = [];
  const add = (f: Field, a: unknown, b: unknown, sim: () => number): void => {
    const p = presence(a, b);
    if (p === 0) return;
    out.push([f, p === 1 ? sim() : 0, p]);
  };
  out.push(['tag', old.tag === cand.tag ? 1 : tagFamily(old.tag) === tagFamily(cand.tag) ? tagFamilySim : 0, 1]);
  add('role', old.role, cand.role, () => (old.role === cand.role ? 1 : 0));
  add('text', old.text, cand.text, () => textSim(old.text, cand.text, rare?.text));
  add('name', old.name, cand.name, () => textSim(old.name, cand.name, rare?.text));
  add('label', old.label, cand.label, () => textSim(old.label, cand.label, rare?.text));
  add('ariaLabel', old.ariaLabel, cand.ariaLabel, () => textSim(old.ariaLabel, cand.ariaLabel, rare?.text));
  add('placeholder', old.placeholder, cand.placeholder, () => textSim(old.placeholder, cand.placeholder, rare?.text));
  add('title', old.title, cand.title, () => textSim(old.title as string, cand.title as string));
  add('id', old.id, cand.id, () => identSim(old.id, cand.id));
  add('testid', old.testid, cand.testid, () => identSim(old.testid, cand.testid));
  // A radio's or checkbox's `name` names its group, not the element (as for the remembered-field
  // step, locator-repair.md §1): every member of the group shares it.
  if (!GROUPED.has(old.type ?? '')) add('nameAttr', old.nameAttr, cand.nameAttr, () => identSim(old.nameAttr, cand.nameAttr));
  add('type', old.type, cand.type, () => (old.type === cand.type ? 1 : 0));
  const oh = meaningfulHref(old.href);
  const ch = meaningfulHref(cand.href);
  // A placeholder href where the old link had a path ("#", "javascript:…") names no destination:
  // the link was wired to a script, which says nothing of which link it is, for or against.
  if (!(oh && !ch && cand.href !== undefined)) add('href', oh, ch, () => hrefSim(oh, ch));
  add('classes', old.classes, cand.classes, () => classSim(old.classes ?? [], cand.classes ?? []));
  add('icon', old.icon, cand.icon, () => iconSim(old.icon, cand.icon));
  const oc = old.context ?? {};
  const cc = cand.context ?? {};
  add('heading', oc.heading, cc.heading, () => textSim(oc.heading, cc.heading));
  // A region the remembered element titles itself (a section's own heading) is its name again,
  // not its context: a redesign that drops the section would count the same edit twice. So is a
  // row that holds nothing but it (a list item of one link): links taken out of their list items
  // would count the loss of a row as a move, and a rename twice.
  if (!ownContext(old, 'region')) add('region', oc.region, cc.region, () => textSim(oc.region, cc.region));
  if (!ownContext(old, 'row')) add('row', oc.row, cc.row, () => textSim(oc.row, cc.row, rare?.context));
  add('near', old.near, cand.near, () => textSim(old.near as string, cand.near as string, rare?.context));
  out.push(['path', pathSim(old.path, cand.path), 1]);
  if (old.rect && cand.rect) {
    out.push(['pos', posSim(old, cand), 1]);
    out.push(['size', sizeSim(old, cand), 1]);
  }
  if (slot !== undefined) out.push(['slot', slot, 1]);
  return out;
}

/** Combines field similarities with weights (and per-field contrast multipliers) into a score in [0, 1]. */
export function combine(sims: readonly FieldSim[], W: Weights, contrast?: FieldScale): number {
  let num = 0;
  let den = 0;
  for (const [f, s, p] of sims) {
    const w = W.w[f] * (p === 1 ? 1 : p === 2 ? W.missing[f] : W.added[f]) * (contrast?.[f] ?? 1);
    num += w * s;
    den += w;
  }
  return den > 0 ? Math.min(1, Math.pow(num / den, W.power) / W.scale) : 0;
}

/**
 * Per-field contrast multipliers over one page's candidates (see {@link Weights.contrast}), or
 * over the candidates given with `over` (its `top` counts them). A field a candidate lacks counts
 * as similarity 0 for the spread.
 */
export function contrastOf(all: readonly FieldSim[][], W: Weights, over: Weights['contrast'] = W.contrast): FieldScale {
  const out: FieldScale = {};
  const { floor, top, range } = over;
  if (floor >= 1 || all.length < 2) return out;
  const order = all.map((sims, i) => [combine(sims, W), i] as const).sort((a, b) => b[0] - a[0]);
  const lead = order.slice(0, Math.max(2, top)).map(([, i]) => all[i]!);
  const lo: Partial<Record<Field, number>> = {};
  const hi: Partial<Record<Field, number>> = {};
  for (const sims of lead) {
    const seen: Partial<Record<Field, number>> = {};
    for (const [f, s] of sims) seen[f] = s;
    for (const f of FIELDS) {
      const s = seen[f] ?? 0;
      lo[f] = Math.min(lo[f] ?? Infinity, s);
      hi[f] = Math.max(hi[f] ?? -Infinity, s);
    }
  }
  for (const f of FIELDS) out[f] = floor + (1 - floor) * Math.min(1, (hi[f]! - lo[f]!) / range);
  return out;
}

/** The score of one candidate alone (no contrast: that needs the other candidates). */
export function score(old: Descriptor, cand: Descriptor, W: Weights): number {
  return combine(fieldSims(old, cand, W.tagFamily), W);
}

/**
 * The fields that say what an element is, is called or looks like, not where it stands (its
 * context, position and tag are its place).
 */
export const IDENTITY: readonly Field[] = ['text', 'name', 'label', 'ariaLabel', 'placeholder', 'title', 'id', 'testid', 'nameAttr', 'href', 'type', 'classes', 'icon'];
/**
 * The weight of the classes in {@link identityOf}: the score gives them none (a restyle changes
 * them all), but a button that kept its type and its classes where another stood looks like it.
 */
const CLASSES_IDENTITY = 0.7;
/** For an element that had twins, its row and heading told it apart: they say which one it is. */
const TWIN_IDENTITY: readonly Field[] = [...IDENTITY, 'heading', 'row'];

/**
 * How much of what the remembered element was or was called the candidate shares: the weighted
 * mean of the {@link IDENTITY} fields either side has (with the twin weights of
 * {@link weightsFor}), without contrast and without the words' rarity, so that it means the same
 * on every page. 1 when neither side has any such field (then its place is all there is).
 */
export function identityOf(old: Descriptor, cand: Descriptor, W: Weights): number {
  const fields = old.twins ? TWIN_IDENTITY : IDENTITY;
  let num = 0;
  let den = 0;
  for (const [f, s, p] of fieldSims(old, cand, W.tagFamily)) {
    if (!fields.includes(f)) continue;
    const w = (f === 'classes' ? CLASSES_IDENTITY : W.w[f]) * (p === 1 ? 1 : p === 2 ? W.missing[f] : W.added[f]);
    num += w * s;
    den += w;
  }
  return den > 0 ? num / den : 1;
}

/** What a person reads to tell which element it is: what it is called. */
export const NAME_FIELDS: readonly Field[] = ['text', 'name', 'label', 'ariaLabel', 'placeholder', 'title'];
/** What says where it stands: its heading, region, row, neighbours, position and slot. */
export const PLACE_FIELDS: readonly Field[] = ['heading', 'region', 'row', 'near', 'pos', 'slot'];

/**
 * How much of its name and of its place a candidate kept (locator-repair.md §3, "renamed and
 * moved"), from its field similarities as scored (the words' rarity included, no contrast and
 * no fitted weight: every name and every place field counts once). `name`: the best similarity
 * among the names the remembered element had (a name the candidate lacks counts 0), undefined
 * when it had none. `place`: the mean similarity of the place fields either side has (one side
 * only counts 0), undefined when neither has any.
 */
export function namePlace(sims: readonly FieldSim[]): { name: number | undefined; place: number | undefined } {
  let name: number | undefined;
  let sum = 0;
  let n = 0;
  for (const [f, s, p] of sims) {
    if (NAME_FIELDS.includes(f) && p !== 3) name = Math.max(name ?? 0, p === 1 ? s : 0);
    else if (PLACE_FIELDS.includes(f)) {
      sum += p === 1 ? s : 0;
      n++;
    }
  }
  return { name, place: n ? sum / n : undefined };
}

/** What names one element rather than a kind of element: its identifiers and where it leads. */
export const IDENTIFIERS: readonly Field[] = ['id', 'testid', 'nameAttr', 'href'];

/** Whether the candidate kept one of the remembered element's identifiers (similarity at least `at`). */
export function keptIdentifier(sims: readonly FieldSim[], at: number): boolean {
  return sims.some(([f, s, p]) => p === 1 && s >= at && IDENTIFIERS.includes(f));
}
