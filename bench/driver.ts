// One tool's side of the benchmark, in its own Node process (so each tool's peak memory is its
// own and one tool's garbage never lands in another's timings). The orchestrator (run.ts) sends
// one operation at a time over IPC; every timing is taken here, around the tool's own calls.
import { readFileSync } from 'node:fs';
import { AiteInstance, aite } from './tools/aite.js';
import { playwright } from './tools/playwright.js';
import { puppeteerTool } from './tools/puppeteer.js';
import type { Instance, LaunchSettings, Tool, ToolName } from './tools/Tool.js';
import { FLOW_STEPS, sendFlow } from './flows.js';
import { WIDGET_TASKS } from '../test/widgets/tasks.js';
import { traced } from './trace.js';

const TOOLS: Record<ToolName, Tool> = { aite, playwright, puppeteer: puppeteerTool };
const TYPED = 'abcdefghijklmnopqrst'; // 20 characters
const FILLED = 'fill me: 20 chars ok';

let tool: Tool;
let settings: LaunchSettings;
let main: Instance | undefined;
let crowd: Instance[] = [];
let peakRss = 0;
let repairState: { descriptor: unknown; harness: boolean } | undefined;

const sample = (): void => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
};
setInterval(sample, 50).unref();

const timed = async (body: () => Promise<unknown>): Promise<number> => {
  const t0 = performance.now();
  await body();
  return performance.now() - t0;
};

/** A primitive timed as {@link timed}, its CDP calls traced when the run asks (bench/trace.ts). */
const timedPrimitive = (kind: string, body: () => Promise<unknown>): Promise<number> => traced(tool.name, kind, () => timed(body));

/** Polls `read` until `ok` (3 s at most), else fails with `what` and the last value. */
async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<void> {
  let last: T | undefined;
  for (const started = performance.now(); performance.now() - started < 3000; await new Promise((r) => setTimeout(r, 25))) {
    last = await read().catch(() => undefined);
    if (last !== undefined && ok(last)) return;
  }
  throw new Error(`${what} (last: ${JSON.stringify(last)})`);
}

function need(): Instance {
  if (!main) throw new Error('no main instance: call open first');
  return main;
}

