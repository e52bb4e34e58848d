import type { AnswerOf, RequestInput } from '../protocol/index.js';

/**
 * Sends one protocol request for a session and returns its answer (retries counted): what a
 * Session hands its Tab, Locator and Verify.
 * @internal
 */
export type Send = <R extends RequestInput>(request: R) => Promise<AnswerOf<R['cmd']>>;
