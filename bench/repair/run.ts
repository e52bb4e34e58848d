// Repair benchmark: every drift case in real headless Chromium. For each case the old page is
// loaded and the target resolved exactly and described (the lock file's descriptor); then the new
// page is loaded, the truth marker taken off, and `resolve` with that descriptor is answered the
// way the content script does (exact first, repair only on not-found). Real release pairs
// (test/fixtures/drift/real) are repaired directly, the exact target bypassed (the labelled old
// element against the new page: remembered fields, then the score), and scored by the score
// alone too (its own line, as the Similo baseline is compared).
//
//   npm run bench:repair                 all cases, our scorer and the Similo baseline
//   npm run bench:repair -- --dump f     also write field similarities for bench/repair/fit.ts
//   npm run bench:repair -- --no-record  targets remembered without `record` (no twins, places or peers)
//   npm run bench:repair -- --explain s  only the cases whose id contains s (or any of a|b); print the leading candidates of each miss
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { Descriptor } from '../../src/sdk/protocol/descriptor.js';
import type { Target } from '../../src/sdk/protocol/target.js';
import type { Mode, Run } from './harness.js';
import { startServer } from './server.js';
import { type Batch, BATCHES, fetchReleases } from './releases.js';

// Run from the package root (npm scripts do); the script itself runs from a bundle elsewhere.
const ROOT = resolve(process.cwd());
const DRIFT = join(ROOT, 'test/fixtures/drift');

interface Case {
  id: string;
  category: string;
  split: 'train' | 'test';
  oldUrl: string;
  newUrl: string;
  target: Target;
  /** A marker attribute on the right element of the new page, its xpath, or none. */
  truth: { marker: string } | { xpath: string } | 'none';
  /** Release pairs: score the labelled element directly, whatever the exact target does. */
  direct?: boolean;
  /** A release pair added after the fitting, held out whole (releases.ts `BATCHES`). */
  batch?: Batch;
}

interface Result {
  c: Case;
  mode: Mode;
  recorded: boolean;
  /** The right element of the new page, when it is there, visible and enabled (repairable). */
  truth?: string;
  /** The marked element of the new page even when hidden or disabled. */
  marked?: string;
  run?: Run;
}

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
/** `--explain <part of a case id>`: print the leading candidates of each such case repair got wrong or refused. */
const explainIds = flag('--explain');

async function bundle(): Promise<string> {
  const out = await build({
    entryPoints: [join(ROOT, 'bench/repair/harness.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'aiteBench',
    platform: 'browser',
    target: 'chrome120',
    write: false,
  });
  return out.outputFiles[0]!.text;
}

async function launch(): Promise<{ browser: Browser; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'aite-bench-'));
  const browser = await puppeteer.launch({
    executablePath: process.env.AITE_CHROME ?? '/usr/bin/chromium',
    headless: true,
    pipe: true,
    userDataDir: dir,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--window-size=1280,900'],
    defaultViewport: { width: 1280, height: 900 },
  });
  return { browser, dir };
}

async function open(page: Page, url: string, script: string): Promise<void> {
  await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
  await page.addScriptTag({ content: script });
}

type BenchGlobal = typeof import('./harness.js');
declare const aiteBench: BenchGlobal;

