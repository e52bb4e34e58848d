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
    const by = rule.selector.match(HOVER_STATE)?.[0];
    if (!by || !reveals(rule.style)) continue;
    for (const selector of splitTopLevel(rule.selector, ',')) {
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
  const hover = new RegExp(HOVER_STATE.source).exec(selector);
  if (!hover) return undefined;
  let compound = compoundAround(selector, hover.index, hover.index + hover[0].length);
  // The hovered compound closes an `:is(…)`/`:where(…)`: what is hovered is the compound around it.
  while (selector[compound.start - 1] === '(' && selector.slice(compound.end).trimStart().startsWith(')')) {
    compound = compoundAround(selector, compound.start - 1, selector.indexOf(')', compound.end) + 1);
  }
  // `.menu:hover { display: block }` shows what is already under the pointer: nothing to hover first.
  const after = selector.slice(compound.end).trimStart();
  if (after === '' || after.startsWith(')') || after.startsWith(',')) return undefined;
  const plain = (s: string): string => s.replaceAll(HOVER_STATE, '');
  const subject = matchOrNull(() => el.closest(plain(selector)));
  if (!subject) return undefined;
  const computed = styleOf(subject);
  const hidden = (style.display !== '' && style.display !== 'none' && computed.display === 'none') || (style.visibility === 'visible' && computed.visibility === 'hidden');
  if (!hidden) return undefined;
  const own = plain(selector.slice(compound.start, compound.end)).trim() || '*';
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

/**
 * The compound selector around `selector[from, to)` at that depth of parentheses (inside an
 * `:is(…)` too), as offsets: it ends at a combinator, a space, a comma or its enclosing bracket.
 */
function compoundAround(selector: string, from: number, to: number): { start: number; end: number } {
  let start = from;
  for (let depth = 0; start > 0; start--) {
    const c = selector[start - 1]!;
    if (c === ')' || c === ']') depth++;
    else if (c === '(' || c === '[') {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && /[\s>+~,]/.test(c)) break;
  }
  let end = to;
  for (let depth = 0; end < selector.length; end++) {
    const c = selector[end]!;
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && /[\s>+~,]/.test(c)) break;
  }
  return { start, end };
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

/** A style rule's declarations and the whole selector they apply by (a nested rule's joined to its parents'). */
interface StyleRule {
  selector: string;
  style: CSSStyleDeclaration;
}

/** The style rules that can apply to `el`: its document's and its shadow roots' sheets, inside @media, @supports, @layer and nested rules. */
function* styleRules(el: Element): Generator<StyleRule> {
  const roots: (Document | ShadowRoot)[] = [];
  // Duck-typed: a same-origin frame's nodes are of its own realm, not this one's.
  for (let root = el.getRootNode(); 'host' in root; root = (root as ShadowRoot).host.getRootNode()) roots.push(root as ShadowRoot);
  roots.push(el.ownerDocument);
  for (const root of roots) {
    for (const sheet of [...Array.from(root.styleSheets), ...root.adoptedStyleSheets]) yield* rulesOf(sheet, undefined);
  }
}

function* rulesOf(sheet: { cssRules: CSSRuleList }, parent: string | undefined): Generator<StyleRule> {
  let rules: CSSRuleList;
  try {
    rules = sheet.cssRules;
  } catch {
    return; // another origin's sheet
  }
  for (const rule of Array.from(rules)) {
    let selector = parent;
    if ('selectorText' in rule) {
      selector = parent === undefined ? (rule as CSSStyleRule).selectorText : nested((rule as CSSStyleRule).selectorText, parent);
      yield { selector, style: (rule as CSSStyleRule).style };
    } else if ('style' in rule && parent !== undefined) {
      // Declarations nested in a style rule after its rules, or in an @media inside it.
      yield { selector: parent, style: (rule as CSSNestedDeclarations).style };
    }
    // @media, @supports, @layer, and rules nested in a style rule.
    if ('cssRules' in rule) yield* rulesOf(rule as CSSGroupingRule, selector);
  }
}

/** A nested rule's selector as a whole one: `&` is its parent; without one it is a descendant of it. */
function nested(selector: string, parent: string): string {
  return splitTopLevel(selector, ',')
    .map((part) => (part.includes('&') ? part.replaceAll('&', `:is(${parent})`) : `:is(${parent}) ${part.trim()}`))
    .join(', ');
}
