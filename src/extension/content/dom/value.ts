import { roleOf } from './aria.js';
import { fold, visibleText } from './text.js';
import { isRendered } from './visibility.js';

/** Roles whose value is a point in a range, which ARIA widgets say with aria-valuetext or aria-valuenow. */
const RANGE_ROLES = new Set(['slider', 'spinbutton', 'progressbar', 'meter', 'scrollbar']);

/**
 * What a person reads from an element: a form control's value (a select's chosen option
 * labels), otherwise its visible text, whitespace folded; an element that is not shown at all
 * (read because nothing visible matched) has its text content, as Playwright's textContent.
 */
export function readableText(el: Element): string {
  const tag = el.localName;
  if (tag === 'input' || tag === 'textarea') return (el as HTMLInputElement).value;
  if (tag === 'select') return selectedLabels(el as HTMLSelectElement).join(', ');
  return isRendered(el, { box: false }) ? visibleText(el) : fold(el.textContent ?? '');
}

/** The labels of a select's selected options. */
export function selectedLabels(select: HTMLSelectElement): string[] {
  return Array.from(select.selectedOptions, (o) => fold(o.label || o.text));
}

/**
 * The value a `value` verify compares: inputs and textareas, a select's value, an editable
 * element's text; a widget drawn with ARIA has the value a screen reader says: a slider's
 * (spin button's, progress bar's) number, a combobox's shown text. Undefined for others.
 */
export function controlValue(el: Element): string | undefined {
  const tag = el.localName;
  if (tag === 'input' || tag === 'textarea' || tag === 'select') return (el as HTMLInputElement).value;
  if ((el as HTMLElement).isContentEditable) return fold((el as HTMLElement).innerText);
  const role = roleOf(el);
  if (RANGE_ROLES.has(role)) return rangeValue(el, role)?.number;
  if (role === 'combobox' || role === 'textbox' || role === 'searchbox') return visibleText(el);
  return undefined;
}

/** Other words a control's value may be named by: a select's option labels, a range widget's aria-valuetext. */
export function valueWords(el: Element): string[] {
  if (el.localName === 'select') return selectedLabels(el as HTMLSelectElement);
  const said = RANGE_ROLES.has(roleOf(el)) ? rangeValue(el)?.said : undefined;
  return said === undefined ? [] : [said];
}

/**
 * A range widget's value that is not an input's (a noUiSlider handle, a progress bar): the number
 * (aria-valuenow, a progress or meter element's value) and what a screen reader says for it
 * (aria-valuetext), when the page gives them.
 */
export function rangeValue(el: Element, role = roleOf(el)): { number?: string; said?: string } | undefined {
  if (!RANGE_ROLES.has(role) || el.localName === 'input') return undefined;
  const native = el.localName === 'progress' || el.localName === 'meter' ? String((el as HTMLProgressElement).value) : undefined;
  const number = el.getAttribute('aria-valuenow')?.trim() || native;
  const said = fold(el.getAttribute('aria-valuetext')) || undefined;
  return number === undefined && said === undefined ? undefined : { number, said };
}
