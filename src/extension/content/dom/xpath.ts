import { CommandFailure } from '../../../sdk/protocol/index.js';
import { isElement, isShadowRoot } from './nodes.js';

/**
 * Marks a step into an open shadow root in the xpaths and paths this script writes:
 * `/html/body/my-app/#shadow-root/div/button[2]`. Real XPath cannot cross a shadow boundary;
 * this marker is not valid XPath, so such paths are only ever read back by
 * {@link elementByXPath}, which walks the steps itself.
 */
export const SHADOW_STEP = '#shadow-root';

const HTML_NS = 'http://www.w3.org/1999/xhtml';

/**
 * Absolute XPath of an element in its document, like DevTools' "Copy full XPath": one step per
 * ancestor, an index only where siblings share the name. Non-HTML elements (SVG, MathML) are
 * written `*[name()='svg']`, since an HTML document's XPath only matches HTML names unprefixed.
 */
export function xpathOf(el: Element): string {
  const steps: string[] = [];
  let n: Element = el;
  for (;;) {
    steps.unshift(step(n));
    const parent = n.parentNode;
    if (!parent) break;
    if (isShadowRoot(parent)) {
      steps.unshift(SHADOW_STEP);
      n = parent.host;
      continue;
    }
    if (!isElement(parent)) break; // the document
    n = parent;
  }
  return `/${steps.join('/')}`;
}

function step(el: Element): string {
  const name = el.localName;
  const test = el.namespaceURI === HTML_NS ? name : `*[name()='${name}']`;
  const parent = el.parentNode;
  if (!parent) return test;
  let index = 0;
  let count = 0;
  for (let c = (parent as ParentNode).firstElementChild; c; c = c.nextElementSibling) {
    if (c.localName === name && c.namespaceURI === el.namespaceURI) {
      count++;
      if (c === el) index = count;
    }
  }
  return count > 1 ? `${test}[${index}]` : test;
}

/** The tag path from `html`, e.g. `html/body/main/form/button` (shadow steps marked the same way). */
export function pathOf(el: Element): string {
  const tags: string[] = [];
  for (let n: Node | null = el; n && isElement(n); ) {
    tags.unshift(n.localName);
    const parent: Node | null = n.parentNode;
    if (isShadowRoot(parent)) {
      tags.unshift(SHADOW_STEP);
      n = parent.host;
    } else n = parent;
  }
  return tags.join('/');
}

// One step as this script writes it: `div`, `div[3]`, `*[name()='svg']`, `*[name()='path'][2]`.
const STEP_RE = /^(?:([a-zA-Z][\w.-]*)|\*\[name\(\)='([^']+)'\])(?:\[(\d+)\])?$/;

/**
 * The element an absolute xpath names in `doc`, or null. Paths in the form {@link xpathOf}
 * writes (including shadow steps) are walked step by step; any other XPath goes to
 * `document.evaluate` and its first element is taken.
 */
export function elementByXPath(doc: Document, xpath: string): Element | null {
  const simple = walkSimple(doc, xpath);
  if (simple !== undefined) return simple;
  return evaluateXPath(doc, xpath)[0] ?? null;
}

// undefined: not a path of our own form; null: our form, but nothing is there.
function walkSimple(doc: Document, xpath: string): Element | null | undefined {
  if (!xpath.startsWith('/') || xpath.startsWith('//')) return undefined;
  const steps = xpath.slice(1).split('/');
  const parsed = steps.map((s) => (s === SHADOW_STEP ? SHADOW_STEP : STEP_RE.exec(s)));
  if (parsed.some((p) => p === null)) return undefined;
  let scope: ParentNode = doc;
  let current: Element | null = null;
  for (const p of parsed) {
    if (p === SHADOW_STEP) {
      if (!current?.shadowRoot) return null;
      scope = current.shadowRoot;
      continue;
    }
    const m = p as RegExpExecArray;
    const name = (m[1] ?? m[2]!).toLowerCase();
    const wantIndex = m[3] ? Number(m[3]) : 1;
    const htmlOnly = m[1] !== undefined;
    let seen = 0;
    current = null;
    for (let c = scope.firstElementChild; c; c = c.nextElementSibling) {
      if (c.localName.toLowerCase() !== name) continue;
      if (htmlOnly && c.namespaceURI !== HTML_NS) continue;
      if (++seen === wantIndex) {
        current = c;
        break;
      }
    }
    if (!current) return null;
    scope = current;
  }
  return current;
}

/** All elements an XPath selects, in document order (shadow steps are followed as above). */
export function evaluateXPath(doc: Document, xpath: string): Element[] {
  if (xpath.includes(SHADOW_STEP)) {
    const el = walkSimple(doc, xpath);
    return el ? [el] : [];
  }
  let result: XPathResult;
  try {
    result = doc.evaluate(xpath, doc, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
  } catch (e) {
    throw new CommandFailure('unsupported', `The xpath ${JSON.stringify(xpath)} is not a valid XPath expression (${(e as Error).message}). Fix the expression.`, { xpath });
  }
  const out: Element[] = [];
  for (let i = 0; i < result.snapshotLength; i++) {
    const n = result.snapshotItem(i);
    if (isElement(n)) out.push(n);
  }
  return out;
}
