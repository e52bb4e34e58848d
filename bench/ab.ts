// `node bench/build-and-run.mjs --ab <name> [--n 40] [--gap 0]`: A/B of one candidate change on aite's
// path, alternating A and B each iteration (so load hits both alike), medians printed with the
// runner's CPU per iteration (`process.cpuUsage`, which load moves far less than wall time).
// `--gap`: idle ms before each iteration (the bench's other tools take their turns meanwhile).
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { Page, Protocol } from 'puppeteer-core';
import { CONTENT_HANDLER_KEY } from '../src/sdk/protocol/index.js';
import { launch, type Session } from '../src/sdk/index.js';
import { InputNavigation, pipeNavigationSource } from '../src/sdk/session/pipe/InputNavigation.js';
import { startPageServer } from './server.js';
import { median, p95, percentile } from './stats.js';

const ROOT = resolve(process.cwd());
const argv = process.argv.slice(2);
const N = Number(argv[argv.indexOf('--n') + 1]) || 40;
const GAP_MS = argv.includes('--gap') ? Number(argv[argv.indexOf('--gap') + 1]) : 0;
const which = argv[argv.indexOf('--ab') + 1] ?? 'fill-keys';

/** `reset` runs untimed before each arm, `check` untimed after it (it throws when the arm did not do its work). */
type Case = { a: () => Promise<unknown>; b: () => Promise<unknown>; names: [string, string]; reset?: () => Promise<unknown>; check?: () => Promise<void> };

async function cases(session: Session, page: Page, tab: number): Promise<Record<string, Case>> {
  const found = await session.locator.resolve({ label: 'Note' });
  const at = await session.locator.locate(found.descriptor);
  const kb = page.keyboard;
  const text = 'fill me: 20 chars ok';
  const clicks = (): Promise<number> => page.evaluate(() => (window as unknown as { __clicks: number }).__clicks);
  let counted = await clicks();
  const needle = await session.locator.locate((await session.locator.resolve({ text: 'Needle' })).descriptor);
  /** Throws unless the page counted exactly one click since the last check. */
  const countedOne = async (): Promise<void> => {
    const now = await clicks();
    if (now !== counted + 1) throw new Error(`the page counted ${now - counted} clicks, not 1`);
    counted = now;
  };
  return {
    'fill-keys': {
      names: ['sequential (as shipped)', 'pipelined'],
      reset: () => page.evaluate('document.getElementById("note").value = "old value"'),
      check: async () => {
        const v = await page.evaluate('document.getElementById("note").value');
        if (v !== text) throw new Error(`value ${String(v)}`);
      },
      a: async () => {
        await page.mouse.click(at.x, at.y, { clickCount: 3 });
        await kb.down('ControlLeft');
        await kb.press('KeyA');
        await kb.up('ControlLeft');
        await kb.press('Backspace');
        await kb.sendCharacter(text);
      },
      b: async () => {
        await page.mouse.click(at.x, at.y, { clickCount: 3 });
        await Promise.all([kb.down('ControlLeft'), kb.down('KeyA'), kb.up('KeyA'), kb.up('ControlLeft'), kb.down('Backspace'), kb.up('Backspace')]);
        await kb.sendCharacter(text);
      },
    },
    // The runner's whole share of a click: aite's, beside the same CDP work done without the
    // runner (the content script's handler called with the same resolve request, guard and
    // verdict token included, then puppeteer's mouse at the point it answers).
    'click-nav-watch': {
      names: ['mouse.click', 'mouse.click, its navigation watched (PipeInput)'],
      check: countedOne,
      a: () => page.mouse.click(needle.x, needle.y),
      b: async () => {
        const navigation = new InputNavigation(pipeNavigationSource(page));
        await page.mouse.click(needle.x, needle.y);
        if ((await navigation.settled(30_000)) !== 'none') throw new Error('click-nav-watch: the click navigated');
      },
    },
    // The frame a click meets (docs/performance.md, "The frame a click meets"): the same raw
    // click (move, press and release written at once, then the navigation watch's round trip)
    // after a call that changes nothing, and after one that adds pointer listeners to the window
    // as the guard's arming does, which makes an idle page draw a frame at once.
    'frame-wake': await frameWake(page, needle, countedOne),
    'click-raw': await clickRaw(session, page, tab, countedOne),
  };
}

