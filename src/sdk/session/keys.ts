import { _keyDefinitions } from 'puppeteer-core/internal/common/USKeyboardLayout.js';
import { closest } from '../errors/suggest.js';

/**
 * The keys `press` knows: exactly puppeteer's key names (what `keyboard.press` sends), so a
 * script checked before Chrome starts and the runner that presses agree. A chord is modifiers
 * and one key joined by `+`: `Control+A`, `Shift+Tab`.
 */
const KEYS: ReadonlySet<string> = new Set(Object.keys(_keyDefinitions));
const MODIFIERS = ['Control', 'Shift', 'Alt', 'Meta'] as const;
/** Names worth suggesting: what people type (single characters and numpad twins are noise). */
const SUGGESTABLE = [...KEYS].filter((k) => k.length > 1 && !/^(Numpad|Digit|Key|Audio|Launch|Browser|Media)/.test(k) && !/(Left|Right)$/.test(k) || /^Arrow/.test(k));

/** Why `key` is not a key `press` can send (with a suggestion), or undefined when it is one. */
export function keyProblem(key: string): string | undefined {
  // "+" alone is the plus key; "Control++" is Control and plus.
  const parts = key === '+' ? ['+'] : key.endsWith('++') ? [...key.slice(0, -2).split('+'), '+'] : key.split('+');
  const main = parts.at(-1)!;
  for (const modifier of parts.slice(0, -1)) {
    if (!(MODIFIERS as readonly string[]).includes(modifier)) {
      const guess = closest(modifier, MODIFIERS);
      return `"${modifier}" in "${key}" is not a modifier: a chord is ${MODIFIERS.join(', ')} then a key, joined by "+" (e.g. "Control+A").${guess ? ` Did you mean "${key.replace(modifier, guess)}"?` : ''}`;
    }
  }
  if (KEYS.has(main)) return undefined;
  const guess = closest(main, SUGGESTABLE);
  const suggestion = guess ? ` Did you mean "${[...parts.slice(0, -1), guess].join('+')}"?` : '';
  return `"${main}" is not a key name.${suggestion} Keys are named as in KeyboardEvent.key: Enter, Tab, Escape, ArrowDown, a, A, F5, and chords such as "Control+A".`;
}
