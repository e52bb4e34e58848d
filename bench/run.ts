// `npm run bench`: aite against Playwright and puppeteer-core on the same Chromium, same flags,
// same pages, same machine, same run. Each tool runs in its own Node process (bench/driver.ts);
// every scenario is run interleaved, A B C A B C ..., so machine noise hits all three alike.
//
//   node bench/out/run.mjs [--quick] [--only launch,primitives,...] [--steps click,read] [--n 12] [--out bench/results.json] [--trace f] [--no-jitter]
//
// `--steps` keeps only these primitives (click, type, fill, verify, read); `--n` sets how many
// timed rounds the primitives get (25 by default), for short runs while changing a step;
// `--trace` writes the CDP calls behind each primitive of aite and puppeteer to f (bench/trace.ts);
// `--no-jitter` drops the random idle before each primitive (JITTER_MS).
//
// Run by bench/build-and-run.mjs, which bundles this file and the driver into bench/out/ first.
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadAite } from './tools/aite.js';
import { AGENT_TASK, runAgentBench, type AgentRun, type AgentTool } from './agents.js';
import { startPageServer } from './server.js';
import { startFixtureServer } from '../test/support/FixtureServer.js';
import { WIDGET_TASKS } from '../test/widgets/tasks.js';
import { median, p95 } from './stats.js';
import { TRACE_ENV } from './trace.js';
import type { LaunchSettings, ToolName } from './tools/Tool.js';

const ROOT = resolve(process.cwd());
const OUT = join(ROOT, 'bench/out');
const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const QUICK = argv.includes('--quick');
const ONLY = flag('--only')?.split(',');
const STEPS = flag('--steps')?.split(',');
const PRIMITIVE_N = flag('--n') === undefined ? undefined : Number(flag('--n'));
const RESULTS = resolve(ROOT, flag('--out') ?? 'bench/results.json');
const TRACE = flag('--trace');
/**
 * A step as short as a frame (16.7 ms at 60 Hz) is slow when it meets the frame the page draws
 * for it and fast when it does not, and a loop of A B C turns keeps the phase between the two
 * for a whole run: each primitive starts after a random idle of up to a frame, so a run's
 * median is the step's and not the phase's (docs/performance.md, "The click against the page's
 * frame"). `--no-jitter` keeps the loop's own phase.
 */
const JITTER_MS = argv.includes('--no-jitter') ? 0 : 17;
if (TRACE) {
  // The drivers inherit it (bench/trace.ts); the file starts empty.
  process.env[TRACE_ENV] = resolve(ROOT, TRACE);
  writeFileSync(process.env[TRACE_ENV], '');
}
const TOOLS: ToolName[] = ['aite', 'playwright', 'puppeteer'];
const q = (n: number): number => (QUICK ? Math.max(2, Math.ceil(n / 4)) : n);
const wanted = (group: string): boolean => !ONLY || ONLY.includes(group);
const benchStarted = performance.now();

// Iterations per tool (after warm-up); slow scenarios get fewer.
const N = {
  launch: q(6),
  primitive: PRIMITIVE_N ?? q(25),
  flow: q(6),
  scaleFlow: q(4),
  /** The 20 000-element flow takes seconds per step for every tool. */
  hugeFlow: q(2),
  repair: q(30),
  parallel: q(2),
  /** Rounds of the isolated-test suite (each round: SUITE_TESTS tests per tool). */
  suite: q(6),
  suite4: q(2),
  widget: q(6),
  agents: q(5),
};
/** Tests in one round of the isolated suite, and in the 4-worker suite. */
const SUITE_TESTS = 30;
const SUITE4_TESTS = QUICK ? 40 : 200;
const SIZES = [200, 2000, 20000];
// 1 profile is the single-profile flow on 2000 elements, measured above.
const PROFILES = [1, 2, 4, 8];

// ------------------------------------------------------------------------------ drivers

class Driver {
  readonly #child: ChildProcess;
  readonly #waiting = new Map<number, { resolve(v: any): void; reject(e: Error): void }>();
  #next = 1;

