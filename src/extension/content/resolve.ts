import { type AnswerOf, CommandFailure, DEFAULT_TIMEOUT_MS, type Descriptor, type RequestOf, type Target, targetFrame, withoutHandle } from '../../sdk/protocol/index.js';
import { describe } from './dom/describe.js';
import { enterFrames } from './frames.js';
import { cut, type TextIndex } from './dom/text.js';
import { formatTarget, q } from './explain.js';
import { handles } from './Handles.js';
import { refs } from './refs.js';
import { armOn } from './guard.js';
import { prepare, refuseFileInput } from './locate.js';
import { checkExactMatch, repair, type RepairOutcome } from './repairPage.js';
import { describeChanges } from './repair/changes.js';
import { anotherActionReason } from './repair/actions.js';
import { ACT_AT, DRIFTED_AT, GAP } from './repair/index.js';
import { ambiguousFailure, evaluate, missFailure, pickStep, plainNotFound, roleFilters, withHiddenFileInputs, type Evaluation, type Resolution } from './Resolver.js';
import { activity, documentSettled, done, pending, settle } from './settle.js';

/** Repair only looks at a settled DOM: loaded, and no mutations for this long (REPAIR-NOTES). */
export const REPAIR_QUIET_MS = 150;

type Outcome = Resolution | { kind: 'repair'; outcome: RepairOutcome };

/**
 * `resolve`: waits until the target names exactly one visible element and describes it, with
 * a handle for `locate`/`act`. With a remembered descriptor, and only when the exact target
 * finds nothing on a settled DOM, the repair hook is asked once; when it declines, resolve
 * keeps waiting for the exact target. If the DOM never settles within the timeout, repair is
 * asked once at the deadline instead (there is nothing left to wait for then).
 */
export async function resolve(req: RequestOf<'resolve'>): Promise<AnswerOf<'resolve'>> {
  const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = performance.now() + timeoutMs;
  const found = await find(req, timeoutMs);
  if (!req.prepare) return found.answer;
  // The input guard is armed for the steps that send keys and text (type, fill, press).
  if (req.guard === 'input') refuseFileInput(found.element);
  // One budget for finding and readying the element, as one step of a person's.
  // A fresh step trusts a still page to be still (locate, which a stopped click retries
  // through, always waits a frame). Whole ms: the time left is what a failure says it waited.
  const { point, receiver } = await prepare(found.element, req.prepare, Math.max(1, Math.round(deadline - performance.now())), { trustStill: true });
  // Armed last, once nothing can fail any more, so a step that fails here leaves no guard armed.
  // Only in the top document: the runner's later guard ops go there (an element in a frame,
  // also one whose cross-site frame's own script answers here, is not armed). Nor an input whose
  // value `fill` sets with an act: no trusted input follows for the guard to judge.
  const guarded = req.guard !== undefined && !point.setsValue && found.answer.descriptor.frame === undefined && window.top === window && found.element.ownerDocument === document;
  // The guard watches what the input reaches: the element, or what holds one clicked through.
  return { ...found.answer, point, ...(guarded ? { guard: armOn(receiver, req.guard!, req.verdict) } : {}) };
}

async function find(req: RequestOf<'resolve'>, timeoutMs: number): Promise<{ answer: AnswerOf<'resolve'>; element: Element }> {
  const { target, descriptor } = req;
  let repairTried = false;
  const repairable = (ev: Evaluation): boolean =>
    descriptor !== undefined && !repairTried && !ev.blocked && ev.visible.length === 0 && ev.hidden.length === 0;
  const repairNow = () => repair(descriptor!, { doc: documentOf(target), role: target.role?.toLowerCase(), holds: roleFilters(target) });

  const step = await settle<Outcome, Evaluation>(() => {
    const ev = req.hiddenFileInput ? withHiddenFileInputs(evaluate(target)) : evaluate(target);
    const s = pickStep(target, ev);
    if (s.done || !repairable(ev)) return s;
    if (!documentSettled(REPAIR_QUIET_MS)) return pending(ev, Math.max(1, REPAIR_QUIET_MS - activity.quietMs() + 1));
    repairTried = true;
    const outcome = repairNow();
    return outcome ? done({ kind: 'repair', outcome }) : s;
  }, timeoutMs);

  let outcome: Outcome;
  if (step.done) outcome = step.value;
  else {
    const last = step.last;
    const late = repairable(last) ? repairNow() : undefined;
    if (!late) throw missFailure(target, last, timeoutMs);
    outcome = { kind: 'repair', outcome: late };
  }

  switch (outcome.kind) {
    case 'one':
      if (descriptor && req.checkExact) checkExact(target, descriptor, outcome.element);
      return {
        answer: {
          id: req.id,
          ok: true,
          descriptor: described(outcome.element, target, req.record, outcome.texts),
          matches: outcome.matches,
          repaired: false,
          via: 'exact',
        },
        element: outcome.element,
      };
    case 'ambiguous':
      throw ambiguousFailure(target, outcome.ev);
    case 'repair':
      return repairAnswer(req.id, target, descriptor!, outcome.outcome, req.record);
  }
}

