import { CDPSessionEvent, type Browser, type CDPSession, type Page, type Target } from 'puppeteer-core';
import { readFirstDocumentOver, type FirstDocument, withTimeout } from '../../protocol/index.js';
import type { PageEventSource, PageWatch } from '../PageWatch.js';
import { sessionOf } from '../../launch/pages.js';
import { everySession, isFrameSession, parentSessionOf, targetTypeOf, targetUrlOf } from './sessions.js';

/** How long reading a page's first document from its own navigation timing may take. */
const FIRST_DOCUMENT_MS = 5_000;

/** What {@link watchPipePages} answers: how to stop, and how to wait for a page's network. */
export interface PipePages {
  stop(): void;
  /**
   * Waits until `page` has had no request in flight for `idleMs` (see {@link PageWatch.idle}):
   * its own session's and its cross-site frames' (sessions under it). A frame whose session went
   * away (the page removed it) is not waited for: Chrome tells nothing more of its requests.
   */
  idle(page: Page, idleMs: number, timeoutMs: number): Promise<void>;
}

/**
 * Feeds `watch` every page of a launched Chrome from the debugging pipe, on the session
 * puppeteer drives each page over. A new tab's Network domain is enabled as its session
 * attaches, before the tab is let run (see {@link everySession}).
 */
export function watchPipePages(browser: Browser, watch: PageWatch): PipePages {
  const sessions = new WeakMap<PageEventSource, CDPSession>();
  const sources = new WeakMap<CDPSession, PageEventSource>();
  // Every page gets its puppeteer page at once, which enables Runtime and Log on its session.
  const onTarget = (target: Target): void => {
    if (target.type() === 'page') void target.page().catch(() => undefined);
  };
  const stop = everySession(browser, (cdp) => {
    if (sources.has(cdp)) return;
    const source = pipeSource(cdp);
    sessions.set(source, cdp);
    sources.set(cdp, source);
    // A session under this one went away (a cross-site frame the page removed): what it began
    // and never answered will not be heard of again.
    cdp.on(CDPSessionEvent.SessionDetached, (child: CDPSession) => {
      const gone = sources.get(child);
      if (gone) watch.forget(gone);
    });
    watch.watch(source);
  });
  browser.on('targetcreated', onTarget);
  for (const target of browser.targets()) onTarget(target);
  return {
    stop: () => {
      stop();
      browser.off('targetcreated', onTarget);
    },
    idle: (page, idleMs, timeoutMs) => {
      const root = sessionOf(page.target());
      const under = (source: PageEventSource): boolean => {
        for (let cdp = sessions.get(source); cdp; cdp = parentSessionOf(cdp)) if (cdp === root) return true;
        return false;
      };
      return watch.idle(under, idleMs, timeoutMs);
    },
  };
}

function pipeSource(cdp: CDPSession): PageEventSource {
  const firstDocument = new Set<(first: FirstDocument) => void>();
  return {
    on(method, listener) {
      if (method === 'firstDocument') firstDocument.add(listener as (first: FirstDocument) => void);
      else cdp.on(method, listener as (params: unknown) => void);
    },
    // Every session is enabled at once (a new one is not told apart yet: its target comes in the
    // same turn); only a page's events are kept, and a cross-site frame's, whose console lines
    // and requests only its own session hears (a same-site frame's come on its page's).
    isPage: () => targetTypeOf(cdp) === 'page' || isFrameSession(cdp),
    url: () => targetUrlOf(cdp) ?? '',
    // Sent now, in the turn the session attached: before puppeteer lets the target run. A
    // session without it (a tab's, a service worker's) refuses it, which changes nothing. Not
    // Runtime or Log: puppeteer's page enables those on this session itself, and the first
    // enable replays what the page logged so far (measured), while a second one would keep the
    // page's execution contexts from puppeteer (an early Runtime.enable left waitForFunction
    // hanging). Events of a session come in order with its answers, so a document answered
    // after the enable was heard before the first document is read.
    start(seen) {
      cdp
        .send('Network.enable')
        .then(async () => {
          // Puppeteer enables Log on a page's session only: a cross-site frame's failed loads are
          // heard once it is on (its first enable replays what the frame logged so far).
          if (isFrameSession(cdp)) await cdp.send('Log.enable');
          if (seen() || targetTypeOf(cdp) !== 'page') return;
          const first = await readFirstDocument(cdp);
          if (first) for (const listener of firstDocument) listener(first);
        })
        .catch(() => undefined);
    },
  };
}

/**
 * A page's top document as its navigation timing says (see FIRST_DOCUMENT), read in a world of
 * aite's own, so the page's scripts cannot replace what it calls there; within a deadline.
 */
export async function readFirstDocument(cdp: CDPSession): Promise<FirstDocument | undefined> {
  return withTimeout(
    readFirstDocumentOver((method, params) => cdp.send(method as never, params as never)),
    FIRST_DOCUMENT_MS,
    'reading the first document',
  );
}
