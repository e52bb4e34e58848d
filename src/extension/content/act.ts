import { type AnswerOf, CommandFailure, DEFAULT_TIMEOUT_MS, type RequestOf } from '../../sdk/protocol/index.js';
import { topViewportRect } from './dom/geometry.js';
import { composedContains, deepElementFromPoint } from './dom/query.js';
import { checkableOf, checkState, isEditable, takesValue } from './dom/state.js';
import { formatElement, q } from './explain.js';
import { elementFromDescriptor } from './fromDescriptor.js';
import { drag } from './input/drag.js';
import { isFocusable } from './input/focus.js';
import { fillText, press, typeText, unknownKey } from './input/keyboard.js';
import { click, doubleClick, hover, type Aim } from './input/mouse.js';
import { selectOption } from './input/selectOption.js';
import { notFillable, refuseFileInput, waitActionable, type ActionPoint } from './locate.js';

type ActRequest = RequestOf<'act'>;
type Action = ActRequest['action'];

/** That an act reached the point of dispatching its input (see {@link lastActDispatched}). */
export interface ActDispatch {
  id: number;
  action: Action;
  /** Date.now() when dispatching began. */
  at: number;
}

const DISPATCH_MEMORY = 50;
const dispatched = new Map<number, ActDispatch>();

/**
 * Whether act `id` began dispatching its input in this document: recorded just before the
 * first event, so an act whose answer was lost can be reported as "may have happened" rather
 * than "did not happen". Only the last 50 acts are remembered; undefined means this document
 * never started dispatching that act (or it was forgotten, or the page has navigated since).
 */
export function lastActDispatched(id: number): ActDispatch | undefined {
  return dispatched.get(id);
}

/** Acts this document received, and acts the runner gave up on (see {@link actStatus}). */
const received = new Set<number>();
const fenced = new Set<number>();

function remember(set: Set<number>, id: number): void {
  set.add(id);
  if (set.size > DISPATCH_MEMORY) set.delete(set.values().next().value!);
}

function recordDispatch(id: number, action: Action): void {
  // Checked and recorded in one synchronous step: a status query cannot slip in between.
  if (fenced.has(id)) {
    throw new CommandFailure('internal', 'The runner lost the answer to this action and gave it up before its input was sent; nothing was done.');
  }
  dispatched.set(id, { id, action, at: Date.now() });
  if (dispatched.size > DISPATCH_MEMORY) dispatched.delete(dispatched.keys().next().value!);
}

/**
 * What became of act `id` in this document, for a runner that lost its answer: `true` when its
 * input began dispatching; `false` when this document received it but had not dispatched yet;
 * `"unknown"` when this document never saw it (it may have run in a page that has since gone).
 * Asking fences the act: from now on it fails instead of dispatching, so `false` stays true.
 */
export function actStatus(id: number): true | false | 'unknown' {
  if (dispatched.has(id)) return true;
  remember(fenced, id);
  return received.has(id) ? false : 'unknown';
}

function centre(el: Element): { x: number; y: number } {
  const r = topViewportRect(el);
  return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
}

function aimOf(p: ActionPoint): Aim {
  return { el: p.hit, x: p.x, y: p.y };
}

/**
 * `act`: the action as plain DOM events (only used when the runner has no CDP pipe). The
 * element is exactly the descriptor's (a stale handle fails; nothing is acted on elsewhere),
 * after the checks `locate` makes: pointer actions need the element's middle uncovered;
 * keyboard and select need it visible and enabled.
 */
