import type { Browser, CDPSession, Page } from 'puppeteer-core';
import { sessionOf } from '../../launch/pages.js';
import { everySession } from './sessions.js';

/**
 * The pages whose renderer crashed and that have loaded nothing since, as the debugging pipe
 * tells (`Inspector.targetCrashed`, then `targetReloadedAfterCrash` once the tab loads a page
 * again). Chrome keeps such a tab open, showing its "Aw, Snap!" page, and takes input sent to it
 * without delivering it anywhere: input and pictures ask here first.
 */
export class Crashes {
  readonly #crashed = new WeakSet<CDPSession>();

  /** Listens for as long as the browser's connection lasts: the sessions it hears go with it. */
  constructor(browser: Browser) {
    everySession(browser, (session) => {
      session.on('Inspector.targetCrashed', () => this.#crashed.add(session));
      session.on('Inspector.targetReloadedAfterCrash', () => this.#crashed.delete(session));
    });
  }

  /** Whether `page`'s renderer crashed and it has not loaded a page since. */
  has(page: Page): boolean {
    const session = sessionOf(page.target());
    return session !== undefined && this.#crashed.has(session);
  }
}
