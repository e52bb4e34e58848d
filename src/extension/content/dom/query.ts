import { CommandFailure } from '../../../sdk/protocol/index.js';
import { isElement, isFrameElement, isShadowRoot, shadowRootOf } from './nodes.js';
import { frameBox } from './geometry.js';

/** A tree the content script searches: a document or a shadow root (open or closed). */
export type Root = Document | ShadowRoot;

// Never part of what a target can name: no box, or not page content at all.
const SKIP = new Set(['head', 'script', 'style', 'noscript', 'template', 'link', 'meta']);

/**
 * Every element under `start` in document order, descending into shadow roots, open and closed
 * ({@link shadowRootOf}; a host's
 * shadow tree comes right after the host, before its light children). Same-origin iframes are
 * not entered: a target reaches into one only through its `frame` key, as in Playwright, so a
 * descriptor always knows which document its xpath belongs to. Our own overlay boxes are skipped.
 */
export function walkElements(start: Root | Element, visit: (el: Element) => void, onShadowRoot?: (root: ShadowRoot) => void): void {
  if (isElement(start)) {
    const sr = shadowRootOf(start);
    if (sr) {
      onShadowRoot?.(sr);
      visitChildren(sr, visit, onShadowRoot);
    }
    visitChildren(start, visit, onShadowRoot);
  } else visitChildren(start, visit, onShadowRoot);
}

/**
 * {@link walkElements} over what renders inside `start`: also the light-DOM elements its shadow
 * roots' slots show (a web component's dialog draws its host's buttons in its footer slot), so a
 * region is what a person sees in it. Elements may be visited twice.
 */
export function walkRendered(start: Element, visit: (el: Element) => void): void {
  walkElements(start, (el) => {
    visit(el);
    if (el.localName !== 'slot') return;
    for (const assigned of (el as HTMLSlotElement).assignedElements({ flatten: true })) {
      if (composedContains(start, assigned)) continue;
      visit(assigned);
      walkRendered(assigned, visit);
    }
  });
}

// Recursive over firstElementChild/nextElementSibling: no arrays, no iterators (this runs over
// every element of the page for most commands). Recursion depth is the DOM's depth.
function visitChildren(parent: ParentNode, visit: (el: Element) => void, onShadowRoot: ((root: ShadowRoot) => void) | undefined): void {
  for (let el = parent.firstElementChild; el; el = el.nextElementSibling) {
    const tag = el.localName;
    if (SKIP.has(tag) || el.hasAttribute('data-aite-overlay')) continue;
    visit(el);
    // The shadow tree is visited before the light children (it is what renders).
    const sr = shadowRootOf(el, tag);
    if (sr) {
      onShadowRoot?.(sr);
      visitChildren(sr, visit, onShadowRoot);
    }
    if (el.firstElementChild) visitChildren(el, visit, onShadowRoot);
  }
}

/** Every shadow root under a document, open or closed (for CSS queries, which stop at shadow boundaries). */
export function shadowRootsOf(doc: Document): ShadowRoot[] {
  const roots: ShadowRoot[] = [];
  walkElements(doc, () => undefined, (sr) => roots.push(sr));
  return roots;
}

/**
 * `querySelectorAll` over a document and all its shadow roots; `roots`: those roots, when a walk
 * of the whole document has just found them (one walk instead of two).
 */
export function queryCssDeep(doc: Document, css: string, roots: readonly ShadowRoot[] = shadowRootsOf(doc)): Set<Element> {
  const found = new Set<Element>();
  try {
    for (const root of [doc, ...roots]) for (const el of root.querySelectorAll(css)) found.add(el);
  } catch (e) {
    throw new CommandFailure('unsupported', `The css selector ${JSON.stringify(css)} is not valid CSS (${(e as Error).message}). Fix the selector.`, { css });
  }
  return found;
}

