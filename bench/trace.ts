// `npm run bench -- --trace <file>`: one JSON line per primitive each tool ran (warm-up rounds
// first): the tool, the step, its time, and, for the tools built on puppeteer-core (aite and
// puppeteer; Playwright has its own client), each CDP call made meanwhile with when it was sent
// and answered (ms from the step's start). It shows, inside the interleaved bench itself, which
// round trip made a slow step slow (docs/performance.md, "The click against the page's frame").
import { appendFileSync } from 'node:fs';

/** Where run.ts asks its drivers to write the trace. */
export const TRACE_ENV = 'AITE_BENCH_TRACE';

const file = process.env[TRACE_ENV];
let calls: Array<[method: string, sent: number, answered: number]> | undefined;
let started = 0;

if (file) {
  // Loaded only in a driver asked to trace: the orchestrator imports this file for TRACE_ENV alone.
  const { Connection } = await import('puppeteer-core/internal/cdp/Connection.js');
  const rawSend = Connection.prototype._rawSend;
  Connection.prototype._rawSend = function (this: InstanceType<typeof Connection>, ...args: Parameters<typeof rawSend>) {
    const answer = rawSend.apply(this, args);
    const list = calls;
    if (list) {
      const sent = performance.now() - started;
      const done = (): void => void list.push([String(args[1]), round(sent), round(performance.now() - started)]);
      answer.then(done, done);
    }
    return answer;
  } as typeof rawSend;
}

const round = (ms: number): number => Math.round(ms * 100) / 100;

/** Runs `timed` (a step timed by the driver); with a trace asked for, writes its CDP calls under `tool` and `step`. */
export async function traced(tool: string, step: string, timed: () => Promise<number>): Promise<number> {
  if (!file) return timed();
  const list: NonNullable<typeof calls> = [];
  calls = list;
  started = performance.now();
  let ms = Number.NaN;
  try {
    ms = await timed();
    return ms;
  } finally {
    calls = undefined;
    appendFileSync(file, `${JSON.stringify({ tool, step, ms: round(ms), calls: list.sort((a, b) => a[1] - b[1]) })}\n`);
  }
}
