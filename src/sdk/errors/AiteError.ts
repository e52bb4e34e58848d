import type { Reason } from '../protocol/index.js';

/**
 * The one error aite throws. `reason` is exactly one of the protocol's reasons; `detail` holds
 * what a report needs (candidates, expected, found); the message ends with the call log: what
 * was tried, and every retry.
 * @public
 */
export class AiteError extends Error {
  /** Why it failed, one of the protocol's reasons. */
  readonly reason: Reason;
  /** What the report needs: candidates, expected, found, a proposed descriptor. */
  readonly detail: Record<string, unknown>;
  /** The protocol command (or composed step) that failed, if any. */
  readonly command: string | undefined;
  /** Re-sends counted for the failed command. */
  readonly retries: number;
  /** What was tried, in order. */
  readonly callLog: readonly string[];
  /** The outlined screenshot of the page when a composed step failed (PNG), if one could be taken. */
  screenshot: Uint8Array | undefined;

  constructor(
    reason: Reason,
    message: string,
    options: {
      detail?: Record<string, unknown>;
      command?: string;
      retries?: number;
      callLog?: readonly string[];
      cause?: unknown;
    } = {},
  ) {
    const log = options.callLog ?? [];
    super(log.length > 0 ? `${message}\nCall log:\n${log.map((l) => `  - ${l}`).join('\n')}` : message, {
      cause: options.cause,
    });
    // Spelled out: bundlers rename classes.
    this.name = 'AiteError';
    this.reason = reason;
    this.detail = options.detail ?? {};
    this.command = options.command;
    this.retries = options.retries ?? 0;
    this.callLog = log;
  }

  /** The error for a failure answer of the wire protocol. */
  static fromFailure(
    failure: { reason: Reason; message?: string; detail?: Record<string, unknown>; retries?: number },
    command: string,
    callLog: readonly string[] = [],
  ): AiteError {
    const text = failure.message ?? defaultMessage(failure.reason, command, failure.detail ?? {});
    return new AiteError(failure.reason, text, {
      detail: failure.detail,
      command,
      retries: failure.retries,
      callLog,
    });
  }

  /** The same error with more call-log lines (the composed step's context). */
  withCallLog(lines: readonly string[]): AiteError {
    const base = this.message.split('\nCall log:\n')[0] ?? this.message;
    const error = new AiteError(this.reason, base, {
      detail: this.detail,
      command: this.command,
      retries: this.retries,
      callLog: [...lines, ...this.callLog],
      cause: this.cause,
    });
    error.screenshot = this.screenshot;
    return error;
  }
}

function defaultMessage(reason: Reason, command: string, detail: Record<string, unknown>): string {
  switch (reason) {
    case 'mismatch':
      return `${command}: expected ${JSON.stringify(detail.expected)} but found ${JSON.stringify(detail.found)}.`;
    case 'timeout':
      return `${command} timed out. Raise timeoutMs if the page is slow, or check the page shows what the step waits for.`;
    default:
      return `${command} failed: ${reason}.`;
  }
}
