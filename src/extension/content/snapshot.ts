import { frameKey, SNAPSHOT_LINES_DEFAULT, SNAPSHOT_LINES_MAX, type AnswerOf, type RequestOf } from '../../sdk/protocol/index.js';
import { accessibleName, isInteractive, roleOf, UNNAMED_ROLES } from './dom/aria.js';
import { iconsOf } from './dom/describe.js';
import { isElement, isFrameElement, shadowRootOf } from './dom/nodes.js';
import { pictureOf } from './dom/picture.js';
import { deepActiveElement, frameKeyOf, sameOriginDocument } from './dom/query.js';
import { checkedValue, expandedState, levelOf, isEnabled, isInvalid, isPressed, isSelected } from './dom/state.js';
import { cut, fold, TextIndex } from './dom/text.js';
import { rangeValue, selectedLabels } from './dom/value.js';
import { isRendered } from './dom/visibility.js';
import { levelsTo, probe } from './frames.js';
import { OVERLAY_ATTR } from './outline.js';
import { refs } from './refs.js';

const NAME_MAX = 80;
const TEXT_MAX = 80;

// Never page content a person sees.
const SKIP = new Set(['head', 'script', 'style', 'noscript', 'template', 'link', 'meta', 'title']);
// Roles whose name is their content: their text is already on their line.
const NAMED_BY_CONTENT = new Set(['button', 'link', 'heading', 'option', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'checkbox', 'radio', 'switch', 'treeitem', 'cell', 'gridcell', 'columnheader', 'rowheader']);
const VALUE_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider']);

/**
 * `snapshot`: the page as a short outline of what a person (or an agent) can see and use, one
 * line per element with a role, its accessible name, its states and a ref:
 *
 *     - heading "Sign in" [level=1] [ref=e1]
 *     - textbox "Email" [focused] [ref=e2]: "ana@example.com"
 *     - iframe "payment" [ref=e3]:
 *       - textbox "Card number" [ref=e4]
 *
 * It follows the rendered tree: shadow roots, open and closed, in place of their host's light children (a
 * slot shows what is assigned to it), same-origin iframes inside their iframe's line. A
 * cross-origin iframe's document is not reachable from here: its line is listed with the probe
 * that names its frame (`frames` of the answer), and the worker reads it with the frame's own
 * content script when its origin is allowed, or says why not (FrameRoute). Hidden and aria-hidden subtrees are left out. A ref
 * is a target (`{ ref: 'e4' }`) until its element leaves the page (see refs.ts). Bounded:
 * `maxLines` lines at most, and the last line says how much was cut.
 */
export async function snapshot(req: RequestOf<'snapshot'>): Promise<AnswerOf<'snapshot'>> {
  if (req.firstRef !== undefined) refs.numberFrom(req.firstRef);
  const out = new Outline(Math.min(req.maxLines ?? SNAPSHOT_LINES_DEFAULT, SNAPSHOT_LINES_MAX));
  visitChildren(document.body ?? document.documentElement, { depth: 0, nameIsText: false }, out);
  const text = out.finish();
  const frames = out.frames.length > 0 ? { frames: out.frames } : {};
  return { id: req.id, ok: true, url: location.href, title: document.title, text, lines: out.lineCount, refs: out.refCount, truncated: out.cut > 0, nextRef: refs.next, ...frames };
}

interface Place {
  depth: number;
  /** The nearest line's name already says this text (a button's, a link's). */
  nameIsText: boolean;
  /** The iframe keys that lead to the document being walked (absent: this script's document). */
  frames?: string[];
}

class Outline {
  readonly #lines: string[] = [];
  readonly texts = new TextIndex();
  readonly focused = deepActiveElement();
  /** The cross-site iframes listed, for the worker to read. */
  readonly frames: NonNullable<AnswerOf<'snapshot'>['frames']> = [];
  refCount = 0;
  cut = 0;

  constructor(private readonly max: number) {}

  get full(): boolean {
    return this.#lines.length >= this.max;
  }

  get lineCount(): number {
    return this.#lines.length;
  }

  add(depth: number, line: string): boolean {
    if (this.full) {
      this.cut++;
      return false;
    }
    this.#lines.push(`${'  '.repeat(depth)}- ${line}`);
    return true;
  }

  finish(): string {
    if (this.cut > 0) this.#lines.push(`- … ${this.cut} more line(s) not shown (the snapshot stops at ${this.max} lines; ask for more with maxLines)`);
    return this.#lines.join('\n');
  }
}

function visitChildren(parent: ParentNode, at: Place, out: Outline): void {
  const host = isElement(parent as Node) ? (parent as Element) : undefined;
  // What renders: a host's shadow tree (open or closed) instead of its light children; a slot's assigned nodes.
  const root = host ? shadowRootOf(host) : null;
  let nodes: ArrayLike<Node>;
  if (root) nodes = root.childNodes;
  else if (host?.localName === 'slot') {
    const assigned = (host as HTMLSlotElement).assignedNodes({ flatten: true });
    nodes = assigned.length > 0 ? assigned : host.childNodes;
  } else nodes = parent.childNodes;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    if (node.nodeType === Node.TEXT_NODE) {
      if (at.nameIsText) continue;
      const text = fold(node.textContent ?? '');
      if (text) out.add(at.depth, `text: ${JSON.stringify(cut(text, TEXT_MAX))}`);
      continue;
    }
    if (isElement(node)) visitElement(node, at, out);
  }
}

