import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exitCodeOf, resolveConfig, runSuite, UsageError, type RunListener } from 'aite';
import { fakeLauncher } from './fakeSession.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aite-suite-'));
  await mkdir(join(dir, 'scripts'));
  for (const name of ['a', 'b', 'c']) {
    await writeFile(join(dir, 'scripts', `${name}.aite.json`), JSON.stringify({ name, steps: [{ navigate: '/' }, { click: name }] }));
  }
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const config = () => resolveConfig({ allow: ['http://127.0.0.1:4173'], baseUrl: 'http://127.0.0.1:4173/' }, dir, join(dir, 'aite.config.json'));

describe('runSuite', () => {
  it('finds the scripts of a folder, takes the shard, tells the listener, and answers one report with its counts', async () => {
    const fake = fakeLauncher();
    const heard: string[] = [];
    const listener: RunListener = {
      suiteStart: ({ scripts, total, shard }) => heard.push(`suite ${scripts.join(',')} of ${total} shard ${shard?.index}/${shard?.total}`),
      scriptStart: ({ name }) => heard.push(`script ${name}`),
    };
    const { report, attachments } = await runSuite(['scripts'], { config: config(), cwd: dir, shard: '2/2', listener, version: '9.9.9', launch: fake.launch });
    expect(heard).toEqual(['suite scripts/b.aite.json of 3 shard 2/2', 'script b']);
    expect(report).toMatchObject({ status: 'passed', tool: { name: 'aite', version: '9.9.9' }, shard: { index: 2, total: 2 }, totals: { scripts: 1, passed: 1, steps: 2 } });
    expect(fake.calls.map((c) => c.method)).toEqual(['navigate', 'click', 'close']);
    expect(attachments).toEqual([]);
  });

  it('finds every mistake of every script before any Chrome starts, as one UsageError', async () => {
    await writeFile(join(dir, 'scripts', 'b.aite.json'), JSON.stringify({ steps: [{ clik: 'Send' }] }));
    await writeFile(join(dir, 'scripts', 'c.aite.json'), JSON.stringify({ steps: [{ navigate: '/', profile: 'nobody' }] }));
    const fake = fakeLauncher();
    const error = await runSuite(['scripts'], { config: config(), cwd: dir, launch: fake.launch }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).issues.map((i) => i.file)).toEqual(expect.arrayContaining([expect.stringContaining('b.aite.json'), expect.stringContaining('c.aite.json')]));
    expect(fake.launched).toEqual([]);
    await expect(runSuite(['scripts'], { config: config(), cwd: dir, updateLock: true, launch: fake.launch })).rejects.toThrow(/--update-lock .* none is set/);
    await expect(runSuite(['scripts'], { config: config(), cwd: dir, shard: '3/2', launch: fake.launch })).rejects.toThrow(UsageError);
  });

  it('[CLI-INTERRUPT] aborted mid-step: that step interrupted (its call abandoned, the session closed), the steps and scripts after it skipped, the run interrupted by the reason', async () => {
    const stop = new AbortController();
    // The click of script a never answers; the run is stopped while it waits.
    const fake = fakeLauncher(() => ({ click: () => (stop.abort('SIGINT'), new Promise(() => undefined)) }));
    const { report } = await runSuite(['scripts'], { config: config(), cwd: dir, launch: fake.launch, signal: stop.signal });
    expect(report).toMatchObject({ status: 'interrupted', interrupted: 'SIGINT', totals: { scripts: 3, passed: 0, interrupted: 1, skipped: 2, steps: 6 } });
    expect(report.scripts.map((s) => [s.status, s.steps.map((step) => step.status)])).toEqual([
      ['interrupted', ['passed', 'interrupted']],
      ['skipped', ['skipped', 'skipped']],
      ['skipped', ['skipped', 'skipped']],
    ]);
    expect(report.scripts[0]!.steps[1]).toMatchObject({ message: 'interrupted by SIGINT' });
    expect(report.scripts[0]!.steps[1]!.reason).toBeUndefined();
    expect(report.scripts[1]!.steps[0]).toMatchObject({ message: 'not run: interrupted by SIGINT' });
    // Each call once (nothing re-sent), and the Chrome closed.
    expect(fake.calls.map((c) => c.method)).toEqual(['navigate', 'click', 'close']);
    expect(exitCodeOf(report)).toBe(1);
  });

  it('[CLI-INTERRUPT] aborted before it began: every script skipped, no Chrome started, the run interrupted', async () => {
    const fake = fakeLauncher();
    const { report } = await runSuite(['scripts'], { config: config(), cwd: dir, launch: fake.launch, signal: AbortSignal.abort('SIGTERM') });
    expect(report).toMatchObject({ status: 'interrupted', interrupted: 'SIGTERM' });
    expect(report.scripts.map((s) => s.status)).toEqual(['skipped', 'skipped', 'skipped']);
    expect(fake.launched).toEqual([]);
  });
});
