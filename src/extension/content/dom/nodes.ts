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

// Tags that may host a shadow root (DOM spec, attachShadow): custom elements (a hyphen in the
// name) and these. Asking only these keeps the extension call off most elements of a page.
const SHADOW_HOSTS = new Set([
  'article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'header', 'main', 'nav', 'p', 'section', 'span',
]);

/** Whether an element with this tag may have a shadow root (custom elements and {@link SHADOW_HOSTS}). */
export function canHostShadow(tag: string): boolean {
  return SHADOW_HOSTS.has(tag) || tag.includes('-');
}

interface ChromeDom {
  dom?: { openOrClosedShadowRoot?: (el: HTMLElement) => ShadowRoot | null | undefined };
}

/**
 * The element's shadow root, open or closed. A page script cannot see a closed root
 * (`el.shadowRoot` is null); an extension's content script can, through
 * `chrome.dom.openOrClosedShadowRoot`, so every walk of the page (resolve, read, verify, wait,
 * outline, repair) goes through here. Outside the extension (page tests) only open roots show.
 */
export function shadowRootOf(el: Element, tag: string = el.localName): ShadowRoot | null {
  // No other element can have one, open or closed: most of a page is answered by its tag alone.
  if (!canHostShadow(tag)) return null;
  const open = el.shadowRoot;
  if (open) return open;
  if (el.namespaceURI !== 'http://www.w3.org/1999/xhtml') return null;
  const dom = (globalThis as { chrome?: ChromeDom }).chrome?.dom;
  if (!dom?.openOrClosedShadowRoot) return null;
  try {
    return dom.openOrClosedShadowRoot(el as HTMLElement) ?? null;
  } catch {
    return null;
  }
}
