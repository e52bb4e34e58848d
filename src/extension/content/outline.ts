import type { AnswerOf, OutlineItem, RequestOf } from '../../sdk/protocol/index.js';
import { styleOf } from './dom/nodes.js';
import { elementByXPath } from './dom/xpath.js';

/** The attribute that marks our boxes (and nothing of the page's). */
export const OVERLAY_ATTR = 'data-aite-overlay';
export const OUTLINE_MAX = 10;
export const LABEL_MAX = 80;
/** Boxes nobody cleared remove themselves after this long (protocol-v1). */
export const OUTLINE_LIFETIME_MS = 15_000;

const TONES: Record<string, string> = { wanted: '#1a73e8', candidate: '#e91e63' };
const OTHER_TONE = '#f57c00';

let lifetimeMs = OUTLINE_LIFETIME_MS;
let expiry: ReturnType<typeof setTimeout> | undefined;

/**
 * Test-only: how long boxes live before removing themselves. Not reachable from the wire (no
 * request carries it); the page tests set it through the test bundle's exports.
 */
export function setOutlineLifetimeForTests(ms: number = OUTLINE_LIFETIME_MS): void {
  lifetimeMs = ms;
}

/**
 * `outline`: draws up to 10 boxes around the elements the items' xpaths name (in the top
 * document), for the runner's screenshot of a failed step; or removes them (`clear`).
 * Each box is our own absolutely positioned div on the document element, inline styles only,
 * pointer-events none, its label set as text (never HTML). Drawing replaces earlier boxes.
 */
export async function outline(req: RequestOf<'outline'>): Promise<AnswerOf<'outline'>> {
  if (req.clear) {
    const removed = removeBoxes();
    return { id: req.id, ok: true, removed, remaining: document.querySelectorAll(`[${OVERLAY_ATTR}]`).length };
  }
  removeBoxes();
  let drawn = 0;
  for (const item of (req.items ?? []).slice(0, OUTLINE_MAX)) {
    const el = elementByXPath(document, item.xpath);
    if (!el) continue;
    document.documentElement.appendChild(box(el, item));
    drawn++;
  }
  if (drawn > 0) expiry = setTimeout(removeBoxes, lifetimeMs);
  return { id: req.id, ok: true, drawn };
}

function removeBoxes(): number {
  if (expiry !== undefined) clearTimeout(expiry);
  expiry = undefined;
  const boxes = document.querySelectorAll(`[${OVERLAY_ATTR}]`);
  for (const b of boxes) b.remove();
  return boxes.length;
}

function box(el: Element, item: OutlineItem): HTMLDivElement {
  const colour = TONES[item.tone ?? ''] ?? OTHER_TONE;
  const r = el.getBoundingClientRect();
  // Page coordinates relative to the document element's box, which is the containing block
  // of an absolute child unless the page positioned <html> itself (then its own offset counts).
  const html = document.documentElement;
  const origin = styleOf(html).position === 'static' ? { x: -scrollX, y: -scrollY } : html.getBoundingClientRect();
  const div = document.createElement('div');
  div.setAttribute(OVERLAY_ATTR, item.tone ?? '');
  div.style.cssText = [
    'position: absolute',
    `left: ${r.left - origin.x - 3}px`,
    `top: ${r.top - origin.y - 3}px`,
    `width: ${r.width + 6}px`,
    `height: ${r.height + 6}px`,
    `border: 3px solid ${colour}`,
    'border-radius: 3px',
    'box-sizing: border-box',
    `background: ${colour}1a`,
    'pointer-events: none',
    'z-index: 2147483647',
    'margin: 0',
    'padding: 0',
  ].join('; ');
  if (item.label) {
    const tag = document.createElement('div');
    tag.textContent = item.label.length > LABEL_MAX ? `${item.label.slice(0, LABEL_MAX - 1)}…` : item.label;
    tag.style.cssText = [
      'position: absolute',
      'left: -3px',
      // Above the box, unless that is off the top of the page: then below it.
      r.top + scrollY < 20 ? 'top: 100%' : 'bottom: 100%',
      `background: ${colour}`,
      'color: #fff',
      'font: 600 12px/16px system-ui, sans-serif',
      'padding: 1px 5px',
      'white-space: nowrap',
      'border-radius: 3px 3px 0 0',
      'pointer-events: none',
    ].join('; ');
    div.appendChild(tag);
  }
  return div;
}
