import { GUARD_VERDICT_BINDING, type AnswerOf, type GuardState, type GuardVerdict, type RequestOf } from '../../sdk/protocol/index.js';
import { shadowRootOf, windowOf } from './dom/nodes.js';
import { composedContains, deepActiveElement, flatContains, hasFocus, retargetedHost } from './dom/query.js';
import { xpathOf } from './dom/xpath.js';
import { formatElement } from './explain.js';
import { elementFromDescriptor } from './fromDescriptor.js';
import { enterFrames } from './frames.js';
import { earsOf, KEY_EVENTS, POINTER_EVENTS, type Ears } from './guardTap.js';
import { pointerReceiver } from './locate.js';

// The runner's trusted input arrives over the debugging pipe at a point or at the focused
// element; the page decides what is there when it arrives. While the runner dispatches, this
// guard sits in the capture phase on the element's window, ahead of the page's listeners there
// (guardTap.ts): an event that would reach another element (an overlay shown on the first
// mousemove, a field the page moved the focus to) is stopped there, before the page's own
// listeners on the way see it, and remembered, so the step fails (or retries) instead of
// reporting input that went elsewhere.
//
// What it can stop: pointerdown/up, mousedown/up, click, dblclick, auxclick, contextmenu, drop, and
// keydown/keypress/beforeinput (their default actions too: preventDefault on keypress and
// beforeinput keeps the text out of the other field). What it cannot: mousemove/mouseover (they
// must reach the page for hover to work), text the browser inserts after a beforeinput that the
// element itself received (its input event elsewhere is remembered, so the step fails), and,
// where its listeners came late (guardTap.ts), what the page's listeners on the window's capture
// phase stop first.

const PRESS_EVENTS = ['pointerdown', 'mousedown'];
/** The end of a drag: the release over the target, or the drop of an HTML5 drag. */
const RELEASE_EVENTS = ['pointerup', 'mouseup', 'drop'];
/** The events a press and release on one element end with: the browser sends neither when the element left the page in between. */
const CLICK_EVENTS = ['click', 'auxclick'];
/** Keys held for others: their keydowns are no key strokes of the text. */
const MODIFIERS = ['Shift', 'Control', 'Alt', 'Meta'];
/** The document starts to leave (a navigation away), or leaves (it committed, or its frame went). */
const LEAVE_EVENTS = ['beforeunload', 'pagehide'];
/** An armed guard the runner stopped asking about (it died, the pipe broke) goes away by itself. */
const ARMED_MS = 30_000;

type Seen = { element: string; xpath?: string };

type Mode = RequestOf<'guard'>['mode'] & string;

/** A `resolve` request's `verdict`: the event that ends the dispatch, and the step's token. */
type VerdictAsk = NonNullable<RequestOf<'resolve'>['verdict']>;

interface Armed {
  element: Element;
  mode: Mode;
  /** `drag`: where the release must land (the source, dragged along, may be under it too). */
  to?: Element;
  /** `drag`: the release of this dispatch reached the target. */
  released?: boolean;
  win: Window;
  intercepted?: Seen & { event: string };
  focusTakenBy?: Seen;
  /** A pointerdown or mousedown of this dispatch reached the element. */
  pressed?: boolean;
  /** A key event of this dispatch reached the element: the click it makes (Enter submitting the form) is its own. */
  keyed?: boolean;
  /** The keydown of the key stroke going on now reached the element. */
  stroke?: boolean;
  /** How many key strokes (keydowns of other keys than modifiers) reached the element. */
  keys: number;
  /** The document began to leave, after this many key strokes (see GuardState.leaving). */
  leaving?: { keys: number };
  /** A mousemove of this dispatch reached the element (it is never stopped: hover must work). */
  hovered?: boolean;
  /** The release after the press reached a new copy of the element the page drew in its place. */
  replacedBy?: Seen;
  /** Watches, from the press on, whether the page takes the element out of its tree. */
  removals?: MutationObserver;
  /** The page took the element out after the press (and put it back: the release reached it). */
  removed?: boolean;
  /** A release after the press reached the element itself. */
  releasedOn?: boolean;
  /** A click (or auxclick) of this dispatch reached the element. */
  clicked?: boolean;
  /** Report what was seen, and disarm, when this trusted event reaches the window. */
  verdict?: VerdictAsk;
  timer: ReturnType<typeof setTimeout>;
  /** The window's capture-phase listeners, which pass its events to `hear` while armed. */
  ears: Ears;
  hear: (event: Event) => void;
  onLeave: () => void;
}

