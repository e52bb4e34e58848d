import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/sdk/index.js';
import { runCli } from '../../src/cli/program.js';
import { startFixtureServer, type FixtureServer } from '../support/FixtureServer.js';
import { Capture } from '../support/Capture.js';

async function aite(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await runCli(args, { stdout, stderr, env: { NO_COLOR: '1' }, cwd });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

let server: FixtureServer;
let dir: string;
beforeAll(async () => {
  server = await startFixtureServer();
  dir = await mkdtemp(join(tmpdir(), 'aite-cli-e2e-'));
  await writeFile(
    join(dir, 'aite.config.json'),
    JSON.stringify({
      allow: [server.origin],
      baseUrl: server.url,
      profiles: { sender: { userDataDir: 'profiles/sender' }, receiver: { userDataDir: 'profiles/receiver' } },
    }),
  );
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('aite run, in real Chromium with the real extension', () => {
  it('[T-PROFILES] a two-profile script starts a Chrome for each and routes each step by its profile', { timeout: 120_000 }, async () => {
    await writeFile(
      join(dir, 'two.aite.yaml'),
      [
        'name: sender and receiver',
        'profile: sender',
        'steps:',
        '  - navigate: counter.html',
        '  - navigate: counter.html',
        '    profile: receiver',
        '  - click: Increment',
        '  - click: Increment',
        '  - verify: { kind: targetText, target: { css: "#value" }, value: "12" }',
        '  - verify: { kind: targetText, target: { css: "#value" }, value: "10" }',
        '    profile: receiver',
        '  - click: Decrement',
        '    profile: receiver',
        '  - verify: { kind: numberChange, target: { css: "#value" }, from: 10, by: -1 }',
        '    profile: receiver',
        '  - verify: { kind: targetText, target: { css: "#value" }, value: "12" }',
        '  - screenshot: sender-done',
      ].join('\n'),
    );
    const { code, stdout, stderr } = await aite(['run', 'two.aite.yaml', '--report', 'report'], dir);
    expect(stderr).toBe('');
    expect(code, stdout).toBe(0);
    expect(stdout).toContain('profiles sender, receiver');
    expect(stdout).toMatch(/✓ +6 \[receiver\] verify/);
    const report = JSON.parse(await readFile(join(dir, 'report/report.json'), 'utf8')) as RunReport;
    const script = report.scripts[0]!;
    expect(script.status).toBe('passed');
    expect(script.profiles).toEqual(['sender', 'receiver']);
    expect(script.steps.map((s) => `${s.profile}:${s.status}`)).toEqual([
      'sender:passed', 'receiver:passed', 'sender:passed', 'sender:passed', 'sender:passed',
      'receiver:passed', 'receiver:passed', 'receiver:passed', 'sender:passed', 'sender:passed',
    ]);
    expect(script.steps[9]!.screenshot).toBe('screenshots/two-step-10-sender-done.png');
    const png = await readFile(join(dir, 'report', script.steps[9]!.screenshot!));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    // Each profile kept its own user data dir.
    for (const profile of ['sender', 'receiver']) expect((await readFile(join(dir, 'profiles', profile, 'Local State'), 'utf8')).length).toBeGreaterThan(0);
  });

  it('[RQ-REASONS] a pre step the page does not meet fails as pre-state, exit 3, and the steps are not run', { timeout: 120_000 }, async () => {
    await writeFile(
      join(dir, 'pre.aite.yaml'),
      ['name: pre-state', 'profile: sender', 'pre:', '  - navigate: counter.html', '  - verify: { kind: targetText, target: { css: "#value" }, value: "99" }', '    timeoutMs: 300', 'steps:', '  - click: Increment'].join('\n'),
    );
    const { code, stdout, stderr } = await aite(['run', 'pre.aite.yaml', '--report', 'pre-report'], dir);
    expect(code, stdout + stderr).toBe(3);
    expect(stdout).toMatch(/pre-state/);
    const report = JSON.parse(await readFile(join(dir, 'pre-report/report.json'), 'utf8')) as RunReport;
    const steps = report.scripts[0]!.steps;
    expect(steps.find((st) => st.status === 'failed')?.reason).toBe('pre-state');
    expect(steps.filter((st) => st.section !== 'pre').every((st) => st.status === 'skipped')).toBe(true);
  });

  it('runs the demo through the CLI: the config starts the app, the pre-state holds, the report is written', { timeout: 120_000 }, async () => {
    const out = join(dir, 'demo-report');
    const { code, stdout } = await aite(['run', 'examples/demo/send.aite.json', '--config', 'examples/demo/aite.config.json', '--report', out], process.cwd());
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(/✓ 1 passed · 12 steps/);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as RunReport;
    expect(report.scripts[0]!.steps[0]).toMatchObject({ section: 'pre', status: 'passed', title: 'the wallet holds 5 MALLBUCKS' });
  });
});
