import { isSvgElement } from './nodes.js';
import { fold, pageText, TextIndex } from './text.js';

// Implicit roles of input types (html-aam). A text-like input with a `list` is a combobox.
const INPUT_ROLES: Record<string, string> = {
  button: 'button', submit: 'button', reset: 'button', image: 'button', file: 'button',
  checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton', search: 'searchbox',
  email: 'textbox', tel: 'textbox', text: 'textbox', url: 'textbox', password: 'textbox',
};

const TAG_ROLES: Record<string, string> = {
  article: 'article', aside: 'complementary', button: 'button', dd: 'definition', details: 'group',
  dialog: 'dialog', dt: 'term', fieldset: 'group', figure: 'figure', h1: 'heading', h2: 'heading',
  h3: 'heading', h4: 'heading', h5: 'heading', h6: 'heading', hr: 'separator', li: 'listitem',
  main: 'main', menu: 'list', meter: 'meter', nav: 'navigation', ol: 'list', optgroup: 'group',
  option: 'option', output: 'status', progress: 'progressbar', search: 'search', table: 'table',
  tbody: 'rowgroup', tfoot: 'rowgroup', thead: 'rowgroup', textarea: 'textbox', tr: 'row', ul: 'list',
  form: 'form', summary: 'button',
};

/** The element's ARIA role: the first token of `role`, else the implicit one; '' for none. */
export function roleOf(el: Element): string {
  const explicit = el.getAttribute('role')?.trim().split(/\s+/)[0]?.toLowerCase();
  if (explicit) return explicit === 'none' ? 'presentation' : explicit;
  const tag = el.localName;
  switch (tag) {
    case 'a':
    case 'area':
      return el.hasAttribute('href') ? 'link' : '';
    case 'input': {
      const input = el as HTMLInputElement;
      if (input.type === 'hidden') return '';
      const role = INPUT_ROLES[input.type] ?? 'textbox';
      return role === 'textbox' && input.hasAttribute('list') ? 'combobox' : role;
    }
    case 'select': {
      const s = el as HTMLSelectElement;
      return s.multiple || s.size > 1 ? 'listbox' : 'combobox';
    }
    case 'img':
      return el.getAttribute('alt') === '' ? 'presentation' : 'img';
    case 'section':
      return hasOwnName(el) ? 'region' : '';
    case 'header':
    case 'footer':
      // Only a landmark when it belongs to the page, not to an article or section.
      return el.parentElement?.closest('article, aside, main, nav, section')
        ? ''
        : tag === 'header'
          ? 'banner'
          : 'contentinfo';
    case 'td':
      return el.closest('table')?.getAttribute('role') === 'grid' ? 'gridcell' : 'cell';
    case 'th': {
      const th = el as HTMLTableCellElement;
      const scope = th.getAttribute('scope');
      if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
      return th.closest('thead') || scope === 'col' || scope === 'colgroup' ? 'columnheader' : isFirstCell(th) ? 'rowheader' : 'columnheader';
    }
    default:
      return TAG_ROLES[tag] ?? '';
  }
}

function isFirstCell(th: HTMLTableCellElement): boolean {
  const row = th.parentElement as HTMLTableRowElement | null;
  return !!row && row.cells.length > 1 && row.cells[0] === th && row.rowIndex > 0;
}

function hasOwnName(el: Element): boolean {
  return !!(el.getAttribute('aria-label')?.trim() || el.getAttribute('aria-labelledby')?.trim() || el.getAttribute('title')?.trim());
}

// Roles whose accessible name comes from their content (accname "name from content").
const NAME_FROM_CONTENT = new Set([
  'button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'link', 'menuitem',
  'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'row', 'rowheader', 'switch', 'tab',
  'tooltip', 'treeitem', 'term', 'legend',
]);

/** Roles that carry no name of their own: `name` alone never matches them. */
export const UNNAMED_ROLES = new Set(['', 'generic', 'presentation', 'none']);

