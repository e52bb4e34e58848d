import type { Reason } from '../protocol/index.js';

/**
 * The one error aite throws. `reason` is exactly one of the protocol's reasons; `detail` holds
 * what a report needs (candidates, expected, found); the message ends with the call log: what
 * was tried, and every retry.
 *
 * @example
 * ```ts
 * import { AiteError, launch } from 'aite';
 *
 * const session = await launch({ allow: ['http://127.0.0.1:4173'] });
 * try {
 *   await session.tab.navigate('http://127.0.0.1:4173/');
 *   await session.click({ text: 'Withdraw' });
 * } catch (error) {
 *   if (!(error instanceof AiteError)) throw error;
 *   console.error(error.reason);  // 'not-found'
 *   console.error(error.callLog); // [ 'click {"text":"Withdraw"}', ... ]
 *   console.error(JSON.stringify(error)); // reason, message, detail, retries, call log; no token
 * } finally {
 *   await session.close();
 * }
 * ```
 * @public
 */
export class AiteError extends Error {
  /** Why it failed, one of the protocol's reasons. */
  readonly reason: Reason;
  /** What the report needs: candidates, expected, found, a proposed descriptor. */
  readonly detail: Record<string, unknown>;
  /** The protocol command (or composed step) that failed, if any. */
  readonly command: string | undefined;
  /** Re-sends counted for the failed command; for a failed step (`click`, ...), all of the step's. */
  readonly retries: number;
  /** What was tried, in order. */
  readonly callLog: readonly string[];
  /** The outlined screenshot of the page when a composed step failed (PNG), if one could be taken. */
  screenshot: Uint8Array | undefined;
  /**
   * Where the screenshot was written, once something wrote it (the test-runner fixtures do, in
   * their failure hook); undefined before.
   */
  screenshotPath: string | undefined;

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
    const log = boundedCallLog(options.callLog ?? []);
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

  /**
   * The same error with more call-log lines (the composed step's context) and, when given, the
   * re-sends the whole step counted (never fewer than the failed command's own).
   */
  withCallLog(lines: readonly string[], retries?: number): AiteError {
    const base = this.message.split('\nCall log:\n')[0] ?? this.message;
    const error = new AiteError(this.reason, base, {
      detail: this.detail,
      command: this.command,
      retries: Math.max(this.retries, retries ?? 0),
      callLog: [...lines, ...this.callLog],
      cause: this.cause,
    });
    error.screenshot = this.screenshot;
    error.screenshotPath = this.screenshotPath;
    return error;
  }

  /**
   * The error as plain data, for test runners that serialise errors between processes (Vitest,
   * Jest workers) and for JSON logs: the reason, the message with its call log, the detail, the
   * command, the retries, the call log and the screenshot's path. The PNG bytes stay out (a path
   * or a size says where they are), and so does any `token` in `detail`: a bridge token is a
   * secret.
   */
  toJSON(): AiteErrorJson {
    const json: AiteErrorJson = {
      name: this.name,
      reason: this.reason,
      message: this.message,
      detail: safely(() => redactTokens(this.detail) as Record<string, unknown>, { unreadable: true }),
      command: this.command,
      retries: this.retries,
      callLog: [...this.callLog],
    };
    if (this.screenshotPath !== undefined) json.screenshot = this.screenshotPath;
    else if (this.screenshot !== undefined) json.screenshot = `(PNG of ${this.screenshot.byteLength} bytes, not written to a file)`;
    if (this.cause !== undefined) json.cause = safely(() => describeCause(this.cause), '(unreadable)');
    return json;
  }

  /**
   * How Node prints it (an uncaught error in a plain script, `console.log(error)`): the stack,
   * whose first lines are the message and the call log, then the reason and the counts. The
   * detail is left out: it is for reports, and a page's text in it would bury the message.
   */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    const facts = [`reason: ${this.reason}`, ...(this.command ? [`command: ${this.command}`] : []), `retries: ${this.retries}`];
    if (this.screenshotPath) facts.push(`screenshot: ${this.screenshotPath}`);
    return `${this.stack ?? `${this.name}: ${this.message}`}\n  { ${facts.join(', ')} }`;
  }
}

