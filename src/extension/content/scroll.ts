import { CommandFailure, DEFAULT_TIMEOUT_MS, SCROLL_STEPS_DEFAULT, SCROLL_STEPS_MAX, type AnswerOf, type RequestOf } from '../../sdk/protocol/index.js';
import { describe } from './dom/describe.js';
import { topViewportRect } from './dom/geometry.js';
import { styleOf } from './dom/nodes.js';
import { composedParent, deepElementFromPoint, walkElements } from './dom/query.js';
import { formatElement, formatTarget } from './explain.js';
import { handles } from './Handles.js';
import { evaluate, resolveOne } from './Resolver.js';

// How long the page gets after each step to render what scrolled in (a virtual list's rows).
const RENDER_WAIT_MS = 400;
// An infinite list loads more once its end comes into view (an IntersectionObserver, then a
// fetch): at the end the list gets this long to grow before it is called its end.
const END_WAIT_MS = 2_000;
// One `scroll` by default: most of what the container shows, so a person keeps a few rows of
// context, as Page Down does.
const SCROLL_FRACTION = 0.8;
// A search with `until` checks the rows the list renders, not what a person reads, so it steps
// further; it keeps a row or so of overlap for a list that rounds the range it renders.
const SEARCH_FRACTION = 0.9;

/**
 * `scroll`: scrolls a container by `deltaY` pixels (default: most of its height; a container that
 * scrolls only sideways, such as a carousel or a board of columns, is scrolled across, by most of
 * its width), or, with
 * `until`, step by step until the `until` target is there (a virtual list renders only the rows
 * in view), then brings it into view and answers its descriptor. The container is the target's
 * scroll box ({@link scrollableOf}), else the one under the middle of the viewport, else the
 * page, unless it cannot scroll and a search (`until`) finds a box on the page that can (the
 * largest). At the end it waits a moment for the list to load more (an infinite list); a search that
 * began partway down and reached the end turns back and searches from where it began the other
 * way. Bounded by `maxSteps` (both ways together) and `timeoutMs`; it only scrolls, never clicks.
 * Scrolling back (a negative `deltaY`) looks upward. Where nothing can scroll, it answers
 * `wheelAt`, the point for the runner's wheel input (with `until`, in a `not-found` failure's
 * detail).
 */
