import { shadowRootOf, styleOf } from './nodes.js';

/**
 * Whether an element is rendered: it has a box (non-zero size, or shows content that has one
 * through a zero-size box that clips nothing), is not `display: none` or
 * `visibility: hidden` (itself or inherited), is not in the skipped content of a closed
 * `<details>` or `content-visibility: hidden`, and its iframe (if any) is rendered too.
 * Opacity does not count: a transparent element still takes clicks (as in Playwright).
 *
 * `checkVisibility()` is what makes closed `<details>` work: their content keeps a non-zero
 * box in Chromium 156 but is reported not visible.
 */
export function isRendered(el: Element, opts: { box?: boolean } = {}): boolean {
  const tag = el.localName;
  if (tag === 'option' || tag === 'optgroup') {
    // Options of a closed drop-down have no box of their own; they are as visible as their select.
    const select = el.closest('select');
    return select ? isRendered(select, opts) : false;
  }
  // `display: contents` has no box, which checkVisibility counts as not visible, yet it shows its
  // children (a web component's wrapper host, Shoelace's popup; a framework's wrapper div): where
  // no box is asked for (an outline of the page), it is as rendered as they are. A target needs one.
  if (!el.checkVisibility({ visibilityProperty: true })) return opts.box === false && styleOf(el).display === 'contents' && contentsRendered(el, opts);
  if (opts.box !== false && !hasBox(el)) return false;
  const frame = el.ownerDocument.defaultView?.frameElement;
  return frame ? isRendered(frame, opts) : true;
}

/** Whether anything a `display: contents` element shows is rendered: its shadow tree's, its slot's or its own children. */
function contentsRendered(el: Element, opts: { box?: boolean }): boolean {
  const shown =
    el.localName === 'slot' ? (el as HTMLSlotElement).assignedElements({ flatten: true }) : Array.from((shadowRootOf(el) ?? el).children);
  return shown.some((c) => isRendered(c, opts));
}

/** How many levels of zero-size wrappers {@link hasBox} looks through for what they show. */
const SHOWN_THROUGH_DEPTH = 3;

function hasBox(el: Element, depth = 0): boolean {
  const r = el.getBoundingClientRect();
  if (r.width > 0 && r.height > 0) return true;
  const style = styleOf(el);
  // `display: contents` has no box of its own but shows its children.
  if (style.display === 'contents') {
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (hasBox(c)) return true;
    return false;
  }
  // A box of zero size that clips nothing shows what overflows it: the wrapper a modal library
  // puts role="dialog" on, all of whose content is position: fixed (Headless UI's Dialog, Ant
  // Design's modal root), is as shown as that content. (Playwright counts it hidden, so its users
  // cannot check that such a dialog is open.)
  if (depth >= SHOWN_THROUGH_DEPTH || style.overflowX !== 'visible' || style.overflowY !== 'visible' || style.clipPath !== 'none') return false;
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
    if (c.checkVisibility({ visibilityProperty: true }) && hasBox(c, depth + 1)) return true;
  }
  return false;
}

/** Why an element is not rendered, in words for a failure message. */
export function whyHidden(el: Element): string {
  const select = el.localName === 'option' || el.localName === 'optgroup' ? el.closest('select') : null;
  if (select) return `its <select> is hidden (${whyHidden(select)})`;
  if (!el.isConnected) return 'it is no longer in the page';
  if (el.closest('details:not([open])') && !el.closest('summary')) return 'it is inside a closed <details>';
  if (!el.checkVisibility()) return 'it or an ancestor has display: none';
  if (!el.checkVisibility({ visibilityProperty: true })) return 'it has visibility: hidden';
  const frame = el.ownerDocument.defaultView?.frameElement;
  if (frame && !isRendered(frame)) return 'its iframe is hidden';
  if (!hasBox(el)) return 'it has zero size';
  return 'it is not rendered';
}
