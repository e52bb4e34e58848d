// The baseline: a plain Similo scorer (Nass et al., "Similarity-based web element localization",
// 2021) with the weights REPAIR-NOTES measured: tag, name, id, visible text, neighbour text 1.5;
// class, href, alt, xpath, location, area, shape, is-button 0.5. Equal strings count 1 (two empty
// ones too), text and xpath by Levenshtein similarity, neighbour text by word set. Normalised by
// the total weight so the protocol's thresholds apply. No wrapper merging, no label. It is
// composed of the repair's own pieces (the same remembered-field step and candidates, the same
// answer from the scores), so only the score differs from aite's.
import type { Descriptor } from '../../src/sdk/protocol/descriptor.js';
import { DescribeCache, describe } from '../../src/extension/content/dom/describe.js';
import { REMEMBERED_FLOOR, foundByField, verdict } from '../../src/extension/content/repair/index.js';
import { words, wordSetSim } from '../../src/extension/content/repair/text.js';
import type { RepairOutcome } from '../../src/extension/content/repair/types.js';
import { pageCandidates, rememberedMatch } from '../../src/extension/content/repairPage.js';

function lev(a: string, b: string): number {
  if (a === b) return 0;
  const m = a.length;
  const n = b.length;
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = [i];
    for (let j = 1; j <= n; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[n]!;
}

function levSim(a = '', b = ''): number {
  if (a === b) return 1;
  return 1 - lev(a, b) / Math.max(a.length, b.length);
}

const eq = (a: unknown, b: unknown): number => ((a ?? '') === (b ?? '') ? 1 : 0);

function isButton(d: Descriptor): boolean {
  return d.tag === 'button' || d.role === 'button' || (d.tag === 'input' && /^(submit|button|reset)$/.test(d.type ?? ''));
}

export function similoScorer(old: Descriptor, c: Descriptor): number {
  // Similo reads an input's value as its visible text: a checkbox is "on".
  const text = (d: Descriptor): string => d.text ?? (d.tag === 'input' && /^(checkbox|radio)$/.test(d.type ?? '') ? 'on' : '');
  let s = 0;
  s += 1.5 * eq(old.tag, c.tag);
  s += 0.5 * eq((old.classes ?? []).join(' '), (c.classes ?? []).join(' '));
  s += 1.5 * eq(old.nameAttr, c.nameAttr);
  s += 1.5 * eq(old.id, c.id);
  s += 0.5 * eq(old.href, c.href);
  s += 0.5 * eq(old.title, c.title);
  s += 0.5 * levSim(old.xpath, c.xpath);
  s += 0.5 * (isButton(old) === isButton(c) ? 1 : 0);
  if (old.rect && c.rect) {
    const dx = old.rect.x + old.rect.width / 2 - (c.rect.x + c.rect.width / 2);
    const dy = old.rect.y + old.rect.height / 2 - (c.rect.y + c.rect.height / 2);
    s += 0.5 * Math.max(0, 1 - Math.sqrt(dx * dx + dy * dy) / 200);
    const a1 = old.rect.width * old.rect.height;
    const a2 = c.rect.width * c.rect.height;
    s += 0.5 * (Math.min(a1, a2) / Math.max(a1, a2, 1));
    const r1 = old.rect.width / Math.max(old.rect.height, 1);
    const r2 = c.rect.width / Math.max(c.rect.height, 1);
    s += 0.5 * (Math.min(r1, r2) / Math.max(r1, r2, 1e-6));
  }
  s += 1.5 * levSim(text(old).toLowerCase(), text(c).toLowerCase());
  s += 1.5 * wordSetSim(words(old.near as string | undefined), words(c.near as string | undefined));
  return s / 11.5;
}

/** The baseline's answer from the page's candidates alone: Similo's score, no merging, no second look. */
export function similoByScore(old: Descriptor, doc: Document, cache: DescribeCache = new DescribeCache()): RepairOutcome {
  const t0 = performance.now();
  const { candidates, total, lookedAt } = pageCandidates(old, doc, cache);
  const ranked = candidates.map((c) => ({ ...c, score: similoScorer(old, c.descriptor), sims: [] })).sort((a, b) => b.score - a.score);
  return { ...verdict(old, ranked), stats: { candidates: total, lookedAt, scored: ranked.length, ms: performance.now() - t0 } };
}

/** The baseline as `resolve` would run it: the remembered fields (with Similo's score as the floor's), then the score. */
export function similoRepair(old: Descriptor, doc: Document): RepairOutcome {
  const t0 = performance.now();
  const cache = new DescribeCache();
  const hit = rememberedMatch(old, doc, cache);
  if (hit) {
    const found = describe(hit, { cache });
    const s = similoScorer(old, found);
    if (s >= REMEMBERED_FLOOR) return { ...foundByField(old, hit, found, s), stats: { candidates: 0, lookedAt: 0, scored: 1, ms: performance.now() - t0 } };
  }
  const out = similoByScore(old, doc, cache);
  return { ...out, stats: { ...out.stats!, ms: performance.now() - t0 } };
}