let armed: Armed | undefined;
/**
 * What the guard saw when it reported its verdict and disarmed itself: a `check` or `disarm`
 * after it (the runner's, when the verdict had not reached it by the input's acknowledgement)
 * answers the same. Forgotten at the next arm, or once a `disarm` has answered it.
 */
let reported: GuardState | undefined;

/** `guard`: arm, check or disarm the hit-target guard of this document. */
export async function guard(req: RequestOf<'guard'>): Promise<AnswerOf<'guard'>> {
  // Every op goes to the document the element is in: its frame path is walked first, so a
  // cross-site frame on the way is a frame hop and the worker takes check and disarm on to that
  // frame's own content script, where arm put the guard (not this document's, never armed).
  if (req.op !== 'arm' && req.descriptor?.frame !== undefined) enterFrames(req.descriptor.frame);
  if (req.op === 'arm') {
    disarm();
    reported = undefined;
    // Armed on what the input reaches: the element, or what holds one clicked through.
    arm(pointerReceiver(elementFromDescriptor(req.descriptor!)), req.mode!, req.to ? elementFromDescriptor(req.to) : undefined, undefined);
  } else if (armed) {
    clearTimeout(armed.timer);
    armed.timer = setTimeout(disarm, ARMED_MS);
  }
  const answer = { id: req.id, ok: true as const, ...(armed || !reported ? state() : reported) };
  if (req.op === 'disarm') {
    disarm();
    reported = undefined;
  }
  return answer;
}

/**
 * Arms the guard on `element` (a `resolve` with `guard` does, once the element is ready) and says
 * what it sees. With `verdict`, it reports and disarms itself when that event arrives.
 */
export function armOn(element: Element, mode: 'pointer' | 'input', verdict?: VerdictAsk): GuardState {
  disarm();
  reported = undefined;
  arm(element, mode, undefined, verdict);
  return state();
}

/**
 * The dispatch's last event has reached the window, and the guard has judged it: what it saw
 * goes to the runner at once, one way (the runner need not ask with a `disarm`), and the guard
 * disarms, so no later input is watched by it. Where the binding is missing (the worker's
 * path in attach mode) the runner asks as before, and gets the same state.
 */
function report(verdict: VerdictAsk): void {
  const seenNow = state();
  disarm();
  reported = seenNow;
  const binding = (globalThis as Record<string, unknown>)[GUARD_VERDICT_BINDING];
  const payload: GuardVerdict = { token: verdict.token, state: seenNow };
  if (typeof binding === 'function') (binding as (json: string) => void)(JSON.stringify(payload));
}

function arm(element: Element, mode: Mode, to: Element | undefined, verdict: VerdictAsk | undefined): void {
  const win = windowOf(element);
  const listener = (event: Event): void => {
    const current = armed;
    // Only trusted events are the runner's (or a person's): what the page's own script
    // dispatches (el.click() in a handler) is the page's business.
    if (!current || !event.isTrusted) return;
    judge(current, event);
    if (current.verdict?.on === event.type) report(current.verdict);
  };
  const judge = (current: Armed, event: Event): void => {
    const keyish = (KEY_EVENTS as readonly string[]).includes(event.type);
    if (keyish && current.mode !== 'input') return;
    const target = targetOf(event, keyish);
    // The click a key makes (Enter in a field clicks its form's submit button, Space a checkbox) has no pointer: detail 0.
    const keyClick = event.type === 'click' && (event as MouseEvent).detail === 0 && current.keyed === true;
    if (keyClick || (current.mode === 'drag' ? dragPasses(current, event.type, target ?? null) : pointerPasses(current, event, target ?? null, keyish))) return;
    event.stopImmediatePropagation();
    if (event.cancelable) event.preventDefault();
    current.intercepted ??= { event: event.type, ...seen(target) };
  };
  const onFocusOut = (event: Event): void => {
    const current = armed;
    if (!current || !composedContains(current.element, event.target as Node)) return;
    const next = (event as FocusEvent).relatedTarget as Element | null;
    if (next && reaches(current.element, next)) return;
    // The element that takes the focus is known only once it has it.
    queueMicrotask(() => {
      if (armed === current && !hasFocus(current.element)) current.focusTakenBy ??= seen(next ?? deepActiveElement(current.element.ownerDocument));
    });
  };
  // Text the browser inserted into another element (after a beforeinput the element itself got)
  // cannot be stopped any more; it is remembered so the step fails.
  const onInput = (event: Event): void => {
    const current = armed;
    if (!current || current.mode !== 'input' || !event.isTrusted) return;
    const target = targetOf(event, true);
    if (!reaches(current.element, target)) current.intercepted ??= { event: 'input', ...seen(target) };
    if (current.verdict?.on === 'input') report(current.verdict);
  };
  // Where the browser sends a move says where it sends a press at the same point: the runner aims
  // into a cross-site frame with moves until one arrives (the frame may be drawn late).
  const onMove = (event: Event): void => {
    const current = armed;
    if (!current || !event.isTrusted) return;
    const target = (event.composedPath()[0] as Element | undefined) ?? null;
    if (reaches(current.element, target) || retargetedHost(current.element, target)) current.hovered = true;
  };
  // Keys sent after the document began to leave go to a page on its way out (or to the next one):
  // the runner asks before the last key of typed text, and fails the step instead of calling it
  // typed. beforeunload is heard as a navigation away starts; pagehide when it commits, or the
  // frame is removed.
  const onLeave = (): void => {
    const current = armed;
    if (current) current.leaving ??= { keys: current.keys };
  };
  const judged = new Set<string>(eventsOf(mode));
  const hear = (event: Event): void => {
    const type = event.type;
    if (judged.has(type)) listener(event);
    else if (type === 'mousemove') onMove(event);
    // Where the focus goes and what text arrives is only judged in `input` mode.
    else if (mode === 'input' && type === 'focusout') onFocusOut(event);
    else if (mode === 'input' && type === 'input') onInput(event);
  };
  const ears = earsOf(win);
  ears.hear = hear;
  if (mode === 'input') for (const type of LEAVE_EVENTS) win.addEventListener(type, onLeave);
  armed = { element, mode, keys: 0, ...(to ? { to } : {}), ...(verdict ? { verdict } : {}), win, ears, hear, onLeave, timer: setTimeout(disarm, ARMED_MS) };
}

