// `node bench/build-and-run.mjs --ab-worker --a <dir> --b <dir> [--n 200]`: the same page
// commands through two builds of the extension, in two Chromes at once, alternating A and B
// command by command. Prints wall time per command and the CPU time the whole Chrome process
// tree spent per command (robust against a busy machine: waiting costs no CPU).
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Bridge } from '../src/sdk/bridge/Bridge.js';
import { ExtensionStage } from '../src/sdk/launch/ExtensionStage.js';
import { findChrome } from '../src/sdk/launch/findChrome.js';
import { launchChrome } from '../src/sdk/launch/launchChrome.js';
import { Session } from '../src/sdk/session/Session.js';
import { startPageServer } from './server.js';
import { median, p95 } from './stats.js';

const ROOT = resolve(process.cwd());
const argv = process.argv.slice(2);
const arg = (n: string): string | undefined => (argv.includes(n) ? argv[argv.indexOf(n) + 1] : undefined);
const N = Number(arg('--n')) || 200;
const TICK_MS = 10; // USER_HZ 100

async function start(buildDir: string, origin: string): Promise<{ session: Session; pid: number }> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'aite-ab-'));
  const bridge = await Bridge.start({ profile: 'default', defaultTimeoutMs: 30_000 });
  const stage = await ExtensionStage.create({ userDataDir, allow: [origin], buildDir });
  await stage.writeBridgeConfig({ url: bridge.url, token: bridge.token, profile: 'default' });
  const connected = bridge.waitForExtension(60_000);
  const browser = await launchChrome({ executablePath: findChrome(), userDataDir, extensionDir: stage.dir, headless: true });
  await connected;
  const session = new Session({ bridge, browser, profile: 'default', timeoutMs: 30_000, allow: [origin], tempProfile: true, close: async () => {
    await browser.close();
    await bridge.close();
  } });
  return { session, pid: browser.process()!.pid! };
}

/** utime+stime (ms) of a process and all its descendants. */
function treeCpuMs(root: number): number {
  const children = new Map<number, number[]>();
  const cpu = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(f[1]);
      cpu.set(Number(d), (Number(f[11]) + Number(f[12])) * TICK_MS);
      (children.get(ppid) ?? children.set(ppid, []).get(ppid)!).push(Number(d));
    } catch {
      // gone
    }
  }
  let total = 0;
  const walk = (pid: number): void => {
    total += cpu.get(pid) ?? 0;
    for (const c of children.get(pid) ?? []) walk(c);
  };
  walk(root);
  return total;
}

async function main(): Promise<void> {
  const pages = await startPageServer(join(ROOT, 'bench/pages'));
  const a = await start(resolve(arg('--a')!), pages.origin);
  const b = await start(resolve(arg('--b')!), pages.origin);
  const ops: Record<string, (s: Session) => Promise<unknown>> = {
    read: (s) => s.locator.read({ css: '#status' }),
    resolve: (s) => s.locator.resolve({ text: 'Needle' }),
    // The page changed since the last look, as after a click (its counter), untimed.
    'resolve.changed': (s) => s.locator.resolve({ text: 'Needle' }),
    'resolve.label': (s) => s.locator.resolve({ label: 'Note' }),
    'verify.text': (s) => s.verify.text('5 MALLBUCKS'),
  };
  const before: Record<string, (s: Session) => Promise<unknown>> = {
    'resolve.changed': (s) => s.evaluate(() => void (document.getElementById('clicks')!.textContent = String(Math.random()))),
  };
  try {
    for (const x of [a, b]) await x.session.tab.navigate(`${pages.origin}/wallet.html?els=2000`);
    for (const [name, op] of Object.entries(ops)) {
      const wall: Record<'a' | 'b', number[]> = { a: [], b: [] };
      const cpuStart = { a: treeCpuMs(a.pid), b: treeCpuMs(b.pid) };
      for (let i = 0; i < N; i++) {
        for (const [k, x] of [['a', a], ['b', b]] as const) {
          await before[name]?.(x.session);
          const t = performance.now();
          await op(x.session);
          wall[k].push(performance.now() - t);
        }
      }
      const cpu = { a: (treeCpuMs(a.pid) - cpuStart.a) / N, b: (treeCpuMs(b.pid) - cpuStart.b) / N };
      console.log(
        `${name.padEnd(12)} A wall ${median(wall.a).toFixed(2)} (p95 ${p95(wall.a).toFixed(1)}) cpu ${cpu.a.toFixed(2)} ms/cmd · ` +
          `B wall ${median(wall.b).toFixed(2)} (p95 ${p95(wall.b).toFixed(1)}) cpu ${cpu.b.toFixed(2)} ms/cmd   (N=${N})`,
      );
    }
  } finally {
    await a.session.close();
    await b.session.close();
    await pages.close();
  }
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
