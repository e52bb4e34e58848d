import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FixtureServer } from '../support/FixtureServer.js';
import { runChild } from './support/processes.js';
import { repoRoot, useRunnerFolder } from './support/runnerFolder.js';

// Issue 20 item 5: a test whose wait is exactly as long as its runner's test timeout fails with
// aite's message ("Expected the page to contain ..."), not the runner's "timed out". Each runner
// runs as a child process on the built package (`npm run build` first), from a folder inside the
// repository (temp/, ignored by git) so that `aite` resolves to this package.
// One child per runner runs every case of this file for that runner, one after another in one
// file (a runner child and its Chrome cost seconds to start and stop): each case waits for a text
// of its own, so each test below finds its case's message in the shared output.
const root = repoRoot;
const bin = (path: string): string => resolve(root, 'node_modules', path);

let server: FixtureServer;
let dir: string;
useRunnerFolder('runner-timeouts-', (s, d) => {
  server = s;
  dir = d;
});

type Result = { code: number | null; output: string };

function run(args: string[]): Promise<Result> {
  return runChild(dir, args, { PAGE: new URL('counter.html', server.url).href, BUSY: new URL('busy.html', server.url).href, AITE_RESULTS_DIR: join(dir, 'results') });
}

/** The first test of a runner starts its child; the others await the same run. */
const runs = new Map<string, Promise<Result>>();
function runOnce(runner: string, start: () => Promise<Result>): Promise<Result> {
  if (!runs.has(runner)) runs.set(runner, start());
  return runs.get(runner)!;
}

/** What each case waits for (none is ever on the page). */
const TEXT = { test: 'Never there', body: 'Never in the body', hook: 'Never in a hook', shortHook: 'Never in a short hook' };

const AITE_SAYS = (text: string): RegExp =>
  new RegExp(`Expected the page to contain "${text}", but found "[^"]*Increment[^"]*" \\(waited \\d+ ms\\)\\. aite cut this wait from (\\d+) ms to \\d+ ms to fail before the test runner's (\\d+) ms test timeout`);
const RUNNER_SAYS = /Test timed out in|Exceeded timeout of|Timeout of \d+ms exceeded|test timed out after/i;

/** The body of a test whose wait (`wait`, a name in the fixture file) is as long as the runner's timeout of the test. */
const BODY = (wait: string, text: string): string => `
  await aite.session.tab.navigate(process.env.PAGE);
  await aite.session.verify.text(${JSON.stringify(text)}, { timeoutMs: ${wait} });
`;

function expectAiteWins(result: Result, timeoutMs: number): void {
  expect(result.code, result.output).not.toBe(0);
  const said = AITE_SAYS(TEXT.test).exec(result.output);
  expect(said, result.output).not.toBeNull();
  expect(Number(said![1])).toBe(timeoutMs);
  expect(Number(said![2])).toBe(timeoutMs);
  expect(result.output).not.toMatch(RUNNER_SAYS);
  // The case's own failure (its call log names its text) is summed up as a mismatch. A loaded
  // machine may add a call-log line between them (the picture left to the runner's hook).
  expect(result.output).toMatch(new RegExp(`"value":"${TEXT.test}"[^\\n]*\\n(?:\\s*- [^\\n]*\\n)*\\s*aite: mismatch in verify`));
}

// A runner times each hook with its hook timeout and the test body with the test timeout, each
// from its own start. Three suites per runner: a before-each hook that takes longer than the
// whole test timeout (BODY_TIMEOUT_MS, the test's own), then a body whose wait never ends (aite's
// message must win, cut to the test timeout from the body's start); a hook with a long hook
// timeout whose wait, longer than the 5000 ms test timeout of its test, must not be cut to it; a
// hook with a short timeout of its own, whose wait is cut to it. The times are as short as show
// that: each is waited out once per runner.
const BODY_TIMEOUT_MS = 3000;
const SLOW_HOOK_MS = BODY_TIMEOUT_MS + 500;
const HOOK_WAIT_MS = 6000;
const HOOK_SAYS = (hookMs: number): RegExp =>
  new RegExp(`Expected the page to contain "${TEXT.shortHook}".*aite cut this wait from 5000 ms to \\d+ ms to fail before the test runner's ${hookMs} ms hook timeout`);

