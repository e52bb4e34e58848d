import { isElement, isShadowRoot, styleOf } from './nodes.js';
import { isRendered } from './visibility.js';

/** Collapses every run of whitespace (incl. nbsp) to one space and trims. */
export function fold(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Cuts to `max` characters, marking the cut with an ellipsis. */
export function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/** How a string matched: the whole of it, or only a part. */
export type TextMatch = 'whole' | 'part';

/**
 * The matching rule every text-like target key shares (text, name, label, placeholder, region):
 * without `exact`, whole (case-insensitive, whitespace folded) or contained; with `exact`,
 * whole and case-sensitive. Both sides are folded first.
 */
export function matchText(actual: string, wanted: string, exact: boolean): TextMatch | undefined {
  const a = fold(actual);
  const w = fold(wanted);
  if (exact) return a === w ? 'whole' : undefined;
  const al = a.toLowerCase();
  const wl = w.toLowerCase();
  if (al === wl) return 'whole';
  return al.includes(wl) ? 'part' : undefined;
}

/**
 * Where `wanted` occurs in `actual` under the case-insensitive folded rule, returned with the
 * page's own spelling (so a verify answer shows what the page said, not what was asked).
 */
export function findFolded(actual: string, wanted: string): string | undefined {
  const a = fold(actual);
  const w = fold(wanted);
  const al = a.toLowerCase();
  const at = al.indexOf(w.toLowerCase());
  if (at < 0) return undefined;
  // Lower-casing can change the length of a few characters (e.g. U+0130); then the
  // indices no longer line up and the asked string is the best we can report.
  return al.length === a.length ? a.slice(at, at + w.length) : w;
}

// Elements whose content is never page text.
const NOT_TEXT = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link']);
// Tags whose boundaries separate words even in textContent-like text ("<p>a</p><p>b</p>" is "a b").
const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'details', 'dialog', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header',
  'hr', 'li', 'main', 'nav', 'ol', 'option', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td',
  'tfoot', 'th', 'thead', 'tr', 'ul', 'select', 'textarea', 'img',
]);
const BUTTON_INPUTS = new Set(['button', 'submit', 'reset']);

/**
 * The text a target's `text` key is matched against, memoised for one evaluation of the page.
 * Like Playwright's, it is structural (textContent-like, hidden descendants included) so a
 * 2000-element page costs one pass; visibility is judged on the matched element itself.
 * Open shadow roots are read in place of their host's light children (slots take their
 * assigned nodes), and `<input type=button|submit|reset>` counts by its value.
 */
export class TextIndex {
  readonly #raw = new Map<Element, string>();
  readonly #folded = new Map<Element, string>();

  /** Folded match text of an element. */
  of(el: Element): string {
    let t = this.#folded.get(el);
    if (t === undefined) {
      t = fold(this.#rawOf(el));
      this.#folded.set(el, t);
    }
    return t;
  }

  #rawOf(el: Element): string {
    const known = this.#raw.get(el);
    if (known !== undefined) return known;
    let out = '';
    const tag = el.localName;
    if (NOT_TEXT.has(tag) || el.hasAttribute('data-aite-overlay')) {
      out = '';
    } else if (tag === 'input') {
      const input = el as HTMLInputElement;
      out = BUTTON_INPUTS.has(input.type) ? input.value : '';
    } else {
      const kids: Iterable<Node> = el.shadowRoot ? el.shadowRoot.childNodes : el.childNodes;
      out = this.#join(kids);
    }
    if (BLOCK.has(tag)) out = ` ${out} `;
    this.#raw.set(el, out);
    return out;
  }

  #join(nodes: Iterable<Node>): string {
    let out = '';
    for (const n of nodes) {
      if (n.nodeType === Node.TEXT_NODE) out += (n as Text).data;
      else if (n.nodeType === Node.ELEMENT_NODE) {
        const e = n as Element;
        if (e.localName === 'slot') {
          const assigned = (e as HTMLSlotElement).assignedNodes();
          out += assigned.length > 0 ? this.#join(assigned) : this.#join(e.childNodes);
        } else out += this.#rawOf(e);
      }
    }
    return out;
  }
}

/**
 * What a person sees of an element, whitespace folded. `innerText` already skips what is not
 * rendered, but it ignores shadow roots (measured in Chromium 156: a host's innerText is its
 * light text only), so subtrees holding an open shadow root are walked by hand.
 */
export function visibleText(el: Element): string {
  if (!isRendered(el)) return '';
  const hosts = shadowHostsIn(el);
  if (hosts.length === 0) return fold(innerTextOf(el));
  const onPath = new Set<Node>();
  for (const h of hosts) {
    for (let n: Node | null = h; n && n !== el; n = parentAcrossShadow(n)) onPath.add(n);
  }
  onPath.add(el);
  return fold(walkVisible(el, onPath));
}

function innerTextOf(el: Element): string {
  if ('innerText' in el) return (el as HTMLElement).innerText;
  return el.textContent ?? ''; // SVG and other non-HTML elements
}

function parentAcrossShadow(n: Node): Node | null {
  if (isShadowRoot(n.parentNode)) return n.parentNode.host;
  return n.parentNode;
}

function shadowHostsIn(root: Element): Element[] {
  const found: Element[] = [];
  const stack: (Element | ShadowRoot)[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const sr = isElement(node) ? node.shadowRoot : null;
    if (sr) {
      found.push(node as Element);
      stack.push(sr);
    }
    for (let c = node.firstElementChild; c; c = c.nextElementSibling) stack.push(c);
  }
  return found;
}

function walkVisible(el: Element, onPath: Set<Node>): string {
  if (!isRendered(el, { box: false })) return '';
  if (!onPath.has(el)) return ` ${innerTextOf(el)} `;
  const kids: Iterable<Node> = el.shadowRoot ? el.shadowRoot.childNodes : el.childNodes;
  let out = '';
  for (const n of flatten(kids)) {
    if (n.nodeType === Node.TEXT_NODE) {
      const parent = n.parentElement;
      if (!parent || isRendered(parent, { box: false })) out += (n as Text).data;
    } else if (n.nodeType === Node.ELEMENT_NODE) {
      const e = n as Element;
      if (NOT_TEXT.has(e.localName)) continue;
      const display = styleOf(e).display;
      const part = walkVisible(e, onPath);
      out += display.startsWith('inline') ? part : ` ${part} `;
    }
  }
  return out;
}

function* flatten(nodes: Iterable<Node>): Generator<Node> {
  for (const n of nodes) {
    if (isElement(n) && n.localName === 'slot') {
      const assigned = (n as HTMLSlotElement).assignedNodes();
      yield* flatten(assigned.length > 0 ? assigned : n.childNodes);
    } else yield n;
  }
}
