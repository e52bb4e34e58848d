import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/sdk/index.js';
import { startFixtureServer, type FixtureServer } from '../support/FixtureServer.js';
import { processesWith, startJob, type Job } from './support/processes.js';

// `aite run` stopped as a user stops it (Ctrl-C to its process group, or SIGTERM from CI): the
// run is not lost. The built CLI runs in a child process with a TMPDIR of its own, so "no Chrome
// of that run remains" is a look for processes naming that folder. Needs `npm run build`.
const cli = join(resolve(__dirname, '../..'), 'dist/cli/aite.js');

let server: FixtureServer;
let scratch: string;
beforeAll(async () => {
  server = await startFixtureServer();
  scratch = mkdtempSync(join(tmpdir(), 'aite-interrupt-'));
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

type Child = Job & { dir: string };

/** `aite run` on a script whose second step waits a minute, and a second script after it. */
function startRun(name: string): Child {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'aite.config.json'), JSON.stringify({ allow: [server.origin], baseUrl: server.url }));
  writeFileSync(
    join(dir, 'a-wait.aite.json'),
    JSON.stringify({
      name: 'waits',
      steps: [
        { navigate: '/counter.html' },
        { wait: { kind: 'visible', target: { text: 'Never there' } }, timeoutMs: 60_000, name: 'wait for what never comes' },
        { click: { text: 'Add' } },
      ],
    }),
  );
  writeFileSync(join(dir, 'b-after.aite.json'), JSON.stringify({ name: 'after', steps: [{ navigate: '/counter.html' }, { click: { text: 'Add' } }] }));
  return { ...startJob(dir, [cli, 'run', 'a-wait.aite.json', 'b-after.aite.json', '--report', 'out', '--reporter', 'list,junit']), dir };
}

describe('aite run stopped by a signal', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`[CLI-INTERRUPT] ${signal} mid-step: the step is interrupted, the rest not run, the report and junit written, the summary names ${signal}, no Chrome left, exit ${code}`, async () => {
      const child = startRun(signal);
      try {
        // The first step's result line is written as the second step (the long wait) starts.
        await expect.poll(() => /✓ +1 navigate/.test(child.output()), { timeout: 60_000, message: child.output() }).toBe(true);
        expect(processesWith(child.tmp).length).toBeGreaterThan(0);
        const sent = Date.now();
        // As a terminal's Ctrl-C does: the whole group.
        process.kill(-child.proc.pid!, signal);
        const ended = await child.ended;
        const output = child.output();
        expect(ended.code, output).toBe(code);
        // The one-minute wait was abandoned, not waited out.
        expect(ended.at - sent, output).toBeLessThan(15_000);

        const report = JSON.parse(readFileSync(join(child.dir, 'out/report.json'), 'utf8')) as RunReport;
        expect(report.status).toBe('interrupted');
        expect(report.interrupted).toBe(signal);
        expect(report.scripts.map((s) => s.status)).toEqual(['interrupted', 'skipped']);
        expect(report.scripts[0]!.steps.map((s) => s.status)).toEqual(['passed', 'interrupted', 'skipped']);
        expect(report.scripts[0]!.steps[1]).toMatchObject({ title: 'wait for what never comes', message: `interrupted by ${signal}` });
        expect(report.scripts[0]!.steps[1]!.reason).toBeUndefined();
        expect(report.scripts[0]!.error?.message).toBe(`interrupted by ${signal} during step 2 (wait for what never comes)`);
        expect(report.scripts[1]!.steps.map((s) => s.status)).toEqual(['skipped', 'skipped']);
        expect(report.totals).toMatchObject({ scripts: 2, passed: 0, interrupted: 1, skipped: 1 });

        const junit = readFileSync(join(child.dir, 'out/junit.xml'), 'utf8');
        expect(junit).toContain(`<error type="interrupted" message="interrupted by ${signal}"/>`);
        expect(junit).toContain(`<skipped message="not run: interrupted by ${signal}"/>`);
        expect(existsSync(join(child.dir, 'out/index.html'))).toBe(true);

        expect(output).toContain(`interrupted by ${signal}`);
        expect(output).toMatch(/■ +2 wait for what never comes/);
        expect(output).toMatch(/report: out\/index\.html · junit: out\/junit\.xml/);
        expect(processesWith(child.tmp), output).toEqual([]);
        expect(readdirSync(child.tmp), output).toEqual([]);
      } finally {
        for (const pid of processesWith(child.tmp)) process.kill(pid, 'SIGKILL');
        if (child.proc.exitCode === null) child.proc.kill('SIGKILL');
      }
    }, 90_000);
  }

  it('[CLI-INTERRUPT] a second SIGINT while the run stops exits at once (130), and still leaves no Chrome', async () => {
    const child = startRun('twice');
    try {
      await expect.poll(() => /✓ +1 navigate/.test(child.output()), { timeout: 60_000, message: child.output() }).toBe(true);
      process.kill(-child.proc.pid!, 'SIGINT');
      await expect.poll(() => child.output().includes('SIGINT: stopping the run'), { timeout: 10_000, message: child.output() }).toBe(true);
      process.kill(-child.proc.pid!, 'SIGINT');
      const ended = await child.ended;
      expect(ended.code, child.output()).toBe(130);
      // Killed on exit, not closed in order: the summary never came.
      expect(child.output()).not.toContain('report: out/index.html');
      await expect.poll(() => processesWith(child.tmp), { timeout: 10_000 }).toEqual([]);
    } finally {
      for (const pid of processesWith(child.tmp)) process.kill(pid, 'SIGKILL');
      if (child.proc.exitCode === null) child.proc.kill('SIGKILL');
    }
  }, 90_000);
});
