import type { Browser, CDPSession } from 'puppeteer-core';

const opened = new WeakMap<Browser, Promise<CDPSession>>();

/**
 * The one CDP session on a browser's own target, opened at the first call and shared by every
 * caller; it is never detached (it ends with the browser). Two sessions opened to that target at
 * once make puppeteer-core take the second for one it attached by itself, and detaching that one
 * drops the browser target from its books: every `browser.target()` after throws "Browser target
 * is not found" (seen in a worker of the bench's parallel suite, where a reset's session met the
 * one the pipe's session watch opens). So nothing else opens a session to it.
 */
export function browserSession(browser: Browser): Promise<CDPSession> {
  let session = opened.get(browser);
  if (!session) {
    session = browser.target().createCDPSession();
    opened.set(browser, session);
    // A session that failed to open is asked for again next time.
    session.catch(() => opened.delete(browser));
  }
  return session;
}