/** Runs every case: each old page is loaded once to record its targets, each new page once per mode. */
async function runAll(page: Page, cases: Case[], script: string, modes: Mode[], dumpRows: unknown[] | undefined): Promise<Result[]> {
  const recorded = new Map<string, Descriptor | null>();
  const byOld = new Map<string, Case[]>();
  for (const c of cases) byOld.set(c.oldUrl, [...(byOld.get(c.oldUrl) ?? []), c]);
  for (const [url, group] of byOld) {
    try {
      await open(page, url, script);
      const recs = await page.evaluate((ts: Target[], full: boolean) => ts.map((t) => aiteBench.record(t, full)), group.map((c) => c.target), !args.includes('--no-record'));
      group.forEach((c, i) => {
        const r = recs[i]!;
        recorded.set(c.id, r.ok ? r.descriptor : null);
      });
    } catch (e) {
      console.error(`old page ${url}: ${(e as Error).message}`);
    }
  }
  const byNew = new Map<string, Case[]>();
  for (const c of cases) byNew.set(c.newUrl, [...(byNew.get(c.newUrl) ?? []), c]);
  const out: Result[] = [];
  for (const mode of modes) {
    for (const [url, group] of byNew) {
      try {
        await open(page, url, script);
      } catch (e) {
        console.error(`new page ${url}: ${(e as Error).message}`);
        continue;
      }
      for (const c of group) {
        const old = recorded.get(c.id);
        if (!old) {
          out.push({ c, mode, recorded: false });
          continue;
        }
        const mark = await page.evaluate((tr: Case['truth'], synthetic: boolean) => {
          // Synthetic gone cases may still mark a hidden or disabled target (never a right answer).
          if (tr === 'none') return synthetic ? aiteBench.takeTruth('data-truth') : aiteBench.truthAt(null);
          if ('marker' in tr) return aiteBench.takeTruth(tr.marker);
          // A labelled element that is hidden or disabled in the new release is a gone case too.
          return aiteBench.truthAt(tr.xpath);
        }, c.truth, c.direct !== true);
        const truth = c.truth !== 'none' && mark?.usable ? mark.xpath : undefined;
        const run = await page.evaluate(
          (t, d, m, direct) => aiteBench.resolveWithRepair(t as Target, d as Descriptor, m as Mode, false, direct as boolean),
          c.target as never,
          old as never,
          mode,
          c.direct === true,
        );
        out.push({ c, mode, recorded: true, truth, marked: mark?.xpath, run });
        if (explainIds && mode === 'ours' && ((run.ok !== undefined && !(run.ok && run.xpath === truth)) || (run.exact === 'found' && run.exactXpath !== truth)) && explainIds.split('|').some((s) => c.id.includes(s))) {
          const text = await page.evaluate((o, tx) => aiteBench.explain(o as Descriptor, tx as string | undefined), old as never, truth as never);
          console.log(`\n--- ${c.id}: ${run.ok ? 'ok' : run.reason} ${run.score}/${run.runnerUp}\n${text}`);
        }
        if (dumpRows && mode === 'ours' && (run.exact === 'not-found' || c.direct)) {
          const d = await page.evaluate((o, tx) => aiteBench.dump(o as Descriptor, tx as string | undefined), old as never, truth as never);
          dumpRows.push({ id: c.id, split: c.split, category: c.category, truth: truth !== undefined, twins: d.twins, old, via: run.ok ? run.via : undefined, right: run.ok ? run.xpath === truth : undefined, rows: d.rows, ...(d.placed ? { placed: d.placed } : {}) });
        }
      }
    }
  }
  return out;
}

function syntheticCases(base: string, dir: string): Case[] {
  const list = JSON.parse(readFileSync(join(dir, 'cases.json'), 'utf8')) as {
    id: string;
    category: string;
    split: 'train' | 'test';
    old: string;
    new: string;
    target: Target;
    truth: { marker: string } | 'none';
  }[];
  return list.map((x) => ({ id: x.id, category: x.category, split: x.split, oldUrl: `${base}/drift/${x.old}`, newUrl: `${base}/drift/${x.new}`, target: x.target, truth: x.truth }));
}

interface Tally {
  cases: number;
  unrecorded: number;
  exactRight: number;
  /** The exact target found the marked element itself, but it is disabled: the act fails there. */
  exactUnusable: number;
  exactWrong: number;
  exactRefused: number;
  repairable: number;
  gone: number;
  correct: number;
  wrong: number;
  correctRefusals: number;
  refusedRepairable: number;
  refusalsProposingRight: number;
  byVia: Record<string, number>;
  byReason: Record<string, number>;
  wrongIds: string[];
  missedIds: string[];
  /** Release pairs: repairable cases the score alone (remembered-field step off) answered right, and wrongly. */
  aloneRight: number;
  aloneWrong: number;
  aloneRan: number;
  aloneRepairable: number;
  exactWrongIds: string[];
  ms: number[];
  /** Exact matches refused by checkExact: the right element (a refusal it did not need), another one (a wrong act prevented). */
  exactRefusedRight: number;
  exactRefusedOther: number;
  exactRefusedRightIds: string[];
  /** Exact matches of another element refused by checkExact, with the rule and the plain score. */
  exactRefusedOtherIds: string[];
  /** Scores of the exact matches against the remembered element: the right one, another one. */
  exactScores: { right: number[]; other: number[] };
}

