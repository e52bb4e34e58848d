import { CommandFailure } from '../../../sdk/protocol/index.js';
import { windowOf } from '../dom/nodes.js';
import { takesValue } from '../dom/state.js';
import { deepActiveElement } from '../dom/query.js';
import { moveFocus } from './focus.js';

/** A key as the DOM names it. `text` is what it types, if anything. */
interface KeyDef {
  key: string;
  code: string;
  keyCode: number;
  text?: string;
}

const NAMED: Record<string, KeyDef> = {
  Enter: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  Tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  Escape: { key: 'Escape', code: 'Escape', keyCode: 27 },
  Backspace: { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  Delete: { key: 'Delete', code: 'Delete', keyCode: 46 },
  ArrowUp: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  ArrowDown: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  ArrowLeft: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  ArrowRight: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  Home: { key: 'Home', code: 'Home', keyCode: 36 },
  End: { key: 'End', code: 'End', keyCode: 35 },
  PageUp: { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  PageDown: { key: 'PageDown', code: 'PageDown', keyCode: 34 },
  Space: { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
  Shift: { key: 'Shift', code: 'ShiftLeft', keyCode: 16 },
  Control: { key: 'Control', code: 'ControlLeft', keyCode: 17 },
  Alt: { key: 'Alt', code: 'AltLeft', keyCode: 18 },
  Meta: { key: 'Meta', code: 'MetaLeft', keyCode: 91 },
};
const ALIASES: Record<string, string> = { Esc: 'Escape', Return: 'Enter', Ctrl: 'Control', Cmd: 'Meta', Command: 'Meta', Option: 'Alt', ' ': 'Space', Up: 'ArrowUp', Down: 'ArrowDown', Left: 'ArrowLeft', Right: 'ArrowRight', Del: 'Delete' };
for (let i = 1; i <= 12; i++) NAMED[`F${i}`] = { key: `F${i}`, code: `F${i}`, keyCode: 111 + i };

/** The key a name or a single character stands for; undefined when unknown. */
export function keyDef(name: string): KeyDef | undefined {
  const known = NAMED[ALIASES[name] ?? name];
  if (known) return known;
  if ([...name].length !== 1) return undefined;
  const upper = name.toUpperCase();
  const code = /[a-z]/i.test(name) ? `Key${upper}` : /\d/.test(name) ? `Digit${name}` : '';
  return { key: name, code, keyCode: /[a-z\d]/i.test(name) ? upper.charCodeAt(0) : name.charCodeAt(0), text: name };
}

interface Modifiers {
  shiftKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

/** "Shift+Tab", "Control+a", "+" → the modifiers and the main key. */
export function parseChord(spec: string): { mods: Modifiers; names: string[]; key: string } {
  const parts = spec === '+' ? ['+'] : spec.endsWith('++') ? [...spec.slice(0, -2).split('+'), '+'] : spec.split('+');
  const key = parts.pop()!;
  const names = parts.map((p) => ALIASES[p] ?? p);
  return {
    mods: { shiftKey: names.includes('Shift'), ctrlKey: names.includes('Control'), altKey: names.includes('Alt'), metaKey: names.includes('Meta') },
    names,
    key,
  };
}

function keyEvent(type: 'keydown' | 'keypress' | 'keyup', el: Element, k: KeyDef, mods: Modifiers): boolean {
  const charCode = type === 'keypress' && k.text ? k.text.charCodeAt(0) : 0;
  return el.dispatchEvent(
    new KeyboardEvent(type, {
      key: k.key,
      code: k.code,
      keyCode: type === 'keypress' ? charCode : k.keyCode,
      which: type === 'keypress' ? charCode : k.keyCode,
      charCode,
      bubbles: true,
      cancelable: true,
      composed: true,
      view: windowOf(el),
      ...mods,
    } as KeyboardEventInit),
  );
}

// The input types with a caret and a selection (HTML's setSelectionRange applies to these alone;
// on any other, a checkbox or a date, it throws).
const SELECTION_API = new Set(['text', 'search', 'url', 'tel', 'password']);

type TextControl = HTMLInputElement | HTMLTextAreaElement;

function isTextControl(el: Element): el is TextControl {
  return el.localName === 'textarea' || el.localName === 'input';
}

function hasSelectionApi(el: TextControl): boolean {
  return el.localName === 'textarea' || SELECTION_API.has((el as HTMLInputElement).type);
}

/**
 * Sets a control's value with the prototype's native setter, as typing does: frameworks that
 * wrap `value` on the element (React's value tracker) then see the change in the input event.
 */
function setNativeValue(el: TextControl, value: string): void {
  const proto = el.localName === 'textarea' ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value);
}

function inputEvent(type: 'beforeinput' | 'input', el: Element, inputType: string, data: string | null): boolean {
  return el.dispatchEvent(new InputEvent(type, { inputType, data, bubbles: true, cancelable: type === 'beforeinput', composed: true }));
}

// What was typed into a control without a caret API (number, email, date...). Such a value
// can be invalid while typing ("12." in a number field reads back as ""), so the next
// keystroke appends to what was typed, not to what the field reports.
const typedInto = new WeakMap<Element, string>();

/** Inserts text at the caret as a keystroke would (beforeinput, value change, input). */
function insert(el: Element, text: string, inputType: string): void {
  if (isTextControl(el)) {
    if (el.readOnly || el.disabled) return;
    if (!inputEvent('beforeinput', el, inputType, text)) return;
    const value = el.value;
    const max = el.maxLength;
    if (max >= 0 && value.length >= max) return;
    if (hasSelectionApi(el) && el.selectionStart !== null && el.selectionEnd !== null) {
      const start = el.selectionStart;
      setNativeValue(el, value.slice(0, start) + text + value.slice(el.selectionEnd));
      el.setSelectionRange(start + text.length, start + text.length);
    } else {
      const typed = (typedInto.get(el) ?? value) + text;
      typedInto.set(el, typed);
      setNativeValue(el, typed);
    }
    inputEvent('input', el, inputType, text);
  } else if ((el as HTMLElement).isContentEditable) {
    // execCommand fires beforeinput/input itself, like the browser's own editing.
    el.ownerDocument.execCommand(inputType === 'insertParagraph' ? 'insertParagraph' : 'insertText', false, text);
  }
}

function deleteOne(el: Element, forward: boolean): void {
  const inputType = forward ? 'deleteContentForward' : 'deleteContentBackward';
  if (isTextControl(el)) {
    if (el.readOnly || el.disabled) return;
    if (!inputEvent('beforeinput', el, inputType, null)) return;
    const v = el.value;
    if (hasSelectionApi(el) && el.selectionStart !== null && el.selectionEnd !== null) {
      let start = el.selectionStart;
      let end = el.selectionEnd;
      if (start === end) {
        if (forward) end = Math.min(v.length, end + 1);
        else start = Math.max(0, start - 1);
      }
      setNativeValue(el, v.slice(0, start) + v.slice(end));
      el.setSelectionRange(start, start);
    } else setNativeValue(el, forward ? v : v.slice(0, -1));
    inputEvent('input', el, inputType, null);
  } else if ((el as HTMLElement).isContentEditable) {
    el.ownerDocument.execCommand(forward ? 'forwardDelete' : 'delete');
  }
}

/** The element keys go to: the focused one, after focusing `el` if focus is elsewhere. */
export function focusFor(el: Element): Element {
  if (deepActiveElement() !== el) {
    (el as HTMLElement).focus?.();
    if (isTextControl(el) && hasSelectionApi(el)) {
      // A person clicking into a field and typing usually appends; put the caret at the end.
      const n = el.value.length;
      el.setSelectionRange(n, n);
    }
  }
  return deepActiveElement() ?? el;
}

/**
 * Replaces an editable element's content with `text`, as a person selecting all and typing it
 * (or deleting, for ''): one beforeinput, the value change, one input, and `change` when the
 * value changed. The element is focused first.
 */
export function fillText(el: Element, text: string): void {
  (el as HTMLElement).focus?.();
  if (takesValue(el)) {
    setPicked(el as HTMLInputElement, text);
    return;
  }
  if (isTextControl(el)) {
    if (el.readOnly || el.disabled) return;
    const before = el.value;
    const inputType = text ? 'insertReplacementText' : 'deleteContentBackward';
    if (!inputEvent('beforeinput', el, inputType, text || null)) return;
    typedInto.delete(el);
    setNativeValue(el, text);
    inputEvent('input', el, inputType, text || null);
    if (el.value !== before) el.dispatchEvent(new Event('change', { bubbles: true }));
  } else if ((el as HTMLElement).isContentEditable) {
    selectContents(el as HTMLElement);
    // execCommand fires beforeinput/input itself, like the browser's own editing.
    el.ownerDocument.execCommand(text ? 'insertText' : 'delete', false, text);
  }
}

/**
 * Sets the value of an input a person picks a value in (a slider, a date, a colour), with the
 * input and change events its picker sends. A value the input does not take (it reads back
 * otherwise: "2024-13-45" in a date input, "80" past a slider's max) is refused, naming what it
 * reads, and nothing is sent.
 */
function setPicked(input: HTMLInputElement, text: string): void {
  const before = input.value;
  setNativeValue(input, text);
  if (input.value !== text) {
    const reads = input.value;
    setNativeValue(input, before);
    throw new CommandFailure('unsupported', `fill: the <input type="${input.type}"> does not take "${text}": set, it reads "${reads}". ${PICKED_FORMATS[input.type] ?? ''}`.trim(), { type: input.type, value: text, reads });
  }
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

/** What each picked input's value looks like, for the refusal of one it does not take. */
const PICKED_FORMATS: Record<string, string> = {
  range: 'A slider takes a number between its min and max, on its step.',
  color: 'A colour takes #rrggbb, in lowercase.',
  date: 'A date takes yyyy-mm-dd.',
  time: 'A time takes hh:mm or hh:mm:ss.',
  'datetime-local': 'It takes yyyy-mm-ddThh:mm.',
  month: 'A month takes yyyy-mm.',
  week: 'A week takes yyyy-Www.',
};

/** Focuses an editable element and selects all its text, as Ctrl+A in it would. */
export function selectContents(el: HTMLElement): void {
  el.focus({ preventScroll: true });
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    el.select();
    return;
  }
  const selection = el.ownerDocument.getSelection();
  const range = el.ownerDocument.createRange();
  range.selectNodeContents(el);
  selection?.removeAllRanges();
  selection?.addRange(range);
}

/**
 * Types text into an element character by character: keydown, keypress, beforeinput, the
 * value change, input, keyup for each; `change` once at the end if the value changed
 * (a real field fires it when it loses focus; aite does not move focus away).
 */
export function typeText(el: Element, text: string): void {
  const target = focusFor(el);
  const before = isTextControl(target) ? target.value : undefined;
  typedInto.delete(target);
  for (const ch of text) {
    if (ch === '\n') {
      pressOn(target, 'Enter');
      continue;
    }
    const k = keyDef(ch)!;
    const mods = { shiftKey: ch !== ch.toLowerCase(), ctrlKey: false, altKey: false, metaKey: false };
    if (keyEvent('keydown', target, k, mods) && keyEvent('keypress', target, k, mods)) insert(target, ch, 'insertText');
    keyEvent('keyup', target, k, mods);
  }
  typedInto.delete(target);
  if (isTextControl(target) && target.value !== before) target.dispatchEvent(new Event('change', { bubbles: true }));
}

/**
 * Presses a key (or chord like "Shift+Tab") on an element, with the default actions a
 * dispatched event does not get from the browser: printable keys type, Backspace/Delete
 * delete, Tab moves focus, Enter submits a form (implicit submission) or activates a
 * button/link, Space activates a button or toggles a checkbox.
 */
export function press(el: Element, spec: string): void {
  pressOn(focusFor(el), spec);
}

/** The error for a key name press does not know. */
export function unknownKey(spec: string): string | undefined {
  const { key, names } = parseChord(spec);
  const bad = [...names.filter((n) => !NAMED[n]), ...(keyDef(key) ? [] : [key])];
  return bad.length > 0 ? bad.join(', ') : undefined;
}

function pressOn(target: Element, spec: string): void {
  const { mods, names, key } = parseChord(spec);
  const k = keyDef(key)!;
  for (const n of names) keyEvent('keydown', target, NAMED[n]!, mods);
  let receiver = target;
  if (keyEvent('keydown', target, k, mods)) {
    const typing = !mods.ctrlKey && !mods.metaKey && !mods.altKey;
    if (k.key === 'Tab') receiver = moveFocus(target, mods.shiftKey, target.ownerDocument) ?? target;
    else if (k.key === 'Backspace' || k.key === 'Delete') deleteOne(target, k.key === 'Delete');
    else if (k.text !== undefined && typing && keyEvent('keypress', target, k, mods)) {
      if (k.key === 'Enter') enter(target);
      else insert(target, k.text, 'insertText');
    }
  }
  keyEvent('keyup', receiver, k, mods);
  if (k.key === ' ' && activatesOnSpace(target)) (target as HTMLElement).click();
  for (const n of [...names].reverse()) keyEvent('keyup', receiver, NAMED[n]!, mods);
}

const SUBMIT_BLOCKING = new Set(['text', 'search', 'url', 'tel', 'email', 'password', 'date', 'datetime-local', 'month', 'number', 'time', 'week']);

/**
 * Enter's default action. In a form field it is HTML's implicit submission: the browser
 * fires a click at the form's default (first) submit button, so a click handler on that
 * button runs as with a real Enter; without one, the form submits through requestSubmit()
 * when it has a single field. In a textarea it inserts a line break; on a button or link it
 * activates it.
 */
function enter(el: Element): void {
  if (el.localName === 'textarea' || (el as HTMLElement).isContentEditable) {
    insert(el, '\n', el.localName === 'textarea' ? 'insertLineBreak' : 'insertParagraph');
    return;
  }
  if (el.localName === 'input') {
    const form = (el as HTMLInputElement).form;
    if (!form) return;
    const controls = Array.from(form.elements);
    const submitter = controls.find((c) => (c.localName === 'button' || c.localName === 'input') && ['submit', 'image'].includes((c as HTMLButtonElement).type)) as HTMLElement | undefined;
    if (submitter) {
      if (!(submitter as HTMLButtonElement).disabled) submitter.click();
    } else if (controls.filter((c) => c.localName === 'input' && SUBMIT_BLOCKING.has((c as HTMLInputElement).type)).length <= 1) {
      form.requestSubmit();
    }
    return;
  }
  // Only native controls: a role="button" div handles Enter itself (or not), as with a real key.
  if (el.localName === 'button' || (el.localName === 'a' && el.hasAttribute('href')) || el.localName === 'summary') {
    (el as HTMLElement).click();
  }
}

function activatesOnSpace(el: Element): boolean {
  if (el.localName === 'button' || el.localName === 'summary') return true;
  if (el.localName === 'input') return ['checkbox', 'radio', 'button', 'submit', 'reset'].includes((el as HTMLInputElement).type);
  return false;
}
