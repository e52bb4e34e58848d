// In-page half of the repair benchmark, bundled (iife, global `aiteBench`) and injected into each
// served page. It resolves a target exactly (a small stand-in for the content script's resolver:
// whole text, then substring; role/name; label; placeholder; testid; css; xpath), describes the
// element for the lock file, and runs repair the way `resolve` does.
import type { Descriptor } from '../../src/sdk/protocol/descriptor.js';
import type { Target } from '../../src/sdk/protocol/target.js';
import { describe } from '../../src/extension/content/describe.js';
import { checkExactMatch, repair, scoreCandidates, type RepairOptions } from '../../src/extension/content/repair/index.js';
import { accessibleName, describeElement, elementText, implicitRole, isEnabled, isVisible, visualLabel, xpathOf } from '../../src/extension/content/repair/features.js';
import { collectPool, isCandidate, shortlist } from '../../src/extension/content/repair/candidates.js';
import { FIELDS, contrastOf, fieldSims, rarity } from '../../src/extension/content/repair/score.js';
import { WEIGHTS } from '../../src/extension/content/repair/weights.js';
import { fold } from '../../src/extension/content/repair/text.js';
import { similoScorer } from './similo.js';

const norm = (s: string | undefined): string => fold(s).toLowerCase();

function innermost(els: Element[]): Element[] {
  return els.filter((e) => !els.some((o) => o !== e && e.contains(o)));
}

function byText(all: Element[], text: string): Element[] {
  const want = norm(text);
  const whole = innermost(all.filter((e) => norm(elementText(e)) === want));
  if (whole.length) return whole;
  return innermost(all.filter((e) => norm(elementText(e)).includes(want)));
}