function tally(results: Result[]): Tally {
  const t: Tally = {
    cases: 0, unrecorded: 0, exactRight: 0, exactUnusable: 0, exactWrong: 0, exactRefused: 0, repairable: 0, gone: 0, correct: 0, wrong: 0,
    correctRefusals: 0, refusedRepairable: 0, refusalsProposingRight: 0, byVia: {}, byReason: {}, wrongIds: [], missedIds: [], aloneRight: 0, aloneWrong: 0, aloneRan: 0, aloneRepairable: 0, exactWrongIds: [], ms: [], exactScores: { right: [], other: [] }, exactRefusedRight: 0, exactRefusedOther: 0, exactRefusedRightIds: [], exactRefusedOtherIds: [],
  };
  for (const r of results) {
    t.cases++;
    if (!r.recorded || !r.run) {
      t.unrecorded++;
      continue;
    }
    const run = r.run;
    if (run.ok === undefined) {
      // The exact target answered; repair never ran.
      if (run.exact === 'found' && run.refusedExact) {
        // checkExact: the exact match no longer looks like the remembered element.
        if (run.exactXpath === r.truth || (r.marked !== undefined && run.exactXpath === r.marked)) {
          t.exactRefusedRight++;
          t.exactRefusedRightIds.push(`${r.c.id} (${run.exactWhy} ${run.exactScore?.toFixed(3)})`);
        } else {
          t.exactRefusedOther++;
          t.exactRefusedOtherIds.push(`${r.c.id} (${run.exactWhy} ${run.exactScore?.toFixed(3)})`);
        }
      } else if (run.exact === 'found') {
        if (run.exactXpath === r.truth) {
          t.exactRight++;
          t.exactScores.right.push(run.exactScore ?? 1);
        } else if (r.marked !== undefined && run.exactXpath === r.marked) t.exactUnusable++;
        else {
          t.exactScores.other.push(run.exactScore ?? 1);
          // The exact target itself names another element (a substring match, an xpath that now
          // points elsewhere): repair never runs (protocol-v1), so this is the resolver's wrong
          // act, not repair's. Counted and listed on its own line, never as coverage.
          t.exactWrong++;
          t.exactWrongIds.push(`${r.c.id} (${r.truth === undefined ? 'target gone' : 'target present'}; scores ${run.exactScore?.toFixed(3)} against the remembered element)`);
        }
      } else t.exactRefused++;
      continue;
    }
    if (run.ms !== undefined) t.ms.push(run.ms);
    if (run.scoreAlone !== undefined) {
      t.aloneRan++;
      if (r.truth) t.aloneRepairable++;
      if (run.scoreAlone !== null && run.scoreAlone === r.truth) t.aloneRight++;
      else if (run.scoreAlone !== null) t.aloneWrong++;
    }
    if (r.truth) t.repairable++;
    else t.gone++;
    if (run.ok) {
      t.byVia[run.via!] = (t.byVia[run.via!] ?? 0) + 1;
      if (run.xpath === r.truth) t.correct++;
      else {
        t.wrong++;
        t.wrongIds.push(`${r.c.id} (${run.via} ${run.score}/${run.runnerUp})`);
      }
    } else {
      t.byReason[run.reason!] = (t.byReason[run.reason!] ?? 0) + 1;
      if (!r.truth) t.correctRefusals++;
      else {
        t.refusedRepairable++;
        t.missedIds.push(`${r.c.id} (${run.reason} ${run.score}/${run.runnerUp})`);
        if (run.proposed?.[0] === r.truth) t.refusalsProposingRight++;
      }
    }
  }
  return t;
}

const pct = (a: number, b: number): string => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);

function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

