import { resultOf, type AnswerOf, type RequestInput, type ResultOf } from '../protocol/index.js';

/**
 * Sends one protocol request for a session and returns its answer (retries counted): what a
 * Session hands its Tab, Locator and Verify.
 * @internal
 */
export type Send = <R extends RequestInput>(request: R) => Promise<AnswerOf<R['cmd']>>;

/**
 * One request, its answer as a Tab, Locator or Verify call returns it: without the wire `id`
 * (`resultOf`, applied where a Session's own calls end).
 * @internal
 */
export type ResultSend = <R extends RequestInput>(request: R) => Promise<ResultOf<R['cmd']>>;

/** The one place a Session's answers become results: each answer of `send` without its wire `id`. */
export function asResults(send: Send): ResultSend {
  return (<R extends RequestInput>(request: R) => send(request).then((answer) => resultOf<R['cmd']>(answer))) as ResultSend;
}
