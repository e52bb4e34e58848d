// Replays a dump written by `npm run bench:repair -- --dump f` through the repair score of the
// current source, without a browser: the candidates' descriptors are in the dump, so a change to
// score.ts or weights.ts can be measured in a second instead of a six-minute benchmark run. The
// remembered-field step is taken as the dump recorded it (it depends on the page's DOM). The
// benchmark itself stays the number of record; this is for trying ideas.
//   npx esbuild bench/repair/replay.ts --bundle --platform=node --format=esm --outfile=/tmp/replay.mjs
//   node /tmp/replay.mjs f [--verbose] [--gone] [--score-alone] [--explain <id part>] [--weights '{"scale":0.88}']
import { readFileSync } from 'node:fs';
import type { Descriptor } from '../../src/sdk/protocol/descriptor.js';
import { answerKind, PLACE_ONLY_BELOW, rankCandidates } from '../../src/extension/content/repair/index.js';
import { type Field, identityOf, type Weights, weightsFor } from '../../src/extension/content/repair/score.js';
import { WEIGHTS } from '../../src/extension/content/repair/weights.js';

interface DumpRow {
  sims: [Field, number, number][];
  truth: boolean;
  xpath: string;
  descriptor: Descriptor;
  slot?: number;
  interactive?: boolean;
  order?: number;
  sharedId?: boolean;
}
interface DumpCase {
  id: string;
  split: 'train' | 'test';
  truth: boolean;
  old: Descriptor;
  via?: string;
  right?: boolean;
  rows: DumpRow[];
  /** The twins the page left out in their remembered places, with their order (renamed-group rule). */
  placed?: { descriptor: Descriptor; order?: number }[];
}

/** `identity`: what the right element shares of the remembered one's identity (score.ts `identityOf`), when it was a candidate. */
type Verdict = { ok: boolean; right?: boolean; reason?: string; score: number; runnerUp: number; truthRank: number; identity?: number };

/** `--score-alone`: the cases the remembered-field step answered are scored too (run.ts's "score alone" line). */
const scoreAlone = process.argv.includes('--score-alone');
const explain = process.argv.includes('--explain') ? process.argv[process.argv.indexOf('--explain') + 1]! : '\u0000';

/** `--weights '{"scale":0.88,"contrast":{"top":3}}'`: overrides merged into the current weights. */
function merged(base: Weights, over: Record<string, unknown>): Weights {
  const out = { ...base } as Record<string, unknown>;
  for (const [k, v] of Object.entries(over)) out[k] = v !== null && typeof v === 'object' ? { ...(out[k] as object), ...v } : v;
  return out as unknown as Weights;
}
const BASE = process.argv.includes('--weights') ? merged(WEIGHTS, JSON.parse(process.argv[process.argv.indexOf('--weights') + 1]!) as Record<string, unknown>) : WEIGHTS;

export function judge(c: DumpCase): Verdict {
  if (c.via === 'descriptor' && !scoreAlone) return { ok: true, right: c.right, score: 1, runnerUp: 0, truthRank: 0 };
  // The candidates as the page handed them to repair (the slot needs the page: as measured), ranked
  // by the repair's own code, merging and the second look included.
  const ranked = rankCandidates(c.old, c.rows.map((r) => ({ ref: r, descriptor: r.descriptor, slot: r.slot, interactive: r.interactive === true, order: () => r.order, sharedId: r.sharedId })), { weights: BASE, placedTwins: () => (c.placed ?? []).map((p) => ({ descriptor: p.descriptor, order: () => p.order })) }).map((x) => ({ ...x, r: x.ref }));
  const best = ranked[0];
  const score = best?.score ?? 0;
  const runnerUp = ranked[1]?.score ?? 0;
  const truthRank = ranked.findIndex((x) => x.r.truth);
  const W = weightsFor(c.old, BASE);
  const identity = truthRank >= 0 ? identityOf(c.old, ranked[truthRank]!.descriptor, W) : undefined;
  if (c.id.includes(explain)) {
    console.log(`\n--- ${c.id} (twins ${c.old.twins ?? 0})\nold ${JSON.stringify({ ...c.old, peers: undefined })}`);
    for (const x of ranked.slice(0, 4)) {
      // The weights as given; the contrast each field got on this page is not shown.
      const f = x.sims.map(([k, v, p]) => `${k}${p === 2 ? '-' : p === 3 ? '+' : ''}=${v.toFixed(2)}*${W.w[k].toFixed(2)}`).join(' ');
      console.log(`${x.score.toFixed(3)}${x.r.truth ? ' TRUTH' : ''} ${JSON.stringify({ ...x.r.descriptor, path: undefined, rect: undefined })}\n    ${f}`);
    }
  }
  const kind = answerKind(best?.score, ranked[1]?.score);
  return kind === 'found' ? { ok: true, right: best!.r.truth, score, runnerUp, truthRank, identity } : { ok: false, reason: kind, score, runnerUp, truthRank, identity };
}