/** The document a target is looked for in: its frame's, or the page's. Repair looks in the same one. */
function documentOf(target: Target): Document {
  const frame = targetFrame(target);
  if (frame === undefined) return document;
  const f = enterFrames(frame);
  return f.kind === 'found' ? f.doc : document;
}

export function described(el: Element, target: Target, record: boolean | undefined, texts?: TextIndex): Descriptor {
  const frame = target.ref !== undefined ? refs.frameOf(target.ref) : targetFrame(target);
  return { ...describe(el, { frame, record: record === true, ...(texts ? { texts } : {}) }), handle: handles.handleOf(el) };
}

/**
 * With a remembered descriptor, an exact match that is no longer the remembered element is
 * refused (locator-repair.md §1): the target now names another element.
 */
export function checkExact(target: Target, old: Descriptor, el: Element): void {
  const verdict = checkExactMatch(old, el);
  if (verdict.ok) return;
  const candidate = describe(el, { frame: targetFrame(target) });
  const diff = describeChanges(old, candidate);
  const round = (x: number): number => Math.round(x * 1000) / 1000;
  const score = round(verdict.score);
  const words = (d: Descriptor): string => q(d.text ?? d.name ?? d.tag);
  // Twins say the same: where each stands tells them apart (its row, else its heading, as checkExact reads it).
  const placeOf = (d: Descriptor): string => (d.context?.row ? ` in the row ${q(cut(d.context.row, 60))}` : d.context?.heading ? ` under ${q(cut(d.context.heading, 60))}` : '');
  const what = words(candidate);
  // Twins are told apart by their row: a twin in another row than the remembered one (its row read
  // with the words' rarity, as checkExact reads it) is no more the remembered element than the
  // refused match is, and is not offered as it.
  const rowGone = verdict.why === 'context' && old.context?.row !== undefined && verdict.better !== undefined && (verdict.better.sims.find(([f]) => f === 'row')?.[1] ?? 1) < DRIFTED_AT;
  const better = rowGone ? undefined : verdict.better;
  const betterChanges = better ? describeChanges(old, better.descriptor) : undefined;
  const why =
    verdict.why === 'peer'
      ? `${what}, one of the elements remembered beside the one it named`
      : verdict.why === 'action'
        ? `${what}: ${anotherActionReason(verdict.action!)}`
      : verdict.why === 'context'
        ? `${what}, which has the remembered element's text but not its place (its row, card or heading differs; ${old.twins} other elements shared that text)`
        : verdict.why === 'better'
        ? `${what}, which scores ${score.toFixed(2)} against the element remembered for it while ${words(better!.descriptor)} scores ${better!.score.toFixed(2)}`
        : verdict.why === 'place'
        ? `${what}, which stands elsewhere, while ${words(better!.descriptor)} stands where the remembered element stood, between the neighbours it had (score ${better!.score.toFixed(2)}; changed: ${betterChanges!.changes.join('; ') || 'nothing it remembers'})`
        : `${what}, which scores ${score.toFixed(2)} against the element remembered for it`;
  // The refused match is never offered as the answer: the element most like the remembered one
  // is, with what changed, or the refusal says that nothing else resembles it.
  const elsewhere = rowGone
    ? ` The remembered row, ${q(cut(old.context!.row!, 60))}, is not on the page any more (moved to another page of the list, filtered out or removed): no element here is the remembered one.`
    : !better
    ? ' Nothing else on the page resembles the remembered element.'
    : verdict.why === 'better' || verdict.why === 'place'
      ? ''
      : ` The element most like the remembered one is ${words(better.descriptor)}${placeOf(better.descriptor)} (score ${better.score.toFixed(2)}; changed: ${betterChanges!.changes.join('; ') || 'nothing it remembers'}); it was not acted on either.`;
  throw new CommandFailure(
    'drifted',
    `${formatTarget(target)} now finds ${why} (changed: ${diff.changes.join('; ') || diff.changed.join(', ') || 'nothing it remembers'}): the target seems to name another element now (a reordered list, a text that became part of another). Nothing was done.${elsewhere} Make the target name the element you mean; if the page changed on purpose, remove the target's entry from the lock file.`,
    {
      target,
      candidate,
      score,
      runnerUp: better ? round(better.score) : 0,
      old: withoutHandle(old),
      ...diff,
      exact: true,
      ...(better ? { better: better.descriptor, betterChanges: betterChanges!.changes } : {}),
      ...(verdict.action ? { action: { now: verdict.action.now, was: verdict.action.was } } : {}),
    },
  );
}

