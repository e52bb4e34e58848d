import type { Browser } from 'puppeteer-core';
import { everySession } from './sessions.js';

/**
 * Every page of a launched Chrome behaves as the tab a person is looking at, in a window that
 * has the focus (`document.hasFocus()`, focus and blur events), as Playwright's pages do. A
 * headless window never has the focus until the first click: an editor that keeps its own
 * selection (CodeMirror) threw away a fill's selected text, and focus handlers never ran.
 * Sent as each session attaches, before the page runs; sessions of other targets refuse it,
 * which changes nothing. Answers how to stop.
 */
export function emulateFocus(browser: Browser): () => void {
  // A new session's target is not told apart yet in the turn it attaches: each one is asked.
  return everySession(browser, (session) => {
    session.send('Emulation.setFocusEmulationEnabled', { enabled: true }).catch(() => undefined);
  });
}
