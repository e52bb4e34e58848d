import type { Keyboard, KeyInput } from 'puppeteer-core';
// Puppeteer's own key table: the names it can send are exactly the names aite accepts.
import { _keyDefinitions } from 'puppeteer-core/internal/common/USKeyboardLayout.js';
import { AiteError } from '../../errors/AiteError.js';
import { closest } from '../../errors/suggest.js';

/**
 * A modifier key of a click or a chord. `ControlOrMeta` is Meta on macOS and Control elsewhere.
 *
 * @example
 * ```ts
 * import type { Modifier, Session } from 'aite';
 *
 * declare const session: Session;
 * const held: Modifier[] = ['ControlOrMeta'];
 * await session.click({ text: 'Open receipt' }, { modifiers: held }); // a new tab, as a person would
 * ```
 * @public
 */
export type Modifier = 'Alt' | 'Control' | 'ControlOrMeta' | 'Meta' | 'Shift';

/** Every {@link Modifier}, in the order messages list them. */
export const MODIFIERS = ['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift'] as const satisfies readonly Modifier[];

/** A parsed chord: the modifiers held, then the key pressed. */
export interface Chord {
  modifiers: KeyInput[];
  key: KeyInput;
}

const SUGGESTABLE_KEYS = Object.keys(_keyDefinitions).filter((k) => (k.length > 1 && !/^(Numpad|Digit|Key|Audio|Launch|Browser|Media)/.test(k) && !/(Left|Right)$/.test(k)) || /^Arrow/.test(k));

/** What is wrong with a key or chord (`Control+A`, `Shift+Tab`, `Enter`, `a`), or undefined when nothing is. */
export function chordProblem(spec: string): string | undefined {
  const parsed = split(spec);
  if (!parsed) return `"${spec}" is not a key: name one such as Enter, Tab, ArrowDown or a, or a chord such as Control+A`;
  const badModifier = parsed.modifiers.find((m) => !MODIFIERS.includes(m as Modifier));
  if (badModifier !== undefined) return `"${badModifier}" in "${spec}" is not a modifier: use ${MODIFIERS.join(', ')} before the key`;
  if (!(parsed.key in _keyDefinitions)) {
    // A typo of a name ("Entr", "Escpe"), or its case: single characters and left/right twins are noise.
    const near = closest(parsed.key, SUGGESTABLE_KEYS);
    return `"${parsed.key}"${parsed.modifiers.length ? ` in "${spec}"` : ''} is not a key name${near ? ` (did you mean "${near}"?)` : ''}: keys are named as KeyboardEvent.key names them (Enter, Tab, Escape, ArrowDown, Backspace, F5, a, A, 1)`;
  }
  return undefined;
}

/** The chord, or an `unsupported` AiteError that says what is wrong with it. */
export function parseChord(spec: string, command = 'press'): Chord {
  const problem = chordProblem(spec);
  if (problem) throw new AiteError('unsupported', `${command}: ${problem}.`, { command, detail: { key: spec } });
  const { modifiers, key } = split(spec)!;
  // A letter held with Control, Alt or Meta reaches the page as a keyboard sends it: lower case
  // unless Shift is held (a person's Ctrl+A is key "a"; a handler testing e.key === 'a' sees it).
  const letter = /^[A-Z]$/.test(key) && modifiers.length > 0 && !modifiers.includes('Shift') ? key.toLowerCase() : key;
  return { modifiers: modifiers.map((m) => platformModifier(m as Modifier)), key: letter as KeyInput };
}

/** Presses a chord over the pipe: modifiers down in order, the key, modifiers up in reverse. */
export async function pressChord(keyboard: Keyboard, chord: Chord): Promise<void> {
  await holding(keyboard, chord.modifiers, () => keyboard.press(chord.key));
}

/** Runs `work` with the modifier keys held down (puppeteer's mouse reads them from its keyboard). */
export async function holding(keyboard: Keyboard, modifiers: readonly KeyInput[], work: () => Promise<void>): Promise<void> {
  for (const m of modifiers) await keyboard.down(m);
  try {
    await work();
  } finally {
    for (const m of [...modifiers].reverse()) await keyboard.up(m);
  }
}

/** The key a modifier name sends on this machine. */
export function platformModifier(modifier: Modifier): KeyInput {
  if (modifier === 'ControlOrMeta') return process.platform === 'darwin' ? 'Meta' : 'Control';
  return modifier;
}

// "Shift+Tab" → [Shift] Tab; "+" and "Control++" name the plus key itself.
function split(spec: string): { modifiers: string[]; key: string } | undefined {
  if (typeof spec !== 'string' || spec.length === 0) return undefined;
  const parts = spec === '+' ? ['+'] : spec.endsWith('++') ? [...spec.slice(0, -2).split('+'), '+'] : spec.split('+');
  const key = parts.pop()!;
  if (key === '' || parts.some((p) => p === '')) return undefined;
  return { modifiers: parts, key };
}
