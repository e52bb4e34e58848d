// `node bench/build-and-run.mjs --ab <name> [--n 40]`: A/B of one candidate change on aite's path,
// alternating A and B each iteration (so load hits both alike), medians printed.
import { join, resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { launch, type Session } from '../src/sdk/index.js';
import { startPageServer } from './server.js';
import { median, p95 } from './stats.js';

const ROOT = resolve(process.cwd());
const argv = process.argv.slice(2);
const N = Number(argv[argv.indexOf('--n') + 1]) || 40;
const which = argv[argv.indexOf('--ab') + 1] ?? 'fill-keys';

type Case = { a: () => Promise<unknown>; b: () => Promise<unknown>; names: [string, string] };

async function cases(session: Session, page: Page): Promise<Record<string, Case>> {
  const found = await session.locator.resolve({ label: 'Note' });
  const at = await session.locator.locate(found.descriptor);
  const kb = page.keyboard;
  const text = 'fill me: 20 chars ok';
  return {
    'fill-keys': {
      names: ['sequential (as shipped)', 'pipelined'],
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
  };
}

async function main(): Promise<void> {
  const pages = await startPageServer(join(ROOT, 'bench/pages'));
  const session = await launch({ allow: [pages.origin], timeoutMs: 30_000 });
  try {
    await session.tab.navigate(`${pages.origin}/wallet.html?els=2000`);
    const page = (await session.browser!.pages()).find((p) => p.url().includes('wallet.html'))!;
    const c = (await cases(session, page))[which]!;
    const a: number[] = [];
    const b: number[] = [];
    for (let i = -3; i < N; i++) {
      for (const [body, sink] of [[c.a, a], [c.b, b]] as const) {
        await page.evaluate('document.getElementById("note").value = "old value"');
        const t = performance.now();
        await body();
        if (i >= 0) sink.push(performance.now() - t);
        const v = await page.evaluate('document.getElementById("note").value');
        if (v !== 'fill me: 20 chars ok') throw new Error(`value ${String(v)}`);
      }
    }
    console.log(`${which}: A ${c.names[0]} median ${median(a).toFixed(2)} p95 ${p95(a).toFixed(2)} · B ${c.names[1]} median ${median(b).toFixed(2)} p95 ${p95(b).toFixed(2)} ms (N=${N})`);
  } finally {
    await session.close();
    await pages.close();
  }
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
