import type { Browser, CDPSession, Page, Protocol } from 'puppeteer-core';
import { AiteError } from '../errors/AiteError.js';
import { browserSession } from '../launch/browserSession.js';
import { allowedOrigins, isAllowed, withTimeout } from '../protocol/index.js';
import { openPages } from '../launch/pages.js';

/**
 * Options of {@link Session.reset}.
 *
 * @example
 * ```ts
 * import type { ResetOptions, Session } from 'aite';
 *
 * declare const session: Session;
 * // A profile the user named keeps its logins unless asked:
 * const options: ResetOptions = { storage: true };
 * await session.reset(options);
 * ```
 * @public
 */
export interface ResetOptions {
  /**
   * Clear cookies, local and session storage, IndexedDB, Cache Storage, service workers and the
   * HTTP cache of the allowed origins. Default: true for the temp profile `launch()` made, false
   * for a `userDataDir` the user named (its logins are what it is for).
   */
  storage?: boolean;
}

/** Every kind of site data `Storage.clearDataForOrigin` takes that a test can leave behind. */
const SITE_DATA = ['cookies', 'local_storage', 'indexeddb', 'cache_storage', 'service_workers', 'file_systems', 'websql'].join(',');

/**
 * The browser half of a reset over the pipe: every tab but `keep` closed (without running their
 * beforeunload handlers), `keep` on about:blank, and with `storage` the allowed origins' data
 * cleared from it. Answers the page kept: the run's tab when the data is cleared (reusing it is
 * ~15x faster than opening a tab, ~270 ms here) with its session storage, history and
 * `window.name` cleared, a new tab when the data is kept.
 */
export async function resetPages(
  browser: Browser,
  keep: Page | undefined,
  options: { origins: readonly string[]; storage: boolean; timeoutMs: number },
): Promise<Page> {
  const deadline: Deadline = (what) => ({ what, ms: options.timeoutMs });
  let kept = keep && !keep.isClosed() ? keep : (await openPages(browser))[0];
  // Chrome's own list, not puppeteer's: a tab a click just opened may not be attached yet.
  const browserCdp = await within(browserSession(browser), deadline('opening a CDP session'));
  const { targetInfos } = await within(browserCdp.send('Target.getTargets'), deadline('listing the tabs'));
  const keptId = kept ? targetIdOf(kept) : undefined;
  const others = targetInfos.filter((info) => info.type === 'page' && info.targetId !== keptId);
  await Promise.all(others.map((info) => within(browserCdp.send('Target.closeTarget', { targetId: info.targetId }), deadline('closing a tab')).catch(() => undefined)));
  // closeTarget answers when the close begins: a page still running could write its origin's
  // data after it was cleared, so the data waits until those tabs are gone (bounded).
  const closing = new Set(others.map((info) => info.targetId));
  for (const until = Date.now() + options.timeoutMs; closing.size > 0 && Date.now() < until; ) {
    const { targetInfos: left } = await within(browserCdp.send('Target.getTargets'), deadline('listing the tabs'));
    if (!left.some((info) => closing.has(info.targetId))) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  if (kept && !options.storage) {
    // Session storage belongs to the tab and cannot be cleared without the rest of the origin's
    // data: a profile whose data is kept gets a new tab, as a new test would. The new tab opens
    // first: with no tab left Chrome ends the browsing session and drops its session cookies.
    const fresh = await within(browser.newPage(), deadline('opening a blank tab'));
    await kept.close({ runBeforeUnload: false }).catch(() => undefined);
    return fresh;
  }
  // The tab's session storage outlives `Storage.clearDataForOrigin` in some Chromium builds (150
  // keeps it, 156 clears it with `local_storage`): the allowed origins the tab has shown are
  // cleared by hand, on the way out (`leave`) and, for one it no longer holds, below.
  const allowed = allowedOrigins(options.origins);
  let left: string[] = [];
  // A tab another opened (a popup) began with a copy of its opener's session storage: every
  // allowed origin may be in it, whatever the tab itself showed.
  const popup = targetInfos.some((info) => info.targetId === keptId && info.openerId !== undefined);
  if (kept) {
    try {
      left = await leave(kept, allowed, deadline, popup);
    } catch {
      // A page that holds on (a beforeunload that was dismissed, a stuck renderer) is replaced.
      await kept.close({ runBeforeUnload: false }).catch(() => undefined);
      kept = undefined;
    }
  }
  const reused = kept !== undefined;
  kept ??= await within(browser.newPage(), deadline('opening a blank tab'));
  if (!reused && !options.storage) return kept;
  const cdp = await within(kept.createCDPSession(), deadline('opening a CDP session'));
  try {
    if (options.storage) {
      for (const origin of options.origins) {
        await within(cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: SITE_DATA }), deadline(`clearing the data of ${origin}`));
      }
      if (reused) for (const origin of left) await clearSessionStorageAway(kept, cdp, origin, deadline);
      if (reused && left.length) await within(kept.goto('about:blank'), deadline('leaving the page for about:blank'));
      await within(cdp.send('Network.clearBrowserCache'), deadline('clearing the HTTP cache'));
    }
    if (reused) {
      // A reused tab forgets what the last test did in it, as a new tab would know nothing: its
      // history (so neither tab.back() nor the page's own history.go() walks into the last test's
      // pages, nor the back/forward cache brings one back alive) and its window.name.
      await within(cdp.send('Page.resetNavigationHistory'), deadline("clearing the tab's history"));
      await within(cdp.send('Runtime.evaluate', { expression: 'window.name = ""' }), deadline("clearing the tab's window.name"));
    }
  } finally {
    await cdp.detach().catch(() => undefined);
  }
  return kept;
}