/**
 * Why repair chose none of its closest candidates, from the scores the failure's detail carries:
 * each one's score, and that they are within the gap of the best (locator-repair.md §4).
 */
function ambiguousRepairMessage(target: Target, candidates: readonly { descriptor: Descriptor; score: number }[]): string {
  const scores = candidates.map((c) => `${q(c.descriptor.text ?? c.descriptor.name ?? c.descriptor.tag)} (${c.descriptor.tag}) ${c.score.toFixed(2)}`);
  const best = candidates[0]!.score;
  const spread = best - candidates[candidates.length - 1]!.score;
  const close = spread === 0 ? `${candidates.length} elements score the same against the remembered one` : `${candidates.length} elements are within ${GAP.toFixed(2)} of the best score against the remembered one`;
  return `Nothing matches ${formatTarget(target)} any more, and ${close} (${scores.join(', ')}): a repair needs its best ahead of every other by more than ${GAP.toFixed(2)}, so none is chosen. Update the target.`;
}

function repairAnswer(id: number, target: Target, old: Descriptor, o: RepairOutcome, record: boolean | undefined): { answer: AnswerOf<'resolve'>; element: Element } {
  switch (o.kind) {
    case 'found':
      return { answer: { id, ok: true, descriptor: described(o.element, target, record), matches: 1, repaired: true, via: o.via, repair: o.repair }, element: o.element };
    case 'drifted': {
      // Another action is refused whatever the score: the words say why, the score would not.
      const why = o.action
        ? `, but ${anotherActionReason(o.action)}: it is never acted on in its place`
        : `, too little to act on (a repair acts from ${ACT_AT.toFixed(2)}, and only what it acts on is proposed for the lock file: --update-lock does not take this one)`;
      const named = suggestedTarget(o.candidate);
      const fix = named && !o.action ? ` If it is the element you mean, make the target name it (${named}).` : ' Check it and update the target.';
      throw new CommandFailure(
        'drifted',
        `Nothing matches ${formatTarget(target)} any more; the closest element, ${q(o.candidate.text ?? o.candidate.name ?? o.candidate.tag)}, scores ${o.score.toFixed(2)} against the remembered one (changed: ${o.changes.join('; ') || o.changed.join(', ')})${why}.${fix}`,
        { target, candidate: o.candidate, score: o.score, runnerUp: o.runnerUp, old: o.old, changed: o.changed, changes: o.changes, ...(o.action ? { action: { now: o.action.now, was: o.action.was } } : {}) },
      );
    }
    case 'ambiguous':
      throw new CommandFailure('ambiguous', ambiguousRepairMessage(target, o.candidates), { target, repair: true, candidates: o.candidates, old: o.old });
    case 'not-found': {
      const base = plainNotFound(target, 'the page had settled');
      const note = o.note ? ` ${o.note}` : '';
      const named = (d: Descriptor): string => `${q(d.text ?? d.name ?? d.tag)} (${d.role ?? d.tag})`;
      const closest = o.closest ? `: ${named(o.closest.descriptor)}, changed: ${o.closest.changes.join('; ') || 'nothing it remembers'}` : '';
      const other = o.otherRole
        ? ` The element most like it, ${named(o.otherRole.descriptor)}, scores ${o.otherRole.score.toFixed(2)} but has the role ${q(o.otherRole.descriptor.role ?? o.otherRole.descriptor.tag)}, not ${q(target.role!)} (changed: ${o.otherRole.changes.join('; ') || 'nothing it remembers'}): a role target is never repaired to another role. If the page changed its role on purpose, update the target's role.`
        : '';
      throw new CommandFailure(
        'not-found',
        `${base.message} Repair from the remembered element found nothing close enough (best score ${o.bestScore.toFixed(2)}${closest}).${other}${note}`,
        {
          ...base.detail,
          repairTried: true,
          bestScore: o.bestScore,
          ...(o.note ? { note: o.note } : {}),
          old,
          ...(o.closest ? { closest: o.closest.descriptor } : {}),
          ...(o.otherRole ? { otherRole: { descriptor: o.otherRole.descriptor, score: o.otherRole.score, changes: o.otherRole.changes } } : {}),
        },
      );
    }
  }
}

/** A target that names `d` as a person would write it: its role and name, else its text. */
function suggestedTarget(d: Descriptor): string | undefined {
  if (d.role && d.name) return `{ role: ${JSON.stringify(d.role)}, name: ${JSON.stringify(cut(d.name, 60))} }`;
  if (d.text) return `{ text: ${JSON.stringify(cut(d.text, 60))} }`;
  return undefined;
}
