// Locator repair as a pure library (docs/locator-repair.md): shortlist → score → verdict over the
// descriptors it is handed. It reads no DOM: the page side (content/repairPage.ts) reads the page
// with dom/describe.ts, the same code that answers `resolve` and records the lock file, so the
// benchmark's replay and fitter measure exactly what production answers.
import { type Descriptor, withoutHandle } from '../../../sdk/protocol/index.js';
import { describeChanges } from './changes.js';
import { type Field, type FieldSim, type Weights, combine, contrastOf, fieldSims, identityOf, IDENTIFIERS, keptIdentifier, knownByIconOnly, namePlace, ownContext, PLACE_FIELDS, rarity, slotSim, weightsFor } from './score.js';
import { inTwinPlace, isPeer, tagFamily } from './candidates.js';
import { type AnotherAction, anotherAction } from './actions.js';
import { fold } from '../dom/text.js';
import type { RepairOutcome } from './types.js';
import { WEIGHTS } from './weights.js';

export type { RepairOutcome, RepairStats } from './types.js';
export { slotSim };

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

/** A candidate as the page hands it over: its descriptor, and what only the page could say. */
export interface Candidate<E = unknown> {
  /** The page's own handle of it (an element); never read here. */
  ref: E;
  descriptor: Descriptor;
  /** What it stands between, against the remembered peers (score.ts `slotSim`). */
  slot?: number | undefined;
  /** An element a person operates (dom/aria.ts `isActionable`): preferred when merging wrappers. */
  interactive?: boolean;
  /**
   * Its place in the order of the page's visible elements of its tag and text (dom/describe.ts
   * `twinOrder`; 0: the first), asked only of twins that nothing else tells apart (§3).
   */
  order?: (() => number | undefined) | undefined;
  /** Its `id` is carried by another element of its document too ({@link Described.sharedId}). */
  sharedId?: boolean | undefined;
}

export interface Scored<E = unknown> extends Candidate<E> {
  score: number;
  sims: FieldSim[];
  /** What it shares of the remembered element's identity (score.ts `identityOf`). */
  identity?: number;
  /** Its name says another action than the remembered one's (actions.ts): never acted on. */
  action?: AnotherAction | undefined;
}

export interface RepairOptions {
  /** The weights to score with (the fitter and the replay try others); default {@link WEIGHTS}. */
  weights?: Weights;
  /**
   * The elements the page left out as twins standing in their remembered places (§2), asked only
   * when a renamed group is read ({@link byRenamedGroup}): its members that stayed where they stood.
   */
  placedTwins?: (() => readonly PlacedTwin[]) | undefined;
  /**
   * The role the target names (`{ role: 'button', name: 'Sign in' }`), when it names one: an
   * element of another role is not what the target asks for, so it is neither a candidate nor a
   * rival (the page's `<h1>Sign in</h1>` for a renamed button).
   */
  role?: string | undefined;
}

/** An element left out as a twin in its remembered place: its descriptor and its place in the order of its kind. */
export interface PlacedTwin {
  descriptor: Descriptor;
  order?: (() => number | undefined) | undefined;
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * The weights without calibration (`power` and `scale` 1): the floors of a remembered field and of an exact
 * match are on the plain weighted mean, so calibrating the score for repair does not lower them.
 */
const plain = (W: Weights): Weights => (W.power === 1 && W.scale === 1 ? W : { ...W, power: 1, scale: 1 });

/** One element inside the other, by their xpaths in one document (shadow steps included). */
export function nested(a: Descriptor, b: Descriptor): boolean {
  const x = a.xpath;
  const y = b.xpath;
  return x === y || y.startsWith(`${x}/`) || x.startsWith(`${y}/`);
}

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
  return nested(a.descriptor, b.descriptor);
}

/**
 * Merges nested same-text candidates, keeping the best score; the answer is the one with the
 * remembered tag, else the interactive one.
 */
export function mergeWrappers<T extends Scored>(sorted: readonly T[], oldTag?: string): T[] {
  const kept: T[] = [];
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
    const hostTag = host.descriptor.tag === oldTag;
    const cTag = c.descriptor.tag === oldTag;
    if ((cTag && !hostTag) || (cTag === hostTag && !host.interactive && c.interactive)) {
      kept[k] = { ...c, score: host.score, sims: host.sims };
    }
  }
  return kept;
}

/** A described candidate, and its `slot` similarity when the page could say (score.ts `slotSim`). */
export interface Described {
  descriptor: Descriptor;
  slot?: number | undefined;
  /** Its `id` is carried by another element of its document too (then it names neither). */
  sharedId?: boolean | undefined;
}

/**
 * A candidate that shares nothing of what the remembered element was or was called (its
 * identity, score.ts `identityOf`, below this) shares only its place: context, position, tag.
 * Its score is multiplied by {@link PLACE_ONLY_FACTOR}, so it stays under {@link DRIFTED_AT}
 * whatever else is on the page: a gone target's neighbour is never proposed, let alone acted on.
 */
