import { TestEnvironment } from 'jest-environment-node';
import type { TestDeadline } from 'aite';
import { JEST_ENVIRONMENT_MARK, JEST_FAILURE_HANDLERS, JEST_TEST_DEADLINE, type JestFailureHandler } from './jestFailures.js';

/** What this environment reads of jest-circus's events. */
interface CircusTest {
  name: string;
  parent?: { name: string; parent?: unknown };
}
interface CircusEvent {
  name: string;
  error?: unknown;
  test?: CircusTest & { timeout?: number };
  hook?: { timeout?: number };
}
interface CircusState {
  testTimeout?: number;
}

/**
 * Jest's node environment, and one thing more: when a test function fails, it calls the failure
 * hook that `useAite()` from `aite/jest` registered, with the error the test threw, so the step's
 * screenshot and the retry counts are attached before Jest formats the failure.
 *
 * @example
 * ```ts
 * // jest.config.cjs
 * module.exports = { testEnvironment: 'aite/jest-environment' };
 * ```
 * @public
 */
export default class AiteEnvironment extends TestEnvironment {
  override async setup(): Promise<void> {
    await super.setup();
    (this.global as { [JEST_ENVIRONMENT_MARK]?: true })[JEST_ENVIRONMENT_MARK] = true;
  }

  async handleTestEvent(event: CircusEvent, state?: CircusState): Promise<void> {
    const global = this.global as { [JEST_TEST_DEADLINE]?: TestDeadline };
    if (event.name === 'test_fn_start' || event.name === 'hook_start') {
      // What jest-circus times the test function or the hook with, from its start: its own
      // timeout, else testTimeout (hooks too).
      const phase = event.name === 'hook_start' ? 'hook' : 'test';
      const timeoutMs = (phase === 'hook' ? event.hook?.timeout : event.test?.timeout) || state?.testTimeout;
      if (timeoutMs && timeoutMs > 0) global[JEST_TEST_DEADLINE] = { at: Date.now() + timeoutMs, timeoutMs, phase };
      else delete global[JEST_TEST_DEADLINE];
    }
    if (/^(test_fn|hook)_(success|failure)$/.test(event.name)) delete global[JEST_TEST_DEADLINE];
    if (event.name !== 'test_fn_failure' || !event.test) return;
    const handlers = (this.global as { [JEST_FAILURE_HANDLERS]?: Set<JestFailureHandler> })[JEST_FAILURE_HANDLERS];
    for (const handler of handlers ?? []) await handler(event.error, fullName(event.test));
  }
}

function fullName(test: CircusTest): string {
  const names = [test.name];
  // The root block is named ROOT_DESCRIBE_BLOCK and has no parent.
  for (let block = test.parent as { name: string; parent?: unknown } | undefined; block?.parent; block = block.parent as typeof block) {
    names.unshift(block.name);
  }
  return names.join(' > ');
}

export { AiteEnvironment as TestEnvironment };
