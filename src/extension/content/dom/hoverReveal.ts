import { styleOf } from './nodes.js';

/**
 * Hidden controls a page shows only while the pointer is over something (a table row's actions,
 * a card's menu: `.row:hover .actions { display: flex }`, Tailwind's `group-hover:`). A person
 * hovers first without thinking; a script must be told to. Read from the page's own style sheets
 * (those of other origins cannot be read), once a step has failed: never on the way to success.
 */

/** At most this many style rules are read, so a page with huge style sheets fails as fast as any. */
const MAX_RULES = 20_000;

/**
 * What a selector says "while hovered" with: CSS's `:hover`, or the attribute a component library
 * sets from its own pointer events and styles by (React Aria's `[data-hovered]`, Headless UI's
 * `[data-hover]`), with or without a value.
 */
const HOVER_STATE = /:hover(?![\w-])|\[\s*data-hover(?:ed)?\s*(?:[~|^$*]?=[^\]]*)?\]/g;

/** The element whose hover a page's style rule shows `el` (or the hidden box around it) by, and how the rule says hover. */
export function hoverHolder(el: Element): { holder: Element; by: string } | undefined {
  let read = 0;
  for (const rule of styleRules(el)) {
    if (++read > MAX_RULES) return undefined;
    const by = rule.selectorText.match(HOVER_STATE)?.[0];
    if (!by || !reveals(rule.style)) continue;
    for (const selector of splitTopLevel(rule.selectorText, ',')) {
      const holder = holderFor(el, selector.trim(), rule.style);
      if (holder) return { holder, by: by.replace(/\s*=.*(?=\])/, '') };
    }
  }
  return undefined;
}

/** Whether a rule's declarations make a hidden box shown. */
function reveals(style: CSSStyleDeclaration): boolean {
  return (style.display !== '' && style.display !== 'none') || style.visibility === 'visible';
}

function holderFor(el: Element, selector: string, style: CSSStyleDeclaration): Element | undefined {
  const at = selector.search(HOVER_STATE);
  if (at < 0) return undefined;
  const compounds = splitCompounds(selector);
  const hovered = compounds.findIndex((c) => c.start <= at && at < c.end);
  // `.menu:hover { display: block }` shows what is already under the pointer: nothing to hover first.
  if (hovered < 0 || hovered === compounds.length - 1) return undefined;
  const plain = (s: string): string => s.replaceAll(HOVER_STATE, '');
  const subject = matchOrNull(() => el.closest(plain(selector)));
  if (!subject) return undefined;
  const computed = styleOf(subject);
  const hidden = (style.display !== '' && style.display !== 'none' && computed.display === 'none') || (style.visibility === 'visible' && computed.visibility === 'hidden');
  if (!hidden) return undefined;
  const own = plain(selector.slice(compounds[hovered]!.start, compounds[hovered]!.end)).trim() || '*';
  return matchOrNull(() => subject.parentElement?.closest(own) ?? null) ?? undefined;
}

function matchOrNull(find: () => Element | null): Element | null {
  try {
    return find();
  } catch {
    // A selector this Chrome reads but `matches` refuses (a pseudo-element, a vendor prefix).
    return null;
  }
}

/** The compound selectors of a complex one, as offsets into it (combinators and spaces between). */
function splitCompounds(selector: string): { start: number; end: number }[] {
  const parts: { start: number; end: number }[] = [];
  let depth = 0;
  let start = -1;
  for (let i = 0; i <= selector.length; i++) {
    const c = selector[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    const between = c === undefined || (depth === 0 && /[\s>+~]/.test(c));
    if (between && start >= 0) {
      parts.push({ start, end: i });
      start = -1;
    } else if (!between && start < 0) start = i;
  }
  return parts;
}

function splitTopLevel(text: string, separator: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === separator && depth === 0) {
      out.push(text.slice(from, i));
      from = i + 1;
    }
  }
  out.push(text.slice(from));
  return out;
}

/** The style rules that can apply to `el`: its document's and its shadow roots' sheets, inside @media, @supports and @layer. */
function* styleRules(el: Element): Generator<CSSStyleRule> {
  const roots: (Document | ShadowRoot)[] = [];
  // Duck-typed: a same-origin frame's nodes are of its own realm, not this one's.
  for (let root = el.getRootNode(); 'host' in root; root = (root as ShadowRoot).host.getRootNode()) roots.push(root as ShadowRoot);
  roots.push(el.ownerDocument);
  for (const root of roots) {
    for (const sheet of [...Array.from(root.styleSheets), ...root.adoptedStyleSheets]) yield* rulesOf(sheet);
  }
}

function* rulesOf(sheet: { cssRules: CSSRuleList }): Generator<CSSStyleRule> {
  let rules: CSSRuleList;
  try {
    rules = sheet.cssRules;
  } catch {
    return; // another origin's sheet
  }
  for (const rule of Array.from(rules)) {
    if ('selectorText' in rule) yield rule as CSSStyleRule;
    // @media, @supports, @layer, and rules nested in a style rule.
    if ('cssRules' in rule) yield* rulesOf(rule as CSSGroupingRule);
  }
}