export async function scroll(req: RequestOf<'scroll'>): Promise<AnswerOf<'scroll'>> {
  const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = performance.now() + timeoutMs;
  const target = req.target ? (await resolveOne(req.target, timeoutMs)).element : undefined;
  // A search names what it looks for, not where: on a page that does not scroll, the list that
  // holds it is the box that does (a panel away from the middle), the largest when several do.
  const container = target ? scrollableOf(target) : (scrollableAtMiddle() ?? (req.until ? largestInside(document.documentElement)?.box : undefined));
  const box = container ?? document.scrollingElement ?? document.documentElement;
  // Down, unless the box scrolls only sideways (a carousel, a board of columns): then across.
  const axis: Axis = !scrollsAlong(box, 'y') && scrollsAlong(box, 'x') ? 'x' : 'y';
  const position = (): number => scrollPosition(box, axis);
  const start = position();
  // Nothing there can scroll (no scrollable box, and the page fits): a carousel, a map or a
  // canvas list moves on wheel events itself. The runner sends the wheel input there.
  const wheelAt = container === undefined && !scrollsAlong(box, 'y') ? middleOf(target) : undefined;

  if (!req.until) {
    if (wheelAt) return { id: req.id, ok: true, steps: 0, scrolled: 0, container: formatElement(box, ''), wheelAt };
    const step = req.deltaY ?? Math.max(40, Math.round(viewportLength(box, axis) * SCROLL_FRACTION));
    await scrollOnce(box, axis, step);
    return { id: req.id, ok: true, steps: 1, scrolled: Math.round(position() - start), container: formatElement(box, '') };
  }

  const until = req.until;
  const maxSteps = Math.min(req.maxSteps ?? SCROLL_STEPS_DEFAULT, SCROLL_STEPS_MAX);
  const { step, clamped } = searchStep(box, axis, req.deltaY);
  // Partway down (or up, searching up) when it began: what it looks for may lie behind it.
  let turned = false;
  const behindPx = Math.round(room(box, axis, -Math.sign(step)));
  const canTurn = behindPx > 1;
  for (let steps = 0; ; steps++) {
    const found = evaluate(until).visible;
    if (found.length > 0) {
      const el = until.nth !== undefined ? found[until.nth] : found[0];
      if (el && (found.length === 1 || until.nth !== undefined)) {
        el.scrollIntoView({ block: 'center', inline: 'nearest' });
        return {
          id: req.id,
          ok: true,
          steps,
          scrolled: Math.round(position() - start),
          container: formatElement(box, ''),
          step: turned ? -step : step,
          ...(turned ? { turned } : {}),
          descriptor: { ...describe(el, { frame: until.frame }), handle: handles.handleOf(el) },
        };
      }
      if (found.length > 1) {
        throw new CommandFailure('ambiguous', `Scrolling found ${found.length} elements matching ${formatTarget(until)}; name one (nth, exact, within).`, { target: until, matches: found.length });
      }
    }
    if (wheelAt) {
      throw new CommandFailure('not-found', `${formatTarget(until)} is not there, and nothing on the page can scroll to it (no scrollable box in or around the target; the page fits its viewport): it may move on wheel input, which needs the debugging pipe.`, { target: until, steps, wheelAt });
    }
    const cut = clamped ? `, deltaY ${req.deltaY} cut to what it shows so that no row is stepped over` : '';
    const where = `after ${steps} scroll step(s) of ${formatElement(box, '')} (${Math.abs(step)} px each${cut}; ${Math.round(position() - start)} px${axis === 'x' ? ' sideways' : ''}${turned ? ' net, having reached its end and turned back past where it began' : ''})`;
    // A long list's end is out of reach before the search could turn: what it looks for may lie behind where it began.
    const behind = canTurn && !turned ? ` It began ${behindPx} px from the ${step > 0 ? 'start' : 'end'} and did not reach the end to turn back: if the target lies behind where it began, search the other way (a ${step > 0 ? 'negative' : 'positive'} deltaY).` : '';
    if (steps >= maxSteps) {
      throw new CommandFailure('not-found', `${formatTarget(until)} did not appear ${where}: maxSteps (${maxSteps}) reached. Raise maxSteps or scroll a list that holds it.${behind}`, { target: until, steps, ...(turned ? { turned } : {}) });
    }
    if (performance.now() >= deadline) {
      throw new CommandFailure('timeout', `${formatTarget(until)} did not appear ${where} within ${timeoutMs} ms.${behind}`, { target: until, steps, ...(turned ? { turned } : {}) });
    }
    if (await scrollOnce(box, axis, turned ? -step : step)) continue;
    if (await grows(box, axis, until, Math.min(END_WAIT_MS, deadline - performance.now()))) continue;
    if (!turned && canTurn) {
      // The end, from partway: search the other way, from one step behind where it began (the
      // rows from there to the end were seen), as a person who did not find it looks back up.
      turned = true;
      box.scrollTo(axis === 'y' ? { top: start, behavior: 'instant' } : { left: start, behavior: 'instant' });
      if (await scrollOnce(box, axis, -step)) continue;
    }
    const ends = turned ? 'both its ends (it reached the end it went to, then turned back from where it began)' : 'its end';
    throw new CommandFailure('not-found', `${formatTarget(until)} is not in the list: ${where} it reached ${ends}.`, { target: until, steps, end: true, ...(turned ? { turned } : {}) });
  }
}

/**
 * The step of a search with `until`: `deltaY`, else most of what the container shows. Never more
 * than it shows: a virtual list renders only the rows in view (and a few more), so a longer step
 * jumps over rows it never draws, and the search would call a row that is there missing.
 * `clamped` when `deltaY` was cut.
 */
function searchStep(box: Element, axis: Axis, deltaY: number | undefined): { step: number; clamped: boolean } {
  const shows = viewportLength(box, axis);
  if (deltaY === undefined) return { step: Math.max(40, Math.round(shows * SEARCH_FRACTION)), clamped: false };
  if (Math.abs(deltaY) <= shows || shows <= 0) return { step: deltaY, clamped: false };
  return { step: Math.sign(deltaY) * shows, clamped: true };
}

/** How far the box can still scroll along `axis` in the `sign` direction (1: down or right). */
function room(box: Element, axis: Axis, sign: number): number {
  const at = scrollPosition(box, axis);
  const max = axis === 'y' ? box.scrollHeight - box.clientHeight : box.scrollWidth - box.clientWidth;
  // Right-to-left boxes scroll sideways from 0 down to -max.
  const low = axis === 'x' && at < 0 ? -max : 0;
  return sign > 0 ? low + max - at : at - low;
}

/** Whether, within `ms`, the list at its end grew (it loaded more) or `until` appeared. */
async function grows(box: Element, axis: Axis, until: RequestOf<'scroll'>['until'] & object, ms: number): Promise<boolean> {
  const length = (): number => (axis === 'y' ? box.scrollHeight : box.scrollWidth);
  const before = length();
  const end = performance.now() + ms;
  const more = (): boolean => length() > before || evaluate(until).visible.length > 0;
  while (!more()) {
    if (performance.now() >= end) return false;
    await rendered();
  }
  return true;
}

