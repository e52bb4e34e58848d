import { AiteError } from '../errors/AiteError.js';
import { framePath, type AnswerOf, type Descriptor, type GuardState, type Point } from '../protocol/index.js';
import type { Send } from './Channel.js';
import type { ArmedGuard } from './Input.js';
import { VERDICT_GRACE_MS, type VerdictWait } from './pipe/GuardVerdicts.js';

/** Typed text goes in chunks this long, the focus checked before each. */
const TYPE_CHUNK = 16;
/** How long the bridge waits for the disarm after input the page did not confirm (see HitGuard#once). */
const DISARM_AFTER_FAILURE_MS = 500;
/** The events that press: a drag stopped at its press is tried again (the page saw only moves). */
const PRESSES = new Set(['pointerdown', 'mousedown']);

/**
 * `pointer`: pointer events must reach the element. `input`: key and text events too, and the
 * focus must stay in it. `drag`: the press must reach the element, the release (or drop) `to`.
 */
export type GuardMode = 'pointer' | 'input' | 'drag';

/** What {@link HitGuard.around} takes beyond the element: see there. */
export interface GuardOptions {
  focused?: boolean;
  to?: Descriptor;
  /** The dispatch presses a button: a press that never reached the element's document fails the step. */
  presses?: boolean;
  /** The guard `resolve` armed on the element in its own round trip, and what it saw then. */
  armed?: ArmedGuard;
}

/** Where the guard's one-way verdicts are waited for (launch mode: the pipe's binding). */
export interface VerdictSource {
  expect(token: string): VerdictWait;
}

/**
 * Checks, between chunks of input, that nothing was stopped, the focus is still in the element
 * and its document is not leaving; answers the guard's state (undefined when no guard could be
 * armed). `typed` says how much of a text was sent so far, for the message when the document
 * left in the middle of it.
 */
export type GuardCheck = (typed?: TypedSoFar) => Promise<AnswerOf<'guard'> | undefined>;

/** How many characters of a typed text went before a check, of how many. */
export interface TypedSoFar {
  sent: number;
  total: number;
}

/**
 * Input over the pipe lands only on the element a step resolved. Around each dispatch the
 * content script's guard (the `guard` command) watches the element's window: an event that would
 * reach another element is stopped before the page sees it. Afterwards the step fails
 * `not-visible`, naming what was there instead; a pointer event that was stopped is tried once
 * more (counted), after `locate` says the element can be hit again. Nothing stopped was seen by
 * the page, so the second try never acts twice.
 */
export class HitGuard {
  constructor(
    private readonly send: Send,
    /** Counts the second try as a retry of the step. */
    private readonly countRetry: () => void,
    private readonly verdicts?: VerdictSource,
  ) {}

  /**
   * Runs `dispatch` at `at` with the guard armed on `descriptor`. `relocate` finds the point
   * again for the second try; `check` is handed to `dispatch` for typing in chunks. With
   * `focused`, the element must have the focus already when the guard is armed (fill); `to` is
   * where a drag's release must land. With `presses`, the dispatch presses a button, and a press
   * that never reached the element's document fails the step: it went to another document, which
   * the guard cannot watch. With `armed`, the first try uses the guard `resolve` armed in its own
   * round trip (the second arms its own).
   */
  async around(
    descriptor: Descriptor,
    mode: GuardMode,
    action: string,
    at: Point,
    dispatch: (at: Point, check: GuardCheck) => Promise<void>,
    relocate: () => Promise<Point>,
    options: GuardOptions = {},
  ): Promise<void> {
    const armed = options.armed?.mode === mode ? options.armed : undefined;
    const first = await this.#once(descriptor, mode, action, at, dispatch, options, armed);
    if (first === 'ok') return;
    this.countRetry();
    // The element must be reachable now (locate waits for that, or says what still covers it).
    const again = await relocate();
    const second = await this.#once(descriptor, mode, action, again, dispatch, options, undefined);
    if (second !== 'ok') throw second;
  }