/** Every element the target names (visible or not), innermost first. */
export function exactMatches(t: Target): Element[] {
  if (t.xpath) {
    const out: Element[] = [];
    const r = document.evaluate(t.xpath, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
    for (let i = 0; i < r.snapshotLength; i++) out.push(r.snapshotItem(i) as Element);
    return out;
  }
  if (t.css) return [...document.querySelectorAll(t.css)];
  if (t.testid) return [...document.querySelectorAll(`[data-testid="${CSS.escape(t.testid)}"]`)];
  let all = [...document.body.getElementsByTagName('*')].filter(isCandidate);
  if (t.role) all = all.filter((e) => implicitRole(e) === t.role);
  if (t.placeholder) all = all.filter((e) => norm(e.getAttribute('placeholder') ?? '') === norm(t.placeholder));
  if (t.label) {
    all = all.filter(
      (e) => /^(INPUT|SELECT|TEXTAREA)$/.test(e.tagName) && (norm(visualLabel(e)) === norm(t.label) || norm(e.getAttribute('aria-label') ?? '') === norm(t.label)),
    );
  }
  if (t.name) all = all.filter((e) => norm(accessibleName(e, elementText(e), visualLabel(e))) === norm(t.name));
  if (t.text) all = byText(all, t.text);
  return all;
}

export type Exact = { status: 'found'; element: Element } | { status: 'not-found' | 'ambiguous' | 'hidden'; count: number };

export function resolveExact(t: Target): Exact {
  const m = exactMatches(t);
  const shown = m.filter((e) => isVisible(e));
  if (m.length === 0) return { status: 'not-found', count: 0 };
  if (shown.length === 0) return { status: 'hidden', count: m.length };
  if (shown.length > 1) return { status: 'ambiguous', count: shown.length };
  return { status: 'found', element: shown[0]! };
}

/** The descriptor the lock file would hold after the target resolved on the old page. */
export function record(t: Target): { ok: true; descriptor: Descriptor } | { ok: false; why: string } {
  const r = resolveExact(t);
  if (r.status !== 'found') return { ok: false, why: `${r.status} (${r.count})` };
  // What the lock file holds: the content script's descriptor of a recorded target.
  return { ok: true, descriptor: describe(r.element, { record: true }) };
}

/**
 * Takes the truth marker off the page (so nothing can read it) and returns the xpath it marked,
 * and whether that element can be acted on (visible and enabled). A hidden or disabled right
 * element is not repairable: the right answer is a refusal.
 */
export function takeTruth(marker: string): { xpath: string; usable: boolean } | undefined {
  const el = document.querySelector(`[${marker}]`);
  document.querySelectorAll(`[${marker}]`).forEach((e) => e.removeAttribute(marker));
  if (!el) return undefined;
  return { xpath: xpathOf(el), usable: isVisible(el) && isEnabled(el) };
}

/** The element an xpath names on this page, and whether it can be acted on (release-pair truths). */
export function truthAt(xpath: string): { xpath: string; usable: boolean } | undefined {
  const el = document.evaluate(xpath, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue as Element | null;
  if (!el) return undefined;
  return { xpath, usable: isVisible(el) && isEnabled(el) };
}

export interface Run {
  exact: 'found' | 'not-found' | 'ambiguous' | 'hidden';
  exactXpath?: string;
  /** How much the exact match still looks like the remembered element. */
  exactScore?: number;
  /** The exact match scored below the drifted threshold: refused as `drifted` (`checkExact`). */
  refusedExact?: boolean;
  /** Why checkExact refused it. */
  exactWhy?: 'peer' | 'low' | 'context' | 'better';
  ok?: boolean;
  via?: string;
  /** Release pairs: the answer of the score alone (the remembered-field step off), by xpath; undefined when it refused. */
  scoreAlone?: string | null;
  reason?: string;
  xpath?: string;
  /** Proposed elements of a refusal (drifted: one; ambiguous: the close ones). */
  proposed?: string[];
  score?: number;
  runnerUp?: number;
  ms?: number;
  changes?: string[];
  lookedAt?: number;
  candidates?: number;
  note?: string;
}

export type Mode = 'ours' | 'similo';

function options(mode: Mode, scoreOnly: boolean): RepairOptions {
  return mode === 'similo' ? { scorer: similoScorer, merge: false, scoreOnly } : { scoreOnly };
}

/** One `resolve` with a descriptor, as the content script answers it. */
export function resolveWithRepair(t: Target, old: Descriptor, mode: Mode = 'ours', scoreOnly = false, forceRepair = false): Run {
  const exact = resolveExact(t);
  if (exact.status === 'found' && !forceRepair) {
    // The runner always sends `checkExact` with a remembered descriptor (locator-repair.md §1).
    const verdict = checkExactMatch(old, exact.element, options(mode, scoreOnly));
    return { exact: 'found', exactXpath: xpathOf(exact.element), exactScore: verdict.score, ...(mode === 'ours' && !verdict.ok ? { refusedExact: true, exactWhy: verdict.why } : {}) };
  }
  if (exact.status !== 'not-found' && !forceRepair) return { exact: exact.status };
  const out = repair(old, options(mode, scoreOnly));
  if (!out) return { exact: exact.status, ok: false, reason: 'internal' };
  const alone = forceRepair && !scoreOnly ? repair(old, options(mode, true)) : undefined;
  const base = {
    exact: exact.status,
    ms: out.stats?.ms,
    lookedAt: out.stats?.lookedAt,
    candidates: out.stats?.candidates,
    ...(alone ? { scoreAlone: alone.kind === 'found' ? xpathOf(alone.element) : null } : {}),
  };
  if (out.kind === 'found') {
    return { ...base, ok: true, via: out.via, xpath: xpathOf(out.element), score: out.repair.score, runnerUp: out.repair.runnerUp, changes: out.repair.changes };
  }
  const score = out.kind === 'drifted' ? out.score : out.kind === 'ambiguous' ? out.candidates[0]?.score : out.bestScore;
  const runnerUp = out.kind === 'drifted' ? out.runnerUp : out.kind === 'ambiguous' ? out.candidates[1]?.score : undefined;
  return {
    ...base,
    ok: false,
    reason: out.kind,
    proposed: (out.elements ?? []).map(xpathOf),
    score,
    runnerUp,
    ...(out.kind === 'not-found' && out.note ? { note: out.note } : {}),
  };
}

/** The leading candidates with each field's similarity and weight, for reading one case (`--explain`). */
export function explain(old: Descriptor, truthXpath: string | undefined, top = 4): string {
  const { ranked } = scoreCandidates(old, { merge: true });
  const brief = (d: Descriptor): string =>
    JSON.stringify({ tag: d.tag, twins: d.twins, role: d.role, text: d.text, name: d.name, label: d.label, id: d.id, testid: d.testid, cls: d.classes, href: d.href, ctx: d.context, near: d.near, path: d.path, rect: d.rect });
  const lines = [`old ${brief(old)}`];
  ranked.slice(0, top).forEach((r, i) => {
    const xp = xpathOf(r.element);
    const sims = r.sims.map(([f, s, p]) => `${FIELDS[f]}${p === 2 ? '-' : p === 3 ? '+' : ''}=${s.toFixed(2)}`).join(' ');
    lines.push(`#${i} ${r.score.toFixed(3)}${xp === truthXpath ? ' TRUTH' : ''} ${xp}\n    ${brief(r.descriptor)}\n    ${sims}`);
  });
  const ti = ranked.findIndex((r) => xpathOf(r.element) === truthXpath);
  if (ti >= top) lines.push(`truth ranked #${ti} score ${ranked[ti]!.score.toFixed(3)}: ${brief(ranked[ti]!.descriptor)}`);
  return lines.join('\n');
}

/** Field similarities of the scored candidates, for the weight fitter. */
export function dump(old: Descriptor, truthXpath: string | undefined): { rows: { sims: number[][]; truth: boolean; xpath: string; descriptor: Descriptor }[]; fields: readonly string[]; twins: number } {
  const { ranked } = scoreCandidates(old, { merge: true });
  return {
    fields: FIELDS,
    rows: ranked.map((r) => {
      const xp = xpathOf(r.element);
      return { sims: r.sims.map((s) => [s[0], Math.round(s[1] * 1000) / 1000, s[2]]), truth: xp === truthXpath, xpath: xp, descriptor: r.descriptor };
    }),
    twins: old.twins ?? 0,
  };
}

export interface Item {
  xpath: string;
  tag: string;
  text: string;
  nameAttr: string;
  placeholder: string;
  href: string;
  type: string;
  id: string;
  label: string;
}

/** Visible controls, links and headings: what a script would name, for labelling release pairs. */
export function inventory(): Item[] {
  const out: Item[] = [];
  for (const el of document.body.querySelectorAll('a[href],button,input,select,textarea,h1,h2,h3,h4,h5,h6,[role="button"]')) {
    if (!isVisible(el)) continue;
    if (el.tagName === 'INPUT' && (el as HTMLInputElement).type === 'hidden') continue;
    out.push({
      xpath: xpathOf(el),
      tag: el.tagName.toLowerCase(),
      text: fold(elementText(el)),
      nameAttr: el.getAttribute('name') ?? '',
      placeholder: el.getAttribute('placeholder') ?? '',
      href: el.getAttribute('href') ?? '',
      type: (el as HTMLInputElement).type ?? '',
      id: el.id,
      label: visualLabel(el),
    });
  }
  return out;
}

/** Where repair's time goes on this page (ms per phase, best of five). */
export function profile(old: Descriptor): Record<string, number> {
  const best: Record<string, number> = {};
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const pool = collectPool(document, old);
    const t1 = performance.now();
    const short = shortlist(pool.elements, old);
    const t2 = performance.now();
    const cache = {};
    const ds = short.map((el) => describeElement(el, cache));
    const t3a = performance.now();
    const rare = rarity(ds);
    const sims = ds.map((d) => fieldSims(old, d, 0.8, rare));
    const t3b = performance.now();
    contrastOf(sims, WEIGHTS);
    const t3 = performance.now();
    best.sims = Math.min(best.sims ?? Infinity, t3b - t3a);
    best.contrast = Math.min(best.contrast ?? Infinity, t3 - t3b);
    const t35 = performance.now();
    scoreCandidates(old, {});
    const t36 = performance.now();
    best.scoreCandidates = Math.min(best.scoreCandidates ?? Infinity, t36 - t35);
    repair(old, { scoreOnly: true });
    const t4 = performance.now();
    const m = { pool: t1 - t0, shortlist: t2 - t1, describe60: t3a - t2, repair: t4 - t36, lookedAt: pool.elements.length };
    for (const [k, v] of Object.entries(m)) best[k] = Math.min(best[k] ?? Infinity, v);
  }
  return best;
}