export async function act(req: ActRequest): Promise<AnswerOf<'act'>> {
  const el = elementFromDescriptor(req.descriptor);
  const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = performance.now() + timeoutMs;
  // Whole ms: the time left is what a failure says it waited.
  const left = (): number => Math.max(0, Math.round(deadline - performance.now()));
  const go = (): void => recordDispatch(req.id, req.action);
  if (fenced.has(req.id)) go(); // a late delivery of an act the runner gave up on
  remember(received, req.id);

  switch (req.action) {
    case 'click': {
      const p = await waitActionable(el, timeoutMs, { enabled: true, hitTest: true });
      go();
      click(aimOf(p));
      break;
    }
    case 'doubleClick': {
      const p = await waitActionable(el, timeoutMs, { enabled: true, hitTest: true });
      go();
      doubleClick(aimOf(p));
      break;
    }
    case 'hover': {
      const p = await waitActionable(el, timeoutMs, { enabled: false, hitTest: true });
      go();
      hover(aimOf(p));
      break;
    }
    case 'type': {
      await waitActionable(el, timeoutMs, { enabled: true, hitTest: false });
      refuseFileInput(el);
      assertTypable(el);
      go();
      typeText(el, req.text ?? '');
      break;
    }
    case 'fill': {
      await waitActionable(el, timeoutMs, { enabled: true, hitTest: false, stable: false });
      refuseFileInput(el);
      if (!isEditable(el) && !takesValue(el)) throw notFillable(el);
      go();
      fillText(el, req.text ?? '');
      break;
    }
    case 'press': {
      const key = req.key ?? '';
      const bad = unknownKey(key);
      if (bad) throw new CommandFailure('unsupported', `press does not know the key ${q(bad)}; use a single character or a key name such as Enter, Tab, Escape, ArrowDown, Backspace (modifiers as "Shift+Tab").`, { key });
      await waitActionable(el, timeoutMs, { enabled: true, hitTest: false });
      refuseFileInput(el);
      go();
      press(el, key);
      break;
    }
    case 'check':
    case 'uncheck':
      await setChecked(req, el, req.action === 'check', timeoutMs, go);
      break;
    case 'drag': {
      const to = elementFromDescriptor(req.to!);
      const from = await waitActionable(el, timeoutMs, { enabled: true, hitTest: true });
      await waitActionable(to, left(), { enabled: false, hitTest: false });
      // Scrolling the target into view may have moved the source: aim at where both are now.
      const src = centre(el);
      const dst = centre(to);
      const under = deepElementFromPoint(dst.x, dst.y);
      go();
      drag({ el: from.hit, ...src }, { el: under && composedContains(to, under) ? under : to, ...dst });
      break;
    }
    case 'select': {
      const select = el.localName === 'select' ? el : el.localName === 'label' ? (el as HTMLLabelElement).control : null;
      if (!select || select.localName !== 'select') {
        throw new CommandFailure('unsupported', `select works on a <select> (or its label); ${formatElement(el)} is not one. For a custom list box, click it and then click the option.`, { tag: el.localName });
      }
      await waitActionable(select, timeoutMs, { enabled: true, hitTest: false });
      go();
      selectOption(select as HTMLSelectElement, req.option ?? '');
      break;
    }
  }
  return { id: req.id, ok: true };
}

/**
 * Keys need somewhere to go: an editable field, or at least a focusable element that handles
 * keys itself (a custom editor). A read-only field would silently swallow the text.
 */
function assertTypable(el: Element): void {
  if (isEditable(el)) return;
  if ((el as HTMLInputElement).readOnly) {
    throw new CommandFailure('not-enabled', `${formatElement(el)} is read-only; nothing can be typed into it.`, { why: 'read-only' });
  }
  if (!isFocusable(el)) {
    throw new CommandFailure('unsupported', `type needs a text field, a textarea, a contenteditable or another focusable element; ${formatElement(el)} is none of them.`, { tag: el.localName });
  }
}

/** check/uncheck: clicks only when the state differs, then requires the new state. */
async function setChecked(req: ActRequest, el: Element, want: boolean, timeoutMs: number, go: () => void): Promise<void> {
  const box = checkableOf(el);
  const state = box ? checkState(box) : undefined;
  if (!box || !state) {
    throw new CommandFailure('unsupported', `${req.action} works on a checkbox, radio or switch (or its label); ${formatElement(el)} is none of them.`, { tag: el.localName });
  }
  if (state.checked === want) return;
  if (!want && state.kind === 'radio') {
    throw new CommandFailure('unsupported', `A radio button cannot be unchecked by clicking it; check another option of its group instead.`, { tag: el.localName });
  }
  const p = await waitActionable(el, timeoutMs, { enabled: true, hitTest: true });
  if (checkState(box)!.checked === want) return; // the page changed it while aite waited
  go();
  click(aimOf(p));
  const after = checkState(box)!.checked;
  if (after !== want) {
    throw new CommandFailure(
      'mismatch',
      `Clicked ${formatElement(el)} once to ${req.action} it, but it is still ${after ? 'checked' : 'unchecked'} (the page may have prevented the change).`,
      { expected: want ? 'checked' : 'unchecked', found: after ? 'checked' : 'unchecked' },
    );
  }
}
