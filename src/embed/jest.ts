import { SessionFixture, type SessionFixtureOptionsInput, type TestDeadline } from 'aite';
import { JEST_ENVIRONMENT_MARK, JEST_FAILURE_HANDLERS, JEST_TEST_DEADLINE, type JestFailureHandler } from './jestFailures.js';

export { SessionFixture, type SessionFixtureOptions, type SessionFixtureOptionsInput, type TestFailure } from 'aite';

type Hook = () => Promise<void> | void;

/** Jest's hooks, which Jest puts on the global object of every test file. */
interface JestGlobals {
  beforeAll?: (hook: Hook, timeoutMs?: number) => void;
  afterAll?: (hook: Hook, timeoutMs?: number) => void;
  beforeEach?: (hook: Hook, timeoutMs?: number) => void;
  [JEST_FAILURE_HANDLERS]?: Set<JestFailureHandler>;
  [JEST_ENVIRONMENT_MARK]?: true;
  [JEST_TEST_DEADLINE]?: TestDeadline;
  expect?: { getState?: () => { testPath?: string } };
}

let warned = false;

/**
 * Launches one aite session for the tests of this file (in `beforeAll`) and closes it in
 * `afterAll`, whether the tests passed or not.
 * Before each test the session is reset (its other tabs closed, cookies and storage of the
 * allowed origins cleared; `isolate: 'file'` shares one page state instead).
 *
 * With `testEnvironment: 'aite/jest-environment'` in the Jest config, a failed test also gets
 * the failed step's screenshot written to the results folder, and its path, the reason and the
 * retry counts appended to the error Jest reports. (Jest tells only its environment which test
 * failed and why.)
 *
 * @example
 * ```ts
 * // jest.config.cjs: module.exports = { testEnvironment: 'aite/jest-environment' };
 * const { useAite } = require('aite/jest');
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
  // aite's hooks are timed with their own timeout (a cold Chrome may start slower than Jest's
  // 5000 ms); the tests keep theirs.
  const jest = globalThis as JestGlobals;
  const { beforeAll, afterAll, beforeEach } = jest;
  if (!beforeAll || !afterAll || !beforeEach) {
    throw new Error('aite/jest: useAite() needs Jest\'s hooks (beforeAll, afterAll, beforeEach); run the file with jest.');
  }
  // Jest gives every test file a module registry of its own: nothing warm can pass to the next.
  const fixture = new SessionFixture(options, { warm: false });
  const onFailure: JestFailureHandler = async (error, testName) => {
    await fixture.testFailed(error, testName, jest.expect?.getState?.().testPath);
  };
  beforeAll(async () => {
    if (!jest[JEST_ENVIRONMENT_MARK] && !warned) {
      warned = true;
      console.warn("aite/jest: failed tests will not name a screenshot or retries: set testEnvironment: 'aite/jest-environment' in the Jest config.");
    }
    (jest[JEST_FAILURE_HANDLERS] ??= new Set()).add(onFailure);
    await fixture.start();
  }, SessionFixture.hookTimeoutMs);
  beforeEach(async () => {
    // aite/jest-environment puts the deadline of the running hook or test function there, each
    // timed from its own start (Jest tells only it).
    await fixture.testStarted({ deadline: () => jest[JEST_TEST_DEADLINE] });
  }, SessionFixture.hookTimeoutMs);
  afterAll(async () => {
    jest[JEST_FAILURE_HANDLERS]?.delete(onFailure);
    await fixture.stop();
  }, SessionFixture.hookTimeoutMs);
  return fixture;
}
