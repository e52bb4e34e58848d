import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { SessionFixture, type SessionFixtureOptionsInput } from 'aite';
import { RunnerPhase, timed } from './RunnerPhase.js';

export { SessionFixture, type SessionFixtureOptions, type SessionFixtureOptionsInput, type TestFailure } from 'aite';

/** The part of a Vitest task that names it. */
interface NamedTask {
  name: string;
  suite?: NamedTask;
}

/** What this entry walks of Vitest's tasks (Vitest types them by its own version). */
interface TaskNode {
  type: string;
  timeout?: number;
  file?: TaskNode;
  tasks?: TaskNode[];
}

type Hook = (...args: never[]) => unknown;

/** Vitest's tables of a suite's hooks and of a test's function. */
interface Tables {
  getFn(task: never): unknown;
  getHooks(suite: never): unknown;
  setFn(task: never, fn: never): void;
}

/**
 * The tables from the very `@vitest/runner` the running Vitest uses, resolved from Vitest's own
 * folder (so a strict package layout finds it too). `vitest/suite` re-exports them but warns on
 * import since Vitest 4.1, in every test file of the user's; its named replacement,
 * `TestRunner.setTestFn`, is `getFn` in 4.1. `vitest/suite` stays the fallback (Vitest 3.2).
 */
async function vitestTables(): Promise<Tables> {
  try {
    const runner = createRequire(import.meta.resolve('vitest')).resolve('@vitest/runner');
    const tables = (await import(pathToFileURL(runner).href)) as Partial<Tables>;
    if (typeof tables.getFn === 'function' && typeof tables.getHooks === 'function' && typeof tables.setFn === 'function') return tables as Tables;
  } catch {
    // Not resolvable from here (an inlined or bundled Vitest): the public path below.
  }
  return (await import('vitest/suite')) as unknown as Tables;
}

const { getFn, getHooks, setFn } = await vitestTables();

/** Where Vitest keeps a before hook's own timeout (its default: hookTimeout) on the hook it registered. */
const HOOK_TIMEOUT = Symbol.for('VITEST_CLEANUP_TIMEOUT');
const HOOK_KINDS = ['beforeAll', 'afterAll', 'beforeEach', 'afterEach'] as const;

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
  const worker = (globalThis as { __vitest_worker__?: { config?: { isolate?: boolean; hookTimeout?: number } } }).__vitest_worker__;
  const fixture = new SessionFixture(options, { warm: worker?.config?.isolate === false });
  const phase = new RunnerPhase();
  // aite's hooks are timed with their own timeout (a cold Chrome may start slower than
  // hookTimeout's 10000 ms), never shorter than hookTimeout; the tests keep theirs.
  const hookMs = Math.max(worker?.config?.hookTimeout ?? 0, SessionFixture.hookTimeoutMs);
  let timing = false;
  beforeAll(async function () {
    // Vitest passes the suite last (after a fixture context since Vitest 4, which refuses a
    // first parameter that is not an object pattern): read from the arguments, not declared.
    const suite = [...arguments].reverse().find((arg): arg is TaskNode => Array.isArray((arg as TaskNode | undefined)?.tasks));
    // Before anything more of the file runs: every hook and test body marks its start.
    if (suite) timePhases(suite.file ?? suite, phase, worker?.config?.hookTimeout);
    timing = suite !== undefined;
    await fixture.start();
  }, hookMs);
  beforeEach(async (context) => {
    // aite's waits end before the runner's timeout of what runs: a hook's, from its start, or
    // the test's (its option, else testTimeout), from the start of its body. A Vitest that hid
    // its suite from the hook: the test's timeout from now (a little early for the body).
    if (!timing) phase.enter('test', (context.task as { timeout?: number }).timeout);
    await fixture.testStarted({ deadline: phase.deadline });
  }, hookMs);
  afterEach(async (context) => {
    const result = context.task.result;
    if (result?.state !== 'fail') return;
    // Vitest hands over a serialised copy of the error: its message is what the reporter prints.
    await fixture.testFailed(result.errors?.[0], fullName(context.task), context.task.file?.filepath);
  }, hookMs);
  afterAll(async () => {
    await fixture.stop();
  }, hookMs);
  return fixture;
}

function fullName(task: NamedTask): string {
  const names: string[] = [];
  for (let at: NamedTask | undefined = task; at; at = at.suite) if (at.name) names.unshift(at.name);
  return names.join(' > ');
}

/**
 * Wraps every hook and test function of the file's suites (Vitest calls them through its
 * tables ({@link vitestTables}), each inside its own timer) so that each marks its start in `phase`
 * just before that timer starts. An after hook's own timeout cannot be read: hookTimeout is used.
 */
function timePhases(suite: TaskNode, phase: RunnerPhase, hookTimeout: number | undefined): void {
  const hooks = getHooks(suite as never) as unknown as Record<(typeof HOOK_KINDS)[number], Hook[]>;
  for (const kind of HOOK_KINDS) {
    const list = hooks[kind];
    // In place: Vitest may be going through this very list (aite's beforeAll is in it).
    for (let i = 0; i < list.length; i += 1) {
      const hook = list[i]!;
      const own = (hook as { [HOOK_TIMEOUT]?: unknown })[HOOK_TIMEOUT];
      list[i] = timed(hook, () => phase.enter('hook', typeof own === 'number' ? own : hookTimeout));
    }
  }
  for (const task of suite.tasks ?? []) {
    if (task.type === 'suite') timePhases(task, phase, hookTimeout);
    if (task.type !== 'test') continue;
    const fn = getFn(task as never) as (() => unknown) | undefined;
    if (fn) setFn(task as never, timed(fn, () => phase.enter('test', task.timeout)) as never);
  }
}
