import { CommandFailure } from '../../../sdk/protocol/index.js';
import { fold } from '../dom/text.js';
import { q, listOf } from '../explain.js';

/**
 * Chooses an option of a `<select>` by its label or value, as a person picking it would:
 * exact label, else exact value, else label with case and spacing ignored. The choice
 * replaces the selection (also in a multiple select), then `input` and `change` fire.
 */
export function selectOption(select: HTMLSelectElement, wanted: string): void {
  const options = Array.from(select.options);
  const w = fold(wanted);
  const label = (o: HTMLOptionElement): string => fold(o.label || o.text);
  const option =
    options.find((o) => label(o) === w) ?? options.find((o) => o.value === wanted) ?? options.find((o) => label(o).toLowerCase() === w.toLowerCase());
  if (!option) {
    throw new CommandFailure(
      'not-found',
      `The <select> has no option ${q(wanted)} (by label or value). Its options are: ${listOf(options.map((o) => (o.value && o.value !== label(o) ? `${q(label(o))} (value ${q(o.value)})` : q(label(o)))), 20)}.`,
      { option: wanted, options: options.map((o) => ({ label: label(o), value: o.value, ...(o.disabled ? { disabled: true } : {}) })) },
    );
  }
  if (option.disabled || (option.parentElement?.localName === 'optgroup' && (option.parentElement as HTMLOptGroupElement).disabled)) {
    throw new CommandFailure('not-enabled', `The option ${q(label(option))} of the <select> is disabled.`, { option: wanted });
  }
  for (const o of options) o.selected = o === option;
  select.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  select.dispatchEvent(new Event('change', { bubbles: true }));
}