/** `pointer` and `input`: the event reaches the element, or follows a press that did. */
function pointerPasses(current: Armed, event: Event, target: Element | null, keyish: boolean): boolean {
  const type = event.type;
  if (reaches(current.element, target) || retargetedHost(current.element, target)) {
    if (PRESS_EVENTS.includes(type)) {
      current.pressed = true;
      current.removals ??= watchRemovals(current);
    }
    // A click on it means the browser pressed and released on it: a press the guard did not see
    // was stopped by a listener the page put on the window's capture phase before it.
    if (CLICK_EVENTS.includes(type)) current.clicked = current.pressed = true;
    if (current.pressed === true && RELEASE_EVENTS.includes(type)) current.releasedOn = true;
    if (keyish) current.keyed = true;
    if (type === 'keydown') {
      current.stroke = true;
      if (!MODIFIERS.includes((event as KeyboardEvent).key)) current.keys++;
    }
    return true;
  }
  if (type === 'keydown') current.stroke = false;
  // The keydown reached the element and the page took the element out in answer (an inline
  // editor's Enter commits and removes its field): the rest of that key stroke follows the focus,
  // as a release follows its press. The page handled the key; text it would insert elsewhere is
  // still seen as `input` and fails the step.
  if (keyish && current.stroke === true && !current.element.isConnected) return true;
  // The press reached the element: what follows of the same gesture (release, click, a context
  // menu's events) lands where the page's answer to that press put things, which is not input
  // gone elsewhere. Except a re-render between press and release: the release reaches the new
  // copy, so the click goes to an ancestor of both and no click handler of either runs.
  if (current.pressed === true && !keyish && RELEASE_EVENTS.includes(type) && !current.element.isConnected) {
    const copy = copyOf(current.element, target);
    if (copy) current.replacedBy ??= seen(copy);
  }
  return current.pressed === true && !keyish;
}

/**
 * From the press on, notes when the page takes the element (or what holds it) out of its tree. A
 * list that re-renders from nodes it keeps puts the same element back before the release: the
 * release reaches it, yet the browser sends no click, the element having left the page since the
 * press. Records are read as they come, so none is lost to the observer's own delivery.
 */
function watchRemovals(current: Armed): MutationObserver {
  const element = current.element;
  const observer = new MutationObserver((records) => noteRemovals(current, records));
  const roots = new Set<Node>([element.getRootNode(), element.ownerDocument]);
  for (const root of roots) observer.observe(root, { childList: true, subtree: true });
  return observer;
}

function noteRemovals(current: Armed, records: MutationRecord[]): void {
  for (const record of records) for (const node of record.removedNodes) if (node === current.element || composedContains(node, current.element)) current.removed = true;
}

/**
 * The element at or around `target` that looks just like `gone` (the same tag, classes, text and
 * aria-label). Not the next item of a list that moved up into its place: Choices.js removes a
 * tag on the press of its "Remove item: Red" button, and "Remove item: Green" gets the release.
 */