/** Navigates and waits for what never comes in a hook; says how long it waited and whether aite cut it. */
const HOOK_BODY = `
    await aite.session.tab.navigate(process.env.PAGE);
    const started = Date.now();
    try { await aite.session.verify.text(${JSON.stringify(TEXT.hook)}, { timeoutMs: ${HOOK_WAIT_MS} }); } catch (error) {
      console.log('HOOK WAITED ' + (Date.now() - started) + ' CUT ' + /aite cut/.test(error.message));
    }
`;
const SHORT_HOOK_BODY = `
    await aite.session.tab.navigate(process.env.PAGE);
    await aite.session.verify.text(${JSON.stringify(TEXT.shortHook)}, { timeoutMs: 5000 });
`;
const SLEEP = `await new Promise((done) => setTimeout(done, ${SLOW_HOOK_MS}));`;

function expectPhases(result: Result, shortHookMs: number): void {
  expect(result.code, result.output).not.toBe(0);
  expect(result.output).not.toMatch(RUNNER_SAYS);
  // The body's wait: cut to what its own timer leaves after the navigate, not to the one look a deadline
  // counted from the hooks' start would leave.
  const body = AITE_SAYS(TEXT.body).exec(result.output);
  expect(body, result.output).not.toBeNull();
  const cutTo = /aite cut this wait from 5000 ms to (\d+) ms/.exec(body![0]);
  expect(Number(cutTo![1])).toBeGreaterThan(1000);
  // The wait in a hook of a long timeout: all of it, uncut.
  const hook = /HOOK WAITED (\d+) CUT (true|false)/.exec(result.output);
  expect(hook, result.output).not.toBeNull();
  expect(hook![2]).toBe('false');
  expect(Number(hook![1])).toBeGreaterThanOrEqual(HOOK_WAIT_MS - 100);
  // The wait in a hook of a short timeout of its own: cut to it, and saying so.
  expect(result.output).toMatch(HOOK_SAYS(shortHookMs));
}

/** Vitest: its default 5000 ms test timeout, the phases, and a busy page; one file, so in this order. */
function runVitest(): Promise<Result> {
  return runOnce('vitest', () => {
    writeFileSync(
      join(dir, 'vitest.config.mjs'),
      `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ root: ${JSON.stringify(dir)}, test: { include: ['*.vitest.mjs'], hookTimeout: 60_000 } });\n`,
    );
    writeFileSync(
      join(dir, 'wait.vitest.mjs'),
      `import { beforeEach, describe, test } from 'vitest';\nimport { useAite } from 'aite/vitest';\nconst aite = useAite({ allow: [new URL(process.env.PAGE).origin] });\n` +
        `test('waits', async () => {${BODY('5000', TEXT.test)}});\n` +
        `describe('slow hook', () => {\n  beforeEach(async () => { ${SLEEP} });\n  test('waits', async () => {${BODY('5000', TEXT.body)}}, ${BODY_TIMEOUT_MS});\n});\n` +
        `describe('wait in a hook', () => {\n  beforeEach(async () => {${HOOK_BODY}});\n  test('passes', () => {});\n});\n` +
        `describe('short hook', () => {\n  beforeEach(async () => {${SHORT_HOOK_BODY}}, 3000);\n  test('after it', () => {});\n});\n` +
        // Last: the page it leaves is still busy.
        `test('verify on a busy page', async () => {
  await aite.session.tab.navigate(process.env.BUSY);
  await aite.session.evaluate('crunchLater(6000)');
  await aite.session.verify.text('done');
});
test('click on a busy page', async () => {
  await aite.session.tab.navigate(process.env.BUSY);
  await aite.session.click('Crunch');
});
`,
    );
    return run([bin('vitest/vitest.mjs'), 'run', '--config', join(dir, 'vitest.config.mjs')]);
  });
}

/** Jest: a test's own 5000 ms timeout, then the phases. */
function runJest(): Promise<Result> {
  return runOnce('jest', () => {
    writeFileSync(
      join(dir, 'jest.config.cjs'),
      `module.exports = { rootDir: ${JSON.stringify(dir)}, testEnvironment: 'aite/jest-environment', testMatch: ['<rootDir>/*.jest.cjs'], testTimeout: 60_000, transform: {} };\n`,
    );
    writeFileSync(
      join(dir, 'wait.jest.cjs'),
      `const { useAite } = require('aite/jest');\nconst aite = useAite({ allow: [new URL(process.env.PAGE).origin] });\n` +
        `test('waits', async () => {${BODY('5000', TEXT.test)}}, 5000);\n` +
        `describe('slow hook', () => {\n  beforeEach(async () => { ${SLEEP} }, 60_000);\n  test('waits', async () => {${BODY('5000', TEXT.body)}}, ${BODY_TIMEOUT_MS});\n});\n` +
        `describe('wait in a hook', () => {\n  beforeEach(async () => {${HOOK_BODY}}, 60_000);\n  test('passes', () => {}, 5000);\n});\n` +
        `describe('short hook', () => {\n  beforeEach(async () => {${SHORT_HOOK_BODY}}, 3000);\n  test('after it', () => {}, 5000);\n});\n`,
    );
    return run([bin('jest/bin/jest.js'), '--config', join(dir, 'jest.config.cjs')]);
  });
}