/** The parent in the composed tree: crosses shadow boundaries, not frame boundaries. */
export function composedParent(node: Node): Element | null {
  if (node.parentElement) return node.parentElement;
  const root = node.parentNode;
  return isShadowRoot(root) ? root.host : null;
}

/** `ancestor.contains(node)` through shadow roots. */
export function composedContains(ancestor: Node, node: Node): boolean {
  for (let n: Node | null = node; n; n = n.parentNode ?? (isShadowRoot(n) ? n.host : null)) {
    if (n === ancestor) return true;
  }
  return false;
}

/**
 * `ancestor.contains(node)` as the page renders: through shadow roots, and through the slot a
 * light node is assigned to (a Material list item's slotted headline is inside the item, where
 * a point over it hits). Every ancestor of {@link composedContains} is met on the way too.
 */
export function flatContains(ancestor: Node, node: Node): boolean {
  for (let n: Node | null = node; n; n = flatParent(n)) {
    if (n === ancestor) return true;
  }
  return false;
}

/** The element a node renders inside: the slot it is assigned to, else its parent, else its shadow root's host. */
export function flatParent(node: Node): Element | null {
  return (node as Partial<Slottable>).assignedSlot ?? composedParent(node);
}

/**
 * A hit or an event target that is a shadow host around the element, from another tree than the
 * element's: what the element's own input looks like from outside its shadow root. A window
 * listener sees an event inside a closed root retargeted so; and a point over a host's light-DOM
 * text slotted into the element (`<sl-button>Save</sl-button>`, the label drawn inside the
 * shadow root's `<button>`) hits the host, the text's parent.
 */
export function retargetedHost(element: Element, target: Element | null): boolean {
  return target !== null && target.getRootNode() !== element.getRootNode() && composedContains(target, element);
}

/**
 * The deepest element at a point given in the TOP viewport's CSS pixels: `elementFromPoint`
 * stops at shadow hosts and iframes, so it is asked again inside each open shadow root and
 * each same-origin frame (with the point moved into the frame's viewport).
 */
export function deepElementFromPoint(x: number, y: number, doc: Document = document): Element | null {
  let hit = doc.elementFromPoint(x, y);
  while (hit) {
    const sr = shadowRootOf(hit);
    if (sr) {
      const inner = sr.elementFromPoint(x, y);
      if (inner && inner !== hit) {
        hit = inner;
        continue;
      }
    }
    if (isFrameElement(hit)) {
      const inner = sameOriginDocument(hit);
      if (inner) {
        const box = frameBox(hit);
        return deepElementFromPoint((x - box.x) / box.scaleX, (y - box.y) / box.scaleY, inner) ?? hit;
      }
    }
    return hit;
  }
  return null;
}

/** The frame's document if the content script may read it (same origin), else null. */
export function sameOriginDocument(frame: Element): Document | null {
  try {
    return (frame as HTMLIFrameElement).contentDocument ?? null;
  } catch {
    return null;
  }
}

/** What a frame key matched its iframes by, in the order the kinds are tried. */
export type FrameKeyKind = 'name' | 'id' | 'title' | 'css';

/** Result of looking for the iframe a target's `frame` names. */
export type FrameLookup =
  | { kind: 'found'; doc: Document; frame: Element }
  | { kind: 'missing' }
  | { kind: 'cross-origin'; frame: Element }
  /** The key names several iframes: none is entered (see content/frames.ts `enterFrames`). */
  | { kind: 'ambiguous'; frames: Element[]; by: FrameKeyKind };

/**
 * The iframes a `frame` key names in `doc` and its shadow roots: those with that `name`; else
 * with that `id`; else with that `title` (as accessibility tools name a frame); else those the
 * key matches as a CSS selector. The first kind that names any decides; hidden iframes count.
 */
