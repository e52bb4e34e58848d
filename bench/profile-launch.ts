// `node bench/build-and-run.mjs --profile-launch [--n 8]`: aite's launch to ready, phase by phase,
// and variants of it, interleaved with Playwright's launch + newPage on the same flags.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { chromium } from 'playwright-core';
import { Bridge } from '../src/sdk/bridge/Bridge.js';
import { ExtensionStage } from '../src/sdk/launch/ExtensionStage.js';
import { findChrome } from '../src/sdk/launch/findChrome.js';
import { CHROME_ARGS } from '../src/sdk/launch/launchChrome.js';
import { median } from './stats.js';

const argv = process.argv.slice(2);
const N = Number(argv[argv.indexOf('--n') + 1]) || 8;
const exe = findChrome();
const BASE = [...[...CHROME_ARGS], '--no-sandbox'];
const only = argv.includes('--variants') ? argv[argv.indexOf('--variants') + 1]!.split(',') : undefined;

type Phases = Record<string, number>;

async function aiteLike(variant: { flag?: boolean; noInitialPage?: boolean; extraArgs?: string[] }): Promise<Phases> {
  const t0 = performance.now();
  const phases: Phases = {};
  const mark = (name: string): void => {
    phases[name] = performance.now() - t0;
  };
  const dir = await mkdtemp(join(tmpdir(), 'aite-prof-'));
  const bridge = await Bridge.start({ profile: 'default' });
  const stage = await ExtensionStage.create({ userDataDir: dir, allow: ['http://127.0.0.1:1'] });
  await stage.writeBridgeConfig({ url: bridge.url, token: bridge.token, profile: 'default' });
  mark('staged');
  const connected = bridge.waitForExtension(30_000).then(() => mark('connected'));
  const args = [...BASE, ...(variant.extraArgs ?? [])];
  if (variant.flag) args.push(`--load-extension=${stage.dir}`, `--disable-extensions-except=${stage.dir}`);
  const browser = await puppeteer.launch({
    executablePath: exe,
    headless: true,
    pipe: true,
    enableExtensions: variant.flag ? true : [stage.dir],
    userDataDir: dir,
    args,
    defaultViewport: null,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    waitForInitialPage: !variant.noInitialPage,
  });
  mark('puppeteer.launch');
  const isWorker = (t: { type(): string; url(): string }): boolean => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://');
  if (browser.targets().some(isWorker)) mark('worker target');
  else void browser.waitForTarget(isWorker, { timeout: 30_000 }).then(() => mark('worker target'), () => undefined);
  await connected;
  mark('ready');
  await browser.close();
  await bridge.close();
  await rm(dir, { recursive: true, force: true });
  return phases;
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
  'aite (CDP install, as shipped)': () => aiteLike({}),
  'aite, --load-extension flag': () => aiteLike({ flag: true }),
  'aite, no initial-page wait': () => aiteLike({ noInitialPage: true }),
  'playwright launch+newPage': pw,
  'puppeteer launch+newPage': pptr,
};

async function main(): Promise<void> {
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
    console.log(`${name.padEnd(34)} ${keys.map((k) => `${k} ${median(runs.map((r) => r[k]!)).toFixed(0)}`).join(' · ')}   (median ms, N=${runs.length})`);
  }
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
