import { frameBox, frameViewportMap, mapRect, viewportMap } from './dom/geometry.js';
import { composedParent, deepElementFromPoint, findFrame, frameKeyOf, type FrameKeyKind } from './dom/query.js';
import { styleOf, windowOf } from './dom/nodes.js';
import { formatElement, listOf, q } from './explain.js';
import { nextFrame } from './settle.js';
import { cut } from './dom/text.js';
import { CommandFailure, framePath, type Rect } from '../../sdk/protocol/index.js';

/**
 * Frames a target names. Same-origin iframes are read from here; a cross-site (out-of-process)
 * iframe's document is not reachable from this content script, so the walk stops there and
 * answers a *frame hop*: a failure whose `detail.frameHop` tells the worker which frame (its
 * extension frameId) holds the rest of the path and how many segments were used up. The worker
 * sends the command on to that frame's own content script and converts the point it answers
 * into the viewport of the frame above, one frame at a time (`framePoint`).
 */

/** `detail.frameHop` of a hop answer. */
export interface FrameHop {
  /** The nonce posted to the iframe's window: its content script reports it, with its frameId, to the worker. */
  probe: string;
  /** How many segments of the path lead to that frame (the rest are looked for inside it). */
  consumed: number;
  /**
   * How many frame boundaries lie between this document and that frame (see {@link levelsTo}):
   * 1 when the iframe is in this document, more when it is inside same-origin iframes here.
   */
  levels: number;
  /**
   * The frame keys that lead from this document to that frame, when the command's path does
   * not say them: a ref this document knows lies in a cross-site frame (see refs.ts).
   */
  path?: string[];
}

/** Animation frames drawn before a point in a frame is answered (see {@link framePoint}). */
const DRAWN_FRAMES = 4;
/** A document that draws no frame (hidden, stuck) still answers, this much later per frame. */
const FRAME_FALLBACK_MS = 1000;

/** The message a frame probe is posted as (to the iframe's window, from its parent). */
export const FRAME_PROBE_KEY = 'aiteFrameProbe';

// Iframes probed lately, by nonce: framePoint finds the iframe again by the nonce of its hop.
const probed = new Map<string, WeakRef<Element>>();
const PROBES_KEPT = 64;

/**
 * Asks the iframe's own content script to tell the worker which frame it is: a nonce posted to
 * the iframe's window, which that script (only it sees it with this window as the source)
 * reports to the worker with its frameId. No page can forge the report: only content scripts
 * reach the worker, and the worker checks the reporting frame's parent.
 */
export function probe(iframe: Element): string {
  const nonce = randomNonce();
  probed.set(nonce, new WeakRef(iframe));
  if (probed.size > PROBES_KEPT) probed.delete(probed.keys().next().value!);
  try {
    (iframe as HTMLIFrameElement).contentWindow?.postMessage({ [FRAME_PROBE_KEY]: nonce }, '*');
  } catch {
    // No window yet: the worker asks again.
  }
  return nonce;
}

/**
 * How many frame boundaries lie between this content script's document and the iframe's own
 * document: 1 for an iframe in this document, one more for each same-origin iframe it is inside
 * here. The probe is posted from this document's window, so the frame's script hears it from
 * that ancestor (see {@link probeOf}), and the worker believes its report only from a frame
 * that many levels below the frame that asked: the one rule for where a probed frame lies.
 */
export function levelsTo(iframe: Element): number {
  let levels = 1;
  for (let win: Window = windowOf(iframe); win !== window && win.parent !== win; win = win.parent) levels++;
  return levels;
}

/**
 * The nonce of a frame probe one of this document's ancestors posted, if `event` is one: its
 * parent's, or (for an iframe inside same-origin iframes there) a window further up.
 */
export function probeOf(event: MessageEvent): string | undefined {
  if (event.source === null || window.parent === window || !isAncestor(event.source)) return undefined;
  const nonce = (event.data as Record<string, unknown> | null)?.[FRAME_PROBE_KEY];
  return typeof nonce === 'string' && /^[0-9a-f]{32}$/.test(nonce) ? nonce : undefined;
}