function report(title: string, t: Tally, verbose: boolean): void {
  console.log(`\n== ${title}`);
  console.log(`  cases ${t.cases}${t.unrecorded ? ` (${t.unrecorded} not recordable on the old page)` : ''}; exact target answered, no repair ran: ${t.exactRight + t.exactUnusable + t.exactWrong + t.exactRefused + t.exactRefusedRight + t.exactRefusedOther} (the right element ${t.exactRight}, the right element but disabled ${t.exactUnusable}, another element ${t.exactWrong}, refused as ambiguous/hidden ${t.exactRefused})`);
  console.log(`  exact match refused as no longer the remembered element (checkExact): another element ${t.exactRefusedOther}, the right element ${t.exactRefusedRight}`);
  console.log(`  repair ran ${t.repairable + t.gone}: repairable ${t.repairable}, target gone/unusable ${t.gone}`);
  console.log(`  repaired and correct   ${t.correct}/${t.repairable} = ${pct(t.correct, t.repairable)}  (via ${Object.entries(t.byVia).map(([k, v]) => `${k} ${v}`).join(', ') || '-'})`);
  if (t.aloneRan) console.log(`  score alone            ${t.aloneRight}/${t.aloneRepairable} = ${pct(t.aloneRight, t.aloneRepairable)} of the release pairs, ${t.aloneWrong} wrong (the remembered-field step off: the score measured by itself)`);
  console.log(`  wrong acts             ${t.wrong} by repair; ${t.exactWrong} by the exact target itself, where repair never runs (see 'exact target answered')`);
  console.log(`  correct refusals       ${t.correctRefusals}/${t.gone}`);
  console.log(`  refused repairable     ${t.refusedRepairable}, of which the proposed candidate is right: ${t.refusalsProposingRight}`);
  console.log(`  refusals by reason     ${Object.entries(t.byReason).map(([k, v]) => `${k} ${v}`).join(', ') || '-'}`);
  if (t.ms.length) console.log(`  in-page repair time    median ${quantile(t.ms, 0.5).toFixed(1)} ms, p95 ${quantile(t.ms, 0.95).toFixed(1)} ms (n=${t.ms.length})`);
  if (t.exactScores.right.length + t.exactScores.other.length) {
    const lo = (xs: number[]): string => (xs.length ? Math.min(...xs).toFixed(3) : '-');
    const hi = (xs: number[]): string => (xs.length ? Math.max(...xs).toFixed(3) : '-');
    console.log(`  exact match vs remembered: the right element ${lo(t.exactScores.right)}..${hi(t.exactScores.right)} (n=${t.exactScores.right.length}), another element ${lo(t.exactScores.other)}..${hi(t.exactScores.other)} (n=${t.exactScores.other.length})`);
  }
  if (verbose) {
    for (const id of t.wrongIds) console.log(`    WRONG  ${id}`);
    for (const id of t.exactWrongIds) console.log(`    exact target named another element: ${id}`);
    for (const id of t.exactRefusedRightIds) console.log(`    checkExact refused the right element: ${id}`);
    for (const id of t.exactRefusedOtherIds) console.log(`    checkExact refused another element: ${id}`);
    for (const id of t.missedIds.slice(0, 40)) console.log(`    missed ${id}`);
  }
}

async function timing(page: Page, cases: Case[], script: string): Promise<{ ms: number[]; best: number[] }> {
  // Repair alone on the pages with 3000+ elements (2000 looked at), five times each; also the
  // best of the five per page, which a busy machine disturbs least.
  const ms: number[] = [];
  const best: number[] = [];
  for (const c of cases) {
    await open(page, c.oldUrl, script);
    const rec = await page.evaluate((t, full) => aiteBench.record(t as Target, full as boolean), c.target as never, !args.includes('--no-record'));
    if (!rec.ok) continue;
    await open(page, c.newUrl, script);
    const mine: number[] = [];
    for (let i = 0; i < 5; i++) {
      const run = await page.evaluate((t, d) => aiteBench.resolveWithRepair(t as Target, d as Descriptor, 'ours', true, true), c.target as never, rec.descriptor as never);
      if (run.ms !== undefined && run.lookedAt === 2000) mine.push(run.ms);
    }
    ms.push(...mine);
    if (mine.length) best.push(Math.min(...mine));
  }
  return { ms, best };
}