  constructor(readonly tool: ToolName) {
    this.#child = fork(join(OUT, 'driver.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.#child.on('message', (m: { id: number; ok: boolean; result?: unknown; error?: string }) => {
      const w = this.#waiting.get(m.id);
      this.#waiting.delete(m.id);
      if (m.ok) w?.resolve(m.result);
      else w?.reject(new Error(`${tool}: ${m.error}`));
    });
    this.#child.on('exit', (code) => {
      for (const w of this.#waiting.values()) w.reject(new Error(`${tool}: driver exited (${code})`));
      this.#waiting.clear();
    });
  }

  call<T = any>(op: string, arg?: unknown, timeoutMs = 180_000): Promise<T> {
    const id = this.#next++;
    return new Promise<T>((resolvePromise, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        reject(new Error(`${this.tool}: ${op} took over ${timeoutMs} ms`));
      }, timeoutMs);
      this.#waiting.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolvePromise(v);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.#child.send({ id, op, arg });
    });
  }

  stop(): void {
    this.#child.disconnect();
  }
}

// ------------------------------------------------------------------------------ results

interface Metric {
  name: string;
  unit: 'ms';
  n: number;
  note?: string;
  /** aite/playwright target, or an absolute ms target for aite-only metrics. */
  target?: { ratio?: number; ms?: number };
  samples: Partial<Record<ToolName, number[]>>;
  extra?: Record<string, unknown>;
}

const metrics: Metric[] = [];
const scaling: { rows: Array<{ label: string; n: number; tools: Partial<Record<ToolName, { median: number; p95: number; wallMedian?: number }>> }> } = { rows: [] };
const failures: string[] = [];
let widgetSummary: string | undefined;

function metric(name: string, n: number, target?: Metric['target'], note?: string): Metric {
  const m: Metric = { name, unit: 'ms', n, target, note, samples: {} };
  metrics.push(m);
  return m;
}

/**
 * Runs `op` on each driver in turn (A B C A B C ...), `warmup` rounds untimed then `n` timed,
 * and records `pick(result)` per tool. A tool that fails is reported and dropped from this metric.
 */
async function interleave(
  m: Metric | undefined,
  drivers: Driver[],
  n: number,
  warmup: number,
  op: string,
  arg: (d: Driver) => unknown,
  pick: (result: any) => number = (r) => r.ms,
  sink?: (tool: ToolName, result: any) => void,
  timeoutMs?: number,
): Promise<void> {
  let active = [...drivers];
  for (let round = -warmup; round < n; round++) {
    for (const d of [...active]) {
      try {
        if (JITTER_MS > 0 && op === 'primitive') await new Promise((r) => setTimeout(r, Math.random() * JITTER_MS));
        const result = await d.call(op, arg(d), timeoutMs);
        if (round >= 0) {
          if (m) (m.samples[d.tool] ??= []).push(pick(result));
          sink?.(d.tool, result);
        }
      } catch (error) {
        failures.push(`${m?.name ?? op}: ${(error as Error).message}`);
        console.error(`  ! ${m?.name ?? op}: ${(error as Error).message.split('\n')[0]}`);
        active = active.filter((x) => x !== d);
      }
    }
  }
}

// ------------------------------------------------------------------------------ output

const fmt = (ms: number | undefined): string =>
  ms === undefined || Number.isNaN(ms) ? '-' : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 100 ? `${ms.toFixed(0)}` : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
const ratio = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined || b === undefined || Number.isNaN(a) || Number.isNaN(b) || b === 0 ? undefined : a / b;
const fmtRatio = (r: number | undefined): string => (r === undefined ? '-' : `${r.toFixed(2)}x`);
const pad = (s: string, n: number): string => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const lpad = (s: string, n: number): string => (s.length >= n ? s : ' '.repeat(n - s.length) + s);

function summary(m: Metric) {
  const tools: Partial<Record<ToolName, { median: number; p95: number; n: number }>> = {};
  for (const t of TOOLS) {
    const s = m.samples[t];
    if (s?.length) tools[t] = { median: median(s), p95: p95(s), n: s.length };
  }
  const vsPlaywright = ratio(tools.aite?.median, tools.playwright?.median);
  const vsPuppeteer = ratio(tools.aite?.median, tools.puppeteer?.median);
  let met: boolean | undefined;
  if (m.target?.ratio !== undefined && vsPlaywright !== undefined) met = vsPlaywright <= m.target.ratio;
  if (m.target?.ms !== undefined) {
    const inPage = (m.extra?.inPageMedian as number | undefined) ?? tools.aite?.median;
    met = inPage !== undefined && inPage <= m.target.ms;
  }
  return { tools, vsPlaywright, vsPuppeteer, met };
}