/**
 * The accessible name, by the accname steps that matter for finding elements:
 * aria-labelledby, aria-label, native labels (label[for], wrapping label, legend, caption,
 * figcaption, alt, button value), content for name-from-content roles, title, placeholder.
 */
export function accessibleName(el: Element, texts: TextIndex = new TextIndex()): string {
  const byIds = labelledByText(el, texts);
  if (byIds) return byIds;
  const aria = el.getAttribute('aria-label')?.trim();
  if (aria) return fold(aria);
  const native = nativeName(el, texts);
  if (native) return native;
  if (NAME_FROM_CONTENT.has(roleOf(el))) {
    const t = texts.of(el) || generatedText(el);
    if (t) return t;
  }
  const title = el.getAttribute('title')?.trim();
  if (title) return fold(title);
  const placeholder = el.getAttribute('placeholder')?.trim();
  return placeholder ? fold(placeholder) : '';
}

/**
 * The text a stylesheet draws before and after an element with no text of its own (`content:
 * "Heading 1"`), which names it as it names Quill's picker items in Playwright and in a screen
 * reader. Icon fonts' glyphs (private-use characters) are no words, and are left out. Read only
 * for elements with no text, so it costs nothing on the others.
 */
function generatedText(el: Element): string {
  const view = el.ownerDocument.defaultView;
  if (!view) return '';
  const parts: string[] = [];
  for (const pseudo of ['::before', '::after']) {
    const content = view.getComputedStyle(el, pseudo).content;
    for (const quoted of content.matchAll(/"((?:[^"\\]|\\.)*)"/g)) parts.push(quoted[1]!.replace(/\\(.)/g, '$1'));
  }
  return fold(parts.join('').replace(/[\uE000-\uF8FF]|[\u{F0000}-\u{10FFFF}]/gu, ''));
}

function labelledByText(el: Element, texts: TextIndex): string {
  const ids = el.getAttribute('aria-labelledby')?.trim();
  if (!ids) return '';
  const root = el.getRootNode() as Document | ShadowRoot;
  const parts: string[] = [];
  for (const id of ids.split(/\s+/)) {
    const ref = root.getElementById(id);
    if (!ref) continue;
    parts.push(ref.getAttribute('aria-label')?.trim() || texts.of(ref));
  }
  return fold(parts.join(' '));
}

/** Text of the `<label>` elements of a form control, without the control's own text. */
export function nativeLabels(el: Element, texts: TextIndex = new TextIndex()): string[] {
  const labels = texts.labelsOf(el);
  const out: string[] = [];
  for (const label of labels) {
    const t = label.contains(el) ? labelTextWithout(label, el, texts) : texts.of(label);
    if (t) out.push(t);
  }
  return out;
}

// A wrapping label's text minus the control (a select's options would otherwise be in it).
function labelTextWithout(label: Element, control: Element, texts: TextIndex): string {
  // A slot's text is what the host assigned to it, which a detached copy has lost: such a label
  // (a web component's, `<label><input><slot></slot></label>` in its shadow root) is read as it
  // renders, the control's own text taken out.
  if (label.querySelector('slot')) {
    const own = texts.of(control);
    const whole = texts.of(label);
    return own ? fold(whole.replace(own, ' ')) : whole;
  }
  const clone = label.cloneNode(true) as Element;
  const path: number[] = [];
  for (let n: Node = control; n !== label; n = n.parentNode!) {
    path.unshift(Array.prototype.indexOf.call(n.parentNode!.childNodes, n));
  }
  let target: Node = clone;
  for (const i of path) target = target.childNodes[i]!;
  target.parentNode?.removeChild(target);
  return pageText(clone);
}

