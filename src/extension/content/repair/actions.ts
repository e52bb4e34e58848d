// What an action element's name says it does (locator-repair.md §3, "another action"), and what a
// text field's name says it holds ("another field"): the vocabularies repair reads, over
// descriptors only (no DOM).
import type { Descriptor } from '../../../sdk/protocol/descriptor.js';
import { tagFamily } from './candidates.js';
import { words } from './text.js';

/**
 * The actions a name can say, each with the words (or two-word phrases) that say it. Words of one
 * action are renames of one another ("Sign in" → "Log in", "Submit" → "Send", "Delete" →
 * "Remove"); words of two actions are two things a button can do. `undoes` marks what takes
 * something away (data, a setting, a subscription, a session): repair never hands a click meant
 * for anything else to such an element.
 */
export const ACTIONS: readonly { action: string; says: readonly string[]; undoes?: true }[] = [
  { action: 'save', says: ['save', 'store', 'apply'] },
  // "Submit" is not listed: it names no action of its own, only that the form is sent, whatever
  // the form does ("Sign up!" and "Send Message" both became "Submit").
  { action: 'send', says: ['send'] },
  { action: 'reset', says: ['reset'], undoes: true },
  // Taking things away, whatever the word: "Clear completed" became "Remove completed".
  { action: 'delete', says: ['delete', 'remove', 'erase', 'wipe', 'purge', 'destroy', 'trash', 'clear', 'empty'], undoes: true },
  { action: 'cancel', says: ['cancel', 'discard', 'abort'], undoes: true },
  { action: 'undo', says: ['undo', 'revert'], undoes: true },
  { action: 'revoke', says: ['revoke'], undoes: true },
  { action: 'archive', says: ['archive'], undoes: true },
  { action: 'sign out', says: ['sign out', 'log out', 'logout', 'signout', 'sign off', 'log off'], undoes: true },
  { action: 'sign in', says: ['sign in', 'log in', 'login', 'signin'] },
  { action: 'sign up', says: ['sign up', 'signup', 'register'] },
  { action: 'unsubscribe', says: ['unsubscribe'], undoes: true },
  { action: 'subscribe', says: ['subscribe'] },
  { action: 'disable', says: ['disable', 'deactivate'], undoes: true },
  { action: 'enable', says: ['enable', 'activate'] },
  { action: 'add', says: ['add'] },
  { action: 'accept', says: ['accept', 'approve', 'agree', 'allow'] },
  { action: 'decline', says: ['decline', 'reject', 'deny', 'refuse'] },
  { action: 'open', says: ['open'] },
  { action: 'close', says: ['close'] },
  { action: 'show', says: ['show'] },
  { action: 'hide', says: ['hide'] },
  { action: 'start', says: ['start'] },
  { action: 'stop', says: ['stop'] },
  { action: 'buy', says: ['buy', 'purchase'] },
];

const BY_WORDS = new Map<string, { action: string; undoes: boolean }>();
for (const a of ACTIONS) for (const w of a.says) BY_WORDS.set(w, { action: a.action, undoes: a.undoes === true });

/** One action a name says, and the words that say it as written there ("Reset", "Log out"). */
export interface Said {
  action: string;
  undoes: boolean;
  words: string;
}

/**
 * The words and two-word phrases of a name that `lookup` knows, in its order (a two-word phrase
 * before its first word alone), each with its words as written: the same runs of letters and
 * digits, case kept, for the message.
 */
function phrasesIn<T>(name: string | undefined, lookup: (key: string) => T | undefined): { hit: T; raw: string[] }[] {
  if (!name) return [];
  const ws = words(name);
  const raw = name.match(/[\p{L}\p{N}]+/gu) ?? [];
  const out: { hit: T; raw: string[] }[] = [];
  for (let i = 0; i < ws.length; i++) {
    const two = i + 1 < ws.length ? lookup(`${ws[i]} ${ws[i + 1]}`) : undefined;
    const hit = two ?? lookup(ws[i]!);
    if (hit === undefined) continue;
    out.push({ hit, raw: two !== undefined ? [raw[i]!, raw[i + 1]!] : [raw[i]!] });
    if (two !== undefined) i++;
  }
  return out;
}

/** The actions a name says, in its order (a two-word phrase before its first word alone). */
export function actionsSaid(name: string | undefined): Said[] {
  return phrasesIn(name, (k) => BY_WORDS.get(k)).map(({ hit, raw }) => ({ ...hit, words: raw.join(' ') }));
}