export function framesNamed(spec: string, doc: Document = document, frames: readonly Element[] = framesIn(doc)): { frames: Element[]; by: FrameKeyKind } {
  const tiers: [FrameKeyKind, (f: Element) => boolean][] = [
    ['name', (f) => f.getAttribute('name') === spec],
    ['id', (f) => f.id === spec],
    ['title', (f) => f.getAttribute('title') === spec],
    ['css', (f) => matchesCss(f, spec)],
  ];
  for (const [by, test] of tiers) {
    const hits = frames.filter(test);
    if (hits.length > 0) return { frames: hits, by };
  }
  return { frames: [], by: 'css' };
}

/** The iframes (and frames) of `doc` and its shadow roots, in document order. */
function framesIn(doc: Document): Element[] {
  const frames: Element[] = [];
  walkElements(doc, (el) => {
    if (el.localName === 'iframe' || el.localName === 'frame') frames.push(el);
  });
  return frames;
}

function matchesCss(el: Element, css: string): boolean {
  try {
    return el.matches(css);
  } catch {
    return false;
  }
}

/** The iframe a `frame` key names in `doc`: one, none, or several (then none is chosen). */
export function findFrame(spec: string, doc: Document = document): FrameLookup {
  const { frames, by } = framesNamed(spec, doc);
  if (frames.length > 1) return { kind: 'ambiguous', frames, by };
  const frame = frames[0];
  if (!frame) return { kind: 'missing' };
  const inner = sameOriginDocument(frame);
  return inner ? { kind: 'found', doc: inner, frame } : { kind: 'cross-origin', frame };
}

/**
 * A `frame` key that names this iframe alone in its document: its name, id or title when no
 * other iframe answers to it, else a CSS selector on its `src`, else on its place in the page.
 * What a snapshot lists a frame's elements under, and what an ambiguous frame key offers.
 */
export function frameKeyOf(frame: Element): string {
  const doc = frame.ownerDocument;
  const all = framesIn(doc);
  const alone = (key: string): boolean => {
    const { frames } = framesNamed(key, doc, all);
    return frames.length === 1 && frames[0] === frame;
  };
  const tag = frame.localName;
  const src = frame.getAttribute('src') ?? '';
  const file = src.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/^.*\//, '');
  const keys = [
    frame.getAttribute('name'),
    frame.id,
    frame.getAttribute('title'),
    file ? `${tag}[src*=${cssString(file)}]` : '',
    src ? `${tag}[src*=${cssString(src.replace(/^[a-z][a-z0-9+.-]*:\/\//i, ''))}]` : '',
  ];
  for (const key of keys) if (key && alone(key)) return key;
  return placeOf(frame);
}

/** A CSS selector of the element by its place: each step its tag and rank among its siblings of that tag. */
function placeOf(el: Element): string {
  const steps: string[] = [];
  for (let at: Element | null = el; at; at = at.parentElement) {
    const same = Array.from(at.parentElement?.children ?? []).filter((c) => c.localName === at!.localName);
    steps.unshift(same.length > 1 ? `${at.localName}:nth-of-type(${same.indexOf(at) + 1})` : at.localName);
  }
  return steps.join(' > ');
}

/** A CSS string literal of `text`. */
function cssString(text: string): string {
  return `"${text.replace(/["\\]/g, '\\$&').replace(/\n/g, '\\a ')}"`;
}

/** Whether `element` has the focus, or holds the element that has it. */
export function hasFocus(element: Element): boolean {
  const active = deepActiveElement(element.ownerDocument);
  return active !== null && (active === element || composedContains(element, active));
}

/** The focused element, looking into shadow roots and same-origin frames. */
export function deepActiveElement(doc: Document = document): Element | null {
  let active: Element | null = doc.activeElement;
  for (;;) {
    if (!active) return null;
    const sr = shadowRootOf(active);
    if (sr?.activeElement) {
      active = sr.activeElement;
      continue;
    }
    if (isFrameElement(active)) {
      const inner = sameOriginDocument(active);
      if (inner?.activeElement && inner.activeElement !== inner.body) {
        active = inner.activeElement;
        continue;
      }
    }
    return active;
  }
}
