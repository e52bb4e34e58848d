// Node kind checks that work across realms. `instanceof` does not: an element of a same-origin
// iframe is built from that frame's constructors, so `el instanceof HTMLElement` is false for
// it in the top frame's content script.

export function isElement(n: Node | null | undefined): n is Element {
  return !!n && n.nodeType === 1;
}

export function isShadowRoot(n: Node | null | undefined): n is ShadowRoot {
  return !!n && n.nodeType === 11 && !!(n as ShadowRoot).host;
}

export function isHtmlElement(n: Node | null | undefined): n is HTMLElement {
  return isElement(n) && n.namespaceURI === 'http://www.w3.org/1999/xhtml';
}

export function isSvgElement(n: Node | null | undefined): n is SVGElement {
  return isElement(n) && n.namespaceURI === 'http://www.w3.org/2000/svg';
}

export function isFrameElement(n: Node | null | undefined): n is HTMLIFrameElement {
  return isElement(n) && (n.localName === 'iframe' || n.localName === 'frame');
}

/** The window an element lives in (its own frame's, not necessarily the top one). */
export function windowOf(el: Element): Window {
  return el.ownerDocument.defaultView ?? window;
}

/** Computed style from the element's own window (correct for same-origin iframes too). */
export function styleOf(el: Element): CSSStyleDeclaration {
  return windowOf(el).getComputedStyle(el);
}
