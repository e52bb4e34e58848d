import { CommandFailure, type SelectOption } from '../../../sdk/protocol/index.js';
import { fold } from '../dom/text.js';
import { q, listOf } from '../explain.js';

/**
 * Chooses options of a `<select>` as a person picking them would. Words: the exact label, else
 * the exact value, else the label with case and spacing ignored; `{ value }`, `{ label }` and
 * `{ index }` name one by that field alone. One option replaces the selection (also in a
 * multiple select); a list is the whole new selection of a multiple select. Then `input` and
 * `change` fire.
 */
export function selectOption(select: HTMLSelectElement, wanted: SelectOption | readonly SelectOption[]): void {
  const list = Array.isArray(wanted) ? (wanted as readonly SelectOption[]) : [wanted as SelectOption];
  if (Array.isArray(wanted) && !select.multiple && list.length !== 1) {
    throw new CommandFailure('unsupported', `The <select> takes one option (it is not \`multiple\`); ${list.length} were given. Give one option, not a list.`, {
      options: list.length,
    });
  }
  const chosen = new Set(list.map((w) => optionFor(select, w)));
  for (const o of select.options) o.selected = chosen.has(o);
  select.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  select.dispatchEvent(new Event('change', { bubbles: true }));
}

const labelOf = (o: HTMLOptionElement): string => fold(o.label || o.text);

function optionFor(select: HTMLSelectElement, wanted: SelectOption): HTMLOptionElement {
  const options = Array.from(select.options);
  const option =
    typeof wanted === 'string'
      ? (options.find((o) => labelOf(o) === fold(wanted)) ??
        options.find((o) => o.value === wanted) ??
        options.find((o) => labelOf(o).toLowerCase() === fold(wanted).toLowerCase()))
      : 'index' in wanted
        ? options[wanted.index]
        : 'value' in wanted
          ? options.find((o) => o.value === wanted.value)
          : options.find((o) => labelOf(o) === fold(wanted.label));
  const named = nameOf(wanted);
  if (!option) {
    const how = typeof wanted === 'string' ? ' (by label or value)' : 'index' in wanted ? ` (it has ${options.length})` : '';
    throw new CommandFailure(
      'not-found',
      `The <select> has no option ${named}${how}. Its options are: ${listOf(options.map((o) => (o.value && o.value !== labelOf(o) ? `${q(labelOf(o))} (value ${q(o.value)})` : q(labelOf(o)))), 20)}.`,
      { option: wanted, options: options.map((o) => ({ label: labelOf(o), value: o.value, ...(o.disabled ? { disabled: true } : {}) })) },
    );
  }
  if (option.disabled || (option.parentElement?.localName === 'optgroup' && (option.parentElement as HTMLOptGroupElement).disabled)) {
    throw new CommandFailure('not-enabled', `The option ${q(labelOf(option))} of the <select> is disabled.`, { option: wanted });
  }
  return option;
}

function nameOf(wanted: SelectOption): string {
  if (typeof wanted === 'string') return q(wanted);
  if ('index' in wanted) return `at index ${wanted.index}`;
  return 'value' in wanted ? `with value ${q(wanted.value)}` : `labelled ${q(wanted.label)}`;
}
