import { AiteError } from '../errors/AiteError.js';

/**
 * A test runner's timeout for the current test, as the time the session's commands must end
 * before: a wait as long as the runner's timeout would otherwise lose the race, and the test
 * would read "Test timed out in 5000ms" instead of what aite found.
 *
 * @example
 * ```ts
 * import { SessionFixture, type TestDeadline } from 'aite';
 *
 * // For a runner aite has no entry for: hand over the test's timeout when each test starts.
 * declare const fixture: SessionFixture;
 * const deadline: TestDeadline = { at: Date.now() + 5_000, timeoutMs: 5_000 };
 * fixture.testStarted({ deadline: () => deadline });
 * ```
 * @public
 */
export interface TestDeadline {
  /** When the runner fails the test (epoch ms). */
  at: number;
  /** The runner's timeout of the test, for the message. */
  timeoutMs: number;
  /**
   * What the runner is timing: the test's body (the default) or one of its hooks, whose own
   * timeout (`hookTimeout`) counts from the hook's start. It names the timeout in the message.
   */
  phase?: 'test' | 'hook';
}

/** Time left for aite's error to reach the runner's reporter, and the failure hook to start. */
export function deadlineMargin(timeoutMs: number): number {
  return Math.min(2_000, Math.max(250, Math.round(timeoutMs * 0.2)));
}

/**
 * Milliseconds a failed step's picture may take before its error must go to the runner (half the
 * margin before the deadline, so the error still beats the runner's timeout), or undefined when
 * no deadline bounds it (none given, or the test is already over).
 */
export function pictureTimeLeft(deadline: TestDeadline | undefined, now = Date.now()): number | undefined {
  if (!deadline || now >= deadline.at) return undefined;
  return Math.max(0, Math.floor(deadline.at - now - deadlineMargin(deadline.timeoutMs) / 2));
}

/** The shortest wait a cut leaves, so a command still gets one look at the page. */
export const MIN_WAIT_MS = 100;

/**
 * `timeoutMs` cut to end a margin before the deadline, and by how much, or as it was. Once the
 * deadline has passed, the test is over (the runner has failed it): commands of the hooks after
 * it keep their own timeouts.
 */
export function cutToDeadline(timeoutMs: number, deadline: TestDeadline | undefined, now = Date.now()): { timeoutMs: number; cut?: { from: number; deadline: TestDeadline } } {
  if (!deadline || now >= deadline.at) return { timeoutMs };
  // Whole milliseconds: the wire takes integers (and a runner may hand over a fractional time).
  const left = Math.max(MIN_WAIT_MS, Math.floor(deadline.at - now - deadlineMargin(deadline.timeoutMs)));
  return left < timeoutMs ? { timeoutMs: left, cut: { from: timeoutMs, deadline } } : { timeoutMs };
}

/** What a request sent within the margin still gets to be answered, and what it leaves the error before the deadline. */
const ANSWER_FLOOR_MS = 250;
const LAST_MS = 50;

/**
 * How long past `timeoutMs` the bridge may wait for an answer (`slackMs` when there is room for
 * it), so that a page that never answers still fails half the margin before the deadline: the
 * error reaches the runner first. A request sent inside the margin (one look, late in the test)
 * still gets {@link ANSWER_FLOOR_MS} while that ends before the deadline: a page that answers
 * in time is not said not to have answered. Undefined: no deadline bounds it (none given, or the
 * test is over).
 */
export function graceBefore(timeoutMs: number, slackMs: number, deadline: TestDeadline | undefined, now = Date.now()): number | undefined {
  if (!deadline || now >= deadline.at) return undefined;
  const room = Math.floor(deadline.at - now - deadlineMargin(deadline.timeoutMs) / 2 - timeoutMs);
  if (room >= slackMs) return undefined;
  const floor = Math.min(ANSWER_FLOOR_MS, Math.floor(deadline.at - now - timeoutMs - LAST_MS));
  return Math.max(0, room, floor);
}

/** The error of a cut command, saying why it waited less than asked and what to change. */
export function explainCut(error: AiteError, cut: { from: number; deadline: TestDeadline }, waitedMs: number): AiteError {
  const base = error.message.split('\nCall log:\n')[0];
  const what = cut.deadline.phase === 'hook' ? 'hook' : 'test';
  const note = ` aite cut this wait from ${cut.from} ms to ${waitedMs} ms to fail before the test runner's ${cut.deadline.timeoutMs} ms ${what} timeout; give the ${what} a longer timeout to wait longer.`;
  const explained = new AiteError(error.reason, `${base}${note}`, {
    detail: error.detail,
    command: error.command,
    retries: error.retries,
    callLog: error.callLog,
    cause: error.cause,
  });
  explained.screenshot = error.screenshot;
  explained.screenshotPath = error.screenshotPath;
  return explained;
}