export const PLACE_ONLY_BELOW = 0.1;
export const PLACE_ONLY_FACTOR = 0.5;

const placeFactor = (identity: number): number => (identity < PLACE_ONLY_BELOW ? PLACE_ONLY_FACTOR : 1);

/**
 * An element may be renamed between two releases, or moved; one that kept less than
 * {@link KEPT_BELOW} of both its name and its place (score.ts `namePlace`) is another element as
 * often as the remembered one: its score is held under {@link ACT_AT}, so it may be proposed
 * (`drifted`), never acted on. Only an identifier it kept (`id`, `testid`, `nameAttr`, `href`,
 * score.ts `keptIdentifier`) can still say it is the remembered element, and only with remembered
 * `peers`: they left the old page's other elements out already (§2), so a renamed and moved link
 * to the remembered place is that link ("Register an Account" → "Need an account? Sign up!" in a
 * rebuilt card). Without them it may be another link to the same place (the navigation bar's
 * "Profile" for a removed "View public profile" beside the form's buttons, both to `/profile`).
 */
export const KEPT_BELOW = 0.5;
export const RENAMED_AND_MOVED_AT_MOST = 0.84;

/** A text this similar (score.ts `textSim`: equal, or the same letters and digits) is the remembered one. */
const SAME_TEXT = 0.95;

/**
 * A remembered element with twins that stood in no row and under no heading, while its twins
 * each stood in one (`twinPlaces`), was told apart from them by standing in none. A candidate
 * with its text that stands in a row or under a heading stands as its twins stood, not as it
 * did: it may be one of them, rebuilt or moved (their remembered places are the old page's, so
 * the twin-place test of §2 no longer knows it). Held under {@link ACT_AT} like a renamed and
 * moved candidate: material-dashboard's sidebar brand "Creative Tim" became "Material Dashboard
 * 2", and the rebuilt footer's "made with … by Creative Tim" link, one of its twins, read 0.96.
 */
function placedLikeItsTwins(old: Descriptor, sims: readonly FieldSim[]): boolean {
  if (!old.twinPlaces?.length || old.context?.row || old.context?.heading) return false;
  if (!keptText(sims)) return false;
  return sims.some(([f, , p]) => (f === 'row' || f === 'heading') && p === 3);
}

/**
 * An element known only by its icon (a Twitter link with no text, name or identifier) is one of
 * a kind: a team's other Twitter links show the same icon. Its context said which one it was
 * (its row, else its heading, else the text around it, as `checkExact` reads a twin's): a
 * candidate whose context is not the remembered one (similarity under {@link DRIFTED_AT}) is held
 * under {@link ACT_AT} like a renamed and moved one. startbootstrap-agency's team lost "Kay
 * Garland", and "Parveen Anand"'s Twitter link, standing in her place, read 0.89.
 */
function iconOnlyElsewhere(old: Descriptor, sims: readonly FieldSim[]): boolean {
  if (!knownByIconOnly(old)) return false;
  const ctx = twinContext(old);
  if (!ctx) return false;
  const s = sims.find(([f]) => f === ctx);
  return !s || s[2] !== 1 || s[1] < DRIFTED_AT;
}

/**
 * A link or button recorded without `record` (no `peers`, no `twins`) whose candidate kept its
 * name and nothing else: less than {@link KEPT_BELOW} of its place, none of its identifiers (the
 * same id, test id, name or destination, {@link SAME_TEXT}: "pages/settings.html" shares half its
 * words with "#settings" and leads elsewhere), not its look (classes, icon; classes that
 * {@link COMMON_LOOK} or more candidates keep too, while another element kept the name as well,
 * are the page's look for every link, not its own: `commonLook`).
 * An action's label says what it does, and the same action recurs for each thing it acts on
 * ("Learn More" under each card, "Delete" in each row, "Settings" in a profile's tabs and in the
 * sidebar): its label tells it apart only where it was its own, and without the record nothing
 * says it was. The old page's three cards each had a "Learn More"; the new page's only one, in its
 * header, is none of them. Held under {@link ACT_AT} like a renamed and moved candidate: proposed,
 * never acted on. With `record`, `twins` says whether the label was its own, and the twin weights
 * read it (§3).
 */
function nameOnlyUnrecorded(old: Descriptor, sims: readonly FieldSim[], name: number | undefined, place: number | undefined, commonLook: boolean): boolean {
  if (old.peers?.length || tagFamily(old.tag) !== 'action' || name === undefined || place === undefined || name < KEPT_BELOW || place >= KEPT_BELOW) return false;
  if (keptIdentifier(sims, SAME_TEXT)) return false;
  return !sims.some(([f, s, p]) => p === 1 && s >= KEPT_BELOW && ((f === 'classes' && !commonLook) || f === 'icon'));
}

