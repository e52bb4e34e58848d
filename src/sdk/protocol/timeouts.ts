/** A command's `timeoutMs` when neither the request nor the run names one, at both ends. @internal */
export const DEFAULT_TIMEOUT_MS = 5_000;

/** The least time a `navigate` gets when its request names none: a page load is slower than a look. @internal */
export const NAVIGATE_TIMEOUT_MS = 30_000;

/**
 * How long past a request's own `timeoutMs` the runner waits for its answer: the extension's own
 * failure (which says what it found) travels back within it. A page that has not answered by then
 * did not respond at all (its main thread busy with a long-running script, a dialog holding it).
 * @internal
 */
export const ANSWER_SLACK_MS = 1_000;

/** The longest a Chrome may take to answer on its pipe: the issue of a hang, not of a slow start. @internal */
export const LAUNCH_DEADLINE_MS = 30_000;

/**
 * How long a test runner's hook gives aite to start a session, and to reset or close it: the
 * launch deadline, the cleanup of a Chrome that missed it, and a loaded machine's slowness. Longer
 * than every deadline of launch() under its default options, so that a launch that fails or hangs
 * is reported by aite's error, not by the runner's "hook timed out".
 * @internal
 */
export const LAUNCH_BUDGET_MS = 2 * LAUNCH_DEADLINE_MS;

/**
 * `work`, or an Error saying `what` (or the error `what` makes) when it takes longer than `ms`: the
 * one deadline for a call that has none of its own, at both ends (a CDP call over the pipe, a
 * chrome API in the worker). The work may still settle later; nothing waits for it.
 * @internal
 */
export async function withTimeout<T>(work: Promise<T>, ms: number, what: string | (() => Error)): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(typeof what === 'string' ? new Error(what) : what()), ms);
  });
  work.catch(() => undefined);
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