/** Mocha: a test's 3000 ms timeout, then the phases. */
function runMocha(): Promise<Result> {
  return runOnce('mocha', () => {
    writeFileSync(
      join(dir, 'wait.mocha.mjs'),
      `import { useAite } from 'aite/mocha';\ndescribe('suite', function () {\n  this.timeout(60_000);\n  const aite = useAite({ allow: [new URL(process.env.PAGE).origin] });\n` +
        `  it('waits', async function () {${BODY('3000', TEXT.test)}}).timeout(3000);\n` +
        `  describe('slow hook', function () {\n    beforeEach(async function () { ${SLEEP} });\n    it('waits', async function () {${BODY('5000', TEXT.body)}}).timeout(${BODY_TIMEOUT_MS});\n  });\n` +
        `  describe('wait in a hook', function () {\n    beforeEach(async function () {${HOOK_BODY}});\n    it('passes', function () {});\n  });\n` +
        `  describe('short hook', function () {\n    this.timeout(3000);\n    beforeEach(async function () {${SHORT_HOOK_BODY}});\n    it('after it', function () {});\n  });\n});\n`,
    );
    return run([bin('mocha/bin/mocha.js'), join(dir, 'wait.mocha.mjs')]);
  });
}

// The first test of each runner waits for its whole child run. The runners' children mostly wait
// (on their Chrome, and on the timeouts above): two at a time (the project's maxConcurrency).
const RUN_MS = 240_000;

describe.concurrent("aite's error wins over the runner's test timeout", () => {
  it('Vitest: its default 5000 ms test timeout and a 5000 ms wait', async () => {
    expectAiteWins(await runVitest(), 5000);
  }, RUN_MS);

  it("Jest: a test's own 5000 ms timeout and a 5000 ms wait", async () => {
    expectAiteWins(await runJest(), 5000);
  }, RUN_MS);

  it("Mocha: a test's 3000 ms timeout and a 3000 ms wait", async () => {
    expectAiteWins(await runMocha(), 3000);
  }, RUN_MS);

  it('node:test: --test-timeout=25000 and a 25000 ms wait', async () => {
    writeFileSync(
      join(dir, 'wait.node.mjs'),
      `import { test } from 'node:test';\nimport { useAite } from 'aite/node-test';\nconst aite = useAite({ allow: [new URL(process.env.PAGE).origin] });\ntest('waits', async () => {${BODY('25000', TEXT.test)}});\n`,
    );
    // `node --test` times the whole file with it, launch and close included: on a loaded machine
    // loading the modules, starting Chrome and loading the page took 8 to 15 s, past what aite
    // can cut from a 10 or 15 s timeout.
    expectAiteWins(await run(['--test', '--test-timeout=25000', join(dir, 'wait.node.mjs')]), 25000);
  }, 120_000);

  it("[BUSY-RUNNER] Vitest: a page whose main thread is busy past the default 5000 ms test timeout fails with aite's message", async () => {
    const result = await runVitest();
    expect(result.code, result.output).not.toBe(0);
    expect(result.output).not.toMatch(RUNNER_SAYS);
    expect(result.output).toMatch(/verify got no answer within \d+ ms \(its timeout and \d+ ms more\): the page did not respond, most likely because its main thread was busy/);
    expect(result.output).toMatch(/click was sent, but the page did not confirm it within \d+ ms: the page\u2019s main thread is busy/);
    expect(result.output).toContain('aite: timeout in verify');
    expect(result.output).toContain('aite: timeout in click {"text":"Crunch"}');
  }, RUN_MS);
});

describe.concurrent("[RUN-PHASE-BODY, RUN-PHASE-HOOK] each hook and the test body are timed from their own start", () => {
  it('Vitest: a slow beforeEach, a wait in a hook of hookTimeout 60000, a hook of its own 3000 ms', async () => {
    expectPhases(await runVitest(), 3000);
  }, RUN_MS);

  it('Jest: a slow beforeEach, a wait in a hook of 60000 ms, a hook of its own 3000 ms', async () => {
    expectPhases(await runJest(), 3000);
  }, RUN_MS);

  it('Mocha: a slow beforeEach, a wait in a hook of 60000 ms, a suite of 3000 ms', async () => {
    expectPhases(await runMocha(), 3000);
  }, RUN_MS);
});
