import type { AnswerOf, RequestInput } from '../protocol/index.js';

/** Sends one protocol request for a session and returns its answer (retries counted). */
export type Send = <R extends RequestInput>(request: R) => Promise<AnswerOf<R['cmd']>>;
