import type { Rect } from '../../../sdk/protocol/index.js';
import { styleOf, windowOf } from './nodes.js';

/**
 * How one viewport lies in another: a point `p` there is at `x + scaleX * p.x`, `y + scaleY * p.y`
 * here. The scale is not 1 when an iframe (or what holds it) is drawn scaled, by a transform or
 * CSS zoom: the frame's document keeps its own CSS pixels, fewer or more of this one's.
 */
export interface ViewportMap {
  x: number;
  y: number;
  scaleX: number;
  scaleY: number;
}

const SAME: ViewportMap = { x: 0, y: 0, scaleX: 1, scaleY: 1 };

/**
 * The iframe's own viewport (inside its border and padding) in the viewport of the document that
 * holds it, with its size there. The box the iframe is drawn in (getBoundingClientRect: scaled by
 * transforms and zoom) against its layout size (offsetWidth: neither) gives the scale; border and
 * padding are read from the computed style, which Chromium answers unscaled under zoom too.
 */
export function frameBox(frame: Element): ViewportMap & { width: number; height: number } {
  const r = frame.getBoundingClientRect();
  const cs = styleOf(frame);
  const px = (v: string): number => parseFloat(v || '0') || 0;
  const layoutW = (frame as HTMLElement).offsetWidth;
  const layoutH = (frame as HTMLElement).offsetHeight;
  const scaleX = layoutW > 0 && r.width > 0 ? r.width / layoutW : 1;
  const scaleY = layoutH > 0 && r.height > 0 ? r.height / layoutH : 1;
  const left = px(cs.borderLeftWidth) + px(cs.paddingLeft);
  const top = px(cs.borderTopWidth) + px(cs.paddingTop);
  const right = px(cs.borderRightWidth) + px(cs.paddingRight);
  const bottom = px(cs.borderBottomWidth) + px(cs.paddingBottom);
  return {
    x: r.left + left * scaleX,
    y: r.top + top * scaleY,
    scaleX,
    scaleY,
    width: Math.max(0, r.width - (left + right) * scaleX),
    height: Math.max(0, r.height - (top + bottom) * scaleY),
  };
}

/** `inner` (a map into a viewport) seen from further out, through `outer` (a map from that viewport). */
function through(outer: ViewportMap, inner: ViewportMap): ViewportMap {
  return { x: outer.x + outer.scaleX * inner.x, y: outer.y + outer.scaleY * inner.y, scaleX: outer.scaleX * inner.scaleX, scaleY: outer.scaleY * inner.scaleY };
}

/**
 * How an element's own viewport lies in the top viewport (the reachable one, see
 * {@link reachableTop}): the same in the top document; through each same-origin iframe around it
 * (its offset and its scale) otherwise.
 */
export function viewportMap(el: Element): ViewportMap {
  let map = SAME;
  for (let win: Window = windowOf(el); win !== reachableTop(win); ) {
    const frame = win.frameElement;
    if (!frame) break; // cross-origin parent: cannot be, the content script reached this element
    map = through(frameBox(frame), map);
    win = windowOf(frame);
  }
  return map;
}

/** How the iframe's own viewport lies in the top viewport (see {@link viewportMap}). */
export function frameViewportMap(frame: Element): ViewportMap {
  return through(viewportMap(frame), frameBox(frame));
}

/** A point of the top viewport in `el`'s own viewport (an iframe's, for an element inside one). */
export function inOwnViewport(el: Element, at: { x: number; y: number }): { x: number; y: number } {
  const m = viewportMap(el);
  return { x: (at.x - m.x) / m.scaleX, y: (at.y - m.y) / m.scaleY };
}

/** A box of the viewport `map` leads from, in the viewport it leads to. */
export function mapRect(map: ViewportMap, r: Rect): Rect {
  return { x: map.x + map.scaleX * r.x, y: map.y + map.scaleY * r.y, width: r.width * map.scaleX, height: r.height * map.scaleY };
}

/** Box in the top viewport's CSS pixels. */
export function topViewportRect(el: Element): Rect {
  const r = el.getBoundingClientRect();
  return round(mapRect(viewportMap(el), { x: r.left, y: r.top, width: r.width, height: r.height }));
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