async function main(): Promise<void> {
  const verbose = args.includes('--verbose');
  const modes: Mode[] = args.includes('--ours-only') ? ['ours'] : ['ours', 'similo'];
  const dumpFile = flag('--dump');
  const dumpRows: unknown[] | undefined = dumpFile ? [] : undefined;

  const gen = mkdtempSync(join(tmpdir(), 'aite-drift-'));
  // The changed pages are generated (deterministically) rather than stored: see test/fixtures/drift/README.md.
  const genBundle = join(gen, 'generate.mjs');
  await build({ entryPoints: [join(DRIFT, 'generate.ts')], bundle: true, platform: 'node', format: 'esm', outfile: genBundle, logLevel: 'warning' });
  execFileSync(process.execPath, [genBundle, gen], { stdio: 'ignore' });

  const releases = args.includes('--no-real') ? undefined : await fetchReleases(join(tmpdir(), 'aite-releases'));
  const server = await startServer({ drift: gen, ...(releases ? { real: releases.dir } : {}) });
  const script = await bundle();
  const { browser, dir } = await launch();
  try {
    const page = await browser.newPage();
    await page.setRequestInterception(true);
    page.on('request', (req) => {
      const u = new URL(req.url());
      if (u.hostname === '127.0.0.1' || u.protocol === 'data:') void req.continue();
      else void req.abort();
    });
    const synthetic = syntheticCases(server.base, gen);
    const real: Case[] = releases ? releases.cases(server.base) : [];
    const t0 = Date.now();
    const all = [...synthetic, ...real].filter((c) => explainIds === undefined || explainIds.split('|').some((s) => c.id.includes(s)));
    const results = await runAll(page, all, script, modes, dumpRows);
    const realIds = new Set(real.map((c) => c.id));
    for (const mode of modes) {
      const mine = results.filter((r) => r.mode === mode);
      const syn = mine.filter((r) => !realIds.has(r.c.id));
      const rel = mine.filter((r) => realIds.has(r.c.id));
      const name = mode === 'ours' ? 'aite repair' : 'plain Similo baseline (same candidates, no merging)';
      report(`${name} — synthetic drift corpus, training split`, tally(syn.filter((r) => r.c.split === 'train')), false);
      report(`${name} — synthetic drift corpus, held-out split`, tally(syn.filter((r) => r.c.split === 'test')), verbose);
      if (rel.length) {
        const first = rel.filter((r) => !r.c.batch);
        report(`${name} — real release pairs, training split`, tally(first.filter((r) => r.c.split === 'train')), false);
        report(`${name} — real release pairs, held-out split`, tally(first.filter((r) => r.c.split === 'test')), verbose);
        for (const batch of [...new Set(Object.values(BATCHES))].sort()) {
          const added = rel.filter((r) => r.c.batch === batch);
          if (added.length) report(`${name} — real release pairs, batch ${batch} (new packages, held out whole)`, tally(added), verbose);
        }
        report(`${name} — real release pairs, all`, tally(rel), false);
      }
      report(`${name} — everything`, tally(mine), verbose && mode === 'ours');
    }
    const bigCases = explainIds === undefined ? synthetic.filter((c) => c.category === 'big-page') : [];
    const { ms, best } = await timing(page, bigCases, script);
    console.log(`\n== in-page repair time at 2000 elements looked at (pages of 3000+ elements, ${bigCases.length} pages x 5 runs)`);
    console.log(`  median ${quantile(ms, 0.5).toFixed(1)} ms, p95 ${quantile(ms, 0.95).toFixed(1)} ms (n=${ms.length}); best of 5 per page: median ${quantile(best, 0.5).toFixed(1)} ms, max ${Math.max(...best).toFixed(1)} ms`);
    console.log(`  machine load average while measuring: ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} cores`);
    if (releases) console.log(`\nreal release pairs from npm: ${releases.packages.join(', ')}`);
    console.log(`\n(${results.length} runs in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    if (dumpFile && dumpRows) writeFileSync(dumpFile, JSON.stringify(dumpRows));
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(gen, { recursive: true, force: true });
  }
}

if (!existsSync(join(DRIFT, 'generate.ts'))) throw new Error('run from the package root: test/fixtures/drift/generate.ts not found');
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
