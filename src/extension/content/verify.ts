import { type AnswerOf, CommandFailure, DEFAULT_TIMEOUT_MS, type RequestOf, type Target, withinTarget } from '../../sdk/protocol/index.js';
import { deepActiveElement } from './dom/query.js';
import { xpathOf } from './dom/xpath.js';
import { checkableOf, checkState, expandedState, isEditable, isEnabled, isInvalid, isPressed, isSelected } from './dom/state.js';
import { cut, excerptAround, findFolded, fold, matchText, visibleText } from './dom/text.js';
import { controlValue, readableText, valueWords } from './dom/value.js';
import { formatTarget, q } from './explain.js';
import { firstNumber, sameNumber } from './number.js';
import { ambiguousFailure, blockedEvaluation, evaluate, missFailure, pickStep, scopeOf, type Evaluation, type Within } from './Resolver.js';
import { done, pending, settle, type Step } from './settle.js';
import { checkExact, described } from './resolve.js';

type VerifyRequest = RequestOf<'verify'>;
type ElementState = Extract<VerifyRequest, { kind: 'state' }>['state'];

const FOUND_TEXT_MAX = 300;

/** What one look at the page showed for a verify. */
interface Seen {
  holds: boolean;
  /** The wire `found`: what the page showed (text, value, state, count, url, number). */
  found: unknown;
  /** The one element looked at, outlined in the failure's picture. */
  element?: Element;
}

/** Why a verify could not look yet: its target (or, without one, its region) is missing. */
interface Unresolved {
  target?: Target;
  ev: Evaluation;
}

type Look = { seen: Seen } | { unresolved: Unresolved; recheckInMs?: number | undefined };

/** Checks the one element a verify looks at against the lock file's memory of it; throws `drifted`. */
type LockCheck = (el: Element) => void;

/**
 * `verify`: re-checks until the condition holds (or, with `negate`, does not), else
 * `mismatch` with what was expected and what the page showed last.
 *
 * Matching choices: `text` and `targetText` look for the value in the visible text with case
 * and whitespace ignored (the page's "1 MALLBUCKS" passes for "1 mallbucks", and line breaks do
 * not matter); `targetText` with `exact` wants the whole text, case kept, spacing folded (as
 * Playwright's toHaveText); `title` is the same rule on the title. `url` is a plain case-sensitive substring
 * of location.href (paths are case-sensitive). `value` is exact equality (a select also passes
 * on its chosen option's label). `count` counts visible matches. A target that must name one
 * element (targetText, value, state other than visible/hidden, numberChange) fails as
 * not-found/ambiguous, not mismatch, when it does not.
 */
export async function verify(req: VerifyRequest): Promise<AnswerOf<'verify'>> {
  const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const negate = req.negate === true;
  const locked = lockCheckOf(req);
  const step = await settle<Seen, Look>((): Step<Seen, Look> => {
    const look = lookOnce(req, locked);
    if ('unresolved' in look) return pending(look, look.recheckInMs);
    return look.seen.holds !== negate ? done(look.seen) : pending(look);
  }, timeoutMs);
  if (step.done) {
    const { found, element } = step.value;
    const record = 'record' in req && req.record === true && element !== undefined;
    return { id: req.id, ok: true, found, ...(record ? { descriptor: described(element, withinTarget(req.target, 'within' in req ? req.within : undefined), true) } : {}) };
  }
  const last = step.last;
  if ('unresolved' in last) {
    const { target, ev } = last.unresolved;
    if (target) throw missFailure(target, ev, timeoutMs);
    throw new CommandFailure(ev.blocked!.reason, `${ev.blocked!.message} (waited ${timeoutMs} ms)`, ev.blocked!.detail);
  }
  const expected = expectedOf(req);
  throw new CommandFailure(
    'mismatch',
    `Expected ${subjectOf(req)} ${negate ? 'not ' : ''}${expectedWords(req)}, but found ${words(last.seen.found)} (waited ${timeoutMs} ms).`,
    {
      expected,
      found: last.seen.found,
      ...(negate ? { negate: true } : {}),
      // Outlined in the failure's picture (the outline finds top-document elements by xpath).
      ...(last.seen.element && last.seen.element.ownerDocument === document ? { element: { tag: last.seen.element.localName, xpath: xpathOf(last.seen.element) } } : {}),
    },
  );
}

