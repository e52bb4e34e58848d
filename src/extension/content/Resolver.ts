import { CommandFailure, flattenFrames, frameKey, targetFrame, toRegExp, type Descriptor, type Reason, type Target, type TextPattern } from '../../sdk/protocol/index.js';
import { describe } from './dom/describe.js';
import { accessibleName, isAriaHidden, isInteractive, labelledIn, labelsOf, roleOf, UNNAMED_ROLES } from './dom/aria.js';
import { composedContains, flatParent, queryCssDeep, walkElements, walkRendered } from './dom/query.js';
import { enterFrames } from './frames.js';
import { findRegions, rowsAround } from './dom/regions.js';
import { cut, matchText, TextIndex, type TextMatch } from './dom/text.js';
import { shadowRootOf } from './dom/nodes.js';
import { checkedValue, checkState, expandedState, levelOf, isEnabled, isPressed, isSelected } from './dom/state.js';
import { isRendered, whyHidden } from './dom/visibility.js';
import { evaluateXPath } from './dom/xpath.js';
import { formatElement, formatTarget, hoverHint, listOf, q } from './explain.js';
import { handles } from './Handles.js';
import { refs } from './refs.js';
import { activity, done, pending, settle, type Step } from './settle.js';

/** A region name or a target that must resolve to one element. */
export type Within = string | Target;

/** Why a target cannot match at all yet: its frame or region is not there (waiting may help). */
export interface Blocked {
  reason: Reason;
  message: string;
  detail?: Record<string, unknown>;
}

/** One look at the page for a target. */
export interface Evaluation {
  /** Visible matches in document order, after preferring whole-text matches; `nth` not applied. */
  visible: Element[];
  /** Matches that exist but are not rendered. */
  hidden: Element[];
  /** The visible part matches that whole matches put aside (text keys), for a `within` to fall back on. */
  partVisible?: Element[];
  blocked?: Blocked;
  texts: TextIndex;
}

/** How {@link pickStep} picks. */
export interface PickOptions {
  /**
   * A command that only reads the element (`read`, a text or value verify) takes the one match
   * that is there but not rendered (zero size, `display: none`) when no match is visible.
   */
  hidden?: boolean;
}

/** An ambiguous answer is only given once the DOM has been this quiet (a list may still be rendering). */
export const AMBIGUOUS_QUIET_MS = 100;
const CANDIDATES_MAX = 10;

const LOCATING_KEYS = ['role', 'name', 'label', 'placeholder', 'testid', 'css', 'xpath'] as const;

/**
 * Finds what a target names, once, now. Keys narrow each other; `text`, `name`, `label` and
 * `placeholder` match whole-or-part (see `matchText`) and whole matches win over partial ones.
 * `within` (from the target, and an outer one from the request) limits the search to regions.
 */
