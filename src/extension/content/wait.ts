import { type AnswerOf, CommandFailure, DEFAULT_TIMEOUT_MS, type RequestOf, type Target } from '../../sdk/protocol/index.js';
import { cut, fold } from './dom/text.js';
import { readableText } from './dom/value.js';
import { formatTarget, q } from './explain.js';
import { ambiguousFailure, evaluate, pickStep, resolveOne } from './Resolver.js';
import { done, pending, settle, type Step } from './settle.js';

type WaitRequest = RequestOf<'wait'>;

/**
 * `wait`: until a target has a visible match (`visible`, any number of them: waiting for a
 * toast does not care that two are shown), has none (`gone`: a missing frame or region
 * counts as gone), until the one element it names shows another text than when the wait
 * started (`textChanges`), or until location.href contains a string (`url`). Else `timeout`.
 */
export async function wait(req: WaitRequest): Promise<AnswerOf<'wait'>> {
  const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = performance.now() + timeoutMs;
  const target = req.target;
  let expected: string;
  let check: () => Step<unknown, unknown>;

  switch (req.kind) {
    case 'visible':
    case 'gone': {
      const t = need(target, req.kind);
      const want = req.kind === 'visible';
      expected = want ? `${formatTarget(t)} to be visible` : `${formatTarget(t)} to be gone (no visible match)`;
      check = () => {
        const ev = evaluate(t);
        const n = ev.blocked ? 0 : ev.visible.length;
        const shown = n > (t.nth ?? 0);
        return shown === want ? done(n) : pending(n);
      };
      break;
    }
    case 'textChanges': {
      const t = need(target, req.kind);
      const start = await resolveOne(t, timeoutMs, undefined, { hidden: true });
      const before = fold(readableText(start.element));
      expected = `the text of ${formatTarget(t)} to change from ${q(cut(before, 100))}`;
      check = () => {
        const ev = evaluate(t);
        const s = pickStep(t, ev, { hidden: true });
        if (!s.done) return pending(undefined, s.recheckInMs);
        if (s.value.kind === 'ambiguous') throw ambiguousFailure(t, s.value.ev);
        const now = fold(readableText(s.value.element));
        return now !== before ? done(now) : pending(now);
      };
      break;
    }
    case 'url': {
      const contains = req.contains ?? '';
      expected = `the URL to contain ${q(contains)}`;
      check = () => (location.href.includes(contains) ? done(location.href) : pending(location.href));
      break;
    }
  }

  const step = await settle(check, Math.max(0, deadline - performance.now()));
  if (step.done) return { id: req.id, ok: true, found: step.value };
  const found = step.last;
  throw new CommandFailure(
    'timeout',
    `Waited ${timeoutMs} ms for ${expected}; it did not happen${found === undefined ? '' : ` (last seen: ${typeof found === 'string' ? q(cut(found, 100)) : String(found)}${typeof found === 'number' ? ' visible' : ''})`}. Raise timeoutMs if the page is slow.`,
    { expected, ...(found === undefined ? {} : { found }) },
  );
}

// The schema's refinement guarantees a target for these kinds; a bad request still fails clearly.
function need(target: Target | undefined, kind: string): Target {
  if (!target) throw new CommandFailure('unsupported', `wait ${kind} needs a target.`);
  return target;
}
