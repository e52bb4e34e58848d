// `node bench/build-and-run.mjs --profile`: where aite's time goes, piece by piece, on the
// bench page (2000 elements). Bundled from src/ (not dist/), so an SDK change is measured
// without rebuilding; the extension is dist/extension as `npm run build` left it.
import { launch, type Session } from '../src/sdk/index.js';
import { parseRequest, AnswerSchemas } from '../src/sdk/protocol/index.js';
import { median, p95 } from './stats.js';
import { startPageServer } from './server.js';
import { join, resolve } from 'node:path';
import { CHROME_ARGS } from '../src/sdk/launch/launchChrome.js';

const ROOT = resolve(process.cwd());
const argv = process.argv.slice(2);
const N = Number(argv[argv.indexOf('--n') + 1]) || 40;
const els = Number(argv[argv.indexOf('--els') + 1]) || 2000;
const extraArgs = argv.includes('--chrome-args') ? argv[argv.indexOf('--chrome-args') + 1]!.split(' ') : undefined;

async function main(): Promise<void> {
  const pages = await startPageServer(join(ROOT, 'bench/pages'));
  const t0 = performance.now();
  const session: Session = await launch({ allow: [pages.origin], timeoutMs: 30_000, args: extraArgs });
  console.log(`launch ${(performance.now() - t0).toFixed(0)} ms (flags ${[...CHROME_ARGS].length}${extraArgs ? ` + ${extraArgs.join(' ')}` : ''})`);
  try {
    await session.tab.navigate(`${pages.origin}/wallet.html?els=${els}`);
    const page = (await session.browser!.pages()).find((p) => p.url().includes('wallet.html'))!;
    const cdp = await page.createCDPSession();
    const found = await session.locator.resolve({ text: 'Needle' });
    const at = await session.locator.locate(found.descriptor);
    const samples: Record<string, number[]> = {};
    const time = async (name: string, body: () => Promise<unknown>): Promise<void> => {
      const s = performance.now();
      await body();
      (samples[name] ??= []).push(performance.now() - s);
    };
    const answer = { ...found, id: 7, ok: true };
    for (let i = -3; i < N; i++) {
      await time('tabs (bridge-worker-bridge)', () => session.bridge.request({ cmd: 'tabs' }));
      await time('read #status (…-content-…)', () => session.locator.read({ css: '#status' }));
      await time('resolve {text:Needle}', () => session.locator.resolve({ text: 'Needle' }));
      await time('resolve {css:#needle}', () => session.locator.resolve({ css: '#needle' }));
      await time('locate(descriptor)', () => session.locator.locate(found.descriptor));
      await time('verify.text', () => session.verify.text('5 MALLBUCKS'));
      await time('CDP mouseMoved', () => cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: at.x, y: at.y }));
      await time('CDP pressed+released', async () => {
        await cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', x: at.x, y: at.y, button: 'left', clickCount: 1 });
        await cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x: at.x, y: at.y, button: 'left', clickCount: 1 });
      });
      await time('page.mouse.click', () => page.mouse.click(at.x, at.y));
      await time('CDP Runtime.evaluate 1', () => cdp.send('Runtime.evaluate', { expression: '1' }));
      await time('CDP keyDown+keyUp', async () => {
        await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Shift', code: 'ShiftLeft', windowsVirtualKeyCode: 16 });
        await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Shift', code: 'ShiftLeft', windowsVirtualKeyCode: 16 });
      });
      await time('session.click total', () => session.click({ text: 'Needle' }));
      await time('session.type 20 total', () => session.type({ label: 'Note' }, 'abcdefghijklmnopqrst'));
      await time('session.fill total', () => session.fill({ label: 'Note' }, 'fill me: 20 chars ok'));
      await time('zod parseRequest(locate)', async () => {
        for (let k = 0; k < 100; k++) parseRequest({ id: 1, cmd: 'locate', descriptor: found.descriptor, timeoutMs: 5000 });
      });
      await time('zod answer(resolve) x100', async () => {
        for (let k = 0; k < 100; k++) AnswerSchemas.resolve.safeParse(answer);
      });
      if (i < 0) for (const k of Object.keys(samples)) samples[k] = [];
    }
    console.log(`\n${'piece'.padEnd(32)} ${'median'.padStart(8)} ${'p95'.padStart(8)}   (ms, N=${N}, ${els} elements)`);
    for (const [k, v] of Object.entries(samples)) console.log(`${k.padEnd(32)} ${median(v).toFixed(2).padStart(8)} ${p95(v).toFixed(2).padStart(8)}`);
    console.log(`descriptor JSON: ${JSON.stringify(found.descriptor).length} bytes`);
  } finally {
    await session.close();
    await pages.close();
  }
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
