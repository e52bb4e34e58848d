import { after, afterEach, before, beforeEach } from 'node:test';
import { SessionFixture, type SessionFixtureOptionsInput } from 'aite';

export { SessionFixture, type SessionFixtureOptions, type SessionFixtureOptionsInput, type TestFailure } from 'aite';

/** What this entry uses of node:test's context in an `afterEach` hook (Node 20.12 and later). */
interface FinishedTest {
  name: string;
  fullName?: string;
  passed?: boolean;
  error?: unknown;
}

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
  before(async () => {
    await fixture.start();
  });
  beforeEach(async () => {
    await fixture.testStarted();
  });
  afterEach(async (context: unknown) => {
    const test = context as FinishedTest;
    if (test.passed !== false) return;
    // node:test wraps what the test threw in an ERR_TEST_FAILURE whose cause is the original.
    const wrapper = test.error as { cause?: unknown } | undefined;
    const original = wrapper?.cause ?? wrapper;
    await fixture.testFailed(original, test.fullName ?? test.name);
  });
  after(async () => {
    await fixture.stop();
  });
  return fixture;
}