  /**
   * Types `text` in chunks, checking before each chunk, and before the last character, that the
   * focus is still where it was and the document is not leaving: keys sent after a reload began
   * are lost with the page, and only the last one may start a navigation (Enter submitting).
   */
  static async typeChecked(text: string, type: (chunk: string) => Promise<void>, check: GuardCheck): Promise<void> {
    const chars = Array.from(text);
    const total = chars.length;
    for (let sent = 0; sent < total; ) {
      await check({ sent, total });
      const end = sent < total - 1 ? Math.min(sent + TYPE_CHUNK, total - 1) : total;
      await type(chars.slice(sent, end).join(''));
      sent = end;
    }
  }

  async #once(
    descriptor: Descriptor,
    mode: GuardMode,
    action: string,
    at: Point,
    dispatch: (at: Point, check: GuardCheck) => Promise<void>,
    options: GuardOptions,
    alreadyArmed: ArmedGuard | undefined,
  ): Promise<'ok' | AiteError> {
    // One guard watches one document: a drag from one frame into another goes unguarded.
    if (options.to && !sameFrame(options.to, descriptor)) return dispatch(at, unguarded).then(() => 'ok' as const);
    const armed =
      alreadyArmed?.state ??
      (await this.send({ cmd: 'guard', op: 'arm', mode, descriptor, ...(options.to ? { to: options.to } : {}) }).catch((error: unknown) => {
        if (error instanceof AiteError && error.reason === 'unsupported') return undefined;
        throw error;
      }));
    // A v1 extension cannot watch (it answers `unsupported`): the input goes as before.
    if (!armed?.armed) return dispatch(at, unguarded).then(() => 'ok' as const);
    // fill: resolve focused the field; it must still have the focus before the text goes.
    if (options.focused) {
      const problem = this.#problem(armed, mode, action, 'before-more');
      if (problem) {
        await this.#disarm(descriptor);
        throw problem;
      }
    }
    // How much of a typed text had gone at the last check: a dispatch that hangs after it may be
    // keys sent to a document on its way out.
    let typing: TypedSoFar | undefined;
    const check: GuardCheck = async (typed) => {
      typing = typed;
      const state = await this.send({ cmd: 'guard', op: 'check', descriptor }).catch((error: unknown) => {
        // The element's document (or its frame) went away while aite typed into it.
        if (typed && typed.sent > 0 && error instanceof AiteError && GONE.has(error.reason)) throw this.#left(action, typed, undefined, error);
        throw error;
      });
      if (!state.armed) {
        if (typed && typed.sent > 0) throw this.#left(action, typed, undefined);
        throw new AiteError('navigation', `${action} stopped: the page changed while aite gave it input, so the rest would go to another document; none of it was sent.`, { command: action });
      }
      if (typed && state.leaving) throw this.#left(action, typed, state.leaving.keys);
      const problem = this.#problem(state, mode, action, 'before-more');
      if (problem) throw problem;
      return state;
    };
    // The guard resolve armed reports the dispatch's last event one way, under the step's token;
    // by the input's acknowledgement it has mostly come, and no disarm is needed. Without it
    // (the events went to another document, or it is still on its way) the disarm asks: the
    // guard answers what it reported.
    const verdict = alreadyArmed?.verdict !== undefined ? this.verdicts?.expect(alreadyArmed.verdict) : undefined;
    let state: AnswerOf<'guard'> | GuardState | undefined;
    try {
      try {
        await dispatch(at, check);
      } catch (error) {
        // Keys sent to a frame on its way out are never confirmed: that is the document leaving,
        // not a busy page.
        const left = typing && error instanceof AiteError && error.reason === 'timeout' ? await this.#leftMeanwhile(descriptor, action, typing, error) : undefined;
        if (left) throw left;
        // The dispatch's own failure is the one to report, now: a page too busy to take the input
        // is too busy to answer the disarm too (the guard disarms itself after 30 s anyway). The
        // disarm still goes, to run once the page is free, but holds the next request briefly.
        void this.#disarm(descriptor, DISARM_AFTER_FAILURE_MS).catch(() => undefined);
        throw error;
      }
      state = (await verdict?.arrived(VERDICT_GRACE_MS)) ?? (await this.#disarm(descriptor));
    } finally {
      verdict?.cancel();
    }
    if (!state) return 'ok';
    if (options.presses && state.pressed === false && !state.intercepted) throw this.#missed(action, descriptor);
    if (options.presses && state.replacedBy) throw this.#replaced(action, state.replacedBy.element);
    if (options.presses && state.takenOut) throw this.#takenOut(action, state.takenOut.element);
    // The focus may move once the input is in (an app moving on to the next field): only input
    // that went elsewhere fails now.
    const problem = this.#problem(state, mode, action, 'done');
    if (!problem) return 'ok';
    // Only a stopped pointer event is tried again: the page saw none of it. Typed text that
    // went elsewhere, or a focus the page took, is the page's doing and fails the step; so does a
    // drag's stopped release (the page saw its press and moves).
    if (state.intercepted && (mode === 'pointer' || (mode === 'drag' && PRESSES.has(state.intercepted.event)))) return problem;
    throw problem;
  }

  /** Disarms; undefined when the document is gone (the input navigated it: it reached the page). */
  async #disarm(descriptor: Descriptor, timeoutMs?: number): Promise<AnswerOf<'guard'> | undefined> {
    try {
      const state = await this.send({ cmd: 'guard', op: 'disarm', descriptor, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
      return state.armed ? state : undefined;
    } catch (error) {
      if (error instanceof AiteError && (error.reason === 'navigation' || error.reason === 'tab-closed' || error.reason === 'not-found')) return undefined;
      throw error;
    }
  }

  /**
   * A press the element's document never saw: the browser sent it to another document, which the
   * guard cannot watch (an iframe the page put over the element; in a cross-site frame, the place
   * the frame was last drawn). What received it is unknown, so it is not sent again.
   */
  #missed(action: string, descriptor: Descriptor): AiteError {
    const where = descriptor.frame === undefined ? 'its page' : 'the iframe it is in';
    return new AiteError(
      'not-visible',
      `${action} did not reach its target: no press arrived in ${where}; the browser sent it to another document (an iframe over the element, or a frame that had just moved). aite cannot tell what received it, so it is not sent again; check the page before repeating it.`,
      { command: action, detail: { pressed: false } },
    );
  }

  /**
   * The page re-rendered the element between the press and the release: the release reached the
   * new copy, so the browser sent the click to neither. The page saw the press, so it is not sent
   * again.
   */
  #replaced(action: string, copy: string): AiteError {
    return new AiteError(
      'not-visible',
      `${action} did not reach its target: the press reached it, but the page drew a new copy of it (${copy}) before the release, so the browser sent the click to neither. The page saw the press, so aite does not send it again; check the page before repeating it.`,
      { command: action, detail: { pressed: true, replacedBy: copy } },
    );
  }

  /**
   * The page took the element out and put it back between the press and the release (a list
   * re-drawn from the nodes it keeps): both reached it, yet the browser sent no click. The page
   * saw the press and the release, so it is not sent again.
   */
  #takenOut(action: string, element: string): AiteError {
    return new AiteError(
      'not-visible',
      `${action} did not reach its target: the press and the release reached ${element}, but the page took it out and put it back in between (a re-render that keeps its elements), so the browser sent no click. The page saw the press, so aite does not send it again; check the page before repeating it, or wait for what the page re-draws to settle.`,
      { command: action, detail: { pressed: true, takenOut: element } },
    );
  }

  /**
   * The document typed into began to leave (a reload, a navigation away) before the text's last
   * character: what went after that is lost with it, and the rest is not sent. Never ok, and
   * never sent again (the page saw the first keys).
   */
  #left(action: string, typed: TypedSoFar, keys: number | undefined, cause?: AiteError): AiteError {
    const when = keys === undefined ? 'while aite typed into it' : `after ${keys} key stroke${keys === 1 ? '' : 's'} had reached the field`;
    const rest = typed.total - typed.sent;
    return new AiteError(
      'navigation',
      `${action} stopped after sending ${typed.sent} of ${typed.total} characters: the document of the field began to navigate away (it reloaded, or went to another page) ${when}, so what was typed after that is lost with it and the field on the new page does not hold the text; the remaining ${rest} ${rest === 1 ? 'was' : 'were'} not sent. Wait for the page to settle, then type the text again.`,
      { command: action, detail: { typed: typed.sent, of: typed.total, ...(keys !== undefined ? { reachedBeforeLeaving: keys } : {}) }, ...(cause ? { cause } : {}) },
    );
  }

  /**
   * After typed keys the page never confirmed: whether the field's document left meanwhile (then
   * that is the step's failure, said as such), asked briefly; undefined when it is still there.
   */
  async #leftMeanwhile(descriptor: Descriptor, action: string, typed: TypedSoFar, cause: AiteError): Promise<AiteError | undefined> {
    const state = await this.send({ cmd: 'guard', op: 'check', descriptor, timeoutMs: DISARM_AFTER_FAILURE_MS }).catch((error: unknown) => (error instanceof AiteError && GONE.has(error.reason) ? ('gone' as const) : undefined));
    if (!state || (state !== 'gone' && state.armed && !state.leaving)) return undefined;
    const keys = state !== 'gone' && state.leaving ? state.leaving.keys : undefined;
    const when = keys === undefined ? '' : ` after ${keys} key stroke${keys === 1 ? '' : 's'} had reached the field`;
    return new AiteError(
      'navigation',
      `${action} stopped: the document of the field began to navigate away (it reloaded, or went to another page)${when} while aite sent ${typed.sent === 0 ? `the ${typed.total} characters` : `the characters after the first ${typed.sent} of ${typed.total}`}; the page never confirmed them (a page on its way out takes no keys), so the text is lost with it and the field on the new page does not hold it; the rest were not sent. Wait for the page to settle, then type the text again.`,
      { command: action, detail: { typed: typed.sent, of: typed.total, dispatched: true, ...(keys !== undefined ? { reachedBeforeLeaving: keys } : {}) }, cause },
    );
  }

  #problem(state: GuardState, mode: GuardMode, action: string, phase: 'before-more' | 'done'): AiteError | undefined {
    if (state.intercepted) {
      const { element, xpath, event } = state.intercepted;
      const what =
        event === 'input'
          ? `the page moved the focus to ${element} and the text went there (text the browser inserts cannot be stopped)`
          : mode === 'drag' && !PRESSES.has(event)
            ? `${element} would have received the ${event} instead of the drop target (the page put it there while aite dragged); aite stopped the release before the page saw it, so nothing was dropped, but the page saw the press and the moves`
            : `${element} would have received the ${event} instead (the page put it there while aite acted); aite stopped the event before the page saw it`;
      return new AiteError('not-visible', `${action} did not reach its target: ${what}.`, {
        command: action,
        detail: { coveredBy: { element, ...(xpath ? { xpath } : {}) }, event },
      });
    }
    if (mode !== 'input' || phase === 'done') return undefined;
    if (state.focusTakenBy) {
      const { element, xpath } = state.focusTakenBy;
      return new AiteError('not-visible', `${action} stopped: the page moved the focus from the target to ${element}, so the rest of the input would go there; none of it was sent.`, {
        command: action,
        detail: { focusTakenBy: { element, ...(xpath ? { xpath } : {}) } },
      });
    }
    if (!state.focused) return new AiteError('not-visible', `${action} stopped: the target does not have the focus, so typed input would go elsewhere; none of it was sent.`, { command: action });
    return undefined;
  }
}

const unguarded: GuardCheck = async () => undefined;

/** What a request into a document answers once that document or its frame is gone. */
const GONE = new Set(['navigation', 'not-found']);

/** Whether two descriptors lie behind the same frame path (the same document for one guard). */
function sameFrame(a: Descriptor, b: Descriptor): boolean {
  return JSON.stringify(framePath(a.frame)) === JSON.stringify(framePath(b.frame));
}