function copyOf(gone: Element, target: Element | null): Element | undefined {
  const looks = formatElement(gone);
  const label = gone.getAttribute('aria-label');
  for (let el = target; el; el = el.parentElement) if (el.localName === gone.localName && formatElement(el) === looks && el.getAttribute('aria-label') === label) return el;
  return undefined;
}

/**
 * `drag`: the press must reach the source and the release (or an HTML5 drag's drop) the target,
 * or the source the page drags along under the pointer; what follows a release that did (the
 * click) is the page's. Nothing of a gesture whose press was stopped reaches the page.
 */
function dragPasses(current: Armed, type: string, target: Element | null): boolean {
  const onSource = reaches(current.element, target) || retargetedHost(current.element, target);
  if (PRESS_EVENTS.includes(type)) {
    if (current.pressed) return true;
    if (onSource) current.pressed = true;
    return onSource;
  }
  if (current.released) return true;
  if (!current.pressed) return false;
  if (!RELEASE_EVENTS.includes(type)) return false;
  const to = current.to!;
  if (onSource || reaches(to, target) || retargetedHost(to, target) || inListOf(to, target)) {
    current.released = true;
    return true;
  }
  return false;
}

/**
 * A release in the drop target's own list: on the element that holds it, or on another item of
 * it. Sortable lists move their items out of the dragged one's way, so the pointer over a target
 * item is over the list or a neighbour when it lets go, and the list places the drop by where
 * the pointer is. Never the page's body: that holds everything.
 */
function inListOf(to: Element, target: Element | null): boolean {
  if (!target || target === document.body || target === document.documentElement) return false;
  if (flatContains(target, to)) return true;
  const list = to.parentElement;
  return list !== null && list !== document.body && flatContains(list, target);
}

/** The events the guard's main listener judges in a mode: key events only where they are input. */
function eventsOf(mode: Mode): readonly string[] {
  return mode === 'input' ? [...POINTER_EVENTS, ...KEY_EVENTS] : POINTER_EVENTS;
}

function disarm(): void {
  const current = armed;
  if (!current) return;
  armed = undefined;
  clearTimeout(current.timer);
  current.removals?.disconnect();
  if (current.ears.hear === current.hear) delete current.ears.hear;
  if (current.mode === 'input') for (const type of LEAVE_EVENTS) current.win.removeEventListener(type, current.onLeave);
}

function state(): GuardState {
  const current = armed;
  if (!current) return { armed: false, focused: false };
  const focused = hasFocus(current.element);
  return {
    armed: true,
    focused,
    pressed: current.pressed === true,
    hovered: current.hovered === true,
    ...(current.replacedBy ? { replacedBy: current.replacedBy } : {}),
    ...(!current.replacedBy && clickLost(current) ? { takenOut: seen(current.element) } : {}),
    ...(current.intercepted ? { intercepted: current.intercepted } : {}),
    ...(current.focusTakenBy ? { focusTakenBy: current.focusTakenBy } : {}),
    ...(current.leaving ? { leaving: current.leaving } : {}),
  };
}

/**
 * The press and the release reached the element, but the page took it out in between and no
 * click followed: the browser sends none to an element that left the page since its press.
 */
function clickLost(current: Armed): boolean {
  if (current.removals) noteRemovals(current, current.removals.takeRecords());
  return current.removed === true && current.releasedOn === true && current.clicked !== true && current.element.isConnected;
}

/**
 * The element an event reached. A window listener sees an event inside a closed shadow root
 * retargeted to its host; keys and text go to the focused element, which the extension sees
 * through closed roots, so for them the host gives way to the focused element inside it.
 */
function targetOf(event: Event, toFocused: boolean): Element | null {
  const first = (event.composedPath()[0] as Element | undefined) ?? (event.target as Element | null) ?? null;
  if (!toFocused || !first || typeof first.localName !== 'string' || first.shadowRoot || !shadowRootOf(first)) return first;
  const active = deepActiveElement(first.ownerDocument);
  return active && composedContains(first, active) ? active : first;
}

/** The event reaches the element: it is the element, inside it, or the label of it (a click on a label reaches its control). */
function reaches(element: Element, target: Element | null): boolean {
  if (!target) return false;
  if (target === element || flatContains(element, target)) return true;
  const label = typeof target.closest === 'function' ? (target.closest('label') as HTMLLabelElement | null) : null;
  if (label?.control === element) return true;
  // The click a label passes on to its control, when the element is the label.
  const labels = (target as HTMLInputElement).labels;
  return labels ? Array.from(labels).some((l) => l === element || composedContains(element, l)) : false;
}

function seen(el: Element | null): Seen {
  if (!el || typeof el.localName !== 'string') return { element: 'nothing (the page itself)' };
  return { element: formatElement(el), xpath: xpathOf(el) };
}
