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