/**
 * What {@link AiteError.toJSON} answers: the error as plain data.
 *
 * @example
 * ```ts
 * import { AiteError, type AiteErrorJson } from 'aite';
 *
 * const error = new AiteError('timeout', 'verify timed out.', { command: 'verify', retries: 1 });
 * const json: AiteErrorJson = error.toJSON();
 * console.log(`${json.reason} after ${json.retries} re-send(s): ${json.message}`);
 * ```
 * @public
 */
export interface AiteErrorJson {
  /** Always `AiteError`. */
  name: string;
  /** One of the protocol's reasons. */
  reason: Reason;
  /** The message, ending with the call log. */
  message: string;
  /** The error's detail, with any `token` field replaced by `[redacted]`. */
  detail: Record<string, unknown>;
  /** The command (or composed step) that failed, if any. */
  command: string | undefined;
  /** Re-sends counted for the failed command; for a failed step (`click`, ...), all of the step's. */
  retries: number;
  /** What was tried, in order. */
  callLog: string[];
  /** Where the screenshot was written, or its size when it was not written; absent without one. */
  screenshot?: string;
  /** The cause's name and message, when the error has a cause. */
  cause?: string;
}

/**
 * A copy of a value with every `token` field's value replaced: detail is shown to people and logs.
 * A value met again on its own path (a cycle) becomes `[circular]`: toJSON must never throw, or
 * the runner reports its own failure instead of the test's.
 */
function redactTokens(value: unknown, path: readonly object[] = []): unknown {
  if (!value || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  if (path.includes(value)) return '[circular]';
  const inner = [...path, value];
  if (Array.isArray(value)) return value.map((v) => redactTokens(v, inner));
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, /token/i.test(key) ? '[redacted]' : redactTokens(v, inner)]));
}

/** A getter that throws in a detail must not turn the test's failure into the runner's. */
function safely<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/** The cause in one line, whatever it is (an Error, a string, an object without a prototype). */
function describeCause(cause: unknown): string {
  const { name, message } = (typeof cause === 'object' && cause !== null ? cause : {}) as { name?: unknown; message?: unknown };
  if (typeof message === 'string') return typeof name === 'string' && name ? `${name}: ${message}` : message;
  try {
    return typeof cause === 'object' && cause !== null ? JSON.stringify(cause) ?? Object.prototype.toString.call(cause) : String(cause);
  } catch {
    return Object.prototype.toString.call(cause);
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

/** How many lines a call log keeps: the first and the last ones, with a line saying how many went between. */
const CALL_LOG_MAX_LINES = 100;
/** How long one call-log line may be. */
const CALL_LOG_MAX_LINE_CHARS = 2_000;

/**
 * The call log an error carries, bounded: every error's message ends with it, and a step that
 * tried the same thing thousands of times must not make a message (or an MCP answer) of
 * megabytes. A run of identical lines is one line with its count (`(×3481)`); past
 * CALL_LOG_MAX_LINES the middle is left out and a line says how much.
 */
function boundedCallLog(lines: readonly string[]): string[] {
  const runs: string[] = [];
  for (let i = 0; i < lines.length; ) {
    let end = i + 1;
    while (end < lines.length && lines[end] === lines[i]) end++;
    // A cut line, with what it says it cut, fits in the bound: cut again, it stays as it is.
    const keep = CALL_LOG_MAX_LINE_CHARS - 40;
    const line = lines[i]!.length > CALL_LOG_MAX_LINE_CHARS ? `${lines[i]!.slice(0, keep)}… (${lines[i]!.length - keep} more characters)` : lines[i]!;
    runs.push(end - i > 1 ? `${line} (×${end - i})` : line);
    i = end;
  }
  if (runs.length <= CALL_LOG_MAX_LINES) return runs;
  const head = Math.floor(CALL_LOG_MAX_LINES / 2);
  const tail = CALL_LOG_MAX_LINES - head - 1;
  // A log bounded before (withCallLog adds lines to one) may already say it left lines out.
  const leftOut = runs.slice(head, runs.length - tail).reduce((n, line) => n + Number(LEFT_OUT.exec(line)?.[1] ?? 1), 0);
  return [...runs.slice(0, head), `… ${leftOut} more line(s) left out`, ...runs.slice(runs.length - tail)];
}

const LEFT_OUT = /^… (\d+) more line\(s\) left out$/;
