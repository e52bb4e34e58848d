import { type AnswerOf, CommandFailure, DEFAULT_TIMEOUT_MS, type Point, type PREPARE_KINDS, type Reason, type Rect, type RequestOf } from '../../sdk/protocol/index.js';
import { sameRect, topViewportRect } from './dom/geometry.js';
import { windowOf } from './dom/nodes.js';
import { composedContains, deepActiveElement, deepElementFromPoint, flatContains, hasFocus, retargetedHost } from './dom/query.js';
import { checkableOf, checkState, disabledBy, isEditable, takesValue } from './dom/state.js';
import { cut, pageText } from './dom/text.js';
import { isRendered, whyHidden } from './dom/visibility.js';
import { xpathOf } from './dom/xpath.js';
import { formatElement, hoverHint } from './explain.js';
import { focusFor, selectContents } from './input/keyboard.js';
import { elementFromDescriptor } from './fromDescriptor.js';

import { activity, done, nextFrame, pending, settle, type Step } from './settle.js';

/** Where to act on an element, in the top viewport's CSS pixels. */
export interface ActionPoint {
  x: number;
  y: number;
  rect: Rect;
  /** The element at the point (the element itself or one inside it). */
  hit: Element;
  /** The element pointer input reaches in the element's place: itself, or what holds an element that takes no pointer events. */
  receiver: Element;
}

interface Problem {
  reason: Reason;
  message: string;
  detail?: Record<string, unknown>;
}

export interface Actionability {
  /** The element must not be disabled. */
  enabled: boolean;
  /** The middle of the element must hit the element itself (nothing covering it). */
  hitTest: boolean;
  /** The box must stay put across an animation frame (pointer input aims at it). Default true. */
  stable?: boolean;
  /** With `stable`: a page that has been still (see `still`) counts as stable without waiting a frame. */
  trustStill?: boolean;
}

const POINTER: Actionability = { enabled: true, hitTest: true, stable: true };

/**
 * Waits until an element can take input like a person would give it: scrolled into view if it
 * is not wholly in the window (to the centre, instantly), rendered, enabled, (with `stable`) not
 * moving across an animation frame, and (with `hitTest`) its centre not covered by another
 * element. Throws what still failed at the deadline.
 */
export async function waitActionable(el: Element, timeoutMs: number, need: Actionability): Promise<ActionPoint & { scrolled: boolean }> {
  let looks = 0;
  let scrolled = false;
  const step = await settle<ActionPoint, Problem>(() => {
    // Scrolled only if needed, as Playwright does: an element wholly in the window stays where it
    // is at the first look (a scroll would close popovers that close on scroll, react-aria's, and
    // move the other end of a drag). One that was not ready there (covered by a sticky header,
    // clipped by a scrolling box) is brought to the middle at the next.
    // Waiting for a fresh element is no look: the look after it must not scroll what is in view.
    const fresh = need.hitTest ? tooFresh(el) : undefined;
    if (fresh) return fresh;
    const center = looks++ > 0 || !inView(el);
    return checkActionable(el, need, center, () => (scrolled = true));
  }, timeoutMs);
  if (step.done) return { ...step.value, scrolled };
  const hint = step.last.reason === 'not-visible' && el.isConnected && !isRendered(el) ? hoverHint(el) : '';
  throw new CommandFailure(step.last.reason, `${step.last.message} (waited ${timeoutMs} ms).${hint}`, step.last.detail);
}

