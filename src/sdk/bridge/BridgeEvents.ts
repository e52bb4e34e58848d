import type { ExtensionEvent, Hello, Command } from '../protocol/index.js';

/**
 * Why the bridge turned a connection or message away.
 *
 * @example
 * ```ts
 * import type { Bridge, Rejection } from 'aite';
 *
 * declare const bridge: Bridge;
 * const rejected: Rejection[] = [];
 * bridge.on('rejected', (rejection) => rejected.push(rejection));
 * // later: a connection with a wrong token shows up here
 * if (rejected.some((r) => r.code === 4401)) console.warn('something knocked with a wrong token');
 * ```
 * @public
 */
export interface Rejection {
  /** Short machine-readable cause, e.g. `origin`, `token`, `path`, `host`, `hello-timeout`, `message`. */
  cause: string;
  /** HTTP status when refused before the upgrade. */
  status?: number;
  /** Close code when refused after the upgrade. */
  code?: number;
  /** What was wrong, for a log line. Never contains the token. */
  message: string;
}

/**
 * A re-send by the bridge: after a reconnect, or (launch mode) after the page a command reached
 * over the debugging pipe navigated under it. The same re-sends are counted in the answer's or
 * the error's `retries`.
 *
 * @example
 * ```ts
 * import type { Bridge, RetryInfo } from 'aite';
 *
 * declare const bridge: Bridge;
 * const resent: RetryInfo[] = [];
 * bridge.on('retry', (info) => resent.push(info));
 * ```
 * @public
 */
export interface RetryInfo {
  /** The request's id. */
  id: number;
  /** The command sent again. */
  cmd: Command;
  /** Re-sends of this request so far. */
  retries: number;
  /** Why: the extension reconnected before answering, or the page navigated under a command sent over the debugging pipe (sent again through the worker). */
  why: 'reconnect' | 'navigation';
}

/**
 * Events of a {@link Bridge}, by name.
 *
 * @example
 * ```ts
 * import type { Bridge, BridgeEvents } from 'aite';
 *
 * declare const bridge: Bridge;
 * const onRejected: BridgeEvents['rejected'] = (rejection) => console.warn(rejection.cause, rejection.message);
 * bridge.on('rejected', onRejected);
 * ```
 * @public
 */
export type BridgeEvents = {
  /** The extension said hello (after the token and Origin checks). */
  hello: (hello: Hello) => void;
  /** The extension is connected and welcomed. */
  connected: (info: { resumed: boolean }) => void;
  /** The extension's socket closed. */
  disconnected: (info: { code: number; reason: string }) => void;
  /** An event from the extension: tabs opened/closed, navigations, console errors. */
  event: (event: ExtensionEvent) => void;
  /** A request was sent again after a reconnect, or after its page navigated under the debugging pipe. */
  retry: (info: RetryInfo) => void;
  /** A connection or message was refused. */
  rejected: (info: Rejection) => void;
  /** Something was dropped without failing a request (late answer, unknown id, bad message). */
  warning: (message: string) => void;
};

/**
 * The names of the {@link BridgeEvents}.
 *
 * @example
 * ```ts
 * import { BridgeEvent, type Bridge } from 'aite';
 *
 * declare const bridge: Bridge;
 * bridge.on(BridgeEvent.Disconnected, ({ code, reason }) => console.warn(`extension gone: ${code} ${reason}`));
 * bridge.on(BridgeEvent.Retry, ({ cmd, retries }) => console.warn(`${cmd} sent again (${retries})`));
 * ```
 * @public
 */
export const BridgeEvent = {
  Hello: 'hello',
  Connected: 'connected',
  Disconnected: 'disconnected',
  Event: 'event',
  Retry: 'retry',
  Rejected: 'rejected',
  Warning: 'warning',
} as const satisfies Record<string, keyof BridgeEvents>;
