import { SessionFixture, type SessionFixtureOptionsInput } from 'aite';
import { RunnerPhase, timed } from './RunnerPhase.js';

export { SessionFixture, type SessionFixtureOptions, type SessionFixtureOptionsInput, type TestFailure } from 'aite';

/** What this entry uses of a Mocha test. */
interface MochaTest {
  state?: string;
  err?: unknown;
  fullTitle(): string;
  /** The test's file. */
  file?: string;
  /** The test's timeout in ms (0: none). */
  timeout(): number;
}

/** What this entry uses of the context Mocha runs a hook in. */
interface MochaHookContext {
  currentTest?: MochaTest;
  test?: MochaRunnable;
  /** The running hook's timeout in ms (0: none); with `ms`, sets it and restarts its timer. */
  timeout(): number;
  timeout(ms: number): unknown;
}

type MochaHook = (this: MochaHookContext) => Promise<void> | void;

/** What this entry uses of a Mocha hook or test: the function Mocha calls (it reads it when it runs it) and its timeout. */
interface MochaRunnable {
  fn?: (...args: never[]) => unknown;
  timeout(): number;
  parent?: MochaSuite;
}

/** What this entry walks of a Mocha suite. */
interface MochaSuite {
  parent?: MochaSuite;
  suites: MochaSuite[];
  tests: MochaRunnable[];
  _beforeAll: MochaRunnable[];
  _afterAll: MochaRunnable[];
  _beforeEach: MochaRunnable[];
  _afterEach: MochaRunnable[];
}

/** Mocha's BDD hooks, which Mocha puts on the global object while it loads a test file. */
interface MochaGlobals {
  before?: (hook: MochaHook) => void;
  after?: (hook: MochaHook) => void;
  beforeEach?: (hook: MochaHook) => void;
  afterEach?: (hook: MochaHook) => void;
}

/**
 * Launches one aite session for the tests of this file (in `before`) and closes it in `after`,
 * whether the tests passed or not.
 * Before each test the session is reset (its other tabs closed, cookies and storage of the
 * allowed origins cleared; `isolate: 'file'` shares one page state instead). When a test fails, the failed step's screenshot is written to
 * the results folder and its path, the reason and the retry counts are appended to the error
 * Mocha reports.
 *
 * Call it at the top level of a test file or inside a `describe`, with Mocha's BDD interface
 * (the default).
 *
 * @example
 * ```ts
 * import { useAite } from 'aite/mocha';
 *
 * describe('the wallet', function () {
 *   const aite = useAite({ allow: ['http://127.0.0.1:4173'] });
 *
 *   it('opens the send form', async function () {
 *     await aite.session.tab.navigate('http://127.0.0.1:4173/');
 *     await aite.session.click({ text: 'Send' });
 *   });
 * });
 * ```
 * @public
 */
export function useAite(options: SessionFixtureOptionsInput): SessionFixture {
  const mocha = globalThis as MochaGlobals;
  const { before, after, beforeEach, afterEach } = mocha;
  if (!before || !after || !beforeEach || !afterEach) {
    throw new Error('aite/mocha: useAite() needs Mocha\'s BDD hooks (before, after, beforeEach, afterEach); run the file with mocha.');
  }
  const fixture = new SessionFixture(options);
  const phase = new RunnerPhase();
  before(async function () {
    ownTimeout(this);
    // Mocha times each hook and each test from its own start: every one this fixture's tests
    // run through marks its start (in this suite and those inside it, and the each-hooks around).
    const suite = this.test?.parent;
    if (suite) timePhases(suite, phase);
    for (let outer = suite?.parent; outer; outer = outer.parent) {
      for (const hook of [...outer._beforeEach, ...outer._afterEach]) time(hook, 'hook', phase);
    }
    await fixture.start();
  });
  beforeEach(async function () {
    ownTimeout(this);
    await fixture.testStarted({ deadline: phase.deadline });
  });
  afterEach(async function () {
    ownTimeout(this);
    const test = this.currentTest;
    if (test?.state !== 'failed') return;
    // Mocha prints failures after the run: what is appended to the error now shows there.
    await fixture.testFailed(test.err, test.fullTitle(), test.file);
  });
  after(async function () {
    ownTimeout(this);
    await fixture.stop();
  });
  return fixture;
}

/**
 * Gives aite's running hook the time a cold Chrome may take (over Mocha's 2000 ms default); a
 * longer timeout or none (0) is kept, and the tests keep theirs.
 */
function ownTimeout(hook: MochaHookContext): void {
  const timeoutMs = hook.timeout();
  if (timeoutMs > 0 && timeoutMs < SessionFixture.hookTimeoutMs) hook.timeout(SessionFixture.hookTimeoutMs);
}

function timePhases(suite: MochaSuite, phase: RunnerPhase): void {
  for (const hook of [...suite._beforeAll, ...suite._afterAll, ...suite._beforeEach, ...suite._afterEach]) time(hook, 'hook', phase);
  for (const test of suite.tests) time(test, 'test', phase);
  for (const inner of suite.suites) timePhases(inner, phase);
}

/** Makes `runnable` mark its start; its timeout is read at each command (`this.timeout(ms)` inside it changes it). */
function time(runnable: MochaRunnable, kind: 'test' | 'hook', phase: RunnerPhase): void {
  if (runnable.fn) runnable.fn = timed(runnable.fn, () => phase.enter(kind, () => runnable.timeout()));
}