async function checkActionable(el: Element, need: Actionability, center: boolean, onScroll: () => void): Promise<Step<ActionPoint, Problem>> {
  assertConnected(el);
  const unscrolled = topViewportRect(el);
  if (center) el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  // Two boxes a frame apart (below): CSS animations advance, and rAF-driven scripts run, once per
  // frame, so a moving element shows a different box in the next frame's callback.
  const before = topViewportRect(el);
  if (!sameRect(unscrolled, before)) onScroll();
  const name = formatElement(el);
  if (!isRendered(el)) {
    return pending({ reason: 'not-visible', message: `${name} is not visible: ${whyHidden(el)}`, detail: { why: whyHidden(el) } });
  }
  const disabled = need.enabled ? disabledBy(el) : undefined;
  if (disabled) return pending({ reason: 'not-enabled', message: `${name} is not enabled: ${disabled}`, detail: { why: disabled } });

  const stable = need.stable ?? true;
  // A running CSS or Web animation on the element or around it is compared across two frames
  // (one frame apart, Chromium may show the same animation time twice); with `trustStill`, a
  // page that has been still (see `still`) is not waited on; otherwise one frame.
  const moving = stable && animated(el);
  const frames = !stable ? 0 : moving ? 2 : need.trustStill && still(el, unscrolled, before) ? 0 : 1;
  const timeline = el.ownerDocument.timeline;
  const startedAt = timeline.currentTime;
  for (let i = 0; i < frames; i++) await nextFrame(windowOf(el));
  // An animation moves its element only as the document's time goes on; frames that all showed
  // the time they started at (a busy machine) compared nothing, so a few more are waited for.
  for (let extra = 0; moving && startedAt !== null && timeline.currentTime === startedAt && extra < MORE_FRAMES; extra++) await nextFrame(windowOf(el));
  if (frames > 0) assertConnected(el);
  const rect = stable ? topViewportRect(el) : before;
  if (!sameRect(before, rect)) {
    return pending({ reason: 'timeout', message: `${name} kept moving (its box changed between animation frames); wait for the animation to end`, detail: { rect } });
  }
  const x = round(rect.x + rect.width / 2);
  const y = round(rect.y + rect.height / 2);
  if (!need.hitTest) return done({ x, y, rect, hit: el, receiver: el });

  if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) {
    return pending({ reason: 'not-visible', message: `${name} could not be scrolled into view: its middle (${x}, ${y}) is outside the window`, detail: { x, y, rect } });
  }
  const hit = deepElementFromPoint(x, y);
  if (hit && (hit === el || flatContains(el, hit) || labelOf(hit) === el || retargetedHost(el, hit))) return done({ x, y, rect, hit, receiver: el });
  if (hit && clickedThrough(el, hit)) return done({ x, y, rect, hit, receiver: hit });
  const coveredBy = hit ? { tag: hit.localName, ...(hit.id ? { id: hit.id } : {}), ...textOf(hit), xpath: xpathOf(hit) } : undefined;
  return pending({
    reason: 'not-visible',
    message: hit
      ? `${name} is covered by ${formatElement(hit)} at its middle (${x}, ${y}); close or wait for the covering element`
      : `${name} is not hit at its middle (${x}, ${y})`,
    detail: { x, y, rect, ...(coveredBy ? { coveredBy } : {}) },
  });
}

/** An element of the top document whose whole box lies inside the window. */
function inView(el: Element): boolean {
  if (el.ownerDocument !== document || window.top !== window) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0 && r.right <= window.innerWidth && r.bottom <= window.innerHeight;
}

/**
 * How long the top document must have been still for its boxes to count as not moving: over two
 * frames at 60 Hz, so something moved once a frame (a rAF-driven script changes the DOM to move
 * an element) has shown up in that time.
 */
const STILL_MS = 50;

/**
 * Whether an element's box cannot be moving now, without waiting a frame to see: it is in the top
 * document, which has loaded, with no font loading, no animation running anywhere in it, this
 * check did not scroll it, and nothing changed the DOM, scrolled, resized or loaded for
 * {@link STILL_MS}. What moves a box without any of that (a script editing a style sheet's rules
 * once a frame) is still caught when the input goes: the hit-target guard stops input that would
 * reach anything else, and the step tries once more after `locate`, which always waits a frame.
 */
function still(el: Element, unscrolled: Rect, scrolledTo: Rect): boolean {
  const doc = el.ownerDocument;
  if (doc !== document || window.top !== window || doc.readyState !== 'complete') return false;
  if (doc.fonts?.status === 'loading' || !sameRect(unscrolled, scrolledTo)) return false;
  if (activity.stillMs() < STILL_MS) return false;
  return !doc.getAnimations().some((a) => a.playState === 'running');
}

/**
 * How long an element must have been on the page before pointer input goes to it: a page wires up
 * what it has just inserted within a frame or two (htmx processes swapped-in content as it
 * settles, 20 ms later), so a click that came sooner reached an element that did nothing with it.
 * A person cannot click something that appeared less than this ago either.
 */
const FRESH_MS = 50;

/** Pending until {@link FRESH_MS} after the element (or what holds it) was added to the page. */
function tooFresh(el: Element): Step<ActionPoint, Problem> | undefined {
  const age = activity.addedMsAgo(el);
  if (age === undefined || age >= FRESH_MS) return undefined;
  const message = `${formatElement(el)} was added to the page ${Math.round(age)} ms before, again and again (the page keeps drawing it anew); wait for the page to settle`;
  return pending({ reason: 'timeout', message, detail: { addedMsAgo: Math.round(age) } }, Math.ceil(FRESH_MS - age));
}

/** At most this many more frames are waited for an animation's time to move on. */
const MORE_FRAMES = 3;

function animated(el: Element): boolean {
  return el.ownerDocument.getAnimations().some((a) => {
    const target = a.playState === 'running' && a.effect instanceof KeyframeEffect ? a.effect.target : null;
    return target !== null && composedContains(target, el);
  });
}

/**
 * An element that takes no pointer events (Vuetify's select input, under `pointer-events: none`)
 * is clicked through to what holds it, as a person's click there is: Playwright refuses it as
 * covered by its holder.
 */
function clickedThrough(el: Element, hit: Element): boolean {
  return flatContains(hit, el) && getComputedStyle(el).pointerEvents === 'none';
}

/** What pointer input aimed at an element's middle reaches in its place (see {@link clickedThrough}): the element, or its holder. */
export function pointerReceiver(el: Element): Element {
  if (getComputedStyle(el).pointerEvents !== 'none') return el;
  const r = topViewportRect(el);
  const hit = deepElementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return hit && clickedThrough(el, hit) ? hit : el;
}

