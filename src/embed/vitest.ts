import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { SessionFixture, type SessionFixtureOptionsInput } from 'aite';

export { SessionFixture, type SessionFixtureOptions, type SessionFixtureOptionsInput, type TestFailure } from 'aite';

/** The part of a Vitest task that names it. */
interface NamedTask {
  name: string;
  suite?: NamedTask;
}

/**
 * Launches one aite session for the tests of this file (in `beforeAll`) and closes it in
 * `afterAll`, whether the tests passed or not.
 * Before each test the session is reset (its other tabs closed, cookies and storage of the
 * allowed origins cleared; `isolate: 'file'` shares one page state instead). When a test fails, the failed step's screenshot
 * is written to the results folder and its path, the reason and the retry counts are appended
 * to the error Vitest reports.
 *
 * Call it at the top level of a test file (or of a `describe`).
 *
 * @example
 * ```ts
 * import { expect, test } from 'vitest';
 * import { useAite } from 'aite/vitest';
 *
 * const aite = useAite({ allow: ['http://127.0.0.1:4173'] });
 *
 * test('opens the send form', async () => {
 *   await aite.session.tab.navigate('http://127.0.0.1:4173/');
 *   const step = await aite.session.click({ text: 'Send' });
 *   expect(step.retries).toBe(0);
 * });
 * ```
 * @public
 */
export function useAite(options: SessionFixtureOptionsInput): SessionFixture {
  // Files share this process only with `isolate: false`; otherwise a warm Chrome would outlive its
  // worker. Vitest keeps its config in the worker's state (not a public API, hence the care).
  const worker = (globalThis as { __vitest_worker__?: { config?: { isolate?: boolean } } }).__vitest_worker__;
  const fixture = new SessionFixture(options, { warm: worker?.config?.isolate === false });
  beforeAll(async () => {
    await fixture.start();
  });
  beforeEach(async (context) => {
    // The test's own timeout (its option, else testTimeout): aite's waits end before it.
    await fixture.testStarted({ timeoutMs: (context.task as { timeout?: number }).timeout });
  });
  afterEach(async (context) => {
    const result = context.task.result;
    if (result?.state !== 'fail') return;
    // Vitest hands over a serialised copy of the error: its message is what the reporter prints.
    await fixture.testFailed(result.errors?.[0], fullName(context.task), context.task.file?.filepath);
  });
  afterAll(async () => {
    await fixture.stop();
  });
  return fixture;
}

function fullName(task: NamedTask): string {
  const names: string[] = [];
  for (let at: NamedTask | undefined = task; at; at = at.suite) if (at.name) names.unshift(at.name);
  return names.join(' > ');
}