function printTable(): void {
  const head = `${pad('metric (ms)', 34)}${lpad('N', 4)}  ${pad('aite med / p95', 19)}${pad('playwright med/p95', 21)}${pad('puppeteer med/p95', 20)}${lpad('aite/pw', 8)}${lpad('aite/pptr', 10)}  target`;
  console.log(`\n${head}\n${'-'.repeat(head.length + 6)}`);
  for (const m of metrics) {
    const s = summary(m);
    const cell = (t: ToolName): string => (s.tools[t] ? `${fmt(s.tools[t]!.median)} / ${fmt(s.tools[t]!.p95)}` : '-');
    const target =
      m.target?.ratio !== undefined
        ? `<= ${m.target.ratio.toFixed(1)}x pw ${s.met === undefined ? '' : s.met ? 'met' : 'MISSED'}`
        : m.target?.ms !== undefined
          ? `<= ${m.target.ms} ms in page ${s.met === undefined ? '' : s.met ? 'met' : 'MISSED'}`
          : '';
    console.log(
      `${pad(m.name, 34)}${lpad(String(m.n), 4)}  ${pad(cell('aite'), 19)}${pad(cell('playwright'), 21)}${pad(cell('puppeteer'), 20)}${lpad(fmtRatio(s.vsPlaywright), 8)}${lpad(fmtRatio(s.vsPuppeteer), 10)}  ${target}`,
    );
    if (m.extra?.line) console.log(`${pad('', 40)}${String(m.extra.line)}`);
  }
}

function printScaling(): void {
  if (scaling.rows.length === 0) return;
  console.log(`\nScaling: time per flow step (ms, median of N flows; the 20-step flow, its total / 20)`);
  const head = `${pad('', 36)}${lpad('N', 4)}${lpad('aite', 10)}${lpad('playwright', 12)}${lpad('puppeteer', 11)}${lpad('aite/pw', 9)}${lpad('aite/pptr', 10)}`;
  console.log(`${head}\n${'-'.repeat(head.length)}`);
  for (const row of scaling.rows) {
    const t = row.tools;
    console.log(
      `${pad(row.label, 36)}${lpad(String(row.n), 4)}${lpad(fmt(t.aite?.median), 10)}${lpad(fmt(t.playwright?.median), 12)}${lpad(fmt(t.puppeteer?.median), 11)}${lpad(fmtRatio(ratio(t.aite?.median, t.playwright?.median)), 9)}${lpad(fmtRatio(ratio(t.aite?.median, t.puppeteer?.median)), 10)}`,
    );
  }
}

function agentSummary(agents: Record<AgentTool, AgentRun[]>): Record<string, { calls: number; wallMedianMs: number; wallP95Ms: number; bytesMedian: number; toolListBytes: number }> {
  return Object.fromEntries(
    Object.entries(agents).map(([tool, runs]) => [
      tool,
      {
        calls: median(runs.map((r) => r.calls)),
        wallMedianMs: median(runs.map((r) => r.wallMs)),
        wallP95Ms: p95(runs.map((r) => r.wallMs)),
        bytesMedian: median(runs.map((r) => r.bytes)),
        toolListBytes: median(runs.map((r) => r.toolListBytes)),
      },
    ]),
  );
}

function printAgents(agents: Record<AgentTool, AgentRun[]>): void {
  console.log(`\nAgent task, ${AGENT_TASK.length} steps (${AGENT_TASK.join('; ')}), N = ${N.agents} per tool:`);
  const head = `${pad('tool', 16)}${lpad('tool calls', 12)}${lpad('wall median', 14)}${lpad('wall p95', 12)}${lpad('bytes to read', 16)}${lpad('tool list', 12)}`;
  console.log(`${head}\n${'-'.repeat(head.length)}`);
  for (const [tool, s] of Object.entries(agentSummary(agents))) {
    console.log(`${pad(tool, 16)}${lpad(String(s.calls), 12)}${lpad(fmt(s.wallMedianMs), 14)}${lpad(fmt(s.wallP95Ms), 12)}${lpad(`${s.bytesMedian} B`, 16)}${lpad(`${s.toolListBytes} B`, 12)}`);
  }
}

