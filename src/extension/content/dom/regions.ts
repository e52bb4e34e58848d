import { accessibleName, roleOf } from './aria.js';
import { composedContains, composedParent, walkElements } from './query.js';
import { fold, matchText, type TextIndex } from './text.js';
import { isRendered } from './visibility.js';

const REGION_TAGS = new Set(['dialog', 'section', 'form', 'fieldset', 'main', 'nav', 'aside', 'header', 'footer']);
const REGION_ROLES = new Set([
  'dialog', 'alertdialog', 'region', 'form', 'group', 'main', 'navigation', 'banner', 'contentinfo',
  'complementary', 'search',
]);

/** A part of the page a `within: "<name>"` can name: dialog, section, form, fieldset or landmark. */
export function isRegion(el: Element): boolean {
  if (REGION_TAGS.has(el.localName)) return true;
  const explicit = el.getAttribute('role');
  return explicit !== null && REGION_ROLES.has(roleOf(el));
}

const HEADING_SELECTOR = 'h1, h2, h3, h4, h5, h6, [role="heading"]';

/** A region's name: its accessible name (aria-labelledby, aria-label, legend, title), else its first heading. */
export function regionName(el: Element, texts: TextIndex): string {
  const named = accessibleName(el, texts);
  if (named) return named;
  const heading = el.querySelector(HEADING_SELECTOR);
  return heading ? texts.of(heading) : '';
}

/**
 * The visible regions whose name matches (whole name preferred over a part of it, case and
 * spacing ignored), in document order. Nested regions with the same name are all kept: an
 * element inside any of them is inside the region.
 */
export function findRegions(root: Document | Element, name: string, texts: TextIndex): Element[] {
  const whole: Element[] = [];
  const part: Element[] = [];
  walkElements(root, (el) => {
    if (!isRegion(el)) return;
    const m = matchText(regionName(el, texts), name, false);
    if (!m || !isRendered(el)) return;
    (m === 'whole' ? whole : part).push(el);
  });
  return whole.length > 0 ? whole : part;
}

/** The nearest named region around an element (for a descriptor's context). */
export function enclosingRegionName(el: Element, texts: TextIndex, parentOf: (n: Element) => Element | null): string | undefined {
  for (let n = parentOf(el); n; n = parentOf(n)) {
    if (!isRegion(n)) continue;
    const name = fold(regionName(n, texts));
    if (name) return name;
  }
  return undefined;
}

// A row or card named by the text in it (`within: "Buy milk"`): the item a person points at.
const ROW_TAGS = new Set(['li', 'tr', 'article']);
const ROW_ROLES = new Set(['row', 'listitem', 'article', 'option', 'treeitem']);
// A class token that ends in "card" (`card`, `product-card`, `todo_card`, `card--active`); not
// the card's parts (`card-body`, `card-title`).
const CARD_CLASS = /(?:^|[-_])card(?:--[\w-]+)?$/i;

/** A list item, table or grid row, article, or an element whose class says it is a card. */
export function isRowOrCard(el: Element): boolean {
  if (ROW_TAGS.has(el.localName)) return true;
  const role = el.getAttribute('role');
  if (role !== null && ROW_ROLES.has(role)) return true;
  const cls = el.getAttribute('class');
  return cls !== null && cls.split(/\s+/).some((token) => CARD_CLASS.test(token));
}

/**
 * The rows or cards that hold these elements (each element's innermost one), innermost first:
 * a row that holds another of them is left out, so nested lists name the item, not its parent.
 */
export function rowsAround(hits: readonly Element[]): Element[] {
  const rows: Element[] = [];
  for (const hit of hits) {
    for (let n: Element | null = hit; n; n = composedParent(n)) {
      if (!isRowOrCard(n)) continue;
      if (!rows.includes(n)) rows.push(n);
      break;
    }
  }
  return rows.filter((r) => !rows.some((o) => o !== r && composedContains(r, o)));
}
