import { randomUUID } from 'node:crypto';
import { GuardActSchema, GuardVerdictSchema, type GuardState } from '../../protocol/index.js';

/**
 * How long a step whose input was acknowledged waits for a verdict still on its way before it
 * asks with `disarm`. Chrome sends the input's acknowledgement during the renderer's task and the
 * page's binding call at its end, so the verdict may trail by a little (0.1-2.3 ms seen on an
 * idle 2-core machine); a verdict that never comes (the events reached another document, or a
 * listener of the page's stopped them before the guard's) costs this much more than a disarm.
 */
export const VERDICT_GRACE_MS = 5;

/** One step's wait for its guard's verdict: see {@link GuardVerdicts.expect}. */
export interface VerdictWait {
  /** The verdict, once it has come; undefined when it has not within `graceMs` (then the step asks). */
  arrived(graceMs: number): Promise<GuardState | undefined>;
  /** Stops waiting (the step is done with it either way). */
  cancel(): void;
  /**
   * Closes the step's window for an act signal (its answer is in): true when one was taken
   * before, false when none was (none will be after).
   */
  closeAct(): boolean;
}

/** Where the page said to act: the point a `resolve` will answer, sent before its answer. */
export interface ActPoint {
  x: number;
  y: number;
}

interface Waiting {
  state?: GuardState;
  wake?: () => void;
  /** Starts the step's input at the page's word; dropped once taken or once the window closes. */
  act?: (at: ActPoint) => void;
  /** The extension's world the step's `resolve` was called in over the pipe: the only one believed to say act. */
  world?: number;
  acted?: boolean;
}

/**
 * The hit-target guard's verdicts, sent one way by the content script through the runner's
 * binding in the extension's world (contentWorld.ts) the moment a dispatch's last event reached
 * the element's window: a step that has its input acknowledged and its verdict in needs no
 * `disarm` round trip. Only a verdict a step is waiting for, under its own token, is kept, and
 * only the first; any other (a late one of a finished step, one that does not parse) is
 * dropped. A step that has none asks with `disarm`, which the guard answers with the same state.
 */
export class GuardVerdicts {
  readonly #waiting = new Map<string, Waiting>();

  /** A fresh token for a step's `resolve` to arm its guard with. */
  token(): string {
    return randomUUID();
  }

  /**
   * Waits for the verdict under `token` (from before the input goes: it cannot come sooner). With
   * `act`, also for the page's signal to act (a `resolve` whose `verdict` asks `act`): the first
   * one under the token, from the world the `resolve` was called in ({@link calledIn}), before
   * {@link VerdictWait.closeAct}, calls `act` at once with its point; any other is dropped.
   */
  expect(token: string, act?: (at: ActPoint) => void): VerdictWait {
    const waiting: Waiting = act ? { act } : {};
    this.#waiting.set(token, waiting);
    return {
      arrived: (graceMs) => {
        if (waiting.state || graceMs <= 0) return Promise.resolve(waiting.state);
        return new Promise((resolve) => {
          const timer = setTimeout(() => done(), graceMs);
          const done = (): void => {
            clearTimeout(timer);
            waiting.wake = undefined;
            resolve(waiting.state);
          };
          waiting.wake = done;
        });
      },
      cancel: () => {
        if (this.#waiting.get(token) === waiting) this.#waiting.delete(token);
        waiting.act = undefined;
        waiting.wake?.();
      },
      closeAct: () => {
        waiting.act = undefined;
        return waiting.acted === true;
      },
    };
  }

  /** The step under `token` has its `resolve` called in the extension's world `world` over the pipe. */
  calledIn(token: string, world: number): void {
    const waiting = this.#waiting.get(token);
    if (waiting?.act) waiting.world = world;
  }

  /** Whether the step under `token` started its input on the page's signal (its `resolve` must not be sent again). */
  acted(token: string): boolean {
    return this.#waiting.get(token)?.acted === true;
  }

  /** A binding call's payload, from the extension's own world `world` of a watched document. */
  deliver(payload: string, world: number): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return;
    }
    // Checked against the one schema its keys name: a union's failed first try costs a cold step.
    const signal = (typeof parsed === 'object' && parsed !== null && 'act' in parsed ? GuardActSchema : GuardVerdictSchema).safeParse(parsed);
    if (!signal.success) return;
    const waiting = this.#waiting.get(signal.data.token);
    if (!waiting) return;
    if ('act' in signal.data) {
      const act = waiting.act;
      if (!act || waiting.world !== world) return;
      // Never twice: the window closes as the first signal is taken.
      waiting.act = undefined;
      waiting.acted = true;
      act({ x: signal.data.act.x, y: signal.data.act.y });
      return;
    }
    if (waiting.state) return;
    waiting.state = signal.data.state;
    waiting.wake?.();
  }
}
