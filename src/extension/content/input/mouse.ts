import { inOwnViewport } from '../dom/geometry.js';
import { windowOf } from '../dom/nodes.js';
import { focusForClick } from './focus.js';

/** A point in the top viewport and the element under it. */
export interface Aim {
  el: Element;
  x: number;
  y: number;
}

type MouseType = 'mouseover' | 'mouseenter' | 'mousemove' | 'mousedown' | 'mouseup' | 'click' | 'dblclick' | 'mouseout' | 'mouseleave';
type PointerType = 'pointerover' | 'pointerenter' | 'pointermove' | 'pointerdown' | 'pointerup' | 'pointerout' | 'pointerleave';

const NO_BUBBLE = new Set(['mouseenter', 'mouseleave', 'pointerenter', 'pointerleave']);

function init(aim: Aim, buttons: number, detail: number): MouseEventInit {
  // Event coordinates are in the element's own viewport (an iframe's, for an element inside one).
  const { x: clientX, y: clientY } = inOwnViewport(aim.el, aim);
  const win = windowOf(aim.el);
  return {
    bubbles: true,
    cancelable: true,
    composed: true,
    view: win,
    detail,
    clientX,
    clientY,
    screenX: clientX + win.screenX,
    screenY: clientY + win.screenY,
    button: 0,
    buttons,
  };
}

export function mouse(type: MouseType, aim: Aim, opts: { buttons?: number; detail?: number } = {}): boolean {
  const e = init(aim, opts.buttons ?? 0, opts.detail ?? 0);
  if (NO_BUBBLE.has(type)) e.bubbles = false;
  return aim.el.dispatchEvent(new MouseEvent(type, e));
}

export function pointer(type: PointerType, aim: Aim, opts: { buttons?: number } = {}): boolean {
  const e: PointerEventInit = { ...init(aim, opts.buttons ?? 0, 0), pointerId: 1, pointerType: 'mouse', isPrimary: true, width: 1, height: 1, pressure: opts.buttons ? 0.5 : 0 };
  if (NO_BUBBLE.has(type)) e.bubbles = false;
  return aim.el.dispatchEvent(new PointerEvent(type, e));
}

/** The mouse arriving over an element. */
export function hover(aim: Aim): void {
  pointer('pointerover', aim);
  pointer('pointerenter', aim);
  mouse('mouseover', aim);
  mouse('mouseenter', aim);
  pointer('pointermove', aim);
  mouse('mousemove', aim);
}

/** Button down and up; the mousedown focuses like a real one unless the page prevents it. */
export function pressAndRelease(aim: Aim, detail: number): void {
  pointer('pointerdown', aim, { buttons: 1 });
  const focus = mouse('mousedown', aim, { buttons: 1, detail });
  if (focus) focusForClick(aim.el);
  pointer('pointerup', aim);
  mouse('mouseup', aim, { detail });
}

/**
 * A click as Chrome delivers one: move, down, up, click. A dispatched click runs the element's
 * activation behaviour (a checkbox toggles, a submit button submits, a label clicks its
 * control), exactly once per call.
 */
export function click(aim: Aim): void {
  hover(aim);
  pressAndRelease(aim, 1);
  mouse('click', aim, { detail: 1 });
}

export function doubleClick(aim: Aim): void {
  hover(aim);
  pressAndRelease(aim, 1);
  mouse('click', aim, { detail: 1 });
  pressAndRelease(aim, 2);
  mouse('click', aim, { detail: 2 });
  mouse('dblclick', aim, { detail: 2 });
}
