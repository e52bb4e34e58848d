/** A command's `timeoutMs` when neither the request nor the run names one, at both ends. @internal */
export const DEFAULT_TIMEOUT_MS = 5_000;

/** The least time a `navigate` gets when its request names none: a page load is slower than a look. @internal */
export const NAVIGATE_TIMEOUT_MS = 30_000;
