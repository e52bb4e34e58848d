import { after, afterEach, before, beforeEach } from 'node:test';
import { SessionFixture, type SessionFixtureOptionsInput } from 'aite';

export { SessionFixture, type SessionFixtureOptions, type SessionFixtureOptionsInput, type TestFailure } from 'aite';

/** What this entry uses of node:test's context in an `afterEach` hook (Node 20.12 and later). */
interface FinishedTest {
  name: string;
  fullName?: string;
  /** The test's file (Node 22.6 and later). */
  filePath?: string;
  passed?: boolean;
  error?: unknown;
}

/** What `after()` needs to close Chrome, within a file timed as a whole by `node --test`. */
const FILE_CLOSE_MS = 2_000;

/**
 * Launches one aite session for the tests of this file (in `before`) and closes it in `after`,
 * whether the tests passed or not.
 * Before each test the session is reset (its other tabs closed, cookies and storage of the
 * allowed origins cleared; `isolate: 'file'` shares one page state instead). When a test fails, the failed step's screenshot is written to
 * the results folder and its path, the reason and the retry counts are appended to the error
 * `node --test` reports.
 *
 * Call it at the top level of a test file (or inside a `describe`).
 *
 * @example
 * ```ts
 * import { test } from 'node:test';
 * import { useAite } from 'aite/node-test';
 *
 * const aite = useAite({ allow: ['http://127.0.0.1:4173'] });
 *
 * test('opens the send form', async () => {
 *   await aite.session.tab.navigate('http://127.0.0.1:4173/');
 *   await aite.session.click({ text: 'Send' });
 * });
 * ```
 * @public
 */
export function useAite(options: SessionFixtureOptionsInput): SessionFixture {
  // node:test runs every test file in a process of its own: a warm Chrome would only delay its exit.
  const fixture = new SessionFixture(options, { warm: false });
  // aite's hooks are timed with their own timeout (--test-timeout would time them too, and a cold
  // Chrome may start slower); the tests keep theirs.
  const own = { timeout: SessionFixture.hookTimeoutMs };
  before(async () => {
    await fixture.start();
  }, own);
  beforeEach(async () => {
    // node:test has no test timeout unless --test-timeout gives one (its per-test `timeout`
    // option is not readable from a hook: give such a test's waits a shorter timeoutMs).
    // `node --test` also times each file's whole process with it, launch included.
    const timeoutMs = testTimeoutFlag(process.execArgv);
    // The file's timer also covers closing Chrome after its last test: leave time for that too.
    const at = timeoutMs === undefined ? undefined : Math.min(Date.now() + timeoutMs, performance.timeOrigin + timeoutMs - FILE_CLOSE_MS);
    await fixture.testStarted(at === undefined ? {} : { deadline: () => ({ at, timeoutMs: timeoutMs! }) });
  }, own);
  afterEach(async (context: unknown) => {
    const test = context as FinishedTest;
    if (test.passed !== false) return;
    // node:test wraps what the test threw in an ERR_TEST_FAILURE whose cause is the original.
    const wrapper = test.error as { cause?: unknown } | undefined;
    const original = wrapper?.cause ?? wrapper;
    // node --test runs each file in a process of its own: the file is this process's script.
    await fixture.testFailed(original, test.fullName ?? test.name, test.filePath ?? process.argv[1]);
  }, own);
  after(async () => {
    await fixture.stop();
  }, own);
  return fixture;
}

/** `--test-timeout=N` (or `--test-timeout N`), which the runner passes on to each test file's process. */
function testTimeoutFlag(argv: readonly string[]): number | undefined {
  const at = argv.findIndex((a) => a === '--test-timeout' || a.startsWith('--test-timeout='));
  if (at < 0) return undefined;
  const value = Number(argv[at]!.includes('=') ? argv[at]!.split('=')[1] : argv[at + 1]);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}