/**
 * The lock file's check of a verify's one element, as an act's (locator-repair.md §1): a verify
 * that would pass on another element than the remembered one (a column that moved, a label
 * that went to the box beside) fails as `drifted`. Each element is checked once per verify.
 */
function lockCheckOf(req: VerifyRequest): LockCheck | undefined {
  if (!('checkExact' in req) || req.checkExact !== true || req.descriptor === undefined) return undefined;
  const old = req.descriptor;
  const target = withinTarget(req.target, 'within' in req ? req.within : undefined);
  const passed = new WeakSet<Element>();
  return (el) => {
    if (passed.has(el)) return;
    checkExact(target, old, el);
    passed.add(el);
  };
}

function lookOnce(req: VerifyRequest, locked: LockCheck | undefined): Look {
  switch (req.kind) {
    case 'exists': {
      const ev = evaluate(req.target, { within: req.within });
      if (ev.blocked) return { unresolved: { target: withinTarget(req.target, req.within), ev } };
      const n = ev.visible.length;
      return { seen: { holds: n > (req.target.nth ?? 0), found: n } };
    }
    case 'text': {
      const text = regionText(req.within);
      if (typeof text !== 'string') return text;
      const hit = findFolded(text, req.value);
      return { seen: { holds: hit !== undefined, found: hit ?? excerptAround(text, req.value, FOUND_TEXT_MAX) } };
    }
    case 'targetText':
      return withOne(req.target, req.within, locked, (el) => {
        const text = readableText(el);
        if (req.exact) return { holds: fold(text) === fold(req.value), found: cut(fold(text), FOUND_TEXT_MAX) };
        return { holds: findFolded(text, req.value) !== undefined, found: excerptAround(text, req.value, FOUND_TEXT_MAX) };
      });
    case 'value':
      return withOne(req.target, undefined, locked, (el) => {
        const value = controlValue(el);
        if (value === undefined) return { holds: false, found: null };
        return { holds: value === req.value || valueWords(el).includes(req.value), found: value };
      });
    case 'state':
      return stateLook(req.target, req.state, locked);
    case 'count': {
      const target: Target = { ...req.target };
      delete target.nth;
      const ev = evaluate(target, { within: req.within });
      if (ev.blocked) return { unresolved: { target: withinTarget(target, req.within), ev } };
      return { seen: { holds: ev.visible.length === req.value, found: ev.visible.length } };
    }
    case 'url':
      return { seen: { holds: location.href.includes(req.value), found: location.href } };
    case 'title': {
      const title = fold(document.title);
      return { seen: { holds: matchText(title, req.value, false) !== undefined, found: title } };
    }
    case 'numberChange':
      return withOne(req.target, undefined, locked, (el) => {
        const text = fold(readableText(el));
        const n = firstNumber(text);
        return { holds: n !== undefined && sameNumber(n, req.from + req.by), found: n ?? cut(text, FOUND_TEXT_MAX) };
      });
  }
}

/**
 * Looks at the one element a target names (a hidden one when none is visible, as a read does);
 * an ambiguous target fails the verify at once.
 */
function withOne(target: Target, within: Within | undefined, locked: LockCheck | undefined, see: (el: Element) => Seen): Look {
  const ev = evaluate(target, { within });
  const s = pickStep(target, ev, { hidden: true });
  if (!s.done) return { unresolved: { target: withinTarget(target, within), ev }, recheckInMs: s.recheckInMs };
  if (s.value.kind === 'ambiguous') throw ambiguousFailure(withinTarget(target, within), s.value.ev);
  locked?.(s.value.element);
  return { seen: { ...see(s.value.element), element: s.value.element } };
}

