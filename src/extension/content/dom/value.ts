import { fold, visibleText } from './text.js';
import { isRendered } from './visibility.js';

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

/** The value a `value` verify compares: inputs and textareas, a select's value; undefined for others. */
export function controlValue(el: Element): string | undefined {
  const tag = el.localName;
  if (tag === 'input' || tag === 'textarea' || tag === 'select') return (el as HTMLInputElement).value;
  if ((el as HTMLElement).isContentEditable) return fold((el as HTMLElement).innerText);
  return undefined;
}
