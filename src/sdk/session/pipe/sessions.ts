import { CDPSessionEvent, type Browser, type CDPSession, type Connection, type Frame, type Page, type Target } from 'puppeteer-core';
import { browserSession } from '../../launch/browserSession.js';
import { sessionOf } from '../../launch/pages.js';

/**
 * Calls `watch` for every CDP session of the pipe: the pages' open now, then each session as
 * it attaches (a new tab, a cross-site frame, a worker), before the target is let run. Puppeteer
 * auto-attaches with `waitForDebuggerOnStart` and lets a new target run (`runIfWaitingForDebugger`)
 * in the same turn it learns of it; a command `watch` sends at once goes before that, so a new
 * tab's first request, first dialog and first console line are seen. Nothing here holds a target
 * paused: puppeteer resumes it as before. Answers a function that stops watching new sessions.
 */
export function everySession(browser: Browser, watch: (session: CDPSession) => void): () => void {
  let connection: Connection | undefined;
  for (const target of browser.targets()) {
    if (target.type() !== 'page') continue;
    const session = sessionOf(target);
    if (!session) continue;
    connection ??= session.connection();
    watch(session);
  }
  // The pipe's connection from a page's session, at once: a session attached while it was
  // being looked up another way (the first navigation of a run) would be missed.
  if (connection) return listen(connection, watch);
  let stopped = false;
  let stop = (): void => {
    stopped = true;
  };
  void (async () => {
    const found = (await browserSession(browser)).connection();
    if (!stopped && found) stop = listen(found, watch);
  })().catch(() => undefined);
  return () => stop();
}

function listen(connection: Connection, watch: (session: CDPSession) => void): () => void {
  connection.on(CDPSessionEvent.SessionAttached, watch);
  return () => connection.off(CDPSessionEvent.SessionAttached, watch);
}

/**
 * The session `session` was attached under (a cross-site frame's: its page's or its parent
 * frame's); undefined for a tab's. Puppeteer answers a session without a parent with the session
 * itself, which a walk up the chain would take for a parent for ever.
 */
export function parentSessionOf(session: CDPSession): CDPSession | undefined {
  const parent = (session as unknown as { parentSession?(): CDPSession | undefined }).parentSession?.();
  return parent === session ? undefined : parent;
}

/** The session puppeteer drives `frame` over: its page's, or a cross-site frame's own. */
export function frameSessionOf(frame: Frame): CDPSession | undefined {
  return (frame as unknown as { client?: CDPSession }).client;
}

/** The type of the target a session is attached to ('page', 'iframe', 'worker', …), once puppeteer knows it. */
export function targetTypeOf(session: CDPSession): string | undefined {
  try {
    return (session as unknown as { target?(): Target }).target?.().type();
  } catch {
    return undefined;
  }
}

/** Whether a session is a cross-site (out-of-process) frame's: puppeteer types its target `other`. */
export function isFrameSession(session: CDPSession): boolean {
  try {
    const target = (session as unknown as { target?(): { _getTargetInfo?(): { type?: string } } }).target?.();
    return target?._getTargetInfo?.().type === 'iframe';
  } catch {
    return false;
  }
}

/** The url of the target a session is attached to, once puppeteer knows it. */
export function targetUrlOf(session: CDPSession): string | undefined {
  try {
    return (session as unknown as { target?(): Target }).target?.().url();
  } catch {
    return undefined;
  }
}

/** The CDP frame id of a page's top frame, as puppeteer tracks it. */
export function mainFrameIdOf(page: Page): string | undefined {
  const id = (page.mainFrame() as unknown as { _id?: unknown })._id;
  return typeof id === 'string' ? id : undefined;
}