export function evaluate(target: Target, opts: { within?: Within | undefined; doc?: Document } = {}): Evaluation {
  const texts = new TextIndex();
  if (target.ref !== undefined) {
    // A snapshot's ref names one element directly, in whichever frame or shadow root it is.
    const el = refs.element(target.ref);
    return isRendered(el) ? { visible: [el], hidden: [], texts } : { visible: [], hidden: [el], texts };
  }
  // The target's frame, then its region's: one path, entered here or, past a cross-site frame, by the worker.
  const flat = flattenFrames(target, opts.within);
  const bare = flat.target!;
  let doc = opts.doc ?? document;
  if (flat.path.length > 0) {
    // A cross-site frame on the way throws a frame hop: the worker sends the command on to it.
    const f = enterFrames(flat.path, doc);
    if (f.kind === 'missing') {
      return blocked(texts, 'not-found', `No iframe has the name, id, title or css ${q(f.segment)}, so ${formatTarget(target)} cannot be looked for.`, { frame: frameKey(flat.path) });
    }
    doc = f.doc;
  }

  let scopes: Element[] | undefined;
  for (const w of [flat.within, bare.within]) {
    if (w === undefined) continue;
    const found = scopeOf(w, doc, texts);
    if ('reason' in found) return { visible: [], hidden: [], blocked: found, texts };
    const inner = scopes ? found.filter((s) => scopes!.some((o) => o !== s && composedContains(o, s))) : found;
    if (inner.length === 0) {
      return blocked(texts, 'not-found', `No region ${describeWithin(w)} is inside ${describeWithin(flat.within!)}.`, { within: w });
    }
    scopes = inner;
  }

  const order = new Map<Element, number>();
  const collect = (el: Element): void => {
    if (!order.has(el)) order.set(el, order.size);
  };
  // A walk of the whole document also finds its shadow roots, for a css key to query in.
  let roots: ShadowRoot[] | undefined;
  if (scopes) for (const s of scopes) walkRendered(s, collect);
  else {
    const found: ShadowRoot[] = [];
    walkElements(doc, collect, (sr) => found.push(sr));
    roots = found;
    // The whole document was walked: its text kept from an earlier look serves if nothing changed.
    texts.adopt(doc, found);
  }

  const test = compile(bare, doc, texts, roots);
  const textOnly = target.text !== undefined && LOCATING_KEYS.every((k) => target[k] === undefined);
  const found = new Map<Element, TextMatch>();
  for (const el of order.keys()) {
    const m = test(el);
    if (m) found.set(el, m);
  }
  // The text belongs to the innermost element that has it, visible or not: else the body
  // would "contain" the text of a hidden button and match in its place.
  const kept = textOnly ? deepest([...found.keys()]) : withoutHostsOfMatches([...found.keys()]);
  const whole: Element[] = [];
  const part: Element[] = [];
  for (const el of kept) (found.get(el) === 'whole' ? whole : part).push(el);

  const split = (els: Element[]): [Element[], Element[]] => {
    const vis: Element[] = [];
    const hid: Element[] = [];
    for (const el of els) (isRendered(el) ? vis : hid).push(el);
    return [vis, hid];
  };
  const [wholeVis, wholeHid] = split(whole);
  const [partVis, partHid] = split(part);
  const chosen = wholeVis.length > 0 ? wholeVis : partVis;
  let visible = bare.label !== undefined && bare.role === undefined ? labelledControls(chosen) : chosen;
  let hidden = wholeHid.length > 0 ? wholeHid : partHid;
  if (visible.length === 0 && hidden.length > 0) {
    const drawn = labelsDrawing(hidden);
    if (drawn.length > 0) {
      visible = drawn;
      hidden = hidden.filter((el) => !drawn.some((label) => (label as HTMLLabelElement).control === el));
    }
  }
  return { visible: textOnly ? promote(visible, texts, order) : visible, hidden, ...(wholeVis.length > 0 && partVis.length > 0 ? { partVisible: partVis } : {}), texts };
}

/**
 * The labels a person sees and clicks for hidden checkboxes and radios: a switch or a styled box
 * draws itself in its `<label>` and keeps its input zero-sized, clipped or out of the layout
 * (Mantine's switch, Bootstrap's toggle buttons). Clicking the label toggles the input, and a
 * label answers its input's state (see `checkableOf`).
 */
function labelsDrawing(hidden: Element[]): Element[] {
  const out: Element[] = [];
  for (const el of hidden) {
    if (el.localName !== 'input' || !checkState(el)) continue;
    const label = Array.from((el as HTMLInputElement).labels ?? []).find((l) => isRendered(l));
    if (label && !out.includes(label)) out.push(label);
  }
  return out;
}

/** Roles of the popups a widget labels with its field's label (aria-labelledby): its list, menu or grid. */
const POPUP_ROLES = new Set(['listbox', 'menu', 'tree', 'grid', 'treegrid']);

/**
 * What a label names, among several elements it labels: the control a person fills in, not the
 * popup list its widget labels with the same label while it is open (Mantine's and Headless
 * UI's listbox), nor the native element the widget keeps aria-hidden behind its own (Chakra's
 * <select>). Only where that leaves one or more: a label of two fields stays ambiguous.
 */
function labelledControls(els: Element[]): Element[] {
  if (els.length < 2) return els;
  const controls = els.filter((el) => !isAriaHidden(el) && (el.localName === 'select' || !POPUP_ROLES.has(roleOf(el))));
  return controls.length > 0 ? controls : els;
}

function blocked(texts: TextIndex, reason: Reason, message: string, detail?: Record<string, unknown>): Evaluation {
  return { visible: [], hidden: [], blocked: detail ? { reason, message, detail } : { reason, message }, texts };
}

