import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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
let reportJson: string;
let html: string;

// One run of three scripts: the real-pages steps passing, a broken page whose failed step must
// show its page errors and its failed request, and a page that floods its steps with errors
// while it reloads itself ten times.
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
  await writeFile(
    join(dir, 'c-reload-loop.aite.json'),
    JSON.stringify({
      name: 'reload loop',
      steps: [
        { navigate: `reload-loop.html?run=${Date.now()}` },
        { verify: { kind: 'targetText', target: { css: '#loads' }, value: 'done' }, timeoutMs: 30_000 },
      ],
    }),
  );
  code = await runCli(['run', 'a-steps.aite.json', 'b-broken.aite.json', 'c-reload-loop.aite.json', '--report', 'report'], { stdout: new Capture(), stderr: new Capture(), env: { NO_COLOR: '1' }, cwd: dir });
  reportJson = await readFile(join(dir, 'report', 'report.json'), 'utf8');
  report = JSON.parse(reportJson) as RunReport;
  html = await readFile(join(dir, 'report', 'index.html'), 'utf8');
}, 180_000);

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
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
    expect(failed).toContainEqual(expect.objectContaining({ method: 'GET', status: 500, type: 'fetch', url: `${server.url}status/500?ms=200` }));
    expect(verify!.screenshot).toBeDefined();
    expect(html).toContain('Page errors');
    expect(html).toContain('Failed requests');
    expect(html).toContain('thrown while the page parses');
    expect(html).toContain(`${server.url}status/500?ms=200`);
  });
});

describe('a page that reloads itself ten times in a step while it throws and logs', () => {
  it('[PERR-CAP] keeps at most 100 page errors per step across the reloads, says how many more there were, and report.json stays small', () => {
    const loop = report.scripts.find((s) => s.name === 'reload loop')!;
    expect(loop.steps.map((s) => `${s.action} ${s.status}`)).toEqual(['navigate passed', 'verify passed']);
    // The navigate step waits out the reloads (measured: all ten happen in it); what comes
    // between two steps goes to the next one, so a step holds at most twice its share.
    for (const step of loop.steps) expect(step.consoleErrors.length).toBeLessThanOrEqual(2 * 101);
    const all = loop.steps.flatMap((s) => s.consoleErrors);
    const lines = all.filter((e) => /more than 100 page errors in this step/.test(e.text));
    expect(lines.length).toBeGreaterThanOrEqual(1);
    const more = lines.map((l) => Number(/: (\d+) more (?:was|were) not kept\)$/.exec(l.text)?.[1] ?? NaN)).reduce((a, b) => a + b, 0);
    // 11 loads of 300 errors each: all but the kept ones were counted.
    const kept = all.length - lines.length;
    expect(more).toBeGreaterThan(2_000);
    expect(more + kept).toBeLessThanOrEqual(3_300);
    // Unbounded, the loop's 3,300 errors of 2,000 characters would be 6.6 MB.
    expect(JSON.stringify(loop).length).toBeLessThan(1_000_000);
    expect(reportJson.length).toBeLessThan(1_500_000);
    expect(html.length).toBeLessThan(1_500_000);
  });
});
