import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, describe, it, type ExpectStatic } from 'vitest';

// The four embedding examples, run the way a user runs them: each runner as a child process, on
// the built package, against real Chromium. Their default runs pass; their failing twins exit
// non-zero with a message naming the reason and the target, and the screenshot where it says.
// AITE_PACKAGE_ROOT runs them from another copy of the package (one with other `exports`).
const root = resolve(process.env.AITE_PACKAGE_ROOT ?? resolve(__dirname, '../..'));
const bin = (path: string): string => resolve(__dirname, '../../node_modules', path);

interface Runner {
  name: string;
  /** The default run: the example's suite. */
  pass: string[];
  /** The failing twin alone. */
  fail: string[];
}

const runners: Runner[] = [
  {
    name: 'node:test',
    pass: ['--test', 'examples/node-test/'],
    fail: ['--test', 'examples/node-test/wallet.fail.mjs'],
  },
  {
    name: 'mocha',
    pass: [bin('mocha/bin/mocha.js'), 'examples/mocha/*.spec.mjs'],
    fail: [bin('mocha/bin/mocha.js'), 'examples/mocha/wallet.fail.mjs'],
  },
  {
    name: 'jest',
    pass: [bin('jest/bin/jest.js'), '--config', 'examples/jest/jest.config.cjs'],
    fail: [bin('jest/bin/jest.js'), '--config', 'examples/jest/jest.config.cjs', '--testMatch', '**/wallet.fail.cjs'],
  },
  {
    name: 'vitest',
    pass: [bin('vitest/vitest.mjs'), 'run', '--config', 'examples/vitest/vitest.config.mjs'],
    fail: [bin('vitest/vitest.mjs'), 'run', '--config', 'examples/vitest/vitest.fail.config.mjs'],
  },
];

const scratch = mkdtempSync(join(tmpdir(), 'aite-examples-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Run {
  code: number | null;
  output: string;
  /** The run's own temp folder (TMPDIR): Chrome's temp profiles live there. */
  temp: string;
  results: string;
}

/** Runs one runner as a child process with its own TMPDIR and results folder. */
function run(name: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<Run> {
  const dir = mkdtempSync(join(scratch, `${name.replace(/\W/g, '')}-`));
  const temp = join(dir, 'tmp');
  const results = join(dir, 'results');
  mkdirSync(temp);
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv, TMPDIR: temp, AITE_RESULTS_DIR: results, NO_COLOR: '1', FORCE_COLOR: '0', CI: 'true' };
  // This process is itself a Vitest worker: its variables would change how a child Vitest runs.
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'NODE_OPTIONS' || key === 'TEST') delete env[key];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, output, temp, results }));
  });
}

/** Processes still running whose command line names the folder (Chrome names its profile). */
function processesUsing(folder: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(folder)) found.push(`${pid} ${cmdline.slice(0, 120)}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Nothing of the run outlives it: no Chrome, no temp profile (with its bridge.json). */
function expectCleanedUp(expect: ExpectStatic, result: Run): void {
  expect(processesUsing(result.temp), 'processes left running').toEqual([]);
  expect(readdirSync(result.temp).filter((name) => name.startsWith('aite-')), 'temp folders left behind').toEqual([]);
}

// Each run is a runner and its Chrome in child processes: two at a time (the e2e project's
// maxConcurrency), so one's start-up overlaps the other's waits.
describe.concurrent.each(runners)('the $name example', (runner) => {
  it('passes its suite against the demo app in real Chromium', async ({ expect }) => {
    const result = await run(runner.name, runner.pass);
    expect(result.code, result.output).toBe(0);
    expect(result.output).not.toMatch(/aite: screenshot/);
    expectCleanedUp(expect, result);
  }, 240_000);

  it('fails its failing twin with a readable message and a screenshot where it says', async ({ expect }) => {
    const result = await run(runner.name, runner.fail);
    expect(result.code, result.output).not.toBe(0);
    // The reason, the step and its target, in words.
    expect(result.output).toContain('No element matches text "Withdraw"');
    expect(result.output).toContain('aite: not-found in click {"text":"Withdraw"}');
    expect(result.output).toMatch(/aite: retries \d+ in this test, \d+.* in the session/);
    const said = /aite: screenshot (\S+\.png)/.exec(result.output)?.[1];
    expect(said, result.output).toBeDefined();
    const png = resolve(root, said!);
    expect(dirname(png)).toBe(result.results);
    expect(existsSync(png), `${relative(root, png)} exists`).toBe(true);
    expect([...readFileSync(png).subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expectCleanedUp(expect, result);
  }, 240_000);
});

// Isolation (test/e2e/fixtures/isolation): in every runner a test leaves a cookie, local and
// session storage, an IndexedDB database and a second tab, and the next test finds none of it.
const iso = 'test/e2e/fixtures/isolation';
const isolationRuns: Array<{ name: string; args: string[]; tests: RegExp }> = [
  { name: 'node:test', args: ['--test', `${iso}/node-test.isolation.test.mjs`], tests: /# pass 2\n# fail 0/ },
  { name: 'mocha', args: [bin('mocha/bin/mocha.js'), `${iso}/mocha.*.spec.mjs`], tests: /4 passing/ },
  { name: 'jest', args: [bin('jest/bin/jest.js'), '--config', `${iso}/jest.config.cjs`], tests: /Tests:\s+2 passed, 2 total/ },
  { name: 'vitest', args: [bin('vitest/vitest.mjs'), 'run', '--config', `${iso}/vitest.config.mjs`], tests: /Tests\s+3 passed \(3\)/ },
];

describe.concurrent.each(isolationRuns)('isolation in $name', ({ name, args, tests }) => {
  it('[ISO-RUNNERS] [ISO-WARM] resets the session before each test: no cookie, storage or tab of the last test is left', async ({ expect }) => {
    const log = join(scratch, `${name.replace(/\W/g, '')}-chrome.log`);
    const result = await run(`iso-${name}`, args, { AITE_CHROME_LOG: log });
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(tests);
    expectCleanedUp(expect, result);
    if (name === 'mocha' || name === 'vitest') {
      // [ISO-WARM] Two files in one process, one Chrome: the second file got the first one's, reset.
      const pids = readFileSync(log, 'utf8').trim().split('\n').map((line) => line.split(' ').pop());
      expect(pids).toHaveLength(2);
      expect(pids[1]).toBe(pids[0]);
    }
  }, 120_000);
});