/** An evaluation that found nothing because its region or frame is missing. */
export function blockedEvaluation(b: Blocked): Evaluation {
  return { visible: [], hidden: [], blocked: b, texts: new TextIndex() };
}

function describeWithin(w: Within): string {
  return typeof w === 'string' ? q(w) : `(${formatTarget(w)})`;
}

/** The region elements a `within` names, or why there are none. */
export function scopeOf(w: Within, doc: Document = document, texts: TextIndex = new TextIndex()): Element[] | Blocked {
  if (typeof w === 'string') {
    const regions = findRegions(doc, w, texts);
    if (regions.length > 0) return regions;
    // Else the list item, table or grid row, or card that says it ("the row that says Buy milk"):
    // where what says it whole is in no row (a visually hidden <select>'s <option>), a row that
    // says it among more (its remove button's "×") is the one.
    const says = evaluate({ text: w }, { doc });
    let rows = rowsAround(says.visible);
    if (rows.length === 0 && says.partVisible) rows = rowsAround(says.partVisible);
    if (rows.length === 1) return rows;
    if (rows.length > 1) {
      return {
        reason: 'ambiguous',
        message: `${rows.length} rows or cards say ${q(w)} (${listOf(rows.slice(0, CANDIDATES_MAX).map((e) => formatElement(e, texts.of(e))), 3, rows.length)}); a within must name one. Use more of the row's text, or a within target with nth.`,
        detail: { within: w, matches: rows.length },
      };
    }
    return {
      reason: 'not-found',
      message: `No visible dialog, section, form, fieldset or landmark is named ${q(w)} (by its label or first heading), and no list item, table or grid row, or card says it.`,
      detail: { within: w },
    };
  }
  const ev = evaluate(w, { doc });
  if (ev.blocked) return ev.blocked;
  const n = ev.visible.length;
  if (w.nth !== undefined) {
    if (n > w.nth) return [ev.visible[w.nth]!];
  } else if (n === 1) return [ev.visible[0]!];
  if (n > 1) {
    return {
      reason: 'ambiguous',
      message: `The region target (${formatTarget(w)}) matches ${n} visible elements (${listOf(ev.visible.map((e) => formatElement(e, ev.texts.of(e))))}); a within target must name one element.`,
      detail: { within: w, matches: n },
    };
  }
  return {
    reason: ev.hidden.length > 0 ? 'not-visible' : 'not-found',
    message: ev.hidden.length > 0
      ? `The region target (${formatTarget(w)}) matches only hidden elements.`
      : `The region target (${formatTarget(w)}) matches nothing.`,
    detail: { within: w },
  };
}

/** Words as written, or a pattern compiled once for every element it is tested on. */
function wanted(w: string | RegExp | TextPattern): string | RegExp {
  return typeof w === 'string' ? w : toRegExp(w);
}

