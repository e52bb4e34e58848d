import type { ResultOf, RequestOf, Target } from '../protocol/index.js';
import { optionNames, withOptions } from '../errors/parseOptions.js';
import type { ResultSend } from './Channel.js';
import { toTarget, type TargetInput } from './types.js';

/**
 * The region a check looks in: a target (a string is its text), e.g. a form or a dialog.
 *
 * @example
 * ```ts
 * import type { Session, Within } from 'aite';
 *
 * declare const session: Session;
 * const transfer: Within = { role: 'dialog', name: 'Transfer' };
 * await session.verify.text('Sent', { within: transfer });
 * await session.verify.count({ role: 'listitem' }, 3, { within: 'Recent transfers' });
 * ```
 * @public
 */
export type Within = string | Target;
/**
 * Options every check takes.
 *
 * @example
 * ```ts
 * import type { Session, VerifyOptions } from 'aite';
 *
 * declare const session: Session;
 * const gone: VerifyOptions = { negate: true, timeoutMs: 10_000 };
 * await session.verify.exists({ text: 'Sending...' }, gone);
 * ```
 * @public
 */
export interface VerifyOptions {
  /** Pass when the condition does NOT hold. */
  negate?: boolean;
  /** How long the page may take to get there. */
  timeoutMs?: number;
}
/**
 * The states {@link Verify.state} checks: `visible`, `hidden`, `enabled`, `disabled`, `checked`,
 * `unchecked` and the like, exactly as the protocol's `verify` request names them.
 *
 * @example
 * ```ts
 * import type { Session, VerifyState } from 'aite';
 *
 * declare const session: Session;
 * const ready: VerifyState = 'enabled';
 * await session.verify.state({ role: 'button', name: 'Send' }, ready);
 * ```
 * @public
 */
export type VerifyState = RequestOf<'verify'> extends infer R ? (R extends { kind: 'state'; state: infer S } ? S : never) : never;

/**
 * Checks on the page. Each method sends one `verify` request; the page is re-checked until the
 * condition holds or `timeoutMs` passes, then a `mismatch` names what was expected and found.
 *
 * @example
 * ```ts
 * import type { Session } from 'aite';
 *
 * declare const session: Session;
 * await session.verify.text('4 MALLBUCKS');
 * await session.verify.value({ label: 'Amount' }, '4');
 * await session.verify.count({ css: 'li.transfer' }, 3);
 * await session.verify.state({ role: 'button', name: 'Send' }, 'disabled');
 * await session.verify.url('/sent');
 * await session.verify.exists({ text: 'Error' }, { negate: true });
 * ```
 * @public
 */
export class Verify {
  /** @internal */
  constructor(private readonly send: ResultSend) {}

  /** The target exists (is visible). */
  exists(target: TargetInput, options: VerifyOptions & { within?: Within } = {}): Promise<ResultOf<'verify'>> {
    return withOptions('verify.exists', options, IN_REGION, (o) => this.send({ cmd: 'verify', kind: 'exists', target: toTarget(target), ...wireWithin(o) }));
  }

  /** The page, or a region named by `within`, shows `value`. */
  text(value: string, options: VerifyOptions & { within?: Within } = {}): Promise<ResultOf<'verify'>> {
    return withOptions('verify.text', options, IN_REGION, (o) => this.send({ cmd: 'verify', kind: 'text', value, ...wireWithin(o) }));
  }

  /** The target's text contains `value` (case and spacing ignored); with `exact`, is `value` (case kept, spacing folded). */
  targetText(target: TargetInput, value: string, options: VerifyOptions & { within?: Within; exact?: boolean } = {}): Promise<ResultOf<'verify'>> {
    return withOptions('verify.targetText', options, TARGET_TEXT, (o) => this.send({ cmd: 'verify', kind: 'targetText', target: toTarget(target), value, ...wireWithin(o) }));
  }

  /** A form control's value equals `value`. */
  value(target: TargetInput, value: string, options: VerifyOptions = {}): Promise<ResultOf<'verify'>> {
    return withOptions('verify.value', options, CHECK, (o) => this.send({ cmd: 'verify', kind: 'value', target: toTarget(target), value, ...o }));
  }

  /** The target is checked, unchecked, enabled, disabled, visible, hidden, focused, editable, valid, invalid, selected, expanded, collapsed or pressed, as a snapshot shows it. */
  state(target: TargetInput, state: VerifyState, options: VerifyOptions = {}): Promise<ResultOf<'verify'>> {
    return withOptions('verify.state', options, CHECK, (o) => this.send({ cmd: 'verify', kind: 'state', target: toTarget(target), state, ...o }));
  }

  /** Exactly `n` visible elements match the target. */
  count(target: TargetInput, n: number, options: VerifyOptions & { within?: Within } = {}): Promise<ResultOf<'verify'>> {
    return withOptions('verify.count', options, IN_REGION, (o) => this.send({ cmd: 'verify', kind: 'count', target: toTarget(target), value: n, ...wireWithin(o) }));
  }

  /** The tab's url contains `contains`. */
  url(contains: string, options: VerifyOptions = {}): Promise<ResultOf<'verify'>> {
    return withOptions('verify.url', options, CHECK, (o) => this.send({ cmd: 'verify', kind: 'url', value: contains, ...o }));
  }

  /** The tab's title contains `contains`. */
  title(contains: string, options: VerifyOptions = {}): Promise<ResultOf<'verify'>> {
    return withOptions('verify.title', options, CHECK, (o) => this.send({ cmd: 'verify', kind: 'title', value: contains, ...o }));
  }

  /** The first number in the target's text is `from + by`. */
  numberChange(target: TargetInput, change: { from: number; by: number }, options: VerifyOptions = {}): Promise<ResultOf<'verify'>> {
    return withOptions('verify.numberChange', options, CHECK, (o) => this.send({ cmd: 'verify', kind: 'numberChange', target: toTarget(target), ...change, ...o }));
  }
}

// The options each check takes, by name: another is refused before anything is sent (a script
// without types passes Playwright's `timeout` as readily as aite's `timeoutMs`).
const CHECK = optionNames<VerifyOptions>()(['negate', 'timeoutMs']);
const IN_REGION = optionNames<VerifyOptions & { within?: Within }>()(['negate', 'timeoutMs', 'within']);
const TARGET_TEXT = optionNames<VerifyOptions & { within?: Within; exact?: boolean }>()(['negate', 'timeoutMs', 'within', 'exact']);

/** A check's options with its region as it goes on the wire (see {@link toTarget}). */
function wireWithin<O extends { within?: Within }>(options: O): O {
  return options.within === undefined || typeof options.within === 'string' ? options : { ...options, within: toTarget(options.within) };
}
