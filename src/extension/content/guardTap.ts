// The guard's ears on a window (guard.ts): capture-phase listeners that pass each event to the
// guard armed on that window, if any. A window calls its capture listeners in the order they
// were added, so ears put on as the document starts (the isolated-world content script at
// document_start, before any script of the page) hear the runner's trusted input before a page
// listener there can stop it: a page that stops the trusted click at window capture and sends
// its own copy to the target still acts, and the guard has seen the click reach it. Where no
// ears were put on early (a tab open before the extension loaded, a frame no content script
// runs in), the guard's first arm puts them on, after the page's own.
//
// Nothing else imports here: the early script is this file and one call. With no guard armed,
// an event costs one property read.

export const POINTER_EVENTS = ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'click', 'dblclick', 'auxclick', 'contextmenu', 'drop'] as const;
// Not keyup: it inserts nothing, and after Enter or Tab (or an app moving on to the next field)
// it rightly goes where the focus went.
export const KEY_EVENTS = ['keydown', 'keypress', 'beforeinput'] as const;
/** Watched, never stopped: where the focus went, text the browser inserted, and hover. */
const WATCHED_EVENTS = ['focusout', 'input', 'mousemove'] as const;

/** What the armed guard of a window hears; `hear` is unset while none is armed. */
export interface Ears {
  hear?: (event: Event) => void;
}

/**
 * Marks a window's ears. Only the extension's isolated world sees it (each world has its own
 * global), and every frame's content scripts share that world, so a guard armed from the top
 * document on a same-origin frame's window finds the ears that frame's early script put on.
 */
const EARS = Symbol.for('aite.guard.ears');

/** The ears of `win`, put on now if none are there yet. */
export function earsOf(win: Window): Ears {
  const held = win as Window & { [EARS]?: Ears };
  const existing = held[EARS];
  if (existing) return existing;
  const ears: Ears = {};
  held[EARS] = ears;
  const pass = (event: Event): void => {
    const hear = ears.hear;
    if (hear === undefined) return;
    hear(event);
  };
  for (const type of [...POINTER_EVENTS, ...KEY_EVENTS, ...WATCHED_EVENTS]) win.addEventListener(type, pass, { capture: true });
  return ears;
}