/**
 * A candidate that kept none of the remembered element's identifiers (score.ts `keptIdentifier`:
 * id, test id, name, destination) and nothing at all of its place: every place field both sides
 * have (its heading, region, row, neighbours' words, position, remembered neighbours) reads 0,
 * its position among them.
 * What it kept then (its tag, role, name, label, placeholder) says what kind of element it is, not
 * which one: a search box labelled "Search" is on most pages, and a page that dropped the one in
 * its sidebar may show another in a demo's navbar far from it. An element that moved keeps some
 * of its place (a word of its neighbours, a share of its position); one that kept nothing of it
 * is another element of its kind as often as the remembered one. Held under {@link ACT_AT} like a
 * renamed and moved candidate: proposed (`drifted`), never acted on, whether the score or a
 * remembered `aria-label` found it ({@link rememberedTaken}).
 */
export function nowhereNear(sims: readonly FieldSim[]): boolean {
  const place = sims.filter(([f, , p]) => p === 1 && PLACE_FIELDS.includes(f));
  // Without both positions (a descriptor from before `rect`) nothing says how far it went.
  return place.some(([f]) => f === 'pos') && place.every(([, s]) => s === 0) && !keptIdentifier(sims, KEPT_BELOW);
}

/** This many candidates keeping the remembered classes make them the page's look, not the element's. */
const COMMON_LOOK = 3;

/** Whether two candidates, neither nested in the other, both kept the remembered name. */
function nameShared(cands: readonly Descriptor[], allSims: readonly (readonly FieldSim[])[]): boolean {
  const named = cands.filter((_, i) => (namePlace(allSims[i]!).name ?? 0) >= SAME_TEXT);
  return named.some((a, i) => named.some((b, j) => j > i && !nested(a, b)));
}

/** Whether {@link COMMON_LOOK} or more of the candidates keep the remembered element's classes. */
function isCommonLook(allSims: readonly (readonly FieldSim[])[]): boolean {
  return allSims.filter((sims) => sims.some(([f, s, p]) => f === 'classes' && p === 1 && s >= KEPT_BELOW)).length >= COMMON_LOOK;
}

/**
 * The score once calibrated to mean the same on every page (§3): place only; another action;
 * renamed and moved; placed like its twins; an icon elsewhere; a name only.
 */
function absolute(old: Descriptor, score: number, identity: number, sims: readonly FieldSim[], action: AnotherAction | undefined, commonLook: boolean): number {
  const s = score * placeFactor(identity);
  // A button whose name now says another action ("Save settings" → "Reset settings") is another
  // button, however much else it kept: proposed with the words that differ, never acted on.
  if (action || placedLikeItsTwins(old, sims) || iconOnlyElsewhere(old, sims) || nowhereNear(sims)) return Math.min(s, RENAMED_AND_MOVED_AT_MOST);
  const { name, place } = namePlace(sims);
  if (nameOnlyUnrecorded(old, sims, name, place, commonLook)) return Math.min(s, RENAMED_AND_MOVED_AT_MOST);
  if (name === undefined || place === undefined || name >= KEPT_BELOW || place >= KEPT_BELOW) return s;
  if (old.peers?.length && keptIdentifier(sims, KEPT_BELOW)) return s;
  return Math.min(s, RENAMED_AND_MOVED_AT_MOST);
}

/**
 * The descriptor as scored: an `id` the page gives to other elements too ({@link Described.sharedId})
 * left out. It names none of them (HTML wants an id unique; a template that copies a form copies
 * its ids), so it is no evidence for or against any of them.
 */
const asScored = (d: Described): Descriptor => (d.sharedId && d.descriptor.id ? { ...d.descriptor, id: undefined } : d.descriptor);

/**
 * The score of each described candidate against the remembered descriptor, in their order: the
 * part of repair that needs no page (the benchmark's replay calls it with a dump's descriptors).
 */
