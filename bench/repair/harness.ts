// In-page half of the repair benchmark, bundled (iife, global `aiteBench`) and injected into each
// served page. It resolves a target exactly (a small stand-in for the content script's resolver:
// whole text, then substring; role/name; label; placeholder; testid; css; xpath), describes the
// element for the lock file, and runs repair the way `resolve` does.
import type { Descriptor } from '../../src/sdk/protocol/descriptor.js';
import type { Target } from '../../src/sdk/protocol/target.js';
import { accessibleName, roleOf } from '../../src/extension/content/dom/aria.js';
import { DescribeCache, describe, elementText, visualLabel } from '../../src/extension/content/dom/describe.js';
import { walkElements } from '../../src/extension/content/dom/query.js';
import { isEnabled } from '../../src/extension/content/dom/state.js';
import { fold, TextIndex } from '../../src/extension/content/dom/text.js';
import { isRendered } from '../../src/extension/content/dom/visibility.js';
import { xpathOf } from '../../src/extension/content/dom/xpath.js';
import { checkExactMatch, isCandidate, pageCandidates, repair, repairByScore } from '../../src/extension/content/repairPage.js';
import { contrastClose, rankCandidates, scoreDescribed } from '../../src/extension/content/repair/index.js';
import type { RepairOutcome } from '../../src/extension/content/repair/types.js';
import { similoByScore, similoRepair, similoScorer } from './similo.js';

const norm = (s: string | undefined): string => fold(s ?? '').toLowerCase();

function innermost(els: Element[]): Element[] {
  return els.filter((e) => !els.some((o) => o !== e && e.contains(o)));
}

function byText(all: Element[], text: string, texts: TextIndex): Element[] {
  const want = norm(text);
  const whole = innermost(all.filter((e) => norm(elementText(e, texts)) === want));
  if (whole.length) return whole;
  return innermost(all.filter((e) => norm(elementText(e, texts)).includes(want)));
}

/** The corpus's targets name elements by words, never by patterns. */
type WordTarget = Omit<Target, 'text' | 'name' | 'label' | 'placeholder'> & { text?: string; name?: string; label?: string; placeholder?: string };