function isAncestor(source: MessageEventSource): boolean {
  for (let win: Window = window; win.parent !== win; ) {
    win = win.parent;
    if (source === win) return true;
  }
  return false;
}

function randomNonce(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export type FramePathLookup = { kind: 'found'; doc: Document } | { kind: 'missing'; segment: string };

/**
 * The document a frame path leads to from `doc`, entering same-origin frames. A cross-site frame
 * on the way throws the hop; a key that names several iframes throws `ambiguous`, and an iframe
 * no content script can run in throws `unsupported`: waiting does not change either.
 */
export function enterFrames(frame: string | readonly string[] | undefined, doc: Document = document): FramePathLookup {
  const path = framePath(frame);
  for (const [i, segment] of path.entries()) {
    const f = findFrame(segment, doc);
    if (f.kind === 'missing') return { kind: 'missing', segment };
    if (f.kind === 'ambiguous') throw ambiguousFrame(segment, path.slice(0, i + 1), f.frames, f.by);
    if (f.kind === 'found') {
      doc = f.doc;
      continue;
    }
    const closed = closedFrame(f.frame, segment);
    if (closed) throw closed;
    throw frameHop(f.frame, segment, { consumed: i + 1 });
  }
  return { kind: 'found', doc };
}

const KEY_WORDS: Record<FrameKeyKind, string> = { name: 'have the name', id: 'have the id', title: 'have the title', css: 'match the css' };

/**
 * The failure of a frame key that names several iframes: each is listed (its index among them,
 * title, src) with a key that names it alone, and none is entered: a step never lands in a
 * frame it picked for the test.
 */
function ambiguousFrame(segment: string, path: string[], frames: Element[], by: FrameKeyKind): CommandFailure {
  const listed = frames.map((f, index) => {
    const title = f.getAttribute('title');
    const src = (f as HTMLIFrameElement).src || (f.hasAttribute('srcdoc') ? 'about:srcdoc' : 'about:blank');
    const name = f.getAttribute('name');
    return { index, src, ...(title ? { title } : {}), ...(name ? { name } : {}), ...(f.id ? { id: f.id } : {}), key: frameKeyOf(f) };
  });
  const words = listed.map((f) => `#${f.index} ${f.title !== undefined ? `titled ${q(f.title)} ` : ''}showing ${f.src} (frame: ${q(f.key)})`);
  return new CommandFailure(
    'ambiguous',
    `${frames.length} iframes ${KEY_WORDS[by]} ${q(segment)}: ${listOf(words, 5, frames.length)}. aite enters none of them; name one alone with the frame key given after it (its title, or a css such as iframe[src*="..."]).`,
    { frame: path.length === 1 ? path[0] : path, matches: frames.length, frames: listed },
  );
}

/**
 * Why no content script can run in this cross-origin iframe, as a failure; undefined when one can
 * (an http(s) page: its origin is checked against the allow list by the worker). A data: URL, or
 * a srcdoc or blank document in a sandbox without allow-same-origin, has an opaque origin that no
 * allow list names, so the extension is never in it.
 */
function closedFrame(iframe: Element, key: string): CommandFailure | undefined {
  const src = (iframe as HTMLIFrameElement).src ?? '';
  if (/^https?:/i.test(src) && !iframe.hasAttribute('srcdoc')) return undefined;
  const sandbox = iframe.getAttribute('sandbox');
  const shows = /^data:/i.test(src)
    ? `a data: URL (${cut(src, 60)})`
    : iframe.hasAttribute('srcdoc')
      ? `its srcdoc${sandbox !== null ? ` in a sandbox without allow-same-origin (sandbox=${q(sandbox)})` : ''}`
      : `${src || 'about:blank'}${sandbox !== null ? ` in a sandbox without allow-same-origin (sandbox=${q(sandbox)})` : ''}`;
  const fix = sandbox !== null ? 'Let the sandbox allow-same-origin, or serve that content from an allowed origin' : 'Serve that content from an allowed origin';
  return new CommandFailure(
    'unsupported',
    `The iframe ${q(key)} shows ${shows}: a document with an opaque origin, which no allow list names, so aite's extension does not run in it and cannot look or act inside it. ${fix}, or check the iframe from the page around it.`,
    { frame: key, src, cannotEnter: /^data:/i.test(src) ? 'data-url' : 'opaque-origin' },
  );
}

/** The hop into a cross-site iframe (named `key` here): the worker sends the command on to its document. */
export function frameHop(iframe: Element, key: string, hop: Omit<FrameHop, 'probe' | 'levels'>): CommandFailure {
  const src = (iframe as HTMLIFrameElement).src;
  return new CommandFailure('unsupported', `The iframe ${q(key)} is another site's document (${src}).`, {
    frame: key,
    src,
    frameHop: { probe: probe(iframe), levels: levelsTo(iframe), ...hop } satisfies FrameHop,
  });
}

/** The iframe this document probed with `nonce` lately, if it is still in the page. */
export function probedFrame(nonce: string): Element | undefined {
  const iframe = probed.get(nonce)?.deref();
  return iframe?.isConnected ? iframe : undefined;
}

/** A point in a child frame's viewport, and its element's box there. */
export interface FramePointQuery {
  /** The nonce of the hop into the child frame (names its iframe element here). */
  probe: string;
  x: number;
  y: number;
  rect: Rect;
}

export type FramePointAnswer =
  | { ok: true; x: number; y: number; rect: Rect }
  | { ok: false; reason: 'not-found' | 'not-visible' | 'unsupported'; message: string; retry: boolean };

/**
 * Moves a point from the viewport of the child frame (the iframe probed with `probe`) into this
 * document's viewport, and refuses it when input there would not reach that frame: the iframe is
 * gone, turned (rotated, skewed, flipped: its content box is no upright box on the screen; a
 * scale or CSS zoom is taken into account), scrolled out of this viewport, or covered at the point by something else.
 *
 * The browser sends input into an out-of-process frame by where that frame was last drawn, not
 * by this document's layout: right after the iframe moved (a scroll, a changed transform), input
 * aimed at its new place still goes to the old one. So the point is answered only once this
 * document has drawn a few frames with the iframe where it is now (a frame goes through commit,
 * raster and draw before the browser routes by it: two were not enough on a page slow to draw);
 * a point that moved meanwhile is refused for now (`retry`: the worker asks again).
 */
export async function framePoint(query: FramePointQuery): Promise<FramePointAnswer> {
  const first = pointNow(query);
  if (!first.ok) return first;
  const iframe = probed.get(query.probe)?.deref();
  if (iframe) {
    for (let i = 0; i < DRAWN_FRAMES; i++) await nextFrame(windowOf(iframe), FRAME_FALLBACK_MS);
  }
  const drawn = pointNow(query);
  if (!drawn.ok || (drawn.x === first.x && drawn.y === first.y)) return drawn;
  return {
    ok: false,
    reason: 'not-visible',
    message: `The iframe ${iframe ? formatElement(iframe) : ''} kept moving: the point went from (${first.x}, ${first.y}) to (${drawn.x}, ${drawn.y}) in ${DRAWN_FRAMES} frames`,
    retry: true,
  };
}

/** The point in this viewport by the layout as it is now (see {@link framePoint}). */
function pointNow(query: FramePointQuery): FramePointAnswer {
  const iframe = probed.get(query.probe)?.deref();
  if (!iframe || !iframe.isConnected) return { ok: false, reason: 'not-found', message: 'The iframe is no longer in the page (it was removed or replaced).', retry: false };
  const transformed = transformOf(iframe);
  if (transformed) {
    return {
      ok: false,
      reason: 'unsupported',
      message: `The iframe ${formatElement(iframe)} is drawn with a transform (${transformed}), so a point inside it cannot be placed on the screen by an offset and a scale; aite does not click it blindly. Remove the transform, or act on the frame's page directly.`,
      retry: false,
    };
  }
  let at = place(iframe, query);
  // The point is in this document's viewport, also for an iframe inside same-origin iframes here.
  const win = window;
  if (outside(at, win)) {
    // Bring the point into this viewport the way a person scrolls to it (through the same-origin
    // iframes around the iframe, when it is inside some).
    if (windowOf(iframe) === win) win.scrollBy({ left: outsideBy(at.x, win.innerWidth), top: outsideBy(at.y, win.innerHeight), behavior: 'instant' });
    else iframe.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
    at = place(iframe, query);
  }
  if (outside(at, win)) {
    return { ok: false, reason: 'not-visible', message: `The point (${at.x}, ${at.y}) inside the iframe ${formatElement(iframe)} is outside the window even after scrolling.`, retry: true };
  }
  const box = contentBox(iframe);
  if (at.x < box.x || at.y < box.y || at.x >= box.x + box.width || at.y >= box.y + box.height) {
    return { ok: false, reason: 'not-visible', message: `The element's middle is outside the visible box of the iframe ${formatElement(iframe)}.`, retry: true };
  }
  const hit = deepElementFromPoint(at.x, at.y, document);
  if (hit !== iframe) {
    return {
      ok: false,
      reason: 'not-visible',
      message: hit
        ? `The iframe ${formatElement(iframe)} is covered by ${formatElement(hit)} at (${at.x}, ${at.y}); close or wait for the covering element.`
        : `The iframe ${formatElement(iframe)} is not hit at (${at.x}, ${at.y}).`,
      retry: true,
    };
  }
  return at;
}

function place(iframe: Element, query: FramePointQuery): { ok: true; x: number; y: number; rect: Rect } {
  const map = frameViewportMap(iframe);
  const r = (n: number): number => Math.round(n * 100) / 100;
  const rect = mapRect(map, query.rect);
  return {
    ok: true,
    x: r(map.x + map.scaleX * query.x),
    y: r(map.y + map.scaleY * query.y),
    rect: { x: r(rect.x), y: r(rect.y), width: r(rect.width), height: r(rect.height) },
  };
}

/** The iframe's viewport (inside border and padding) in this document's viewport, as drawn (scaled too). */
function contentBox(iframe: Element): Rect {
  const box = frameBox(iframe);
  return mapRect(viewportMap(iframe), { x: box.x, y: box.y, width: box.width, height: box.height });
}

function outside(at: { x: number; y: number }, win: Window): boolean {
  return at.x < 0 || at.y < 0 || at.x >= win.innerWidth || at.y >= win.innerHeight;
}

function outsideBy(v: number, size: number): number {
  return v < 0 || v >= size ? v - size / 2 : 0;
}

/**
 * A transform on the iframe or around it that is more than a shift and a scale (a rotation, a
 * skew, a flip, a 3D transform), in words; undefined if none. A scale (by a transform, the
 * `scale` property or CSS zoom) keeps the frame's box upright, so a point in it is placed on the
 * screen by its offset and scale (see {@link frameViewportMap}); a turned box is not.
 */
function transformOf(iframe: Element): string | undefined {
  for (let el: Element | null = iframe; el; ) {
    const cs = styleOf(el);
    const t = cs.transform;
    if (t && t !== 'none' && !isUpright(t)) return `${formatElement(el)} has transform: ${t}`;
    if (cs.rotate && cs.rotate !== 'none' && parseFloat(cs.rotate) !== 0) return `${formatElement(el)} has rotate: ${cs.rotate}`;
    if (cs.scale && cs.scale !== 'none' && cs.scale.split(/\s+/).some((v) => !(parseFloat(v) > 0))) return `${formatElement(el)} has scale: ${cs.scale}`;
    el = composedParent(el) ?? windowOf(el).frameElement;
  }
  return undefined;
}

/** A 2D transform that only shifts and scales (by a positive factor on each axis). */
function isUpright(transform: string): boolean {
  const m = /^matrix\(([^)]*)\)$/.exec(transform);
  if (!m) return false;
  const [a, b, c, d] = m[1]!.split(',').map(Number);
  return a! > 0 && b === 0 && c === 0 && d! > 0;
}