export function scoreDescribed(
  old: Descriptor,
  described: readonly Described[],
  opts: RepairOptions = {},
): { score: number; sims: FieldSim[]; identity: number; action: AnotherAction | undefined; commonLook: boolean }[] {
  const W = weightsFor(old, opts.weights ?? WEIGHTS);
  const own = described.map(asScored);
  const rare = rarity(own);
  const allSims = described.map(({ slot }, i) => fieldSims(old, own[i]!, W.tagFamily, rare, slot));
  const contrast = contrastOf(allSims, W);
  // Read only where the name-only rule can use it: a link or button recorded without `record`.
  const commonLook = !old.peers?.length && tagFamily(old.tag) === 'action' && isCommonLook(allSims) && nameShared(own, allSims);
  return described.map((_, i) => {
    const sims = allSims[i]!;
    const identity = identityOf(old, own[i]!, W);
    const action = anotherAction(old, own[i]!);
    return { score: absolute(old, combine(sims, W, contrast), identity, sims, action, commonLook), sims, identity, action, commonLook };
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
export function contrastClose<T extends { score: number; sims: FieldSim[]; identity?: number; action?: AnotherAction | undefined; commonLook?: boolean }>(old: Descriptor, ranked: readonly T[], weights: Weights = WEIGHTS): T[] {
  const best = ranked[0];
  if (!best || best.score < ACT_AT) return [...ranked];
  const close = ranked.filter((r) => best.score - r.score <= GAP);
  if (close.length < 2) return [...ranked];
  const W = weightsFor(old, weights);
  const contrast = contrastOf(close.map((r) => r.sims), W, { ...W.contrast, top: close.length });
  const again = new Set<T>(close);
  return ranked.map((r) => (again.has(r) ? { ...r, score: absolute(old, combine(r.sims, W, contrast), r.identity ?? 1, r.sims, r.action, r.commonLook === true) } : r)).sort((a, b) => b.score - a.score);
}

/**
 * Where the remembered element stood in the order of itself and its twins (0: first): recorded
 * with them (`twinIndex`); 0 when it was recorded with `record` (it has `peers`) and had none,
 * since it was then the only one. Undefined when the record does not say.
 */
export function rememberedOrder(old: Descriptor): number | undefined {
  if (old.twins) return old.twinIndex;
  return old.peers?.length ? 0 : undefined;
}

/**
 * What tells a twin apart (its row, else its heading, else the text around it), as `checkExact`
 * reads it; a row that is its own text again (score.ts `ownContext`) tells nothing.
 */
function twinContext(old: Descriptor): 'row' | 'heading' | 'near' | undefined {
  return old.context?.row && !ownContext(old, 'row') ? 'row' : old.context?.heading ? 'heading' : old.near ? 'near' : undefined;
}

const simOf = (sims: readonly FieldSim[], f: string): number => sims.find(([k]) => k === f)?.[1] ?? 0;

/**
 * Twins told apart by their order (locator-repair.md §3). When the best scores at least
 * {@link ACT_AT} and every candidate within {@link GAP} of it has its tag and its very text (they
 * are twins on the page now: the same link in a repeated row, the same tab in a second tab box),
 * nothing they show tells them apart, but the record says where the remembered element stood
 * among its twins ({@link rememberedOrder}). The best is taken over its twins, which are left out
 * as another twin is (§2), only when it stands at that place in the order of the page's twins
 * now and its context is as close to the remembered one as each twin's: the order confirms or
 * breaks a tie, it never raises a candidate over a better one.
 */
export function byTwinOrder<T extends Candidate & Scored>(old: Descriptor, ranked: readonly T[]): T[] {
  const want = rememberedOrder(old);
  const best = ranked[0];
  if (want === undefined || !best || best.score < ACT_AT || !best.descriptor.text) return [...ranked];
  const group = ranked.filter((r) => best.score - r.score <= GAP);
  if (group.length < 2) return [...ranked];
  const { tag, text } = best.descriptor;
  if (group.some((r) => r.descriptor.tag !== tag || r.descriptor.text !== text)) return [...ranked];
  const at = group.filter((r) => r.score === best.score && r.order?.() === want);
  if (at.length !== 1) return [...ranked];
  const chosen = at[0]!;
  const ctx = twinContext(old);
  if (ctx && group.some((r) => simOf(r.sims, ctx) > simOf(chosen.sims, ctx))) return [...ranked];
  const twins = new Set<T>(group);
  return [chosen, ...ranked.filter((r) => !twins.has(r))];
}

/**
 * A twin group renamed together (locator-repair.md §3). The remembered element and its twins
 * shared one label (`twins`); when no candidate of its tag keeps that label any more, and the
 * proposals (the candidates within {@link GAP} of the best) with the twins left out in their
 * remembered places ({@link RepairOptions.placedTwins}) are one group of exactly as many
 * elements as the remembered group had, of one tag, role, text and destination, and no other
 * element of the page has their tag and text (the page's order of them is the group's, 0 …
 * twins), the group was relabelled as a whole ("Sign Up!" on each pricing plan became "Choose
 * plan" on each): the new label is the group's, as the old one was. The member standing at the
 * remembered place in the group's order ({@link rememberedOrder}) is then read under the old
 * label (its `text` and `name` taken as the remembered ones) and scored again with the page's
 * other candidates, its group's other members left out, as twins are. It applies only to a best
 * already proposed on its own (at least {@link DRIFTED_AT}: a candidate that shares only its
 * place never is), at the top score (ties included), with a context as close to the remembered
 * one as each member's; without `record` (no `twinIndex`) it is not read.
 */
export function byRenamedGroup<T extends Candidate & Scored>(old: Descriptor, ranked: readonly T[], opts: RepairOptions = {}): T[] {
  // A group needs twins: an element recorded alone has an order (0) but nothing was renamed with it.
  const want = old.twins ? rememberedOrder(old) : undefined;
  const best = ranked[0];
  if (want === undefined || !old.text || !best || best.score < DRIFTED_AT || best.score >= ACT_AT || !best.descriptor.text) return [...ranked];
  // A twin is an element of the remembered tag with its text (§1): one still on the page keeps the old label.
  if (ranked.some((r) => r.descriptor.tag === old.tag && simOf(r.sims, 'text') >= SAME_TEXT)) return [...ranked];
  const { tag, role, text, href } = best.descriptor;
  const member = (d: Descriptor): boolean => d.tag === tag && d.role === role && d.text === text && d.href === href;
  const group = ranked.filter((r) => best.score - r.score <= GAP);
  if (group.some((r) => !member(r.descriptor))) return [...ranked];
  if (ranked.some((r) => !group.includes(r) && r.descriptor.tag === tag && r.descriptor.text === text)) return [...ranked];
  // Twins still standing in their remembered places were left out before scoring (§2): each must
  // carry the group's new label (one keeping the old one, or another, says the group was not
  // relabelled as a whole), and counts in the group.
  const placed = opts.placedTwins?.() ?? [];
  if (placed.some((p) => !member(p.descriptor)) || group.length + placed.length !== old.twins! + 1) return [...ranked];
  // The page's own order of the visible elements of their tag and text must be the group's and
  // nothing more (0 … twins): an element of that kind the shortlist left out would shift it.
  const orders = [...group, ...placed].map((r) => r.order?.());
  if (orders.some((o, i) => !orders.includes(i) || o === undefined)) return [...ranked];
  const at = group.filter((r, i) => r.score === best.score && orders[i] === want);
  if (at.length !== 1) return [...ranked];
  const chosen = at[0]!;
  // A group whose new label says another action was not renamed: it does something else now.
  if (chosen.action) return [...ranked];
  const ctx = twinContext(old);
  if (ctx && group.some((r) => simOf(r.sims, ctx) > simOf(chosen.sims, ctx))) return [...ranked];
  const rest = ranked.filter((r) => !group.includes(r));
  const relabelled = { ...chosen.descriptor, text: old.text, name: old.name };
  const again = scoreDescribed(old, [{ descriptor: relabelled, slot: chosen.slot, sharedId: chosen.sharedId }, ...rest], opts);
  return [{ ...chosen, ...again[0]! }, ...rest.map((r, i) => ({ ...r, ...again[i + 1]! }))].sort((a, b) => b.score - a.score);
}

/**
 * The handed candidates scored against the remembered descriptor, best first: rarity and contrast
 * over them, wrappers merged, the second look at close candidates, twins told apart by their
 * order, and close candidates told apart by what names the remembered element and where it
 * stood (§2, §3).
 */
export function rankCandidates<T extends Candidate>(old: Descriptor, all: readonly T[], opts: RepairOptions = {}): (T & Scored)[] {
  const cands = opts.role ? all.filter((c) => c.descriptor.role === opts.role) : all;
  const scored = scoreDescribed(old, cands, opts);
  const ranked = cands.map((c, i) => ({ ...c, ...scored[i]! })).sort((a, b) => b.score - a.score);
  return byOwnSpot(old, byOwnName(old, byRememberedPlace(old, byRenamedGroup(old, byTwinOrder(old, contrastClose(old, mergeWrappers(ranked, old.tag), opts.weights)), opts))));
}

/**
 * What names the remembered element tells close candidates apart (locator-repair.md §3): its
 * text, and each identifier (`id`, `testid`, `nameAttr`, `href`) the best kept. When the best
 * scores at least {@link ACT_AT} and kept them as they were (at least {@link SAME_TEXT}), and
 * every other candidate within {@link GAP} of it lost one of them, those share its look and place
 * but not what it was called or where it led: each is held at {@link GAP} under the best, so the
 * best is acted on. AdminLTE's tables page has "Striped Full Width Table" beside "Simple Full Width
 * Table", card titles of one look in one grid; the first, unchanged, read 1.00 and the second 0.89
 * against it. gentelella's two tab boxes both have a "Messages" tab; the right box's leads to
 * `#messages-r`, the left's to `#messages`. An element without text needs an identifier kept. Not
 * when a rival holds the remembered place ({@link holdsPlace}) and the best does not: the element
 * may have been renamed where it stood, and the best be another with the old name
 * (`byRememberedPlace` reads the same). Two candidates that both kept all of it, or one nested in
 * the other, are left to the rules above.
 */
export function byOwnName<T extends Scored>(old: Descriptor, ranked: readonly T[]): T[] {
  const best = ranked[0];
  if (!best || best.score < ACT_AT || (old.text && !keptText(best.sims))) return [...ranked];
  const ids = IDENTIFIERS.filter((f) => keptField(best.sims, f));
  if (!old.text && ids.length === 0) return [...ranked];
  const keptNames = (sims: readonly FieldSim[]): boolean => (!old.text || keptText(sims)) && ids.every((f) => keptField(sims, f));
  const close = ranked.filter((r) => r !== best && best.score - r.score <= GAP);
  if (close.length === 0 || close.some((r) => keptNames(r.sims) || nested(r.descriptor, best.descriptor))) return [...ranked];
  if (!holdsPlace(best.sims) && close.some((r) => holdsPlace(r.sims))) return [...ranked];
  return heldUnder(ranked, best, close);
}

/**
 * Where it stood tells close candidates apart that kept the same names (locator-repair.md §3):
 * when the best scores at least {@link ACT_AT}, kept the remembered text, stands at the
 * remembered spot (`pos` at least {@link PLACE_KEPT}) and among the same words (`near` kept as it
 * was, {@link SAME_TEXT}), and no other candidate within {@link GAP} of it does either, those
 * share what it is called but stand elsewhere: each is held at {@link GAP} under the best, so the
 * best is acted on. AdminLTE 4's invoice page keeps its title "Invoice" where it stood (an `h1`
 * become an `h3`) and adds an `h1` "Invoice" inside the invoice; tabler's header and footer both
 * have a "Source code" link. A rival nested in or around the best, or one that kept the spot or
 * the words too, is left to the rules above.
 */
export function byOwnSpot<T extends Scored>(old: Descriptor, ranked: readonly T[]): T[] {
  const best = ranked[0];
  if (!best || best.score < ACT_AT || (old.text && !keptText(best.sims))) return [...ranked];
  if (placeOf(best.sims) < PLACE_KEPT || !keptField(best.sims, 'near')) return [...ranked];
  const close = ranked.filter((r) => r !== best && best.score - r.score <= GAP);
  if (close.length === 0 || close.some((r) => nested(r.descriptor, best.descriptor) || placeOf(r.sims) >= PLACE_KEPT || keptField(r.sims, 'near'))) return [...ranked];
  return heldUnder(ranked, best, close);
}

/** How far under the best's {@link GAP} a rival `byOwnName` or `byOwnSpot` holds is put: out of the gap, whatever the rounding. */
const HELD_UNDER = 0.001;

/** The ranking with each of `close` held out of the best's gap, sorted again. */
function heldUnder<T extends Scored>(ranked: readonly T[], best: T, close: readonly T[]): T[] {
  const under = best.score - GAP - HELD_UNDER;
  return ranked.map((r) => (close.includes(r) ? { ...r, score: Math.min(r.score, under) } : r)).sort((a, b) => b.score - a.score);
}

/** Whether a candidate kept the remembered field `f` as it was ({@link SAME_TEXT}). */
function keptField(sims: readonly FieldSim[], f: Field): boolean {
  return sims.some(([g, s, p]) => g === f && p === 1 && s >= SAME_TEXT);
}

const keptText = (sims: readonly FieldSim[]): boolean => keptField(sims, 'text');

/**
 * A candidate whose text grew from the remembered one ("Save" → "Save draft") and that does not
 * stand in the remembered place, while another candidate of the remembered tag does
 * ({@link placeHolder}: "Apply", renamed where "Save" stood, between its neighbours), is no more
 * the remembered element than that one: its score is held at the holder's, so the two are
 * `ambiguous` and neither is acted on (locator-repair.md §3). Its grown text is what a new element
 * beside a renamed one shares with the old name; the place is what the renamed one kept.
 */
export function byRememberedPlace<T extends Scored>(old: Descriptor, ranked: readonly T[]): T[] {
  if (!old.peers?.length || !old.text) return [...ranked];
  const grown = ranked.filter((r) => containsOther(r.descriptor.text, old.text) && !holdsPlace(r.sims));
  if (grown.length === 0) return [...ranked];
  let changed = false;
  const out = ranked.map((r) => {
    if (!grown.includes(r)) return r;
    const holder = placeHolder(old, ranked, r.descriptor);
    if (!holder || holder.score >= r.score) return r;
    changed = true;
    return { ...r, score: holder.score };
  });
  return changed ? out.sort((a, b) => b.score - a.score) : out;
}

/**
 * The score of the one element a remembered field (`testid`, `id`, `ariaLabel`, `nameAttr`)
 * still names (§1), on the plain weighted mean, when it is taken: at least {@link REMEMBERED_FLOOR},
 * and not {@link nowhereNear} (a remembered `aria-label` names a kind of element as often as one
 * element). Undefined when it is not; the score then decides.
 */
export function rememberedTaken(old: Descriptor, found: Descriptor, opts: RepairOptions = {}): number | undefined {
  const W = weightsFor(old, opts.weights ?? WEIGHTS);
  const sims = fieldSims(old, found, W.tagFamily);
  const score = combine(sims, plain(W));
  return score >= REMEMBERED_FLOOR && !nowhereNear(sims) ? score : undefined;
}

/** The remembered fields a remembered-field step looks for, with their attributes, in order (§1). */
export function rememberedFields(old: Descriptor): { field: 'testid' | 'id' | 'ariaLabel' | 'nameAttr'; attr: string; value: string }[] {
  const out: { field: 'testid' | 'id' | 'ariaLabel' | 'nameAttr'; attr: string; value: string }[] = [];
  for (const [field, attr] of [['testid', 'data-testid'], ['id', 'id'], ['ariaLabel', 'aria-label'], ['nameAttr', 'name']] as const) {
    const value = old[field];
    if (typeof value !== 'string' || value === '') continue;
    // A radio's or checkbox's `name` names its group, not the element: with the remembered one
    // gone, the group's other member would be "exactly one".
    if (field === 'nameAttr' && (old.type === 'radio' || old.type === 'checkbox')) continue;
    out.push({ field, attr, value });
  }
  return out;
}

/** An exact match that scores at least this against the remembered element is not checked further. */
export const EXACT_SURE = 0.95;
/** Another element that scores this much more than the exact match is the better match. */
export const EXACT_MARGIN = 0.05;

/**
 * Why an exact match is not taken (locator-repair.md §1). A refusal's `better` is the page's
 * other candidate most like the remembered element: the one that out-scored the match (`why:
 * 'better'`), else the best scoring at least {@link DRIFTED_AT}, as a repair would propose it. It
 * is what a person may have meant; the refused match never is.
 */
export type ExactVerdict<E = unknown> =
  | { ok: true; score: number }
  | { ok: false; score: number; why: 'peer' | 'low' | 'context' | 'better' | 'action' | 'place'; better?: Scored<E>; action?: AnotherAction };

/** The exact match as the page hands it over: its descriptor, key and place (dom/describe.ts). */
export interface ExactMatch<E = unknown> {
  ref: E;
  descriptor: Descriptor;
  key: string;
  place: string;
  /** Other visible elements of its tag and text on the page now (dom/describe.ts `twinsOf`). */
  twins?: number;
}

/** How close a match's position must be to the remembered one's (the `pos` similarity) to be in its place. */
const PLACE_KEPT = 0.9;

/** The `pos` similarity of a candidate's fields; 0 when either side has no position. */
function placeOf(sims: readonly FieldSim[]): number {
  const pos = sims.find(([f]) => f === 'pos');
  return pos && pos[2] === 1 ? pos[1] : 0;
}

/** At least this share of a candidate's neighbours are the remembered element's nearest ones (the `slot` similarity). */
const SLOT_KEPT = 0.5;

/**
 * Whether a candidate stands where the remembered element stood: at its spot (`pos` at least
 * {@link PLACE_KEPT}) between the neighbours it had (`slot` at least {@link SLOT_KEPT}; known only
 * with recorded `peers`).
 */
function holdsPlace(sims: readonly FieldSim[]): boolean {
  return placeOf(sims) >= PLACE_KEPT && simOf(sims, 'slot') >= SLOT_KEPT;
}

/**
 * The candidate of the remembered tag that holds the remembered place ({@link holdsPlace}) and is
 * proposed on its own (at least {@link DRIFTED_AT}), other than the element `d` and not nested in
 * or around it: the remembered element renamed in its place, when one is.
 */
function placeHolder<T extends Scored>(old: Descriptor, ranked: readonly T[], d: Descriptor): T | undefined {
  if (!old.peers?.length) return undefined;
  return ranked.find((r) => r.descriptor.tag === old.tag && r.score >= DRIFTED_AT && !nested(r.descriptor, d) && holdsPlace(r.sims));
}

/** A text that holds another, longer than it (case and spacing ignored). */
function containsOther(text: string | undefined, inner: string | undefined): boolean {
  const t = fold(text).toLowerCase();
  const i = fold(inner).toLowerCase();
  return i !== '' && t !== i && t.includes(i);
}

/**
 * Whether an element the exact target found is still the remembered one (`checkExact`). It is
 * not when it is recognisably one of the remembered element's peers, when it scores below
 * {@link DRIFTED_AT} against it (the score without contrast, as for a remembered field), or when
 * it scores under {@link EXACT_SURE} and another candidate of the page scores more than
 * {@link EXACT_MARGIN} higher: the target now names something else (a positional target after a
 * list was reordered, a text that became part of another element's). When the remembered element
 * had twins (or the match has twins on the page now), its context told it apart: the match may not stand in a remembered twin's place
 * (`twinPlaces`), and its row (else heading, else the text around it) must still be the
 * remembered one's (similarity at least {@link DRIFTED_AT}). A match whose text only contains
 * the remembered text must score at least {@link ACT_AT}. `ranked`
 * gives the page's ranked candidates, asked only when needed: to decide, or to say in a refusal
 * which other element is most like the remembered one ({@link ExactVerdict}).
 */
export function checkExactMatch<E>(old: Descriptor, exact: ExactMatch<E>, ranked: () => Scored<E>[], opts: RepairOptions = {}): ExactVerdict<E> {
  const W = weightsFor(old, opts.weights ?? WEIGHTS);
  const d = exact.descriptor;
  const sims = fieldSims(old, d, W.tagFamily);
  const score = combine(sims, plain(W));
  // The page's candidates are read once, and only when needed: to decide, or to propose another.
  let all: Scored<E>[] | undefined;
  const page = (): { mine: Scored<E> | undefined; other: Scored<E> | undefined } => {
    all ??= ranked();
    const mine = all.find((r) => r.ref === exact.ref || nested(r.descriptor, d));
    return { mine, other: all.find((r) => r !== mine && !nested(r.descriptor, d)) };
  };
  const refuse = (why: 'peer' | 'low' | 'context' | 'action'): ExactVerdict<E> & { ok: false } => {
    const { other } = page();
    return { ok: false, score, why, ...(other && other.score >= DRIFTED_AT ? { better: other } : {}) };
  };
  if (isPeer(old, exact.key)) return refuse('peer');
  // In a remembered twin's place stands that twin (its row or card), not the remembered element.
  if (inTwinPlace(old, d.tag, exact.place)) return refuse('context');
  if (score < DRIFTED_AT) return refuse('low');
  // A name that now says another action names another button, whatever else it kept (§3).
  const action = anotherAction(old, d);
  if (action) return { ...refuse('action'), action };
  // A match whose text only contains the remembered one ("Recent orders" for a removed "Orders",
  // a new "Save draft" beside "Save" renamed "Apply") is a repair in disguise, and must score as a
  // repair must to be acted on. Recorded peers know which neighbour took the text, but not an
  // element added since: with them, one that kept the remembered place is still taken.
  if (score < ACT_AT && containsOther(d.text, old.text) && (!old.peers?.length || placeOf(sims) < PLACE_KEPT)) return refuse('low');
  // A match that kept less than half of the remembered place while another element of its tag
  // stands there, between the remembered neighbours (a pager's "Next" became "›" in its place; a
  // new header button says "Next"): the place says which one the remembered element is, the text
  // only what they share. One shifted by a look-alike added beside it kept most of its place.
  if (old.peers?.length && placeOf(sims) < PLACE_KEPT) {
    const { mine } = page();
    const { place } = namePlace(mine?.sims ?? sims);
    const holder = place !== undefined && place < KEPT_BELOW ? placeHolder(old, all!, d) : undefined;
    if (holder) return { ok: false, score, why: 'place', better: holder };
  }
  // Twins on the page now say the same as remembered ones: its text does not tell it apart, its
  // context must (a descriptor recorded without `record` knows no twins; the page does).
  const twins = !!old.twins || !!exact.twins;
  if (score >= EXACT_SURE && !twins) return { ok: true, score };
  const { mine, other } = page();
  if (twins) {
    // Read with the words' rarity among the candidates, as repair reads it: rows share most words.
    const ctx = twinContext(old);
    const sim = ctx ? ((mine?.sims ?? sims).find(([f]) => f === ctx)?.[1] ?? 0) : 1;
    if (sim < DRIFTED_AT) return refuse('context');
  }
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
 * The answer of a repair (§4) from the ranked candidates (see {@link rankCandidates}); `note`
 * says when the pool was cut. A found answer's `element` is the candidate's `ref`.
 */
export function verdict<E>(old: Descriptor, ranked: readonly Scored<E>[], note?: string): RepairOutcome<E> {
  const oldClean = withoutHandle(old);
  const best = ranked[0];
  const second = ranked[1];
  const bestScore = best ? round(best.score) : 0;
  const runnerUp = second ? round(second.score) : 0;
  const kind = answerKind(best?.score, second?.score);
  if (!best || kind === 'not-found') return { kind: 'not-found', bestScore, ...(note ? { note } : {}), elements: [] };
  if (kind === 'ambiguous') {
    const close = ranked.filter((r) => best.score - r.score <= GAP).slice(0, MAX_AMBIGUOUS);
    return {
      kind: 'ambiguous',
      candidates: close.map((c) => ({ descriptor: c.descriptor, score: round(c.score), changes: describeChanges(old, c.descriptor).changes })),
      old: oldClean,
      elements: close.map((c) => c.ref),
    };
  }
  const diff = describeChanges(old, best.descriptor);
  if (kind === 'drifted') {
    return { kind: 'drifted', candidate: best.descriptor, score: bestScore, runnerUp, old: oldClean, ...diff, ...(best.action ? { action: best.action } : {}), elements: [best.ref] };
  }
  return { kind: 'found', via: 'repair', element: best.ref, repair: { score: bestScore, runnerUp, old: oldClean, ...diff }, elements: [best.ref] };
}

/** The answer when a remembered field names one element that scores at least the floor. */
export function foundByField<E>(old: Descriptor, ref: E, found: Descriptor, score: number): RepairOutcome<E> {
  return { kind: 'found', via: 'descriptor', element: ref, repair: { score: round(score), runnerUp: 0, old: withoutHandle(old), ...describeChanges(old, found) }, elements: [ref] };
}