/** One predicate for all keys of a target: undefined (no match), 'whole' or 'part'. */
function compile(t: Target, doc: Document, texts: TextIndex, roots?: readonly ShadowRoot[]): (el: Element) => TextMatch | undefined {
  const exact = t.exact === true;
  const plain: ((el: Element) => boolean)[] = [];
  const tiered: ((el: Element) => TextMatch | undefined)[] = [];
  if (t.css !== undefined) {
    const set = roots ? queryCssDeep(doc, t.css, roots) : queryCssDeep(doc, t.css);
    plain.push((el) => set.has(el));
  }
  if (t.xpath !== undefined) {
    const set = new Set(evaluateXPath(doc, t.xpath));
    plain.push((el) => set.has(el));
  }
  if (t.testid !== undefined) {
    const id = t.testid;
    plain.push((el) => el.getAttribute('data-testid') === id);
  }
  if (t.role !== undefined) {
    const role = t.role.toLowerCase();
    plain.push((el) => roleOf(el) === role && !isAriaHidden(el));
    const filters = roleFilters(t);
    if (filters) plain.push(filters);
  } else if (t.name !== undefined) {
    plain.push((el) => !UNNAMED_ROLES.has(roleOf(el)) && !isAriaHidden(el));
  }
  if (t.placeholder !== undefined) {
    const want = wanted(t.placeholder);
    tiered.push((el) => {
      const p = el.getAttribute('placeholder');
      return p === null ? undefined : matchText(p, want, exact);
    });
  }
  if (t.label !== undefined) {
    const want = wanted(t.label);
    // After a walk of the whole document, only the elements that can have a label are asked.
    const labelled = roots ? labelledIn([doc, ...roots], texts) : undefined;
    tiered.push((el) => (labelled && !labelled.has(el) ? undefined : best(labelsOf(el, texts).map((l) => matchText(l, want, exact)))));
  }
  if (t.name !== undefined) {
    const want = wanted(t.name);
    // An empty name asks for elements that have none (an icon-only button, say).
    tiered.push((el) => {
      const name = accessibleName(el, texts);
      return want === '' ? (name === '' ? 'whole' : undefined) : matchText(name, want, exact);
    });
  }
  if (t.text !== undefined) {
    const want = wanted(t.text);
    // A slot draws its assigned text in its parent's box and has none of its own: the text
    // belongs to the element around it.
    tiered.push((el) => (el.localName === 'slot' ? undefined : texts.match(el, want, exact)));
  }
  return (el) => {
    for (const p of plain) if (!p(el)) return undefined;
    let all: TextMatch = 'whole';
    for (const p of tiered) {
      const m = p(el);
      if (!m) return undefined;
      if (m === 'part') all = 'part';
    }
    return all;
  };
}

/**
 * A role target's filters (`level`, `checked`, `pressed`, `expanded`, `selected`, `disabled`) as
 * one test, read as `verify.state` and the snapshot read them and matched as Playwright's
 * `getByRole` options are; undefined when the target has none.
 */
export function roleFilters(t: Target): ((el: Element) => boolean) | undefined {
  const tests: ((el: Element) => boolean)[] = [];
  if (t.level !== undefined) tests.push((el) => levelOf(el) === t.level);
  if (t.checked !== undefined) tests.push((el) => checkedValue(el) === t.checked);
  if (t.pressed !== undefined) tests.push((el) => isPressed(el) === t.pressed);
  // An element that neither expands nor collapses is neither.
  if (t.expanded !== undefined) tests.push((el) => expandedState(el) === t.expanded);
  if (t.selected !== undefined) tests.push((el) => isSelected(el) === t.selected);
  if (t.disabled !== undefined) tests.push((el) => isEnabled(el) !== t.disabled);
  return tests.length === 0 ? undefined : (el) => tests.every((test) => test(el));
}

function best(ms: (TextMatch | undefined)[]): TextMatch | undefined {
  return ms.includes('whole') ? 'whole' : ms.includes('part') ? 'part' : undefined;
}

/**
 * A web component's host that matches as its own inner control does gives way to it: Material's,
 * Fluent's and Ionic's text fields carry the placeholder (or the label) on the host and on the
 * `<input>` in its shadow root, and the input is what is typed into.
 */
function withoutHostsOfMatches(els: Element[]): Element[] {
  if (els.length < 2) return els;
  return els.filter((el) => !(shadowRootOf(el) && els.some((other) => other !== el && other.getRootNode() !== el.getRootNode() && composedContains(el, other))));
}

/** Drops every match that has another match inside it: the text belongs to the innermost. */
function deepest(els: Element[]): Element[] {
  if (els.length < 2) return els;
  const set = new Set(els);
  const hasInner = new Set<Element>();
  for (const el of els) {
    // Through slots: a list item's slotted headline is the innermost, not the item around it.
    for (let p = flatParent(el); p; p = flatParent(p)) if (set.has(p)) hasInner.add(p);
  }
  return els.filter((el) => !hasInner.has(el));
}

/**
 * A text match inside a button, link, label etc. with the same text stands for that control:
 * `<button><span>Send</span></button>` is the button. Promoted matches are deduplicated and
 * kept in document order.
 */
function promote(els: Element[], texts: TextIndex, order: Map<Element, number>): Element[] {
  const out = new Set<Element>();
  for (const el of els) {
    let chosen = el;
    if (!isInteractive(el)) {
      const text = texts.of(el);
      for (let p = flatParent(el); p && order.has(p) && texts.of(p) === text; p = flatParent(p)) {
        if (isInteractive(p)) {
          chosen = p;
          break;
        }
      }
    }
    out.add(chosen);
  }
  return [...out].sort((a, b) => order.get(a)! - order.get(b)!);
}

