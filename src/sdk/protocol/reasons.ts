import { z } from 'zod';

/**
 * Every failure reason of protocol v1.
 *
 * @example
 * ```ts
 * const isReason = (value: string): value is Reason => (REASONS as readonly string[]).includes(value);
 * ```
 * @public
 */
export const REASONS = [
  'not-found',
  'ambiguous',
  'not-visible',
  'not-enabled',
  'timeout',
  'mismatch',
  'drifted',
  'navigation',
  'load-failed',
  'tab-closed',
  'connection-lost',
  'unsupported',
  'pre-state',
  'internal',
] as const;

export const ReasonSchema = z.enum(REASONS);
/**
 * Why a command failed. Exactly the protocol's reasons.
 *
 * @example
 * ```ts
 * const advice: Partial<Record<Reason, string>> = {
 *   'not-found': 'check the target, or run with a lock file so it can be repaired',
 *   drifted: 'look at the candidate in the screenshot; update the target or the lock file',
 * };
 * function explain(error: AiteError): string {
 *   return advice[error.reason] ?? error.message;
 * }
 * ```
 * @public
 */
export type Reason = z.infer<typeof ReasonSchema>;

/**
 * Close codes of the bridge socket.
 *
 * @example
 * ```ts
 * declare const bridge: Bridge;
 * bridge.on('disconnected', ({ code }) => {
 *   if (code === CloseCode.WrongToken) console.warn('the extension read an old bridge.json');
 * });
 * ```
 * @public
 */
export const CloseCode = {
  /** Wrong token. The extension keeps retrying (bridge.json may have been rewritten). */
  WrongToken: 4401,
  /** No hello in time. */
  HelloTimeout: 4408,
  /** Replaced by a newer connection. The extension stops retrying until the worker restarts. */
  Replaced: 4409,
  /** No answer to pings. */
  PingTimeout: 4410,
  /** Protocol mismatch (sent by the extension) or a malformed hello. */
  ProtocolMismatch: 4426,
  /** A message over the size limit (standard code). */
  TooBig: 1009,
  /** A message that is not valid protocol (standard code). */
  PolicyViolation: 1008,
} as const;

/** The protocol version this build speaks. */
export const PROTOCOL_VERSION = 1;
/** Message size limit, enforced by both ends. */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

/**
 * The failure the extension answers instead of an answer over {@link MAX_MESSAGE_BYTES}
 * (`text`: the answer as JSON), whichever way the answer travels; undefined when it fits.
 * @internal
 */
export function oversizedAnswer(text: string, id: unknown): Record<string, unknown> | undefined {
  if (text.length * 3 <= MAX_MESSAGE_BYTES || new TextEncoder().encode(text).byteLength <= MAX_MESSAGE_BYTES) return undefined;
  return { id, ok: false, reason: 'internal', message: 'The answer is over the protocol\u2019s 8 MB limit, so the extension sent this error instead.' };
}
/** Interval of application-level pings that keep the MV3 worker alive. */
export const PING_INTERVAL_MS = 15_000;
/** The extension's reconnect backoff; after the last step it keeps the last delay. */
export const RECONNECT_BACKOFF_MS = [500, 1000, 2000, 4000, 8000] as const;
