import type { TestDeadline } from 'aite';

/**
 * What the test runner is timing now, a hook or a test's body, and until when. A runner times
 * each hook with its hook timeout and the body with the test timeout, each from its own start:
 * the runner entries mark each start here, and the session's commands end before its deadline.
 */
export class RunnerPhase {
  #phase: 'test' | 'hook' = 'hook';
  #start = 0;
  #timeoutMs: () => number | undefined = () => undefined;

  /**
   * A hook or a test's body starts now, timed by the runner with `timeoutMs` (read at each
   * command, for a runner whose timeout can change while it runs; 0 or none: not timed).
   */
  enter(phase: 'test' | 'hook', timeoutMs: number | undefined | (() => number | undefined)): void {
    this.#phase = phase;
    this.#start = Date.now();
    this.#timeoutMs = typeof timeoutMs === 'function' ? timeoutMs : () => timeoutMs;
  }

  /** The deadline of what runs now, for `SessionFixture.testStarted({ deadline })`. */
  readonly deadline = (): TestDeadline | undefined => {
    const timeoutMs = this.#timeoutMs();
    if (timeoutMs === undefined || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) return undefined;
    return { at: this.#start + timeoutMs, timeoutMs, phase: this.#phase };
  };
}

/** `fn`, marking `onStart` first each time it is called; its arity and own properties kept (runners read both). */
export function timed<F extends (...args: never[]) => unknown>(fn: F, onStart: () => void): F {
  const wrapper = function (this: unknown, ...args: Parameters<F>): unknown {
    onStart();
    return fn.apply(this, args);
  };
  Object.defineProperty(wrapper, 'length', { value: fn.length });
  return Object.assign(wrapper, fn) as unknown as F;
}
