import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/sdk/index.js';
import { runCli } from '../../src/cli/program.js';
import { startFixtureServer, type FixtureServer } from '../support/FixtureServer.js';
import { Capture } from '../support/Capture.js';

let server: FixtureServer;
let dir: string;
let code: number;
let report: RunReport;
let html: string;

// One run of two scripts: the real-pages steps passing, then a broken page whose failed step
// must show its page errors and its failed request.
beforeAll(async () => {
  server = await startFixtureServer();
  dir = await mkdtemp(join(tmpdir(), 'aite-cli-surface-'));
  await writeFile(join(dir, 'aite.config.json'), JSON.stringify({ allow: [server.origin], baseUrl: server.url }));
  await writeFile(
    join(dir, 'a-steps.aite.json'),
    JSON.stringify({
      name: 'real-pages steps',
      steps: [
        { navigate: 'evaluate.html' },
        { navigate: 'virtual-list.html' },
        { scroll: { target: { css: '#list' }, until: { text: 'Row 300', exact: true } } },
        { click: { text: 'Row 300', exact: true } },
        { evaluate: "document.getElementById('picked').textContent", equals: 'Row 300' },
        { back: true },
        { verify: { kind: 'title', value: 'Evaluate' } },
        { forward: true },
        { reload: true },
        { verify: { kind: 'targetText', target: { css: '#picked' }, value: 'none' } },
      ],
    }),
  );
  await writeFile(
    join(dir, 'b-broken.aite.json'),
    JSON.stringify({
      name: 'broken page',
      steps: [
        { navigate: 'broken-load.html' },
        { click: 'Save' },
        { verify: { kind: 'targetText', target: { css: '#result' }, value: 'Stored' }, timeoutMs: 1_500 },
      ],
    }),
  );
  code = await runCli(['run', 'a-steps.aite.json', 'b-broken.aite.json', '--report', 'report'], { stdout: new Capture(), stderr: new Capture(), env: { NO_COLOR: '1' }, cwd: dir });
  report = JSON.parse(await readFile(join(dir, 'report', 'report.json'), 'utf8')) as RunReport;
  html = await readFile(join(dir, 'report', 'index.html'), 'utf8');
}, 180_000);

afterAll(async () => {
  await server?.close();
});

describe('aite run with the real-pages steps', () => {
  it('[SCROLL-UNTIL, HIST-BACK-FORWARD, HIST-RELOAD, EVAL-JSON] runs scroll, evaluate (equals), back, forward and reload steps', () => {
    const steps = report.scripts.find((s) => s.name === 'real-pages steps')!;
    expect(steps.steps.map((s) => `${s.action} ${s.status}`)).toEqual([
      'navigate passed', 'navigate passed', 'scroll passed', 'click passed', 'evaluate passed',
      'back passed', 'verify passed', 'forward passed', 'reload passed', 'verify passed',
    ]);
    expect(steps.steps[2]!.title).toBe('scroll css "#list" until "Row 300" (exact)');
  });

  it('[PERR-REPORT, NET-FAILED-STEP] the report lists a page\u2019s load errors, console error and 404, and the failed step its 500, per step', () => {
    expect(code).toBe(1);
    const broken = report.scripts.find((s) => s.name === 'broken page')!;
    const [navigate, , verify] = broken.steps;
    const kinds = new Set([...navigate!.consoleErrors, ...broken.steps[1]!.consoleErrors].map((e) => e.kind));
    expect(kinds).toEqual(new Set(['error', 'rejection', 'console-error', 'console-warning', 'resource']));
    const all = broken.steps.flatMap((s) => s.consoleErrors.map((e) => e.text)).join('\n');
    expect(all).toMatch(/thrown while the page parses/);
    expect(all).toMatch(/the config did not load/);
    expect(all).toMatch(/status of 404/);
    expect(verify!.status).toBe('failed');
    const failed = [...(broken.steps[1]!.failedRequests ?? []), ...(verify!.failedRequests ?? [])];
    expect(failed).toContainEqual(expect.objectContaining({ method: 'GET', status: 500, type: 'fetch', url: `${server.url}status/500` }));
    expect(verify!.screenshot).toBeDefined();
    expect(html).toContain('Page errors');
    expect(html).toContain('Failed requests');
    expect(html).toContain('thrown while the page parses');
    expect(html).toContain(`${server.url}status/500`);
  });
});