/** The place-only refusals of `rep` repairable cases, and the coverage if every other case were repaired. */
function ceilingOf(placeOnly: number, rep: number): string {
  return `place only ${placeOnly} (ceiling ${rep - placeOnly}/${rep} = ${((100 * (rep - placeOnly)) / rep).toFixed(1)}%)`;
}

function main(): void {
  const file = process.argv[2];
  if (!file) throw new Error('usage: replay <dump.json> [--verbose]');
  const verbose = process.argv.includes('--verbose');
  const cases = JSON.parse(readFileSync(file, 'utf8')) as DumpCase[];
  // `placeOnly`: refused repairable cases whose right element shares only its place with the
  // remembered one; issue 18 item 4 asks that such a candidate score under the drifted threshold,
  // so no rule that keeps it can repair them (the corpus's ceiling under that rule).
  const groups: Record<string, { rep: number; right: number; wrong: number; gone: number; refusedGone: number; placeOnly: number }> = {};
  const missed: string[] = [];
  const wrong: string[] = [];
  const gone: [number, string][] = [];
  for (const c of cases) {
    const v = judge(c);
    const key = `${c.id.startsWith('real') ? 'real' : 'synthetic'} ${c.split}`;
    const g = (groups[key] ??= { rep: 0, right: 0, wrong: 0, gone: 0, refusedGone: 0, placeOnly: 0 });
    const line = `${c.id} ${v.ok ? 'ok' : v.reason} ${v.score.toFixed(3)}/${v.runnerUp.toFixed(3)} truth#${v.truthRank}${v.identity === undefined ? '' : ` identity ${v.identity.toFixed(2)}`}`;
    if (c.truth) {
      g.rep++;
      if (v.ok && v.right) g.right++;
      else if (v.ok) (g.wrong++, wrong.push(line));
      else {
        missed.push(line);
        if (v.identity !== undefined && v.identity < PLACE_ONLY_BELOW) g.placeOnly++;
      }
    } else {
      g.gone++;
      if (v.ok) (g.wrong++, wrong.push(line));
      else g.refusedGone++;
      if (process.argv.includes('--gone')) gone.push([v.score, `${line} (${v.reason})`]);
    }
  }
  let rep = 0;
  let right = 0;
  let wr = 0;
  let placeOnly = 0;
  for (const [k, g] of Object.entries(groups).sort()) {
    console.log(`${k.padEnd(16)} repaired ${g.right}/${g.rep} = ${((100 * g.right) / g.rep).toFixed(1)}%  wrong ${g.wrong}  gone refused ${g.refusedGone}/${g.gone}  ${ceilingOf(g.placeOnly, g.rep)}`);
    rep += g.rep;
    right += g.right;
    wr += g.wrong;
    placeOnly += g.placeOnly;
  }
  console.log(`all              repaired ${right}/${rep} = ${((100 * right) / rep).toFixed(1)}%  wrong ${wr}  ${ceilingOf(placeOnly, rep)}`);
  for (const w of wrong) console.log(`  WRONG ${w}`);
  if (verbose) for (const m of missed) console.log(`  missed ${m}`);
  for (const [, g] of gone.sort((a, b) => b[0] - a[0]).slice(0, 40)) console.log(`  gone ${g}`);
}

main();
