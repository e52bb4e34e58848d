import { ROLE_FILTER_ROLES } from '../../../sdk/protocol/target.js';
import { roleOf } from './aria.js';
import { composedParent } from './query.js';

const FORM_CONTROLS = new Set(['button', 'input', 'select', 'textarea', 'optgroup', 'option', 'fieldset']);

/**
 * Enabled: not `:disabled` (own attribute, a disabled fieldset, a disabled optgroup) and no
 * `aria-disabled="true"` on it or an ancestor (ARIA lets a container disable its content).
 */
export function isEnabled(el: Element): boolean {
  return disabledBy(el) === undefined;
}

/** What disables an element, in words; undefined when enabled. */
export function disabledBy(el: Element): string | undefined {
  if (FORM_CONTROLS.has(el.localName) && el.matches(':disabled')) {
    if (el.hasAttribute('disabled')) return 'it has the disabled attribute';
    return el.closest('fieldset[disabled]') ? 'it is inside a disabled <fieldset>' : 'it is disabled';
  }
  for (let n: Element | null = el; n; n = composedParent(n)) {
    const aria = n.getAttribute('aria-disabled');
    if (aria === 'true') return n === el ? 'it has aria-disabled="true"' : 'an ancestor has aria-disabled="true"';
    // An explicit "false" ends what the containers above say (an enabled control in a disabled
    // group), as Playwright reads it.
    if (aria === 'false') return undefined;
  }
  return undefined;
}

const NOT_TYPED = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'color', 'range', 'hidden']);

/** Inputs whose value a person picks rather than types (a slider, a date or time picker, a colour well). */
const PICKED_TYPES = new Set(['range', 'color', 'date', 'time', 'datetime-local', 'month', 'week']);

/** Whether `fill` sets its value in the page, as Playwright's fill does: an enabled, writable input a person picks a value in. */
export function takesValue(el: Element): boolean {
  if (el.localName !== 'input' || !isEnabled(el)) return false;
  const input = el as HTMLInputElement;
  return PICKED_TYPES.has(input.type) && !input.readOnly;
}

/** Whether a person could type into it: a text-like input, textarea or contenteditable, enabled and not read-only. */
export function isEditable(el: Element): boolean {
  if (!isEnabled(el)) return false;
  if (el.localName === 'input') {
    const input = el as HTMLInputElement;
    return !NOT_TYPED.has(input.type) && !input.readOnly;
  }
  if (el.localName === 'textarea') return !(el as HTMLTextAreaElement).readOnly;
  return (el as HTMLElement).isContentEditable === true && el.getAttribute('aria-readonly') !== 'true';
}

/**
 * Whether a person is shown the element as invalid: `aria-invalid="true"` (what form libraries
 * set once a rule fails), or a native field the person has changed that fails its constraints
 * (`:user-invalid`; an untouched required field is not yet).
 */
export function isInvalid(el: Element): boolean {
  const aria = el.getAttribute('aria-invalid');
  if (aria !== null && aria !== 'false') return true;
  try {
    return el.matches(':user-invalid');
  } catch {
    return false;
  }
}

/**
 * Whether the element is shown expanded (`aria-expanded="true"`: an open disclosure, menu button
 * or combobox) or collapsed (`"false"`); undefined for one that neither expands nor collapses.
 */
export function expandedState(el: Element): boolean | undefined {
  const expanded = el.getAttribute('aria-expanded');
  return expanded === 'true' ? true : expanded === 'false' ? false : undefined;
}

/** Whether the element is the selected one of its set: `aria-selected="true"` (a tab, a grid cell), or a selected `<option>`. */
export function isSelected(el: Element): boolean {
  return el.getAttribute('aria-selected') === 'true' || (el.localName === 'option' && (el as HTMLOptionElement).selected);
}

/** Whether a toggle button is pressed (`aria-pressed="true"`). */
export function isPressed(el: Element): boolean {
  return el.getAttribute('aria-pressed') === 'true';
}

export type CheckKind = 'checkbox' | 'radio';

/**
 * For checkboxes and radios, native or by role: their kind and state. `mixed`: an indeterminate
 * box (a native checkbox's `indeterminate`, `aria-checked="mixed"`), whatever `checked` says.
 */
export function checkState(el: Element): { kind: CheckKind; checked: boolean; mixed: boolean } | undefined {
  if (el.localName === 'input') {
    const input = el as HTMLInputElement;
    if (input.type === 'checkbox' || input.type === 'radio') return { kind: input.type, checked: input.checked, mixed: input.type === 'checkbox' && input.indeterminate };
    return undefined;
  }
  const role = roleOf(el);
  const kind: CheckKind | undefined =
    role === 'checkbox' || role === 'switch' || role === 'menuitemcheckbox' ? 'checkbox' : role === 'radio' || role === 'menuitemradio' ? 'radio' : undefined;
  if (!kind) return undefined;
  const aria = el.getAttribute('aria-checked');
  return { kind, checked: aria === 'true', mixed: aria === 'mixed' };
}

/**
 * What a person is told of a box: checked, not, or `'mixed'` (which wins, as a screen reader says
 * it); what cannot be checked is not checked (Playwright's `getByRole` `checked` reads it so).
 */
export function checkedValue(el: Element): boolean | 'mixed' {
  const c = checkState(el);
  if (c) return c.mixed ? 'mixed' : c.checked;
  // An option or tree item ticked in a list that picks several: its aria-checked.
  if (!ROLE_FILTER_ROLES.checked.includes(roleOf(el))) return false;
  const aria = el.getAttribute('aria-checked');
  return aria === 'mixed' ? 'mixed' : aria === 'true';
}

/**
 * An element's level: a heading's tag (`<h1>`–`<h6>`), else `aria-level` on a role that has
 * levels (heading, listitem, row, treeitem); undefined otherwise. The tag wins, as Playwright's
 * `getByRole(role, { level })` reads it.
 */
export function levelOf(el: Element, role = roleOf(el)): number | undefined {
  if (!ROLE_FILTER_ROLES.level.includes(role)) return undefined;
  const m = /^h([1-6])$/.exec(el.localName);
  if (m) return Number(m[1]);
  const aria = Number(el.getAttribute('aria-level'));
  return Number.isInteger(aria) && aria > 0 ? aria : undefined;
}

/**
 * The checkable element an action on `el` changes: itself, or the control of a `<label>`
 * (people often name a checkbox by its label's text).
 */
export function checkableOf(el: Element): Element | undefined {
  if (checkState(el)) return el;
  if (el.localName === 'label') {
    const control = (el as HTMLLabelElement).control;
    if (control && checkState(control)) return control;
    // A web component's label in its own shadow root, for the host that is the checkbox
    // (Fluent's <fluent-checkbox role="checkbox">): clicking the label checks the host.
    const host = (el.getRootNode() as Partial<ShadowRoot>).host;
    if (!control && host && checkState(host)) return host;
  }
  return undefined;
}