/**
 * The evaluation of a step that sets files (see `hiddenFileInput` of the resolve request): when
 * no match is visible, the hidden file inputs among the matches stand as the visible ones.
 */
export function withHiddenFileInputs(ev: Evaluation): Evaluation {
  if (ev.blocked || ev.visible.length > 0) return ev;
  const inputs = ev.hidden.filter((el) => el.localName === 'input' && (el as HTMLInputElement).type === 'file');
  return inputs.length === 0 ? ev : { ...ev, visible: inputs, hidden: ev.hidden.filter((el) => !inputs.includes(el)) };
}

// -------------------------------------------------------------------------------------------
// Resolving to one element over time
// -------------------------------------------------------------------------------------------

/** What a resolution settled on. */
export type Resolution =
  | { kind: 'one'; element: Element; matches: number; texts: TextIndex }
  | { kind: 'ambiguous'; ev: Evaluation };

/**
 * One check of "does the target name exactly one visible element": done with the element,
 * done with `ambiguous` once several matches have been stable for a quiet moment, else pending.
 */
export function pickStep(target: Target, ev: Evaluation, opts: PickOptions = {}): Step<Resolution, Evaluation> {
  if (ev.blocked) return pending(ev);
  const n = ev.visible.length;
  // Reading needs no box: an empty <output> has none, and a read of it answers "" (as Playwright's textContent does).
  if (opts.hidden && n === 0 && target.nth === undefined && ev.hidden.length === 1) return done({ kind: 'one', element: ev.hidden[0]!, matches: 1, texts: ev.texts });
  if (target.nth !== undefined) {
    return n > target.nth ? done({ kind: 'one', element: ev.visible[target.nth]!, matches: n, texts: ev.texts }) : pending(ev);
  }
  if (n === 1) return done({ kind: 'one', element: ev.visible[0]!, matches: 1, texts: ev.texts });
  if (n > 1) {
    const quiet = activity.quietMs();
    return quiet >= AMBIGUOUS_QUIET_MS ? done({ kind: 'ambiguous', ev }) : pending(ev, AMBIGUOUS_QUIET_MS - quiet + 1);
  }
  return pending(ev);
}

/**
 * Waits until the target names exactly one visible element (or its `nth`), and returns it.
 * Throws the failure a person can act on: not-found, not-visible, ambiguous, or the region's.
 */
export async function resolveOne(target: Target, timeoutMs: number, within?: Within, opts: PickOptions = {}): Promise<{ element: Element; matches: number; texts: TextIndex }> {
  const step = await settle(() => pickStep(target, evaluate(target, { within }), opts), timeoutMs);
  if (!step.done) throw missFailure(target, step.last, timeoutMs);
  if (step.value.kind === 'ambiguous') throw ambiguousFailure(target, step.value.ev);
  return step.value;
}

/** The failure for a target that matched no visible element (or too few for its nth). */
export function missFailure(target: Target, ev: Evaluation, timeoutMs: number): CommandFailure {
  if (ev.blocked) return new CommandFailure(ev.blocked.reason, `${ev.blocked.message} (waited ${timeoutMs} ms)`, { target, ...ev.blocked.detail });
  const n = ev.visible.length;
  if (target.nth !== undefined && n > 0) {
    return new CommandFailure(
      'not-found',
      `The target ${formatTarget(target)} matches only ${n} visible element${n === 1 ? '' : 's'}; nth ${target.nth} counts from 0, so it needs at least ${target.nth + 1} (waited ${timeoutMs} ms).`,
      { target, matches: n },
    );
  }
  if (ev.hidden.length > 0) {
    const h = ev.hidden[0]!;
    // The message says the detail's counts: `matches` counts visible elements, as everywhere.
    const counts = { matches: n, hidden: ev.hidden.length };
    return new CommandFailure(
      'not-visible',
      `The target ${formatTarget(target)} matches ${counts.hidden} hidden element${counts.hidden === 1 ? '' : 's'} and ${counts.matches === 0 ? 'no visible one' : counts.matches}: ${formatElement(h, ev.texts.of(h))} is hidden because ${whyHidden(h)} (waited ${timeoutMs} ms).${hoverHint(h) || ' Make it visible first (open its dialog, menu or section), or name a visible element.'}`,
      { target, ...counts, candidates: ev.hidden.slice(0, 3).map((e) => ({ descriptor: describe(e, { frame: targetFrame(target), texts: ev.texts }) })) },
    );
  }
  const near = nearRole(target);
  if (near) {
    return new CommandFailure(
      'not-found',
      `No element matches ${formatTarget(target)} (waited ${timeoutMs} ms), but ${near.element} has role ${near.role} and matches the rest: use role ${q(near.role)} if it is the one.`,
      { target, nearRole: near.role },
    );
  }
  return plainNotFound(target, `waited ${timeoutMs} ms`);
}