const ops: Record<string, (arg: any) => Promise<unknown>> = {
  async init(arg: { tool: ToolName; settings: LaunchSettings }) {
    tool = TOOLS[arg.tool];
    settings = arg.settings;
    return {};
  },

  /** Launch to ready (aite: the extension connected; the others: launch + newPage); closed untimed. */
  async launch() {
    let instance: Instance | undefined;
    const ms = await timed(async () => {
      instance = await tool.launch(settings);
    });
    await instance!.close();
    return { ms };
  },

  async open() {
    main = await tool.launch(settings);
    return {};
  },

  async goto(arg: { url: string }) {
    await need().goto(arg.url);
    const elements = await need().evaluate<number>('window.__elements ?? document.getElementsByTagName("*").length');
    return { elements };
  },

  /** One primitive on bench/pages/wallet.html, checked afterwards (untimed). */
  async primitive(arg: { kind: 'click' | 'type' | 'fill' | 'verify' | 'read' }) {
    const page = need();
    switch (arg.kind) {
      case 'click': {
        const before = await page.evaluate<number>('window.__clicks');
        const ms = await timedPrimitive(arg.kind, () => page.clickText('Needle'));
        const after = await page.evaluate<number>('window.__clicks');
        if (after !== before + 1) throw new Error(`click: the page counted ${after - before} clicks, not 1`);
        return { ms };
      }
      case 'type': {
        await page.evaluate('document.getElementById("note").value = ""');
        const ms = await timedPrimitive(arg.kind, () => page.type('Note', TYPED));
        const value = await page.evaluate<string>('document.getElementById("note").value');
        if (value !== TYPED) throw new Error(`type: the field holds "${value}"`);
        return { ms };
      }
      case 'fill': {
        await page.evaluate('document.getElementById("note").value = "something else was here"');
        const ms = await timedPrimitive(arg.kind, () => page.fill('Note', FILLED));
        const value = await page.evaluate<string>('document.getElementById("note").value');
        if (value !== FILLED) throw new Error(`fill: the field holds "${value}"`);
        return { ms };
      }
      case 'verify':
        return { ms: await timedPrimitive(arg.kind, () => page.seeText('5 MALLBUCKS')) };
      case 'read': {
        let text = '';
        const ms = await timedPrimitive(arg.kind, async () => {
          text = await page.read('#status');
        });
        if (!text.startsWith('Clicks:')) throw new Error(`read: got "${text}"`);
        return { ms };
      }
    }
  },

  /** `n` isolated tests back to back on the main instance (see Instance.isolatedTest); their total time. */
  async suite(arg: { url: string; n: number }) {
    const page = need();
    const ms = await timed(async () => {
      for (let i = 0; i < arg.n; i++) await page.isolatedTest(arg.url, 'Needle', 'Clicks: 1');
    });
    return { ms };
  },

  /** A worker of a parallel suite: launch, `n` isolated tests, close; its wall time, launch included. */
  async suiteWorker(arg: { url: string; n: number }) {
    const ms = await timed(async () => {
      const instance = await tool.launch(settings);
      try {
        for (let i = 0; i < arg.n; i++) await instance.isolatedTest(arg.url, 'Needle', 'Clicks: 1');
      } finally {
        await instance.close();
      }
    });
    return { ms };
  },

  /** The 20-step flow on the main instance; `reset` is POSTed first (untimed) for the demo app. */
  async flow(arg: { url: string; reset?: string }) {
    if (arg.reset) {
      const response = await fetch(arg.reset, { method: 'POST' });
      if (!response.ok) throw new Error(`reset answered ${response.status}`);
    }
    return { ms: await timed(() => sendFlow(need(), arg.url)) };
  },

  /**
   * One widget task (test/widgets/tasks.ts) on its page: the page opened and the widget ready
   * (untimed), the task timed, then the widget's own state checked (untimed): a task whose
   * widget did not change fails, whatever the tool said.
   */
  async widget(arg: { id: string; url: string }) {
    const task = WIDGET_TASKS.find((t) => t.id === arg.id);
    if (!task) throw new Error(`no widget task ${arg.id}`);
    const page = need();
    if (!page.widget) throw new Error(`${tool.name} has no widget tasks`);
    await page.goto(arg.url);
    await until(() => page.evaluate<boolean>(`!!(${task.ready})`), (ready) => ready === true, `${task.id}: the widget did not get ready`);
    const ms = await timed(() => page.widget!(task));
    const want = JSON.stringify(task.expected);
    await until(() => page.evaluate<unknown>(task.check), (got) => JSON.stringify(got) === want, `${task.id}: the widget does not show the result`);
    return { ms };
  },

  /** aite only: remember Needle on the page, then open the drifted page (repair's set-up). */
  async repairSetup(arg: { url: string; driftUrl: string; harness?: string }) {
    const page = need() as AiteInstance;
    await page.goto(arg.url);
    const found = await page.session.locator.resolve({ text: 'Needle' });
    await page.goto(arg.driftUrl);
    let harness = false;
    if (arg.harness) {
      await (await page.page()).evaluate(readFileSync(arg.harness, 'utf8'));
      harness = true;
    }
    repairState = { descriptor: found.descriptor, harness };
    return { descriptor: found.descriptor };
  },

  /** aite only: `resolve` with the remembered descriptor on the drifted page (must repair). */
  async repair() {
    const page = need() as AiteInstance;
    if (!repairState) throw new Error('repairSetup first');
    let answer: Awaited<ReturnType<typeof page.session.locator.resolve>> | undefined;
    const ms = await timed(async () => {
      answer = await page.session.locator.resolve({ text: 'Needle' }, { descriptor: repairState!.descriptor as never });
    });
    if (!answer?.repaired) throw new Error(`repair: resolve answered via ${answer?.via}, not by repair`);
    let inPage: { ms: number; scoreOnlyMs: number; scoreOnly: string } | undefined;
    if (repairState.harness) {
      type Timer = { aiteBenchRepair: { time(d: unknown): NonNullable<typeof inPage> } };
      inPage = await (await page.page()).evaluate((d) => (globalThis as unknown as Timer).aiteBenchRepair.time(d), repairState.descriptor);
    }
    return { ms, inPageMs: inPage?.ms, scoreOnlyMs: inPage?.scoreOnlyMs, scoreOnly: inPage?.scoreOnly, via: answer.via, score: answer.repair?.score };
  },

  /** k more browsers (profiles), launched one after another, each on `url`. */
  async crowdOpen(arg: { k: number }) {
    crowd = [];
    for (let i = 0; i < arg.k; i++) crowd.push(await tool.launch(settings));
    return {};
  },

  /** The flow in every crowd browser at once: per-step time (mean over profiles) and wall time. */
  async crowdFlow(arg: { url: string }) {
    const started = performance.now();
    const each = await Promise.all(crowd.map((instance) => timed(() => sendFlow(instance, arg.url))));
    const wall = performance.now() - started;
    return { ms: each.reduce((a, b) => a + b, 0) / each.length / FLOW_STEPS, wall };
  },

  async crowdClose() {
    await Promise.all(crowd.map((instance) => instance.close()));
    crowd = [];
    return {};
  },

  async close() {
    await main?.close();
    main = undefined;
    return {};
  },

  async memory() {
    sample();
    return { peakRss, maxRss: process.resourceUsage().maxRSS * 1024 };
  },
};

process.on('message', (message: { id: number; op: string; arg?: unknown }) => {
  const op = ops[message.op];
  const run = op ? op(message.arg) : Promise.reject(new Error(`unknown op ${message.op}`));
  run.then(
    (result) => {
      sample();
      process.send!({ id: message.id, ok: true, result });
    },
    (error: unknown) =>
      process.send!({
        id: message.id,
        ok: false,
        error: error instanceof Error ? `${error.message.split('\n').slice(0, 6).join('\n')}` : String(error),
      }),
  );
});
process.on('disconnect', () => {
  void Promise.allSettled([main?.close(), ...crowd.map((c) => c.close())]).finally(() => process.exit(0));
});
