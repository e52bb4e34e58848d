import { randomUUID } from 'node:crypto';
import { GuardVerdictSchema, type GuardState } from '../../protocol/index.js';

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
}

interface Waiting {
  state?: GuardState;
  wake?: () => void;
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

  /** Waits for the verdict under `token` (from before the input goes: it cannot come sooner). */
  expect(token: string): VerdictWait {
    const waiting: Waiting = {};
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
        waiting.wake?.();
      },
    };
  }

  /** A binding call's payload, from the extension's own world of a watched document. */
  deliver(payload: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return;
    }
    const verdict = GuardVerdictSchema.safeParse(parsed);
    const waiting = verdict.success ? this.#waiting.get(verdict.data.token) : undefined;
    if (!waiting || waiting.state) return;
    waiting.state = verdict.data!.state;
    waiting.wake?.();
  }
}
