import type { Rect } from '../../../sdk/protocol/index.js';
import { windowOf } from './nodes.js';
import { contentOffset } from './query.js';

/**
 * Offset of an element's own viewport inside the top viewport: zero in the top document,
 * the sum of the iframes' content boxes for an element in a same-origin frame.
 */
export function viewportOffset(el: Element): { x: number; y: number } {
  let x = 0;
  let y = 0;
  for (let win: Window = windowOf(el); win !== reachableTop(win); ) {
    const frame = win.frameElement;
    if (!frame) break; // cross-origin parent: cannot be, the content script reached this element
    const o = contentOffset(frame);
    x += o.x;
    y += o.y;
    win = windowOf(frame);
  }
  return { x, y };
}

/** Box in the top viewport's CSS pixels. */
export function topViewportRect(el: Element): Rect {
  const r = el.getBoundingClientRect();
  const o = viewportOffset(el);
  return round({ x: r.left + o.x, y: r.top + o.y, width: r.width, height: r.height });
}

/** Box relative to the top page's top-left corner (top viewport box plus the page's scroll). */
export function pageRect(el: Element): Rect {
  const r = topViewportRect(el);
  const top = reachableTop(windowOf(el));
  return round({ x: r.x + top.scrollX, y: r.y + top.scrollY, width: r.width, height: r.height });
}

function round(r: Rect): Rect {
  const q = (n: number): number => Math.round(n * 100) / 100;
  return { x: q(r.x), y: q(r.y), width: q(r.width), height: q(r.height) };
}

export function sameRect(a: Rect, b: Rect): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

/**
 * The outermost window this content script can read from `win`: the top one, or the last
 * same-origin one below a cross-site parent (in a cross-site frame, its own document's window).
 */
export function reachableTop(win: Window): Window {
  let w = win;
  while (w !== w.top && w.frameElement) w = windowOf(w.frameElement);
  return w;
}
