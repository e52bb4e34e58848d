// `node bench/build-and-run.mjs --profile-launch [--n 8] [--chrome-args "..."] [--variants a,b]`:
// aite's launch to ready, phase by phase, interleaved with Playwright's and puppeteer's launch +
// newPage on the same flags. aite is its built package's own `launch()`, timed through the phases
// it publishes (`_LAUNCH_PHASES_CHANNEL`); `--chrome-args` adds a variant with extra Chrome flags.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Browser } from 'puppeteer-core';
import puppeteer from 'puppeteer-core';
import { chromium } from 'playwright-core';
import { loadAite } from './tools/aite.js';
import { median } from './stats.js';

const argv = process.argv.slice(2);
const arg = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const N = Number(arg('--n')) || 8;
const only = arg('--variants')?.split(',');
const extraArgs = arg('--chrome-args')?.split(' ').filter(Boolean);

type Phases = Record<string, number>;

async function main(): Promise<void> {
  const aite = await loadAite();
  const exe = aite.findChrome();
  const BASE = [...aite._CHROME_ARGS, '--no-sandbox'];

  /** The package's launch(), with the time of each phase it publishes and of the worker's target. */
  async function aiteLaunch(args?: string[]): Promise<Phases> {
    const t0 = performance.now();
    const phases: Phases = {};
    const mark = (name: string): void => {
      phases[name] ??= performance.now() - t0;
    };
    const onPhase = (message: unknown): void => {
      const { phase, browser } = message as { phase: string; browser?: Browser };
      mark(phase === 'chrome' ? 'puppeteer.launch' : phase);
      if (!browser) return;
      const isWorker = (t: { type(): string; url(): string }): boolean => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://');
      if (browser.targets().some(isWorker)) mark('worker target');
      else void browser.waitForTarget(isWorker, { timeout: 30_000 }).then(() => mark('worker target'), () => undefined);
    };
    subscribe(aite._LAUNCH_PHASES_CHANNEL, onPhase);
    try {
      const session = await aite.launch({ allow: ['http://127.0.0.1:1'], chrome: exe, headless: true, timeoutMs: 30_000, ...(args ? { args } : {}) });
      mark('ready');
      await session.close();
    } finally {
      unsubscribe(aite._LAUNCH_PHASES_CHANNEL, onPhase);
    }
    // In the order they happened.
    return Object.fromEntries(Object.entries(phases).sort((a, b) => a[1] - b[1]));
  }

  async function pw(): Promise<Phases> {
    const t0 = performance.now();
    const browser = await chromium.launch({ executablePath: exe, headless: true, args: BASE });
    const launched = performance.now() - t0;
    await browser.newPage({ viewport: null });
    const ready = performance.now() - t0;
    await browser.close();
    return { 'chromium.launch': launched, ready };
  }

  async function pptr(): Promise<Phases> {
    const t0 = performance.now();
    const browser = await puppeteer.launch({ executablePath: exe, headless: true, pipe: true, args: BASE, defaultViewport: null });
    const launched = performance.now() - t0;
    await browser.newPage();
    const ready = performance.now() - t0;
    await browser.close();
    return { 'puppeteer.launch': launched, ready };
  }

  const variants: Record<string, () => Promise<Phases>> = {
    'aite launch() (as shipped)': () => aiteLaunch(),
    ...(extraArgs ? { [`aite launch(), + ${extraArgs.join(' ')}`]: () => aiteLaunch(extraArgs) } : {}),
    'playwright launch+newPage': pw,
    'puppeteer launch+newPage': pptr,
  };
  const names = Object.keys(variants).filter((n) => !only || only.some((o) => n.includes(o)));
  const all: Record<string, Phases[]> = {};
  for (let i = -1; i < N; i++) {
    for (const name of names) {
      const phases = await variants[name]!();
      if (i >= 0) (all[name] ??= []).push(phases);
    }
  }
  for (const name of names) {
    const runs = all[name]!;
    const keys = Object.keys(runs[0]!);
    const at = (k: string): string => {
      const seen = runs.map((r) => r[k]).filter((v): v is number => v !== undefined);
      return `${k} ${median(seen).toFixed(0)}${seen.length < runs.length ? ` (in ${seen.length})` : ''}`;
    };
    console.log(`${name.padEnd(40)} ${keys.map(at).join(' · ')}   (median ms from the start, N=${runs.length})`);
  }
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