// A click on a control's <label> reaches the control: a custom checkbox is often drawn by its label.
function labelOf(hit: Element): Element | null {
  const label = hit.closest('label') as HTMLLabelElement | null;
  return label?.control ?? null;
}

function textOf(el: Element): { text?: string } {
  const t = cut(pageText(el), 80);
  return t ? { text: t } : {};
}

function assertConnected(el: Element): void {
  if (!el.isConnected) {
    throw new CommandFailure('not-found', `${formatElement(el)} was removed from the page while aite waited for it; resolve again.`, { stale: 'removed' });
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/** `locate`: where the runner should click, after the checks a real click needs. */
export async function locate(req: RequestOf<'locate'>): Promise<AnswerOf<'locate'>> {
  const el = elementFromDescriptor(req.descriptor);
  return { id: req.id, ok: true, ...(await prepare(el, 'click', req.timeoutMs ?? DEFAULT_TIMEOUT_MS)).point };
}

/**
 * Keys and text never become a file input's files (a person picks them in a file chooser), so
 * `type`, `fill` and `press` into one would answer Done with nothing done: refused, naming the
 * step that sets files.
 */
export function refuseFileInput(el: Element): void {
  if (el.localName !== 'input' || (el as HTMLInputElement).type !== 'file') return;
  throw new CommandFailure('unsupported', `${formatElement(el)} is a file input: typed text and keys do not set its files. To set them, use upload() (the upload step or tool).`, {
    tag: el.localName,
    type: 'file',
  });
}

/** `fill` on an element that takes no text: what it needs, and the step that fits the element. */
export function notFillable(el: Element): CommandFailure {
  const kind = checkState(el)?.kind;
  const instead =
    el.localName === 'select' ? ' To pick one of its options, use select().' : kind ? ` To tick or clear a ${kind}, use check() or uncheck().` : '';
  return new CommandFailure('unsupported', `fill needs a text field, a textarea or a contenteditable that is not read-only; ${formatElement(el)} is not one.${instead}`, {
    tag: el.localName,
  });
}

/**
 * Whether keys sent now would reach `el` (or what it holds): its document has the focus, and
 * its focused element is it, not the body a document with nothing focused answers (an editor's
 * iframe before anyone clicked in it), unless the body itself is what is edited.
 */
function hasKeys(el: Element): boolean {
  const doc = el.ownerDocument;
  if (!doc.hasFocus() || !hasFocus(el)) return false;
  return deepActiveElement(doc) !== doc.body || (doc.body as HTMLElement).isContentEditable;
}

/**
 * Gets an element ready for what a composed step will do with it (resolve's `prepare`, and
 * `locate`). `click`: the checks a real click needs. `fill`: visible, enabled and editable, then
 * focused with its text selected, so the runner's trusted text input replaces it (what a person
 * does with Ctrl+A before typing; no click, so no click handler runs, as in other tools' fill).
 * Answers the point and the element pointer input there reaches (the element, or its holder).
 */
export async function prepare(
  el: Element,
  how: (typeof PREPARE_KINDS)[number],
  timeoutMs: number,
  options: { trustStill?: boolean } = {},
): Promise<{ point: Point; receiver: Element }> {
  const p = await waitActionable(el, timeoutMs, how === 'click' ? { ...POINTER, trustStill: options.trustStill === true } : { enabled: true, hitTest: false, stable: false });
  const editable = isEditable(el);
  // Before `fill` and `focus` move it here.
  const focused = hasKeys(el);
  // A slider, date or colour input takes no typed text: fill sets its value (act), as Playwright's does.
  const setsValue = how === 'fill' && takesValue(el);
  if (how === 'fill' && !setsValue) {
    if (!editable) throw notFillable(el);
    selectContents(el as HTMLElement);
  }
  if (how === 'focus') focusFor(el);
  // A label names its checkbox as a person reads it (`check('Agree to terms')`): clicking the
  // label ticks the control, so its state is the label's, as Playwright's check follows it.
  const box = checkableOf(el);
  const check = box ? checkState(box) : undefined;
  const border = { left: (el as HTMLElement).clientLeft ?? 0, top: (el as HTMLElement).clientTop ?? 0 };
  const layout = typeof (el as HTMLElement).offsetWidth === 'number' ? { width: (el as HTMLElement).offsetWidth, height: (el as HTMLElement).offsetHeight } : undefined;
  const point: Point = {
    x: p.x,
    y: p.y,
    rect: p.rect,
    border,
    ...(layout ? { layout } : {}),
    tag: el.localName,
    editable,
    ...(check ? { kind: check.kind, checked: check.checked } : {}),
    ...(p.scrolled ? { scrolled: true } : {}),
    ...(focused ? { focused: true } : {}),
    ...(setsValue ? { setsValue: true } : {}),
  };
  return { point, receiver: p.receiver };
}
