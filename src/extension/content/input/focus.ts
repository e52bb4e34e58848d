import { composedParent, walkElements } from '../dom/query.js';
import { isEnabled } from '../dom/state.js';
import { isRendered } from '../dom/visibility.js';

/** Focusable by a click: natively focusable or with any tabindex, and enabled. */
export function isFocusable(el: Element): boolean {
  const h = el as HTMLElement;
  if (typeof h.focus !== 'function' || !isEnabled(el)) return false;
  return h.tabIndex >= 0 || el.hasAttribute('tabindex') || h.isContentEditable;
}

/**
 * What a real mousedown does by default and a dispatched one does not: focus the nearest
 * focusable element at the point, or blur the current one when there is none.
 */
export function focusForClick(hit: Element): void {
  for (let n: Element | null = hit; n; n = composedParent(n)) {
    if (isFocusable(n)) {
      (n as HTMLElement).focus({ preventScroll: true });
      return;
    }
  }
  const active = hit.ownerDocument.activeElement as HTMLElement | null;
  if (active && active !== hit.ownerDocument.body) active.blur();
}

/** The elements Tab visits, in order: positive tabindex ascending, then tabindex 0 in document order. */
export function tabOrder(doc: Document): Element[] {
  const positive: Element[] = [];
  const zero: Element[] = [];
  walkElements(doc, (el) => {
    const t = (el as HTMLElement).tabIndex;
    if (typeof t !== 'number' || t < 0 || !isFocusable(el) || !isRendered(el)) return;
    (t > 0 ? positive : zero).push(el);
  });
  positive.sort((a, b) => (a as HTMLElement).tabIndex - (b as HTMLElement).tabIndex);
  return [...positive, ...zero];
}

/** Moves focus as Tab (or Shift+Tab) does; wraps around at the ends. Returns the newly focused element. */
export function moveFocus(from: Element | null, backwards: boolean, doc: Document): Element | null {
  const order = tabOrder(doc);
  if (order.length === 0) return null;
  const at = from ? order.indexOf(from) : -1;
  const next = at < 0 ? (backwards ? order[order.length - 1]! : order[0]!) : order[(at + (backwards ? -1 : 1) + order.length) % order.length]!;
  (next as HTMLElement).focus();
  return next;
}
