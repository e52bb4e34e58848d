import { accessibleName, roleOf } from './aria.js';
import { walkElements } from './query.js';
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
