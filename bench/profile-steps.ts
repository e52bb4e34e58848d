// `node bench/build-and-run.mjs --profile-steps [--n 30] [--els 2000] [--steps click,fill] [--gap 100] [--raw]`: each
// composed step on the bench page, broken into the round trips it makes: every bridge request
// (runner -> extension worker -> content script -> back) and every CDP message over the pipe,
// with its median start and duration inside the step. Bundled from src/ like --profile.
import { Connection } from 'puppeteer-core/internal/cdp/Connection.js';
import { launch, type Session } from '../src/sdk/index.js';
import { median } from './stats.js';
import { startPageServer } from './server.js';
import { join, resolve } from 'node:path';

const ROOT = resolve(process.cwd());
const argv = process.argv.slice(2);
const arg = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const N = Number(arg('--n')) || 30;
const els = Number(arg('--els')) || 2000;
/** Idle time before each step, as in the interleaved bench (the other tools' turns); 0: back to back. */
const GAP_MS = Number(arg('--gap') ?? 100);

interface Span {
  what: string;
  start: number;
  end: number;
}

let spans: Span[] | undefined;
let stepStart = 0;

function trace<T>(what: string, work: Promise<T>): Promise<T> {
  const list = spans;
  if (!list) return work;
  const span: Span = { what, start: performance.now() - stepStart, end: Number.NaN };
  list.push(span);
  const end = (): void => {
    span.end = performance.now() - stepStart;
  };
  work.then(end, end);
  return work;
}

// Every CDP message of the run, as puppeteer sends it (page, browser and worker sessions alike).
const rawSend = Connection.prototype._rawSend;
Connection.prototype._rawSend = function (this: Connection, ...args: Parameters<typeof rawSend>) {
  return trace(`cdp ${args[1]}`, rawSend.apply(this, args));
} as typeof rawSend;

let pageUrl = '';
/** Untimed set-up before a step: the first look at a freshly loaded page pays what later looks find cached. */
const SETUP: Record<string, (s: Session) => Promise<unknown>> = {
  'fill-fresh-page': (s) => s.tab.navigate(pageUrl),
  'click-role-fresh-page': (s) => s.tab.navigate(pageUrl),
};

const STEPS: Record<string, (s: Session) => Promise<unknown>> = {
  click: (s) => s.click({ text: 'Needle' }),
  fill: (s) => s.fill({ label: 'Note' }, 'fill me: 20 chars ok'),
  type: (s) => s.type({ label: 'Note' }, 'abcdefghijklmnopqrst'),
  verify: (s) => s.verify.text('5 MALLBUCKS'),
  read: (s) => s.locator.read({ css: '#status' }),
  // The find alone, and the find with the click's readiness checks, to tell them apart.
  resolve: (s) => s.locator.resolve({ text: 'Needle' }),
  'resolve+prepare': (s) => s.locator.resolve({ text: 'Needle' }, { prepare: 'click' }),
  'fill-fresh-page': (s) => s.fill({ label: 'Note' }, 'fill me: 20 chars ok'),
  'click-role-fresh-page': (s) => s.click({ role: 'button', name: 'Needle' }),
};

async function main(): Promise<void> {
  const only = arg('--steps')?.split(',');
  const pages = await startPageServer(join(ROOT, 'bench/pages'));
  const session = await launch({ allow: [pages.origin], timeoutMs: 30_000 });
  const request = session.bridge.request.bind(session.bridge);
  session.bridge.request = ((input: { cmd: string; op?: string }) =>
    trace(`bridge ${input.cmd}${input.op ? `.${input.op}` : ''}`, request(input as never))) as typeof session.bridge.request;
  try {
    pageUrl = `${pages.origin}/wallet.html?els=${els}`;
    await session.tab.navigate(pageUrl);
    for (const [name, step] of Object.entries(STEPS).filter(([n]) => (only ? only.includes(n) : !SETUP[n]))) {
      const runs: { total: number; spans: Span[] }[] = [];
      for (let i = -3; i < N; i++) {
        await SETUP[name]?.(session);
        if (GAP_MS > 0) await new Promise((r) => setTimeout(r, GAP_MS));
        spans = [];
        stepStart = performance.now();
        await step(session);
        const total = performance.now() - stepStart;
        if (i >= 0) runs.push({ total, spans });
        spans = undefined;
      }
      // The runs' spans lined up by position (a step makes the same calls each time).
      const shape = runs[0]!.spans.map((s) => s.what).join();
      const same = runs.filter((r) => r.spans.map((s) => s.what).join() === shape);
      console.log(`\n${name}: median ${median(runs.map((r) => r.total)).toFixed(2)} ms (N=${runs.length}; ${same.length} with the same calls)`);
      if (argv.includes('--raw')) for (const r of runs.slice(0, 5)) console.log(`  ${r.total.toFixed(1)}: ${r.spans.map((s) => `${s.what.split(' ')[1]} ${s.start.toFixed(1)}-${s.end.toFixed(1)}`).join(' | ')}`);
      runs[0]!.spans.forEach((s, k) => {
        const start = median(same.map((r) => r.spans[k]!.start));
        const took = median(same.map((r) => r.spans[k]!.end - r.spans[k]!.start));
        console.log(`  ${start.toFixed(2).padStart(7)} +${took.toFixed(2).padStart(6)}  ${s.what}`);
      });
    }
  } finally {
    await session.close();
    await pages.close();
  }
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
