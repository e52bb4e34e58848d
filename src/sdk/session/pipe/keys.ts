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

/** Names other tools and keyboards give keys, and the KeyboardEvent.key name aite takes. */
const KEY_ALIASES: Readonly<Record<string, string>> = {
  esc: 'Escape',
  return: 'Enter',
  del: 'Delete',
  ins: 'Insert',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  pgup: 'PageUp',
  pgdn: 'PageDown',
  pagedn: 'PageDown',
  spacebar: 'Space',
  bksp: 'Backspace',
  cmd: 'Meta',
  command: 'Meta',
  win: 'Meta',
  option: 'Alt',
  ctrl: 'Control',
};

/** What is wrong with a key or chord (`Control+A`, `Shift+Tab`, `Enter`, `a`), or undefined when nothing is. */
export function chordProblem(spec: string): string | undefined {
  const parsed = split(spec);
  if (!parsed) return `"${spec}" is not a key: name one such as Enter, Tab, ArrowDown or a, or a chord such as Control+A`;
  const badModifier = parsed.modifiers.find((m) => !MODIFIERS.includes(m as Modifier));
  if (badModifier !== undefined) {
    const near = KEY_ALIASES[badModifier.toLowerCase()];
    const meant = near !== undefined && MODIFIERS.includes(near as Modifier) ? ` (did you mean "${near}"?)` : '';
    return `"${badModifier}" in "${spec}" is not a modifier${meant}: use ${MODIFIERS.join(', ')} before the key`;
  }
  if (!(parsed.key in _keyDefinitions)) {
    // Another tool's name for a key ("Esc", "Return"), a typo of a name ("Entr", "Escpe"), or its
    // case: single characters and left/right twins are noise.
    const near = KEY_ALIASES[parsed.key.toLowerCase()] ?? closest(parsed.key, SUGGESTABLE_KEYS);
    return `"${parsed.key}"${parsed.modifiers.length ? ` in "${spec}"` : ''} is not a key name${near ? ` (did you mean "${near}"?)` : ''}: keys are named as KeyboardEvent.key names them (Enter, Tab, Escape, ArrowDown, Backspace, F5, a, A, 1)`;
  }
  return undefined;
}

/**
 * The keys a person presses for these characters on a US keyboard. Puppeteer's table sends the
 * keypad's (`/` as NumpadDivide, key code 111), which a page's shortcut for `/`, `Control+-` or
 * `?` does not take; Playwright sends these.
 */
const MAIN_KEYS: Readonly<Record<string, Chord>> = {
  '/': { modifiers: [], key: 'Slash' },
  '-': { modifiers: [], key: 'Minus' },
  '*': { modifiers: ['Shift'], key: 'Digit8' },
  '+': { modifiers: ['Shift'], key: 'Equal' },
};

/** The chord, or an `unsupported` AiteError that says what is wrong with it. */
export function parseChord(spec: string, command = 'press'): Chord {
  const problem = chordProblem(spec);
  if (problem) throw new AiteError('unsupported', `${command}: ${problem}.`, { command, detail: { key: spec } });
  const { modifiers, key } = split(spec)!;
  // A letter held with Control, Alt or Meta reaches the page as a keyboard sends it: lower case
  // unless Shift is held (a person's Ctrl+A is key "a"; a handler testing e.key === 'a' sees it).
  const letter = /^[A-Z]$/.test(key) && modifiers.length > 0 && !modifiers.includes('Shift') ? key.toLowerCase() : key;
  const held = modifiers.map((m) => platformModifier(m as Modifier));
  const main = MAIN_KEYS[letter];
  if (main) return { modifiers: [...held, ...main.modifiers.filter((m) => !held.includes(m))], key: main.key };
  return { modifiers: held, key: letter as KeyInput };
}

/** Types `text` key by key, as puppeteer's keyboard does, with the main keys of {@link MAIN_KEYS}. */
export async function typeText(keyboard: Keyboard, text: string): Promise<void> {
  let run = '';
  for (const ch of text) {
    const main = MAIN_KEYS[ch];
    if (!main) {
      run += ch;
      continue;
    }
    if (run) await keyboard.type(run);
    run = '';
    await pressChord(keyboard, main);
  }
  if (run) await keyboard.type(run);
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
