import { chmodSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'vitest';
import { findChrome } from '../../src/sdk/index.js';
import type { FixtureServer } from '../support/FixtureServer.js';
import { runChild } from './support/processes.js';
import { repoRoot, useRunnerFolder } from './support/runnerFolder.js';

// The runner entries launch Chrome in a before-all hook. A cold Chrome on a loaded machine can
// start slower than the runner's default hook timeout; the entries give their hooks a timeout of
// their own, and a launch that fails says so in aite's words. Each runner runs as a child process
// on the built package (`npm run build` first) with its DEFAULT timeouts (no timeout anywhere in
// the fixture files), from a folder inside the repository (temp/, ignored by git) so that `aite`
// resolves to this package. The slow start is a real one: Chrome is started through a script
// that waits before it runs Chrome (as a cold disk or a busy machine would make it wait), named
// by AITE_CHROME, the seam every user has.
const root = repoRoot;
const bin = (path: string): string => resolve(root, 'node_modules', path);

let server: FixtureServer;
let dir: string;
useRunnerFolder('runner-launch-', (s, d) => {
  server = s;
  dir = d;
});

function run(args: string[], chrome: string): Promise<{ code: number | null; output: string }> {
  return runChild(dir, args, { PAGE: new URL('counter.html', server.url).href, AITE_CHROME: chrome, AITE_RESULTS_DIR: join(dir, 'results') });
}

/** A Chrome that takes `seconds` longer to start: a script that waits, then becomes Chrome (same process, same pipes). */
function slowChrome(seconds: number): string {
  const path = join(dir, `chrome-after-${seconds}s.sh`);
  writeFileSync(path, `#!/bin/sh\nsleep ${seconds}\nexec ${JSON.stringify(findChrome())} "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

const RUNNER_SAYS = /Test timed out in|Hook timed out in|Exceeded timeout of|Timeout of \d+ms exceeded|timed out after/i;

/**
 * The tests of every fixture file: the first says how long the launch took; the second runs after
 * aite's reset. Their bodies issue no command: a first navigation of a cold Chrome on a loaded
 * machine may itself outlast Mocha's 2000 ms test timeout, which is the user's to set.
 */
const TESTS = (test: string): string => `
const loaded = Date.now();
${test}('has a session', () => {
  console.log('LAUNCH TOOK ' + (Date.now() - loaded));
  if (!aite.started || !aite.session.tab) throw new Error('no session');
});
${test}('has it after the reset', () => {
  if (!aite.started || !aite.session.tab) throw new Error('no session');
});
`;
const USE = (options = ''): string => `useAite({ allow: [new URL(process.env.PAGE).origin]${options} })`;

interface Runner {
  name: string;
  /** The runner's default timeout of a before-all hook (node:test: none). */
  defaultHookMs: number;
  /** Writes the fixture file (and config: the runner's own defaults) whose useAite takes `options`, and answers the runner's command line. */
  write(name: string, options?: string): string[];
  passed: RegExp;
}

const runners: Runner[] = [
  {
    name: 'mocha',
    defaultHookMs: 2000,
    write: (name, options) => {
      writeFileSync(join(dir, `${name}.mocha.mjs`), `import { useAite } from 'aite/mocha';\nconst aite = ${USE(options)};\n${TESTS('it')}`);
      return [bin('mocha/bin/mocha.js'), join(dir, `${name}.mocha.mjs`)];
    },
    passed: /2 passing/,
  },
  {
    name: 'jest',
    defaultHookMs: 5000,
    write: (name, options) => {
      writeFileSync(join(dir, `${name}.jest.config.cjs`), `module.exports = { rootDir: ${JSON.stringify(dir)}, testEnvironment: 'aite/jest-environment', testMatch: ['<rootDir>/${name}.jest.cjs'], transform: {} };\n`);
      writeFileSync(join(dir, `${name}.jest.cjs`), `const { useAite } = require('aite/jest');\nconst aite = ${USE(options)};\n${TESTS('test')}`);
      return [bin('jest/bin/jest.js'), '--config', join(dir, `${name}.jest.config.cjs`)];
    },
    passed: /Tests:\s+2 passed, 2 total/,
  },
  {
    name: 'vitest',
    defaultHookMs: 10_000,
    write: (name, options) => {
      writeFileSync(join(dir, `${name}.vitest.config.mjs`), `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ root: ${JSON.stringify(dir)}, test: { include: ['${name}.vitest.mjs'] } });\n`);
      writeFileSync(join(dir, `${name}.vitest.mjs`), `import { test } from 'vitest';\nimport { useAite } from 'aite/vitest';\nconst aite = ${USE(options)};\n${TESTS('test')}`);
      return [bin('vitest/vitest.mjs'), 'run', '--config', join(dir, `${name}.vitest.config.mjs`)];
    },
    passed: /Tests\s+2 passed \(2\)/,
  },
  {
    name: 'node:test',
    defaultHookMs: 0,
    write: (name, options) => {
      writeFileSync(join(dir, `${name}.node.mjs`), `import { test } from 'node:test';\nimport { useAite } from 'aite/node-test';\nconst aite = ${USE(options)};\n${TESTS('test')}`);
      return ['--test', join(dir, `${name}.node.mjs`)];
    },
    passed: /# pass 2\n# fail 0/,
  },
];

// Each run mostly waits for its Chrome: two at a time (the e2e project's maxConcurrency).
describe.concurrent.each(runners)('$name with its default timeouts', (runner) => {
  it('[RUN-HOOK-TIME] passes with a Chrome that starts slower than the default hook timeout', async ({ expect }) => {
    // A second over the default (node:test has none: three seconds).
    const seconds = Math.max(3, Math.ceil(runner.defaultHookMs / 1000) + 1);
    // aite's own deadline for the extension to connect is counted from before Chrome starts:
    // its longest, so a start ten seconds late still connects in time on a loaded machine.
    const result = await run(runner.write('slow', ', connectTimeoutMs: 30_000'), slowChrome(seconds));
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(runner.passed);
    const took = /LAUNCH TOOK (\d+)/.exec(result.output);
    expect(took, result.output).not.toBeNull();
    expect(Number(took![1])).toBeGreaterThan(Math.max(runner.defaultHookMs, seconds * 1000 - 100));
    expect(result.output).not.toMatch(RUNNER_SAYS);
  }, 120_000);

  it('[RUN-NOT-STARTED] a Chrome that does not exist fails the file with "aite did not start", why and what to do', async ({ expect }) => {
    const missing = join(dir, 'no-such-chrome');
    const result = await run(runner.write('missing'), missing);
    expect(result.code, result.output).not.toBe(0);
    expect(result.output).toContain(`aite did not start: Chrome not found at ${missing} (from AITE_CHROME). Point it at a Chrome or Chromium executable file.`);
    expect(result.output).not.toMatch(RUNNER_SAYS);
  }, 120_000);
});

describe('mocha with its default timeouts', () => {
  it("[RUN-NOT-STARTED] a Chrome that misses aite's launch deadline fails with aite's message, not Mocha's 2000 ms hook timeout", async ({ expect }) => {
    const mocha = runners[0]!;
    const chrome = slowChrome(15);
    const result = await run(mocha.write('deadline', ', connectTimeoutMs: 3000'), chrome);
    expect(result.code, result.output).not.toBe(0);
    expect(result.output).toContain(`aite did not start: Chrome at ${chrome} did not answer on its debugging pipe within 3000 ms, so it was stopped. Check that it is Chrome or Chromium`);
    expect(result.output).not.toMatch(RUNNER_SAYS);
  }, 120_000);
});