/** Every element the target names (visible or not), innermost first. */
export function exactMatches(target: Target): Element[] {
  const t = target as WordTarget;
  if (t.xpath) {
    const out: Element[] = [];
    const r = document.evaluate(t.xpath, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
    for (let i = 0; i < r.snapshotLength; i++) out.push(r.snapshotItem(i) as Element);
    return out;
  }
  if (t.css) return [...document.querySelectorAll(t.css)];
  if (t.testid) return [...document.querySelectorAll(`[data-testid="${CSS.escape(t.testid)}"]`)];
  const cache = new DescribeCache();
  const texts = cache.texts;
  let all: Element[] = [];
  walkElements(document, (e) => {
    if (isCandidate(e)) all.push(e);
  });
  if (t.role) all = all.filter((e) => roleOf(e) === t.role);
  if (t.placeholder) all = all.filter((e) => norm(e.getAttribute('placeholder') ?? '') === norm(t.placeholder));
  if (t.label) {
    all = all.filter(
      (e) => /^(INPUT|SELECT|TEXTAREA)$/.test(e.tagName) && (norm(visualLabel(e, cache)) === norm(t.label) || norm(e.getAttribute('aria-label') ?? '') === norm(t.label)),
    );
  }
  if (t.name) all = all.filter((e) => norm(accessibleName(e, texts)) === norm(t.name));
  if (t.text) all = byText(all, t.text, texts);
  return all;
}

export type Exact = { status: 'found'; element: Element } | { status: 'not-found' | 'ambiguous' | 'hidden'; count: number };

export function resolveExact(t: Target): Exact {
  const m = exactMatches(t);
  const shown = m.filter((e) => isRendered(e));
  if (m.length === 0) return { status: 'not-found', count: 0 };
  if (shown.length === 0) return { status: 'hidden', count: m.length };
  if (shown.length > 1) return { status: 'ambiguous', count: shown.length };
  return { status: 'found', element: shown[0]! };
}

/** The descriptor the lock file would hold after the target resolved on the old page. */
export function record(t: Target, withRecord = true): { ok: true; descriptor: Descriptor } | { ok: false; why: string } {
  const r = resolveExact(t);
  if (r.status !== 'found') return { ok: false, why: `${r.status} (${r.count})` };
  // What the lock file holds: the content script's descriptor of a recorded target. Without
  // `record` (`--no-record`): a descriptor as `resolve` answers it, with no twins or peers (an
  // older lock entry, a descriptor handed to `locator.resolve`).
  return { ok: true, descriptor: describe(r.element, { record: withRecord }) };
}

/**
 * Takes the truth marker off the page (so nothing can read it) and returns the xpath it marked,
 * and whether that element can be acted on (visible and enabled). A hidden or disabled right
 * element is not repairable: the right answer is a refusal.
 */
export function takeTruth(marker: string): { xpath: string; usable: boolean } | undefined {
  const el = document.querySelector(`[${marker}]`);
  document.querySelectorAll(`[${marker}]`).forEach((e) => e.removeAttribute(marker));
  return markTruth(el);
}

/**
 * The right element and its xpath as it was marked. A page's script may add or remove a sibling
 * of an ancestor meanwhile (a progress bar put on `body` and taken off when the page is loaded):
 * the same element then has another xpath when the answer is read, so an answer is compared with
 * the right element by identity ({@link xp}), not by its xpath now.
 */
let truth: { el: Element; xpath: string } | undefined;

function markTruth(el: Element | null): { xpath: string; usable: boolean } | undefined {
  truth = el ? { el, xpath: xpathOf(el) } : undefined;
  return el ? { xpath: truth!.xpath, usable: isRendered(el) && isEnabled(el) } : undefined;
}

/** An element's xpath to compare with the truth's: the truth's own as marked, when it is that element. */
const xp = (el: Element): string => (truth && el === truth.el ? truth.xpath : xpathOf(el));

/** The element an xpath names on this page, and whether it can be acted on (release-pair truths); null: none. */
export function truthAt(xpath: string | null): { xpath: string; usable: boolean } | undefined {
  if (xpath === null) return markTruth(null);
  return markTruth(document.evaluate(xpath, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue as Element | null);
}

export interface Run {
  exact: 'found' | 'not-found' | 'ambiguous' | 'hidden';
  exactXpath?: string;
  /** How much the exact match still looks like the remembered element. */
  exactScore?: number;
  /** The exact match scored below the drifted threshold: refused as `drifted` (`checkExact`). */
  refusedExact?: boolean;
  /** Why checkExact refused it. */
  exactWhy?: 'peer' | 'low' | 'context' | 'better' | 'action' | 'place';
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

/**
 * Repair as `resolve` runs it (remembered fields, then the score; only elements of the role the
 * target names, if it names one), or the score alone (`scoreOnly`).
 */
function repairAs(mode: Mode, old: Descriptor, scoreOnly: boolean, role?: string): RepairOutcome | undefined {
  if (mode === 'similo') return scoreOnly ? similoByScore(old, document) : similoRepair(old, document);
  return scoreOnly ? repairByScore(old, document, new DescribeCache(), role) : repair(old, { role });
}

/** One `resolve` with a descriptor, as the content script answers it. */
export function resolveWithRepair(t: Target, old: Descriptor, mode: Mode = 'ours', scoreOnly = false, forceRepair = false): Run {
  const exact = resolveExact(t);
  if (exact.status === 'found' && !forceRepair) {
    if (mode === 'similo') return { exact: 'found', exactXpath: xp(exact.element), exactScore: similoScorer(old, describe(exact.element)) };
    // The runner always sends `checkExact` with a remembered descriptor (locator-repair.md §1).
    const verdict = checkExactMatch(old, exact.element);
    return { exact: 'found', exactXpath: xp(exact.element), exactScore: verdict.score, ...(!verdict.ok ? { refusedExact: true, exactWhy: verdict.why } : {}) };
  }
  if (exact.status !== 'not-found' && !forceRepair) return { exact: exact.status };
  const role = t.role?.toLowerCase();
  const out = repairAs(mode, old, scoreOnly, role);
  if (!out) return { exact: exact.status, ok: false, reason: 'internal' };
  const alone = forceRepair && !scoreOnly ? repairAs(mode, old, true, role) : undefined;
  const base = {
    exact: exact.status,
    ms: out.stats?.ms,
    lookedAt: out.stats?.lookedAt,
    candidates: out.stats?.candidates,
    ...(alone ? { scoreAlone: alone.kind === 'found' ? xp(alone.element) : null } : {}),
  };
  if (out.kind === 'found') {
    return { ...base, ok: true, via: out.via, xpath: xp(out.element), score: out.repair.score, runnerUp: out.repair.runnerUp, changes: out.repair.changes };
  }
  const score = out.kind === 'drifted' ? out.score : out.kind === 'ambiguous' ? out.candidates[0]?.score : out.bestScore;
  const runnerUp = out.kind === 'drifted' ? out.runnerUp : out.kind === 'ambiguous' ? out.candidates[1]?.score : undefined;
  return {
    ...base,
    ok: false,
    reason: out.kind,
    proposed: (out.elements ?? []).map(xp),
    score,
    runnerUp,
    ...(out.kind === 'not-found' && out.note ? { note: out.note } : {}),
  };
}

function ranked(old: Descriptor): ReturnType<typeof rankCandidates<ReturnType<typeof pageCandidates>['candidates'][number]>> {
  const { candidates, placedTwins } = pageCandidates(old, document);
  return rankCandidates(old, candidates, { placedTwins });
}

/** The leading candidates with each field's similarity and weight, for reading one case (`--explain`). */
export function explain(old: Descriptor, truthXpath: string | undefined, top = 4): string {
  const all = ranked(old);
  const brief = (d: Descriptor): string =>
    JSON.stringify({ tag: d.tag, twins: d.twins, role: d.role, text: d.text, name: d.name, label: d.label, id: d.id, testid: d.testid, cls: d.classes, href: d.href, ctx: d.context, near: d.near, path: d.path, rect: d.rect });
  const lines = [`old ${brief(old)}`];
  all.slice(0, top).forEach((r, i) => {
    const x = xp(r.ref);
    const sims = r.sims.map(([f, s, p]) => `${f}${p === 2 ? '-' : p === 3 ? '+' : ''}=${s.toFixed(2)}`).join(' ');
    lines.push(`#${i} ${r.score.toFixed(3)}${x === truthXpath ? ' TRUTH' : ''} ${x}\n    ${brief(r.descriptor)}\n    ${sims}`);
  });
  const ti = all.findIndex((r) => xp(r.ref) === truthXpath);
  if (ti >= top) lines.push(`truth ranked #${ti} score ${all[ti]!.score.toFixed(3)}: ${brief(all[ti]!.descriptor)}`);
  return lines.join('\n');
}

/**
 * The scored candidates before merging, with their field similarities (for the weight fitter) and
 * what the page said of them (for the replay, which ranks them with the repair's own code).
 */
export function dump(
  old: Descriptor,
  truthXpath: string | undefined,
): { rows: { sims: [string, number, number][]; truth: boolean; xpath: string; descriptor: Descriptor; slot?: number; interactive: boolean; order?: number; sharedId?: boolean }[]; twins: number; placed?: { descriptor: Descriptor; order?: number }[] } {
  // Scored and looked at again as repair ranks them, but not merged: the fitter sees every row.
  const { candidates: cands, placedTwins } = pageCandidates(old, document);
  // The twins left out in their remembered places, for the renamed-group rule (§3): only with `twins`.
  const placed = old.twins ? placedTwins().map((p) => ({ descriptor: p.descriptor, order: p.order?.() })) : [];
  const scored = scoreDescribed(old, cands);
  const all = contrastClose(old, cands.map((c, i) => ({ ...c, ...scored[i]! })).sort((a, b) => b.score - a.score));
  // The order among twins is asked only of candidates that have a twin among the others (§3).
  const texts = new Map<string, number>();
  for (const r of [...all, ...placed]) if (r.descriptor.text) texts.set(`${r.descriptor.tag} ${r.descriptor.text}`, (texts.get(`${r.descriptor.tag} ${r.descriptor.text}`) ?? 0) + 1);
  return {
    rows: all.map((r) => {
      const x = xp(r.ref);
      const order = r.descriptor.text && texts.get(`${r.descriptor.tag} ${r.descriptor.text}`)! > 1 ? r.order?.() : undefined;
      return {
        ...(order !== undefined ? { order } : {}),
        ...(r.sharedId ? { sharedId: true } : {}),
        sims: r.sims.map((s) => [s[0], Math.round(s[1] * 1000) / 1000, s[2]] as [string, number, number]),
        truth: x === truthXpath,
        xpath: x,
        descriptor: r.descriptor,
        ...(r.slot !== undefined ? { slot: r.slot } : {}),
        interactive: r.interactive === true,
      };
    }),
    twins: old.twins ?? 0,
    ...(placed.length ? { placed } : {}),
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
    if (!isRendered(el)) continue;
    if (el.localName === 'input' && (el as HTMLInputElement).type === 'hidden') continue;
    out.push({
      xpath: xpathOf(el),
      tag: el.localName,
      text: elementText(el),
      nameAttr: el.getAttribute('name') ?? '',
      placeholder: el.getAttribute('placeholder') ?? '',
      href: el.getAttribute('href') ?? '',
      type: (el as HTMLInputElement).type ?? '',
      id: el.id,
      label: visualLabel(el, new DescribeCache()) ?? '',
    });
  }
  return out;
}