// ------------------------------------------------------------------------------ main

async function main(): Promise<void> {
  if (!existsSync(join(OUT, 'driver.mjs'))) throw new Error('bench/out/driver.mjs is missing: run `npm run bench` (it bundles first).');
  const { findChrome, _CHROME_ARGS } = await loadAite();
  const executablePath = findChrome();
  const chromeVersion = execFileSync(executablePath, ['--version'], { encoding: 'utf8' }).trim();
  const args = [..._CHROME_ARGS];
  const pages = await startPageServer(join(ROOT, 'bench/pages'));
  // The widget suite's pages and libraries (test/fixtures/pages/widgets, node_modules).
  const fixtures = await startFixtureServer({ root: ROOT });
  // Loaded from the source tree at run time: it serves its app folder next to itself.
  const { startDemoServer } = (await import(pathToFileURL(join(ROOT, 'examples/demo/server.mjs')).href)) as typeof import('../examples/demo/server.mjs');
  const demos = Object.fromEntries(await Promise.all(TOOLS.map(async (t) => [t, await startDemoServer()] as const))) as Record<
    ToolName,
    Awaited<ReturnType<typeof startDemoServer>>
  >;
  const wallet = (els: number, drift = false): string => `${pages.origin}/wallet.html?els=${els}${drift ? '&drift=1' : ''}`;
  const settings = (tool: ToolName): LaunchSettings => ({
    executablePath,
    args,
    origins: [pages.origin, fixtures.origin, new URL(demos[tool].url).origin],
    timeoutMs: 30_000,
  });

  console.log(`aite bench: ${chromeVersion} · Node ${process.version} · ${cpus().length} cores · ${Math.round(totalmem() / 2 ** 30)} GB${QUICK ? ' · --quick' : ''}`);
  console.log(`flags (aite's, for all three): ${args.join(' ')}`);

  // The agent task first: two MCP servers, each spawning its own browser per run.
  let agents: Record<AgentTool, AgentRun[]> | undefined;
  if (wanted('agents')) {
    console.log(`· agent task (${AGENT_TASK.length} steps) through aite mcp and the Playwright MCP server`);
    const fixtures = await startPageServer(join(ROOT, 'test/fixtures/pages'));
    try {
      agents = await runAgentBench({ origin: fixtures.origin, aiteCli: join(ROOT, 'bench/out/aite-pkg/dist/cli/aite.js'), executablePath, chromeArgs: args, n: N.agents });
    } catch (error) {
      failures.push(`agent task: ${(error as Error).message}`);
      console.error(`  ! agent task: ${(error as Error).message.split('\n')[0]}`);
    } finally {
      await fixtures.close();
    }
  }

  const drivers = TOOLS.map((t) => new Driver(t));
  const byTool = (t: ToolName): Driver => drivers.find((d) => d.tool === t)!;
  await Promise.all(drivers.map((d) => d.call('init', { tool: d.tool, settings: settings(d.tool) })));

  try {
    // A scenario that throws ends the scenarios, never the report: what was measured is printed.
    try {
    if (wanted('launch')) {
      console.log('· launch to ready');
      const m = metric('launch to ready', N.launch, { ratio: 1.0 }, 'aite: until the extension is connected; others: launch + newPage');
      await interleave(m, drivers, N.launch, 1, 'launch', () => undefined);
    }

    console.log('· opening one browser per tool for the single-profile scenarios');
    await Promise.all(drivers.map((d) => d.call('open')));

    if (wanted('primitives')) {
      const els = await Promise.all(drivers.map((d) => d.call<{ elements: number }>('goto', { url: wallet(2000) })));
      // The ratios to Playwright that issue 21 sets (type keeps the earlier 1.0).
      const kinds = [
        ['click', 'click', { ratio: 0.3 }],
        ['type', 'type 20 characters', { ratio: 1.0 }],
        ['fill', 'fill', { ratio: 0.5 }],
        ['verify', 'verify / wait for text', { ratio: 0.4 }],
        ['read', 'read text', { ratio: 1.0 }],
      ] as const;
      console.log(`· primitives on wallet.html (${els[0]!.elements} elements)`);
      for (const [kind, name, target] of kinds.filter(([k]) => !STEPS || STEPS.includes(k))) {
        const m = metric(name, N.primitive, target);
        await interleave(m, drivers, N.primitive, 2, 'primitive', () => ({ kind }));
      }
    }

    if (wanted('flows')) {
      console.log('· 20-step flow on the demo app');
      const m = metric('20-step flow, demo app', N.flow);
      await interleave(m, drivers, N.flow, 1, 'flow', (d) => ({ url: demos[d.tool].url, reset: `${demos[d.tool].url}api/reset` }));
      console.log('· 20-step flow on a 2000-element page');
      const m2 = metric('20-step flow, 2000 elements', N.flow);
      await interleave(m2, drivers, N.flow, 1, 'flow', () => ({ url: wallet(2000) }));
    }

    if (wanted('scaling')) {
      for (const size of SIZES) {
        console.log(`· scaling: flow on ${size} elements`);
        const existing = size === 2000 ? metrics.find((m) => m.name === '20-step flow, 2000 elements') : undefined;
        const samples: Partial<Record<ToolName, number[]>> = {};
        if (existing) for (const t of TOOLS) samples[t] = existing.samples[t]?.map((ms) => ms / 20);
        else {
          const huge = size >= 20000;
          await interleave(undefined, drivers, huge ? N.hugeFlow : N.scaleFlow, huge ? 0 : 1, 'flow', () => ({ url: wallet(size) }), undefined, (t, r) =>
            (samples[t] ??= []).push(r.ms / 20),
          );
        }
        const n = Math.max(...TOOLS.map((t) => samples[t]?.length ?? 0));
        scaling.rows.push({
          label: `${size} elements, 1 profile`,
          n,
          tools: Object.fromEntries(TOOLS.filter((t) => samples[t]?.length).map((t) => [t, { median: median(samples[t]!), p95: p95(samples[t]!) }])),
        });
      }
    }

    if (wanted('repair')) {
      console.log('· repair on a drifted 2000-element page (aite only)');
      const aiteDriver = byTool('aite');
      const harness = join(OUT, 'repair-timer.js');
      const m = metric('repair, drifted 2000 elements', N.repair, { ms: 30 }, 'aite only: resolve with the remembered descriptor');
      await aiteDriver.call('repairSetup', { url: wallet(2000), driftUrl: wallet(2000, true), harness: existsSync(harness) ? harness : undefined });
      const inPage: number[] = [];
      const scoring: number[] = [];
      const scoringKinds = new Set<string>();
      const vias = new Set<string>();
      await interleave(m, [aiteDriver], N.repair, 2, 'repair', () => undefined, (r) => r.ms, (_t, r) => {
        if (typeof r.inPageMs === 'number') inPage.push(r.inPageMs);
        if (typeof r.scoreOnlyMs === 'number') scoring.push(r.scoreOnlyMs);
        if (r.scoreOnly) scoringKinds.add(r.scoreOnly);
        vias.add(`${r.via}${r.score !== undefined ? ` (score ${Number(r.score).toFixed(2)})` : ''}`);
      });
      if (inPage.length) {
        m.extra = {
          inPageMedian: median(inPage),
          inPageP95: p95(inPage),
          scoringMedian: median(scoring),
          scoringP95: p95(scoring),
          line:
            `in page, repair() alone: median ${fmt(median(inPage))} / p95 ${fmt(p95(inPage))} ms (found via ${[...vias].join(', ')}); ` +
            `scoring every candidate (scoreOnly): median ${fmt(median(scoring))} / p95 ${fmt(p95(scoring))} ms (${[...scoringKinds].join(', ')})`,
        };
      }
    }

    if (wanted('suite')) {
      console.log(`· a suite of ${SUITE_TESTS} isolated tests (aite: reset per test; Playwright: a context per test; puppeteer: a browser context per test)`);
      const m = metric(`suite, ${SUITE_TESTS} isolated tests`, N.suite, { ratio: 0.8 }, 'each test: a clean state, open the page, click, see the count; same Chrome for the whole suite');
      await interleave(m, drivers, N.suite, 1, 'suite', () => ({ url: wallet(200), n: SUITE_TESTS }), (r) => r.ms, undefined, 300_000);
    }

    if (wanted('widgets')) {
      // Real widget libraries, one user task each, aite and Playwright on the same pages.
      console.log(`· widget tasks (${WIDGET_TASKS.map((t) => t.library).join(', ')}), aite and Playwright`);
      const pair = drivers.filter((d) => d.tool !== 'puppeteer');
      for (const task of WIDGET_TASKS) {
        const m = metric(`widget: ${task.library}`, N.widget, undefined, task.name);
        await interleave(m, pair, N.widget, 1, 'widget', () => ({ id: task.id, url: `${fixtures.origin}/${task.page}` }));
      }
      const rows = metrics.filter((m) => m.name.startsWith('widget: '));
      const passed = (m: Metric, t: ToolName): boolean => (m.samples[t]?.length ?? 0) === m.n;
      // Time is compared over the tasks both passed: a failed task has no time to add up.
      const both = rows.filter((m) => passed(m, 'aite') && passed(m, 'playwright'));
      const sum = (t: ToolName): number => both.reduce((total, m) => total + median(m.samples[t]!), 0);
      const count = (t: ToolName): number => rows.filter((m) => passed(m, t)).length;
      widgetSummary =
        `Widget tasks: aite passed ${count('aite')}/${rows.length}, Playwright ${count('playwright')}/${rows.length}` +
        (rows.some((m) => !passed(m, 'aite')) ? ` (aite failed: ${rows.filter((m) => !passed(m, 'aite')).map((m) => m.name.slice(8)).join(', ')})` : '') +
        `; over the ${both.length} both passed, sum of medians aite ${Math.round(sum('aite'))} ms, Playwright ${Math.round(sum('playwright'))} ms (aite/pw ${fmtRatio(ratio(sum('aite'), sum('playwright')))}).`;
    }

    await Promise.all(drivers.map((d) => d.call('close')));

    if (wanted('suite')) {
      console.log(`· a suite of ${SUITE4_TESTS} isolated tests over 4 workers (each worker launches its browser once)`);
      const m = metric(`suite, ${SUITE4_TESTS} tests over 4 workers (wall)`, N.suite4, { ratio: 0.8 }, 'launch included; 4 browsers at once on 2 cores');
      for (let round = 0; round < N.suite4; round++) {
        for (const tool of TOOLS) {
          const workers = [0, 1, 2, 3].map(() => new Driver(tool));
          try {
            await Promise.all(workers.map((w) => w.call('init', { tool, settings: settings(tool) })));
            const started = performance.now();
            await Promise.all(workers.map((w) => w.call('suiteWorker', { url: wallet(200), n: SUITE4_TESTS / 4 }, 600_000)));
            (m.samples[tool] ??= []).push(performance.now() - started);
          } catch (error) {
            failures.push(`${m.name}: ${(error as Error).message}`);
            console.error(`  ! ${m.name}: ${(error as Error).message.split('\n')[0]}`);
          } finally {
            for (const w of workers) w.stop();
          }
        }
      }
    }

    if (wanted('parallel')) {
      const single = metrics.find((m) => m.name === '20-step flow, 2000 elements');
      if (single) {
        scaling.rows.push({
          label: '2000 elements, 1 profile at once',
          n: single.n,
          tools: Object.fromEntries(
            TOOLS.filter((t) => single.samples[t]?.length).map((t) => {
              const perStep = single.samples[t]!.map((ms) => ms / 20);
              return [t, { median: median(perStep), p95: p95(perStep), wallMedian: median(single.samples[t]!) }];
            }),
          ),
        });
      }
      for (const k of PROFILES.filter((p) => p > 1 || !single)) {
        console.log(`· ${k} profile(s) in parallel, the flow on 2000 elements in each`);
        const opened = await Promise.all(
          drivers.map((d) =>
            d.call('crowdOpen', { k }, 300_000).then(
              () => d,
              (error: Error) => {
                failures.push(`${k} profiles: ${error.message}`);
                console.error(`  ! ${k} profiles: ${error.message.split('\n')[0]}`);
                return undefined;
              },
            ),
          ),
        );
        const crowd = opened.filter((d): d is Driver => d !== undefined);
        const perStep: Partial<Record<ToolName, number[]>> = {};
        const walls: Partial<Record<ToolName, number[]>> = {};
        const m = k === 4 ? metric('4 profiles in parallel (wall)', N.parallel, undefined, 'the flow in 4 browsers at once; wall time') : undefined;
        await interleave(m, crowd, N.parallel, 0, 'crowdFlow', () => ({ url: wallet(2000) }), (r) => r.wall, (t, r) => {
          (perStep[t] ??= []).push(r.ms);
          (walls[t] ??= []).push(r.wall);
        });
        await Promise.all(drivers.map((d) => d.call('crowdClose').catch(() => undefined)));
        scaling.rows.push({
          label: `2000 elements, ${k} profile${k > 1 ? 's' : ''} at once`,
          n: Math.max(...TOOLS.map((t) => perStep[t]?.length ?? 0)),
          tools: Object.fromEntries(
            TOOLS.filter((t) => perStep[t]?.length).map((t) => [t, { median: median(perStep[t]!), p95: p95(perStep[t]!), wallMedian: median(walls[t]!) }]),
          ),
        });
      }
    }

    } catch (error) {
      failures.push(`scenarios stopped: ${(error as Error).message}`);
      console.error(`  ! scenarios stopped: ${(error as Error).message.split('\n')[0]}`);
    }

    const memory = Object.fromEntries(
      await Promise.all(
        drivers.map(async (d) => [d.tool, await d.call<{ peakRss: number; maxRss: number }>('memory').catch(() => ({ peakRss: 0, maxRss: 0 }))] as const),
      ),
    ) as Record<ToolName, { peakRss: number; maxRss: number }>;

    printTable();
    printScaling();
    if (widgetSummary) console.log(`\n${widgetSummary}`);
    if (agents) printAgents(agents);
    const mb = (b: number): string => `${(b / 2 ** 20).toFixed(0)} MB`;
    console.log(
      `\nPeak memory of each tool's Node process (maxRSS): ${TOOLS.map((t) => `${t} ${mb(memory[t].maxRss)}`).join(' · ')}` +
        ` · orchestrator ${mb(process.resourceUsage().maxRSS * 1024)}`,
    );
    const seconds = (performance.now() - benchStarted) / 1000;
    console.log(`Total bench time ${seconds.toFixed(0)} s.${failures.length ? ` ${failures.length} failure(s), see above.` : ''}`);

    const results = {
      date: new Date().toISOString(),
      quick: QUICK,
      machine: { cpus: cpus().length, model: cpus()[0]?.model, memGB: Math.round(totalmem() / 2 ** 30), node: process.version, chromium: chromeVersion },
      chromeArgs: args,
      seconds: Math.round(seconds),
      metrics: metrics.map((m) => {
        const s = summary(m);
        return {
          name: m.name,
          unit: m.unit,
          n: m.n,
          note: m.note,
          target: m.target,
          met: s.met,
          tools: s.tools,
          ratio: { playwright: s.vsPlaywright, puppeteer: s.vsPuppeteer },
          ...(m.extra ? { extra: Object.fromEntries(Object.entries(m.extra).filter(([k]) => k !== 'line')) } : {}),
          samples: m.samples,
        };
      }),
      scaling: scaling.rows,
      ...(widgetSummary ? { widgets: widgetSummary } : {}),
      agents: agents ? { task: AGENT_TASK, n: N.agents, tools: agentSummary(agents), runs: agents } : undefined,
      memory: { ...memory, orchestratorMaxRss: process.resourceUsage().maxRSS * 1024 },
      failures,
    };
    writeFileSync(RESULTS, `${JSON.stringify(results, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v * 100) / 100 : v), 2)}\n`);
    console.log(`Wrote ${RESULTS.replace(`${ROOT}/`, '')}.`);
  } finally {
    for (const d of drivers) d.stop();
    await pages.close();
    await fixtures.close();
    await Promise.all(Object.values(demos).map((d) => d.close()));
  }
  if (failures.length) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