const ACTION_ROLES = new Set(['button', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'option', 'switch']);

/** Whether a person operates the element to make something happen: a button, link, menu item… */
export function isActionElement(d: Descriptor): boolean {
  return tagFamily(d.tag) === 'action' || ACTION_ROLES.has(d.role ?? '');
}

/** What a descriptor's name says: its accessible name, else its text. */
const nameOf = (d: Descriptor): string | undefined => d.name ?? d.text ?? d.ariaLabel;

/**
 * Words that make a text field the second entry of another field's value ("Retype password",
 * "Password confirmation", "Confirm email"): the field and the one it repeats are two fields,
 * however alike their names, types and places.
 */
export const AGAIN: readonly string[] = ['confirm', 'confirmation', 'retype', 're type', 'repeat', 'reenter', 're enter', 'again', 'verify'];
const AGAIN_WORDS = new Set(AGAIN);

/** The words of a name that say it repeats another field's value, as written; undefined when none do. */
export function saysAgain(name: string | undefined): string | undefined {
  return phrasesIn(name, (k) => (AGAIN_WORDS.has(k) ? true : undefined))[0]?.raw.join('-');
}

const TEXT_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);

/** Whether a person types the element's value: its role (dom/aria.ts, which reads input types) is a text-entry one. */
export function isTextField(d: Descriptor): boolean {
  return TEXT_ROLES.has(d.role ?? '');
}

/** The candidate's name says another action than the remembered one's: what it says, and what was said. */
export interface AnotherAction {
  /** The words of the candidate's name that say the other action ("Reset"); for a field, its whole name. */
  now: string;
  /** The words of the remembered name that said its action ("Save"), or its whole name when it said none. */
  was: string;
  /** Whether the remembered name said an action of its own (else the candidate's undoes something it never named). */
  wasAction: boolean;
  /**
   * Text fields (another field, not another action): the words that say one of the two repeats
   * another field's value ("Retype"), and whether the remembered name said them.
   */
  again?: { words: string; remembered: boolean };
}

/**
 * Whether a candidate's name says another action than the remembered action element's name said
 * (locator-repair.md §3): it says an action the remembered name did not, and that action undoes
 * something, or the remembered name said an action of its own, which this is not ("Save settings"
 * → "Reset settings", "Add" → "Remove"). A rename within one action ("Sign in" → "Log in") and a
 * name that says no listed action ("SUBSCRIBE" → "NOTIFY ME!") are not concerned. Undefined when
 * it says no other action.
 */
export function anotherAction(old: Descriptor, cand: Descriptor): AnotherAction | undefined {
  if (!isActionElement(old)) return anotherField(old, cand);
  const was = actionsSaid(nameOf(old));
  const had = new Set(was.map((s) => s.action));
  const gained = actionsSaid(nameOf(cand)).find((s) => !had.has(s.action) && (s.undoes || had.size > 0));
  if (!gained) return undefined;
  return { now: gained.words, was: was.length ? was.map((s) => s.words).join(', ') : (nameOf(old) ?? old.tag), wasAction: was.length > 0 };
}

/**
 * Whether a text field's name says it repeats another field's value and the remembered field's
 * did not, or the other way round (locator-repair.md §3, "another field"): "Password" for a removed
 * "Retype password" is the field that one repeated, never it; "Confirm email" for a removed
 * "Email" repeats it. Undefined when both or neither say so, or either is no text field.
 */
function anotherField(old: Descriptor, cand: Descriptor): AnotherAction | undefined {
  if (!isTextField(old) || !isTextField(cand)) return undefined;
  const was = saysAgain(nameOf(old));
  const now = saysAgain(nameOf(cand));
  if (!was === !now) return undefined;
  return { now: nameOf(cand) ?? cand.tag, was: nameOf(old) ?? old.tag, wasAction: false, again: { words: (was ?? now)!, remembered: was !== undefined } };
}

/** The reason a candidate saying another action was not acted on, as the failure says it. */
export function anotherActionReason(a: AnotherAction): string {
  if (a.again) {
    return a.again.remembered
      ? `its name "${a.now}" does not say "${a.again.words}" as the remembered "${a.was}" did: it is the field that one repeated, another field`
      : `its name "${a.now}" says "${a.again.words}": it repeats another field's value, which the remembered "${a.was}" did not`;
  }
  return a.wasAction
    ? `its name now says "${a.now}", a different action than "${a.was}"`
    : `its name now says "${a.now}", an action the remembered "${a.was}" did not name`;
}
