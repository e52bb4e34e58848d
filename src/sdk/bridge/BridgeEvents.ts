import type { ExtensionEvent, Hello, Command } from '../protocol/index.js';

/** Why the bridge turned a connection or message away. @public */
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

/** A re-send after a reconnect. @public */
export interface RetryInfo {
  id: number;
  cmd: Command;
  /** Re-sends of this request so far. */
  retries: number;
  why: 'reconnect';
}

/**
 * Events of a {@link Bridge}, by name.
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
  /** A request was sent again after a reconnect. */
  retry: (info: RetryInfo) => void;
  /** A connection or message was refused. */
  rejected: (info: Rejection) => void;
  /** Something was dropped without failing a request (late answer, unknown id, bad message). */
  warning: (message: string) => void;
};

/**
 * The names of the {@link BridgeEvents}.
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