/** Scrolls once and waits for the page to render what came in; false when it could not move. */
async function scrollOnce(box: Element, axis: Axis, delta: number): Promise<boolean> {
  const before = scrollPosition(box, axis);
  box.scrollBy(axis === 'y' ? { top: delta, behavior: 'instant' } : { left: delta, behavior: 'instant' });
  if (scrollPosition(box, axis) === before) return false;
  await rendered();
  return true;
}

/** Two animation frames (the scroll event ran and the page rendered), or a timer in a hidden tab. */
function rendered(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, RENDER_WAIT_MS);
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        clearTimeout(timer);
        setTimeout(resolve, 0);
      }),
    );
  });
}

/**
 * The box to scroll for `el`, the one a person would wheel: itself when it scrolls (only sideways:
 * a carousel, a board named as the target); else a box inside it that scrolls down and fills
 * much of it (a grid whose body scrolls under its header: AG Grid's viewport inside the
 * treegrid), the largest; else its nearest ancestor that scrolls down; only when none does (the
 * page neither), the nearest that scrolls sideways, else any box inside it that scrolls, the
 * largest. A wide table's sideways wrapper on a page that scrolls down is not taken for the list.
 */
function scrollableOf(el: Element): Element | undefined {
  if (el !== document.scrollingElement && (scrollsAlong(el, 'y') || scrollsAlong(el, 'x'))) return el;
  const inside = el === document.scrollingElement ? undefined : largestInside(el);
  if (inside?.axis === 'y' && inside.area >= area(el) * FILLS) return inside.box;
  let across: Element | undefined;
  for (let n: Element | null = el; n; n = composedParent(n)) {
    if (scrollsAlong(n, 'y')) return n;
    if (!across && n !== document.scrollingElement && scrollsAlong(n, 'x')) across = n;
  }
  return across ?? inside?.box;
}

// A box inside the target that fills this much of it is the one a wheel over the target moves.
const FILLS = 0.5;

/** The largest box inside `el` that scrolls, one that scrolls down before one that scrolls only sideways. */
function largestInside(el: Element): { box: Element; axis: Axis; area: number } | undefined {
  let best: { box: Element; axis: Axis; area: number } | undefined;
  walkElements(el, (n) => {
    // Overflow first: it is cheap beside the style, and most elements do not overflow.
    if (n.scrollHeight <= n.clientHeight && n.scrollWidth <= n.clientWidth) return;
    const axis: Axis | undefined = scrollsAlong(n, 'y') ? 'y' : scrollsAlong(n, 'x') ? 'x' : undefined;
    if (!axis) return;
    const a = area(n);
    if (!best || (axis === 'y' && best.axis === 'x') || (axis === best.axis && a > best.area)) best = { box: n, axis, area: a };
  });
  return best;
}

/** The area of an element's box, in CSS px. */
function area(el: Element): number {
  const r = el.getBoundingClientRect();
  return r.width * r.height;
}

function scrollableAtMiddle(): Element | undefined {
  const hit = deepElementFromPoint(innerWidth / 2, innerHeight / 2);
  return hit ? scrollableOf(hit) : undefined;
}

/** Down (`y`) or across (`x`). */
type Axis = 'x' | 'y';

/** Whether a box can scroll along `axis`: it overflows that way, and (unless it is the page) its style lets it. */
function scrollsAlong(el: Element, axis: Axis): boolean {
  const overflows = axis === 'y' ? el.scrollHeight > el.clientHeight : el.scrollWidth > el.clientWidth;
  if (el === document.scrollingElement) return overflows;
  const style = styleOf(el);
  const overflow = axis === 'y' ? style.overflowY : style.overflowX;
  return (overflow === 'auto' || overflow === 'scroll' || overflow === 'overlay') && overflows;
}

/** The middle of the element (or of the viewport), in the top viewport's CSS pixels: where a wheel goes. */
function middleOf(el: Element | undefined): { x: number; y: number } {
  if (!el) return { x: Math.round(innerWidth / 2), y: Math.round(innerHeight / 2) };
  const r = topViewportRect(el);
  return { x: Math.round(r.x + r.width / 2), y: Math.round(r.y + r.height / 2) };
}

/** How far the box is scrolled along `axis`. */
function scrollPosition(box: Element, axis: Axis): number {
  return axis === 'y' ? box.scrollTop : box.scrollLeft;
}

/** How much of the box shows along `axis`: a step is most of it. */
function viewportLength(box: Element, axis: Axis): number {
  if (box === document.scrollingElement) return axis === 'y' ? innerHeight : innerWidth;
  return axis === 'y' ? box.clientHeight : box.clientWidth;
}