type Deadline = (what: string) => { what: string; ms: number };

/**
 * Leaves the page for about:blank, clearing on the way the session storage of the `allowed`
 * origins the tab holds now: its frames' before it leaves, and the page's own after, on the
 * about:blank the page is made to navigate to itself ({@link LEAVE_FOR_BLANK}), which inherits its
 * origin; its handlers erased first, nothing it would write as it is left (a draft saved on
 * `pagehide`) is written. Answers the allowed origins the tab
 * showed (its history's pages) that are still to clear: all of them when its history cannot be
 * read, or when the tab is a `popup` (its session storage began as its opener's).
 */
async function leave(page: Page, allowed: readonly string[], deadline: Deadline, popup: boolean): Promise<string[]> {
  const main = page.mainFrame();
  const top = allowedOriginOf(main.url(), allowed);
  const frames = new Set(page.frames().filter((frame) => frame !== main).map((frame) => allowedOriginOf(frame.url(), allowed)));
  const cdp = await within(page.createCDPSession(), deadline('opening a CDP session'));
  try {
    const history = await within(cdp.send('Page.getNavigationHistory'), deadline("reading the tab's history")).then(
      ({ entries }) => entries.map((entry) => allowedOriginOf(entry.url, allowed)),
      () => allowed,
    );
    const cleared = new Set<string>();
    // A frame of another process (a cross-site frame) may not be reachable from the page's
    // session: its origin is then left to clear away from it.
    for (const origin of frames) {
      if (origin && origin !== top) await clearSessionStorage(cdp, origin, deadline).then(() => cleared.add(origin), () => undefined);
    }
    if (!top) {
      await within(page.goto('about:blank'), deadline('leaving the page for about:blank'));
    } else {
      const gone = page.waitForNavigation({ timeout: deadline('').ms });
      gone.catch(() => undefined); // awaited below, unless the evaluate throws first
      await within(cdp.send('Runtime.evaluate', { expression: LEAVE_FOR_BLANK }), deadline('leaving the page for about:blank'));
      await within(gone, deadline('leaving the page for about:blank'));
      await clearSessionStorage(cdp, top, deadline);
      cleared.add(top);
    }
    return allowed.filter((origin) => !cleared.has(origin) && (popup || history.includes(origin) || frames.has(origin)));
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/**
 * The page's own way out to about:blank. A navigation the page starts asks its `beforeunload`
 * handlers first (puppeteer's `goto` does not), and one the user has touched would hold it on a
 * prompt: `document.open()` erases the window's and the document's listeners and handlers
 * (HTML's "erase all event listeners and handlers"), `beforeunload` and `pagehide` among them.
 */
const LEAVE_FOR_BLANK = 'try { document.open(); document.close(); } catch {} location.href = "about:blank";';

/** The allowed origin `url` is of, or '' when none is. */
function allowedOriginOf(url: string, allowed: readonly string[]): string {
  return allowed.find((origin) => isAllowed(url, [origin])) ?? '';
}

/** Clears the tab's session storage of `origin`: its session must hold a document of that origin. */
function clearSessionStorage(cdp: CDPSession, origin: string, deadline: Deadline): Promise<unknown> {
  return within(cdp.send('DOMStorage.clear', { storageId: { securityOrigin: origin, isLocalStorage: false } }), deadline(`clearing the session storage of ${origin}`));
}

/** Where the tab stands on an origin to clear its session storage: a document of no content. */
const BLANK_PATH = '/aite-reset-session-storage';

/**
 * Clears a tab's session storage of an origin it no longer holds: the tab is shown an empty
 * document of that origin served by the runner itself (`Fetch`), so no page of the site runs and
 * nothing leaves the machine.
 */
async function clearSessionStorageAway(page: Page, cdp: CDPSession, origin: string, deadline: Deadline): Promise<void> {
  const url = `${origin}${BLANK_PATH}`;
  const answer = (event: Protocol.Fetch.RequestPausedEvent): void => {
    cdp
      .send('Fetch.fulfillRequest', { requestId: event.requestId, responseCode: 200, responseHeaders: [{ name: 'content-type', value: 'text/html' }, { name: 'cache-control', value: 'no-store' }], body: '' })
      .catch(() => undefined);
  };
  cdp.on('Fetch.requestPaused', answer);
  try {
    await within(cdp.send('Fetch.enable', { patterns: [{ urlPattern: `${url}*` }] }), deadline('serving an empty page'));
    await within(page.goto(url), deadline(`showing an empty page of ${origin}`));
    await clearSessionStorage(cdp, origin, deadline);
  } finally {
    cdp.off('Fetch.requestPaused', answer);
    await within(cdp.send('Fetch.disable'), deadline('ending the empty page')).catch(() => undefined);
  }
}

/** The CDP target id of a page (puppeteer keeps it on the target, unexported). */
function targetIdOf(page: Page): string | undefined {
  return (page.target() as unknown as { _targetId?: string })._targetId;
}

function within<T>(work: Promise<T>, { what, ms }: { what: string; ms: number }): Promise<T> {
  return withTimeout(work, ms, () => new AiteError('timeout', `reset: ${what} took over ${ms} ms.`, { command: 'reset' }));
}