async function frameWake(page: Page, at: { x: number; y: number }, check: () => Promise<void>): Promise<Case> {
  const cdp = await page.createCDPSession();
  const events = JSON.stringify(['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'click']);
  const listen = `(() => {
    const l = () => {};
    // Off again after the click's task, as the guard disarms.
    const off = () => setTimeout(() => {
      for (const t of ${events}) removeEventListener(t, l, { capture: true });
      removeEventListener('click', off, { capture: true });
    });
    for (const t of ${events}) addEventListener(t, l, { capture: true });
    addEventListener('click', off, { capture: true });
  })()`;
  const click = async (expression: string): Promise<void> => {
    await cdp.send('Runtime.evaluate', { expression });
    const send = (type: 'mouseMoved' | 'mousePressed' | 'mouseReleased') =>
      cdp.send('Input.dispatchMouseEvent', { type, x: at.x, y: at.y, button: type === 'mouseMoved' ? 'none' : 'left', clickCount: type === 'mouseMoved' ? 0 : 1 });
    await Promise.all([send('mouseMoved'), send('mousePressed'), send('mouseReleased')]);
    await cdp.send('Runtime.evaluate', { expression: '0' });
  };
  return { names: ['after a call that changes nothing', 'after a call that adds pointer listeners'], check, a: () => click('0'), b: () => click(listen) };
}

async function clickRaw(session: Session, page: Page, tab: number, check: () => Promise<void>): Promise<Case> {
  // The extension's isolated world of the page's top document, as ContentWorld finds it.
  const cdp = await page.createCDPSession();
  const worlds: Protocol.Runtime.ExecutionContextDescription[] = [];
  cdp.on('Runtime.executionContextCreated', ({ context }: Protocol.Runtime.ExecutionContextCreatedEvent) => worlds.push(context));
  await cdp.send('Runtime.enable');
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const frameId = frameTree.frame.id;
  const world = worlds.find((c) => (c.auxData as { type?: string; frameId?: string } | undefined)?.type === 'isolated' && c.origin.startsWith('chrome-extension://') && (c.auxData as { frameId?: string }).frameId === frameId);
  await cdp.send('Runtime.disable');
  if (!world) throw new Error("click-raw: the extension's world of the page was not found");
  const handler = `function (request) { return globalThis[Symbol.for(${JSON.stringify(CONTENT_HANDLER_KEY)})](request); }`;
  let id = 1_000_000;
  return {
    names: ['session.click', 'the same CDP calls, no runner'],
    check,
    a: () => session.click({ text: 'Needle' }),
    b: async () => {
      const request = { cmd: 'resolve', id: id++, tab, timeoutMs: 30_000, target: { text: 'Needle' }, prepare: 'click', guard: 'pointer', verdict: { token: randomUUID(), on: 'click' } };
      const { result } = await cdp.send('Runtime.callFunctionOn', { functionDeclaration: handler, executionContextId: world.id, arguments: [{ value: request }], returnByValue: true, awaitPromise: true });
      const answer = result.value as { ok: boolean; point?: { x: number; y: number }; message?: string };
      if (!answer.ok || !answer.point) throw new Error(`click-raw: resolve answered ${JSON.stringify(answer).slice(0, 200)}`);
      await page.mouse.click(answer.point.x, answer.point.y);
    },
  };
}

async function main(): Promise<void> {
  const pages = await startPageServer(join(ROOT, 'bench/pages'));
  const session = await launch({ allow: [pages.origin], timeoutMs: 30_000 });
  try {
    const { tab } = await session.tab.navigate(`${pages.origin}/wallet.html?els=2000`);
    const page = (await session.browser!.pages()).find((p) => p.url().includes('wallet.html'))!;
    const c = (await cases(session, page, tab))[which];
    if (!c) throw new Error(`--ab: no case ${which}`);
    const arms = [
      { name: c.names[0], body: c.a, wall: [] as number[], cpu: [] as number[] },
      { name: c.names[1], body: c.b, wall: [] as number[], cpu: [] as number[] },
    ];
    for (let i = -3; i < N; i++) {
      // Each arm goes first every other iteration.
      for (const arm of i % 2 ? arms : [...arms].reverse()) {
        await c.reset?.();
        if (GAP_MS > 0) await new Promise((r) => setTimeout(r, GAP_MS));
        const cpu = process.cpuUsage();
        const t = performance.now();
        await arm.body();
        const took = performance.now() - t;
        const used = process.cpuUsage(cpu);
        if (i >= 0) {
          arm.wall.push(took);
          arm.cpu.push((used.user + used.system) / 1000);
        }
        await c.check?.();
      }
    }
    const mean = (xs: number[]): number => xs.reduce((x, y) => x + y, 0) / xs.length;
    console.log(`${which} (N=${N}${GAP_MS ? `, ${GAP_MS} ms apart` : ''}), ms:`);
    for (const arm of arms) {
      console.log(
        `  ${arm.name}: median ${median(arm.wall).toFixed(2)} p25 ${percentile(arm.wall, 25).toFixed(2)} fastest ${Math.min(...arm.wall).toFixed(2)} p95 ${p95(arm.wall).toFixed(2)} · runner CPU mean ${mean(arm.cpu).toFixed(2)}`,
      );
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