function stateLook(target: Target, state: ElementState, locked: LockCheck | undefined): Look {
  if (state === 'visible' || state === 'hidden') {
    const ev = evaluate(target);
    if (ev.blocked) return state === 'hidden' ? { seen: { holds: true, found: 'hidden' } } : { unresolved: { target, ev } };
    const shown = ev.visible.length > (target.nth ?? 0);
    return { seen: { holds: shown === (state === 'visible'), found: shown ? 'visible' : 'hidden' } };
  }
  return withOne(target, undefined, locked, (el) => {
    switch (state) {
      case 'checked':
      case 'unchecked': {
        const box = checkableOf(el);
        const c = box ? checkState(box) : undefined;
        if (!c) return { holds: false, found: 'not checkable' };
        return { holds: c.checked === (state === 'checked'), found: c.checked ? 'checked' : 'unchecked' };
      }
      case 'enabled':
      case 'disabled': {
        const enabled = isEnabled(el);
        return { holds: enabled === (state === 'enabled'), found: enabled ? 'enabled' : 'disabled' };
      }
      case 'focused': {
        const focused = deepActiveElement() === el;
        return { holds: focused, found: focused ? 'focused' : 'not focused' };
      }
      case 'editable': {
        const editable = isEditable(el);
        return { holds: editable, found: editable ? 'editable' : 'not editable' };
      }
      case 'valid':
      case 'invalid': {
        const invalid = isInvalid(el);
        return { holds: invalid === (state === 'invalid'), found: invalid ? 'invalid' : 'valid' };
      }
      case 'selected': {
        const selected = isSelected(el);
        return { holds: selected, found: selected ? 'selected' : 'not selected' };
      }
      case 'pressed': {
        const pressed = isPressed(el);
        return { holds: pressed, found: pressed ? 'pressed' : 'not pressed' };
      }
      case 'expanded':
      case 'collapsed': {
        const expanded = expandedState(el);
        if (expanded === undefined) return { holds: false, found: 'neither expanded nor collapsed (it has no aria-expanded)' };
        return { holds: expanded === (state === 'expanded'), found: expanded ? 'expanded' : 'collapsed' };
      }
    }
  });
}

/** The visible text of the page, or of the regions `within` names (joined by " | "). */
function regionText(within: Within | undefined): string | Look {
  if (within === undefined) return visibleText(document.body ?? document.documentElement);
  const scopes = scopeOf(within);
  if ('reason' in scopes) {
    return { unresolved: { ev: blockedEvaluation(scopes) } };
  }
  return scopes.map((s) => visibleText(s)).join(' | ');
}


function expectedOf(req: VerifyRequest): unknown {
  switch (req.kind) {
    case 'exists':
      return 'exists';
    case 'state':
      return req.state;
    case 'numberChange':
      return req.from + req.by;
    default:
      return req.value;
  }
}

function subjectOf(req: VerifyRequest): string {
  const inside = 'within' in req && req.within !== undefined ? ` within ${typeof req.within === 'string' ? q(req.within) : `(${formatTarget(req.within)})`}` : '';
  switch (req.kind) {
    case 'exists':
      return `${formatTarget(req.target)}${inside} to`;
    case 'text':
      return `the page${inside} to`;
    case 'targetText':
      return `the text of ${formatTarget(req.target)}${inside} to`;
    case 'value':
      return `the value of ${formatTarget(req.target)} to`;
    case 'state':
      return `${formatTarget(req.target)} to`;
    case 'count':
      return `the number of visible elements matching ${formatTarget(req.target)}${inside} to`;
    case 'url':
      return 'the URL to';
    case 'title':
      return 'the title to';
    case 'numberChange':
      return `the number in ${formatTarget(req.target)} to`;
  }
}

function expectedWords(req: VerifyRequest): string {
  switch (req.kind) {
    case 'exists':
      return 'exist (visible)';
    case 'targetText':
      return `${req.exact ? 'be exactly' : 'contain'} ${q(req.value)}`;
    case 'text':
    case 'url':
    case 'title':
      return `contain ${q(req.value)}`;
    case 'value':
      return `be ${q(req.value)}`;
    case 'state':
      return `be ${req.state}`;
    case 'count':
      return `be ${req.value}`;
    case 'numberChange':
      return `be ${req.from + req.by} (${req.from} ${req.by < 0 ? '-' : '+'} ${Math.abs(req.by)})`;
  }
}

function words(found: unknown): string {
  if (found === null || found === undefined) return 'no value (not a form control)';
  return typeof found === 'string' ? q(found) : String(found);
}
