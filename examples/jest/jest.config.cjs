// Jest config of the MallBucks example. `aite/jest-environment` is Jest's node environment plus
// the failure hook: a failed test gets the step's screenshot and the retry counts in its error.
/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'aite/jest-environment',
  testMatch: ['<rootDir>/**/*.test.cjs'],
  // One demo server for the run; each test file launches its own Chrome (see useAite).
  globalSetup: '<rootDir>/demoServer.cjs',
  globalTeardown: '<rootDir>/demoServer.cjs',
  // Chrome starts once per file; on a loaded CI machine that takes a few seconds.
  testTimeout: 60_000,
  transform: {},
};
