/**
 * Where `aite/jest` leaves its failure handlers on the test file's global object, for
 * `aite/jest-environment` to call when a test function fails. A registered symbol, because the
 * environment and the test file load their own copies of this module.
 */
export const JEST_FAILURE_HANDLERS = Symbol.for('aite.jest.failureHandlers');

/** Called by the environment with the error the test threw and the test's full name. */
export type JestFailureHandler = (error: unknown, testName: string) => Promise<void>;

/** Set on the test file's global object by `aite/jest-environment`, so `aite/jest` knows it is there. */
export const JEST_ENVIRONMENT_MARK = Symbol.for('aite.jest.environment');

/** The deadline of the running hook or test function (`{ at, timeoutMs, phase }`), set by `aite/jest-environment` while it runs. */
export const JEST_TEST_DEADLINE = Symbol.for('aite.jest.testDeadline');
