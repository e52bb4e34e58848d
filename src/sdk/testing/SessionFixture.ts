import { writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { AiteError } from '../errors/AiteError.js';
import { UsageError } from '../errors/UsageError.js';
import { REASONS } from '../protocol/reasons.js';
import { LAUNCH_BUDGET_MS } from '../protocol/timeouts.js';
import type { launch } from '../session/launch.js';
import type { LaunchOptions } from '../session/options.js';
import { warmPool } from '../session/SessionPool.js';
import type { Session } from '../session/Session.js';
import type { RetryCounts } from '../session/types.js';
import { annotateError } from './annotateError.js';
import type { TestDeadline } from '../session/TestDeadline.js';
import { makeFolder } from '../system/folders.js';

/**
 * Options of a {@link SessionFixture}: everything {@link launch} takes, and where failure
 * screenshots go.
 *
 * @example
 * ```ts
 * import { SessionFixture, type SessionFixtureOptions } from 'aite';
 *
 * const options: SessionFixtureOptions = { allow: ['http://127.0.0.1:4173'], resultsDir: 'test-results/aite', lockFile: 'aite.lock.json' };
 * const fixture = new SessionFixture(options);
 * ```
 * @public
 */
export interface SessionFixtureOptions extends LaunchOptions {
  /**
   * Folder for failure screenshots. Default: the `AITE_RESULTS_DIR` environment variable, else
   * `aite-results` in the current directory. Created when the first screenshot is written.
   */
  resultsDir?: string;
  /**
   * `'test'` (the default): before each test the session is {@link Session.reset | reset} — the
   * run's other tabs closed, its tab on about:blank, the allowed origins' cookies and storage
   * cleared — so no test sees what an earlier one left. `'file'`: the tests of a file share one
   * page state, as they run in order.
   */
  isolate?: 'test' | 'file';
  /**
   * Keep the Chrome warm after the tests of a file: for about a second, the next test file in
   * the same process takes it over (reset) instead of launching one. The runner entries set it
   * where files share a process: Mocha always, Vitest with `isolate: false`; never Jest or
   * node:test, whose files cannot pass anything on. Default true.
   */
  warm?: boolean;
}

/**
 * The options, or a function that answers them when the session starts, for the common case
 * where `allow` names a server that is itself started in a `before` hook.
 *
 * @example
 * ```ts
 * import { SessionFixture, type SessionFixtureOptionsInput } from 'aite';
 *
 * let baseUrl = '';
 * // The server starts in a before-all hook of its own; its origin is known only then.
 * const options: SessionFixtureOptionsInput = () => ({ allow: [new URL(baseUrl).origin] });
 * const fixture = new SessionFixture(options);
 * ```
 * @public
 */
export type SessionFixtureOptionsInput = SessionFixtureOptions | (() => SessionFixtureOptions | Promise<SessionFixtureOptions>);

/**
 * What {@link SessionFixture.testFailed} found out about a failed test and appended to its error.
 *
 * @example
 * ```ts
 * import { SessionFixture, type TestFailure } from 'aite';
 *
 * declare const fixture: SessionFixture;
 * declare const error: unknown;
 * const failure: TestFailure = await fixture.testFailed(error, 'wallet > sends one MALLBUCK');
 * if (failure.screenshot) console.error(`see ${failure.screenshot}; ${failure.retries.test} re-send(s) in this test`);
 * ```
 * @public
 */
export interface TestFailure {
  /** The test's full name, as the runner gave it. */
  testName: string;
  /** The {@link AiteError} reason when aite's error failed the test; undefined for other errors. */
  reason: string | undefined;
  /** Absolute path of the PNG written for this failure; undefined when no picture could be taken. */
  screenshot: string | undefined;
  /** Re-sends counted during the failed test, and over the whole session so far. */
  retries: { test: number; session: RetryCounts };
  /** The lines appended to the test's error message, one fact a line, each starting `aite:`. */
  summary: string;
}

/**
 * One launched {@link Session} shared by the tests of a file (or worker), with the two things a
 * test runner needs around it: cleanup that survives a failing test, and a failure hook that
 * writes the step's screenshot and names it, with the retry counts, in the test's output.
 *
 * The runner entries (`aite/vitest`, `aite/jest`, `aite/mocha`, `aite/node-test`) wire it to
 * their runner's hooks; use it directly for any other runner.
 *
 * @example
 * ```ts
 * import { SessionFixture } from 'aite';
 *
 * const fixture = new SessionFixture({ allow: ['http://127.0.0.1:4173'] });
 * await fixture.start(); // in a before-all hook
 * await fixture.testStarted(); // in a before-each hook: resets the session between tests
 * try {
 *   await fixture.session.tab.navigate('http://127.0.0.1:4173/');
 *   await fixture.session.click({ text: 'Send' });
 * } catch (error) {
 *   const failure = await fixture.testFailed(error, 'sends one MALLBUCK'); // in the failure hook
 *   console.error(failure.summary);
 * } finally {
 *   await fixture.stop(); // in an after-all hook: runs whether the tests passed or not
 * }
 * ```
 * @public
 */
export class SessionFixture {
  /**
   * The timeout the runner entries give each hook of theirs (launch, reset, failure, close), with
   * the runner's own per-hook setting, over the runner's default hook timeout: a cold Chrome on a
   * loaded machine may take longer than that to start. Longer than every deadline of
   * {@link launch} under its default options, so a launch that fails says why in aite's words.
   *
   * @example
   * ```ts
   * import { SessionFixture } from 'aite';
   *
   * declare function beforeAll(hook: () => Promise<unknown>, timeoutMs: number): void;
   *
   * const fixture = new SessionFixture({ allow: ['http://127.0.0.1:4173'] });
   * beforeAll(() => fixture.start(), SessionFixture.hookTimeoutMs);
   * ```
   */
  static readonly hookTimeoutMs: number = LAUNCH_BUDGET_MS;

  readonly #options: SessionFixtureOptionsInput;
  readonly #defaults: Partial<SessionFixtureOptions>;
  #session: Session | undefined;
  #starting: Promise<Session> | undefined;
  #resultsDir: string | undefined;
  #launchOptions: LaunchOptions | undefined;
  #isolate: 'test' | 'file' = 'test';
  #warm = true;
  /** Whether a test ran since the session started or was last reset: the first test needs no reset. */
  #used = false;
  #retriesAtTestStart = 0;
  /** The outlined picture of the current test's last failed step (runners may hand over a copy of its error without it). */
  #failedStepShot: Uint8Array | undefined;
  readonly #written = new Set<string>();

  /**
   * @param options - the launch options (or a function that answers them when the session starts)
   * @param defaults - what a runner entry sets for its runner, under the user's options (`warm: false` where files never share a process)
   */
  constructor(options: SessionFixtureOptionsInput, defaults: Partial<SessionFixtureOptions> = {}) {
    this.#options = options;
    this.#defaults = defaults;
  }

  /** The launched session. Throws when {@link SessionFixture.start} has not run (or failed). */
  get session(): Session {
    if (!this.#session) {
      throw new AiteError(
        'unsupported',
        'The aite session is not started: start() runs in the before-all hook that useAite() registers; call useAite() at the top level of the test file, or check the hook did not fail.',
      );
    }
    return this.#session;
  }

  /** Whether a session is running. */
  get started(): boolean {
    return this.#session !== undefined;
  }

  /**
   * Launches the session, once; later calls answer the same session. A launch that fails throws
   * an error whose message starts "aite did not start: ", then why and what to do.
   */
  start(): Promise<Session> {
    this.#starting ??= (async () => {
      const given = typeof this.#options === 'function' ? await this.#options() : this.#options;
      const { resultsDir, isolate, warm, ...launchOptions } = { ...this.#defaults, ...given };
      this.#resultsDir = resultsDir;
      this.#isolate = isolate ?? 'test';
      this.#warm = warm ?? true;
      this.#launchOptions = launchOptions;
      // A Chrome the last test file of this process handed back is reset instead of relaunched.
      const session = await warmPool().acquire(launchOptions).catch((error: unknown) => {
        throw notStarted(error);
      });
      this.#used = false;
      session.on('step', (record) => {
        if (!record.ok && record.screenshot) this.#failedStepShot = record.screenshot;
      });
      this.#session = session;
      return session;
    })();
    this.#starting.catch(() => {
      this.#starting = undefined;
    });
    return this.#starting;
  }

  /**
   * Hands the session back. With `warm` (the default) it stays up for about a second, so that the
   * next test file in this process (Mocha, or Vitest without `isolate`) resets it instead of
   * launching a new Chrome; nobody taking it (or without `warm`), Chrome and the bridge close and
   * bridge.json and the temp profile go. Safe to call more than once, and after a failed start.
   */
  async stop(): Promise<void> {
    const starting = this.#starting;
    this.#starting = undefined;
    if (!starting) return;
    const session = await starting.catch(() => undefined);
    this.#session = undefined;
    if (!session) return;
    if (this.#warm && this.#launchOptions) await warmPool().release(session, this.#launchOptions);
    else await session.close();
  }

  /**
   * Marks the start of a test, so a failure reports the retries of that test alone; with
   * `isolate: 'test'` (the default) resets the session first, unless no test has used it yet.
   * With the runner's timeout of the test (`timeoutMs`, from now; or `deadline`, read at each
   * command), every command of the test ends a margin before it, so aite's error is what the
   * runner reports, not its own "test timed out".
   */
  async testStarted(runner: { timeoutMs?: number; deadline?: () => TestDeadline | undefined } = {}): Promise<void> {
    const session = this.#session;
    if (session && this.#isolate === 'test' && this.#used) await session.reset();
    this.#used = true;
    this.#retriesAtTestStart = session?.retries.total ?? 0;
    this.#failedStepShot = undefined;
    const { timeoutMs } = runner;
    const fixed = timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs) ? { at: Date.now() + timeoutMs, timeoutMs } : undefined;
    this.#session?.endBeforeTestTimeout(runner.deadline ?? (fixed ? () => fixed : undefined));
  }

  /**
   * Handles a failed test: writes the failed step's screenshot (from the error, else from the
   * session's last failed step in this test, else the failure picture of the page as the test
   * left it) into the results folder, and appends where it is,
   * the reason and the retry counts to the error's message, so every reporter shows them.
   * `testFile`, the test's file, goes into the picture's name: two files' tests of the same name
   * write two pictures.
   */
  async testFailed(error: unknown, testName: string, testFile?: string): Promise<TestFailure> {
    const session = this.#session;
    const reason = reasonOf(error);
    const screenshot = await this.#saveScreenshot(error, pictureName(testName, testFile));
    // A reporter that serialises the error (toJSON) then names the file, not the bytes. A runner
    // that serialised it already (Vitest) prints its copy: the copy names the file too.
    if (screenshot && error instanceof AiteError) error.screenshotPath = screenshot;
    else if (screenshot && reason && typeof error === 'object' && error !== null) (error as { screenshot?: unknown }).screenshot = screenshot;
    const retries = { test: (session?.retries.total ?? 0) - this.#retriesAtTestStart, session: snapshot(session?.retries) };
    const lines = [
      reason ? `aite: ${reason}${stepOf(error) ? ` in ${stepOf(error)}` : ''}` : undefined,
      screenshot ? `aite: screenshot ${screenshot}` : session ? 'aite: no screenshot could be taken' : 'aite: no session (launch failed or was never started)',
      session ? `aite: retries ${retries.test} in this test, ${describeRetries(retries.session)} in the session` : undefined,
    ].filter((line): line is string => line !== undefined);
    const summary = lines.join('\n');
    annotateError(error, summary);
    return { testName, reason, screenshot, retries, summary };
  }

  async #saveScreenshot(error: unknown, base: string): Promise<string | undefined> {
    const carried = (error as { screenshot?: unknown } | null)?.screenshot;
    let png = ArrayBuffer.isView(carried) ? new Uint8Array(carried.buffer, carried.byteOffset, carried.byteLength) : this.#failedStepShot;
    if (!png && this.#session) png = await this.#session.failurePicture(pictured(error));
    if (!png) return undefined;
    const dir = resolve(this.#resultsDir ?? process.env.AITE_RESULTS_DIR ?? 'aite-results');
    await makeFolder(dir);
    let path = join(dir, `${base}.png`);
    for (let n = 2; this.#written.has(path); n += 1) path = join(dir, `${base}-${n}.png`);
    this.#written.add(path);
    await writeFile(path, png);
    return path;
  }
}

/** What the failure picture outlines: the reason and detail an AiteError (or a runner's copy of one) carries. */
/** The error of a launch that failed, saying first that aite did not start; its why and what to do kept. */
function notStarted(error: unknown): Error {
  const prefix = 'aite did not start: ';
  if (error instanceof UsageError) return new UsageError(error.code, prefix + error.message, { cause: error });
  if (error instanceof AiteError) {
    const why = error.message.split('\nCall log:\n')[0] ?? error.message;
    return new AiteError(error.reason, prefix + why, { detail: error.detail, callLog: error.callLog, cause: error });
  }
  return new AiteError('internal', `${prefix}${error instanceof Error ? error.message : String(error)}. Run \`aite doctor\` for details.`, { cause: error });
}

function pictured(error: unknown): { reason?: string; detail?: Record<string, unknown> } {
  const { detail } = (error ?? {}) as { detail?: unknown };
  return { reason: reasonOf(error), ...(detail && typeof detail === 'object' ? { detail: detail as Record<string, unknown> } : {}) };
}

function reasonOf(error: unknown): string | undefined {
  if (error instanceof AiteError) return error.reason;
  // Runners may hand over a copy (Vitest serialises errors): trust the shape, not the class.
  const reason = (error as { reason?: unknown } | null)?.reason;
  return typeof reason === 'string' && (REASONS as readonly string[]).includes(reason) ? reason : undefined;
}

/** The composed step and its target (the call log's first line), else the failed command. */
function stepOf(error: unknown): string | undefined {
  const { callLog, command } = (error ?? {}) as { callLog?: unknown; command?: unknown };
  const first = Array.isArray(callLog) ? callLog[0] : undefined;
  if (typeof first === 'string' && first.trim()) return first.trim();
  return typeof command === 'string' ? command : undefined;
}

function snapshot(retries: RetryCounts | undefined): RetryCounts {
  return { total: retries?.total ?? 0, byCommand: { ...retries?.byCommand } };
}

function describeRetries(retries: RetryCounts): string {
  const by = Object.entries(retries.byCommand)
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([command, n]) => `${command} ${n}`);
  return `${retries.total}${by.length > 0 ? ` (${by.join(', ')})` : ''}`;
}

/**
 * A failure picture's file name (without .png): the test's file (relative to the working
 * directory), then its name, each made safe for a file name.
 */
export function pictureName(testName: string, testFile?: string): string {
  const file = testFile ? slug(relative(process.cwd(), testFile)) : '';
  return [file, slug(testName)].filter(Boolean).join('--') || 'test';
}

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
}