function visitElement(el: Element, at: Place, out: Outline): void {
  if (SKIP.has(el.localName) || el.hasAttribute(OVERLAY_ATTR)) return;
  if (el.getAttribute('aria-hidden') === 'true' || (el.localName !== 'slot' && !isRendered(el, { box: false }))) return;
  if (isFrameElement(el)) return visitFrame(el, at, out);
  // A label's text is its control's name, on the control's line.
  if (el.localName === 'label') return visitChildren(el, { ...at, nameIsText: true }, out);
  const role = roleOf(el);
  const shown = !UNNAMED_ROLES.has(role) || isInteractive(el);
  if (!shown) return visitChildren(el, at, out);
  const name = cut(accessibleName(el, out.texts), NAME_MAX);
  const ref = refs.refOf(el, frameKey(at.frames ?? []));
  const value = valueOf(el, role);
  // A control that says nothing is known by what it shows (an icon-only card tool, a logo link),
  // as its descriptor's `icon` knows it: the way to tell such refs apart.
  const icon = name || !isInteractive(el) ? undefined : (iconsOf(el, out.texts)?.names.join(' ') ?? pictureOf(el));
  const line = `${role || el.localName}${name ? ` ${JSON.stringify(name)}` : ''}${icon ? ` [icon=${JSON.stringify(icon)}]` : ''}${statesOf(el, role, out)} [ref=${ref}]${value}`;
  if (!out.add(at.depth, line)) return;
  out.refCount++;
  // A control's own text (a select's options, a textarea's content) is its value, not more lines.
  if (el.localName === 'select' || el.localName === 'textarea' || el.localName === 'input') return;
  const nameIsText = NAMED_BY_CONTENT.has(role) && name !== '';
  visitChildren(el, { ...at, depth: at.depth + 1, nameIsText }, out);
}

function visitFrame(frame: Element, at: Place, out: Outline): void {
  const name = cut(fold(frame.getAttribute('title') ?? frame.getAttribute('name') ?? frame.id ?? ''), NAME_MAX);
  const doc = sameOriginDocument(frame);
  const ref = refs.refOf(frame, frameKey(at.frames ?? []));
  if (!out.add(at.depth, `iframe${name ? ` ${JSON.stringify(name)}` : ''} [ref=${ref}]`)) return;
  out.refCount++;
  const path = [...(at.frames ?? []), frameKeyOf(frame)];
  if (!doc) {
    // Also one inside same-origin iframes here: `levels` says how far below this document it lies.
    const levels = levelsTo(frame);
    out.frames.push({ line: out.lineCount - 1, probe: probe(frame), path, src: (frame as HTMLIFrameElement).src ?? '', ...(levels > 1 ? { levels } : {}) });
    return;
  }
  if (doc.body) visitChildren(doc.body, { depth: at.depth + 1, nameIsText: false, frames: path }, out);
}


function statesOf(el: Element, role: string, out: Outline): string {
  const states: string[] = [];
  const level = levelOf(el, role);
  if (level) states.push(`level=${level}`);
  const checked = checkedValue(el);
  if (checked === true) states.push('checked');
  if (checked === 'mixed') states.push('mixed');
  if ((isInteractive(el) || el.hasAttribute('aria-disabled')) && !isEnabled(el)) states.push('disabled');
  const expanded = expandedState(el);
  if (expanded !== undefined) states.push(expanded ? 'expanded' : 'collapsed');
  if (isSelected(el)) states.push('selected');
  if (isPressed(el)) states.push('pressed');
  if ((el as HTMLInputElement).required === true || el.getAttribute('aria-required') === 'true') states.push('required');
  if (isInvalid(el)) states.push('invalid');
  if (out.focused === el) states.push('focused');
  return states.map((s) => ` [${s}]`).join('');
}

/** A field's current value, after a colon; never a password's. */
function valueOf(el: Element, role: string): string {
  if (el.localName === 'select') {
    const labels = selectedLabels(el as HTMLSelectElement);
    return labels.length > 0 ? `: ${JSON.stringify(cut(labels.join(', '), TEXT_MAX))}` : '';
  }
  const range = rangeValue(el, role);
  if (range !== undefined) {
    // A noUiSlider handle, a progress bar: what a screen reader says, else the number.
    const said = range.said ?? range.number;
    return said ? `: ${JSON.stringify(cut(fold(said), TEXT_MAX))}` : '';
  }
  if (!VALUE_ROLES.has(role)) return '';
  if (el.localName !== 'input' && el.localName !== 'textarea') return '';
  const input = el as HTMLInputElement;
  if (input.value === '') return '';
  if (input.type === 'password') return ': (a password, not shown)';
  return `: ${JSON.stringify(cut(fold(input.value), TEXT_MAX))}`;
}