/** Roles taken for one another (AG Grid's grid is a treegrid; a button drawn as a link is a link). */
const NEAR_ROLES: readonly (readonly string[])[] = [
  ['grid', 'treegrid', 'table'],
  ['gridcell', 'cell', 'columnheader', 'rowheader'],
  ['row', 'listitem', 'treeitem'],
  ['button', 'link', 'menuitem', 'tab'],
  ['option', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem'],
  ['checkbox', 'switch', 'menuitemcheckbox'],
  ['textbox', 'searchbox', 'combobox', 'spinbutton'],
  ['listbox', 'menu', 'tree', 'list'],
  ['dialog', 'alertdialog'],
];

/**
 * A visible element with a role near the target's that matches the rest of it, for a not-found
 * to name: looked for once the target has failed, never on the way.
 */
function nearRole(target: Target): { role: string; element: string } | undefined {
  if (target.role === undefined) return undefined;
  const near = new Set(NEAR_ROLES.filter((group) => group.includes(target.role!)).flat());
  near.delete(target.role);
  try {
    for (const role of near) {
      const ev = evaluate({ ...target, role, nth: undefined });
      const el = ev.visible[0];
      if (el) return { role, element: formatElement(el, ev.texts.of(el)) };
    }
  } catch {
    // A frame on the way this document cannot enter: no hint, the not-found stands.
  }
  return undefined;
}

/** The not-found of a target that matches nothing at all; `when` says how long was looked. */
export function plainNotFound(target: Target, when: string): CommandFailure {
  return new CommandFailure(
    'not-found',
    `No element matches ${formatTarget(target)} (${when}). Check the target against the page, or raise timeoutMs if it appears later.`,
    { target },
  );
}

/** The failure for a target that names several visible elements. */
export function ambiguousFailure(target: Target, ev: Evaluation): CommandFailure {
  const n = ev.visible.length;
  const shown = ev.visible.slice(0, CANDIDATES_MAX);
  const descriptors = shown.map((e) => describe(e, { frame: targetFrame(target), texts: ev.texts }));
  const names = shown.map((e) => formatElement(e, ev.texts.of(e)));
  // Matches that read alike are told apart by where they are (what `within` would name), when
  // that tells them apart: two alike buttons of one section stay as they read.
  const wheres = descriptors.map(whereOf);
  const told = names.map((name, i) => {
    const alike = names.flatMap((other, j) => (other === name ? [wheres[j]] : []));
    return alike.length > 1 && new Set(alike).size > 1 ? `${name}${wheres[i]}` : name;
  });
  return new CommandFailure(
    'ambiguous',
    `The target ${formatTarget(target)} matches ${n} visible elements: ${listOf(told, 3, n)}. Add \`nth\`, \`within\`, \`exact\` or another key to name one.`,
    {
      target,
      matches: n,
      candidates: shown.map((e, i) => ({ descriptor: { ...descriptors[i]!, handle: handles.handleOf(e) } })),
    },
  );
}

/** Where a match stands, as `within` names it: its row, its region, or the heading it is under. */
function whereOf(d: Descriptor): string {
  const { row, region, heading } = d.context ?? {};
  if (row) return ` in row ${q(cut(row, 40))}`;
  if (region) return ` in ${q(cut(region, 40))}`;
  if (heading) return ` under ${q(cut(heading, 40))}`;
  return ' outside any region';
}