function nativeName(el: Element, texts: TextIndex): string {
  const tag = el.localName;
  if (tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'meter' || tag === 'progress' || tag === 'output' || tag === 'button') {
    const labels = nativeLabels(el, texts);
    if (labels.length > 0) return fold(labels.join(' '));
  }
  if (tag === 'input') {
    const input = el as HTMLInputElement;
    if (input.type === 'image') return fold(input.alt || input.value || '');
    if (input.type === 'submit' || input.type === 'reset' || input.type === 'button') {
      return fold(input.value || (input.type === 'submit' ? 'Submit' : input.type === 'reset' ? 'Reset' : ''));
    }
  }
  if (tag === 'img' || tag === 'area') return fold(el.getAttribute('alt') ?? '');
  if (tag === 'fieldset') return childText(el, 'legend', texts);
  if (tag === 'figure') return childText(el, 'figcaption', texts);
  if (tag === 'table') return childText(el, 'caption', texts);
  if (isSvgElement(el)) {
    const title = Array.from(el.children).find((c) => c.localName === 'title');
    if (title) return fold(title.textContent ?? '');
  }
  return '';
}

function childText(el: Element, tag: string, texts: TextIndex): string {
  for (const c of el.children) if (c.localName === tag) return texts.of(c);
  return '';
}

/**
 * The labels a `label` target key may name: `<label>` texts, aria-labelledby, aria-label.
 * Empty for elements that are neither labelable controls nor explicitly labelled.
 */
export function labelsOf(el: Element, texts: TextIndex): string[] {
  const out: string[] = [];
  const byIds = labelledByText(el, texts);
  if (byIds) out.push(byIds);
  const aria = el.getAttribute('aria-label')?.trim();
  if (aria) out.push(fold(aria));
  if ('labels' in el) out.push(...nativeLabels(el, texts));
  return out;
}

/**
 * Every element of these trees (a document and its shadow roots) that {@link labelsOf} can give
 * a label: one with an `aria-labelledby` or `aria-label`, or a control some `<label>` names. A
 * `label` target asks only these, not every element of the page.
 */
export function labelledIn(trees: readonly (Document | ShadowRoot)[], texts: TextIndex): Set<Element> {
  const out = new Set<Element>();
  for (const root of trees) {
    for (const el of root.querySelectorAll('[aria-labelledby], [aria-label]')) out.add(el);
    for (const el of texts.labelledControls(root)) out.add(el);
  }
  return out;
}

const INTERACTIVE_TAGS = new Set(['a', 'button', 'label', 'summary', 'select', 'option', 'input', 'textarea']);
const INTERACTIVE_ROLES = new Set([
  'button', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'checkbox', 'radio',
  'option', 'switch', 'treeitem', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton',
]);

/** An element a person would click as a whole (text matches are promoted to it). */
export function isInteractive(el: Element): boolean {
  if (INTERACTIVE_TAGS.has(el.localName)) return true;
  const role = el.getAttribute('role')?.trim().split(/\s+/)[0]?.toLowerCase();
  return !!role && INTERACTIVE_ROLES.has(role);
}

const WIDGET_ROLES = new Set([
  'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
  'option', 'textbox', 'searchbox', 'combobox', 'slider', 'spinbutton', 'treeitem', 'gridcell',
]);

/**
 * An element a person can operate: a link with a destination, a native control, a widget role,
 * or one the page made operable (`onclick`, `tabindex`, `contenteditable`). Wider than
 * {@link isInteractive} (which a text match is promoted to, a `<label>` included): these are the
 * elements repair and recording tell a target apart from (its peers and its candidates).
 */
export function isActionable(el: Element): boolean {
  const t = el.localName;
  if (t === 'a') return el.hasAttribute('href');
  if (t === 'button' || t === 'select' || t === 'textarea' || t === 'summary') return true;
  if (t === 'input') return (el as HTMLInputElement).type !== 'hidden';
  const role = el.getAttribute('role');
  if (role && WIDGET_ROLES.has(role)) return true;
  return el.hasAttribute('onclick') || el.hasAttribute('tabindex') || el.hasAttribute('contenteditable');
}

/** Inside a subtree that assistive technology is told to ignore (`aria-hidden="true"`). */
export function isAriaHidden(el: Element): boolean {
  for (let n: Element | null = el; n; n = n.parentElement ?? ((n.getRootNode() as ShadowRoot).host ?? null)) {
    if (n.getAttribute('aria-hidden') === 'true') return true;
  }
  return false;
}
