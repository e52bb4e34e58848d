import type { Browser, CDPSession, Protocol, Target } from 'puppeteer-core';
import type { NetworkEntry, PageError } from '../types.js';
import { withTimeout } from './deadline.js';
import { redactUrl } from './redact.js';
import { everySession, targetTypeOf, targetUrlOf } from './sessions.js';

/** What the watch reports to. */
export interface PageWatchSink {
  pageError(error: PageError): void;
  request(entry: NetworkEntry): void;
}

const TEXT_MAX = 4_000;
/** How long reading a page's first document from its own navigation timing may take. */
const FIRST_DOCUMENT_MS = 5_000;
/**
 * The page's top document as its navigation timing says, once answered: for a new tab whose
 * answer came before its session could listen. Read only, nothing kept.
 */
const FIRST_DOCUMENT = `(() => {
  const n = performance.getEntriesByType('navigation')[0];
  return n && n.responseStart > 0 && /^https?:/.test(n.name) ? { url: n.name, status: n.responseStatus || 0, ms: n.responseStart - n.startTime } : undefined;
})()`;

/**
 * A page's top document as its navigation timing says (see FIRST_DOCUMENT), read in a world of
 * aite's own, so the page's scripts cannot replace what it calls there; within a deadline.
 */
export async function readFirstDocument(cdp: CDPSession): Promise<{ url: string; status: number; ms: number } | undefined> {
  const read = await withTimeout(
    (async () => {
      const { frameTree } = await cdp.send('Page.getFrameTree');
      const { executionContextId } = await cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: 'aite:first-document' });
      return cdp.send('Runtime.evaluate', { expression: FIRST_DOCUMENT, contextId: executionContextId, returnByValue: true });
    })(),
    FIRST_DOCUMENT_MS,
    'reading the first document',
  );
  return read.result.value as { url: string; status: number; ms: number } | undefined;
}

/**
 * Console lines and requests of every page of a launched Chrome, from the debugging pipe: CDP's
 * `Runtime.consoleAPICalled` (console.error, console.warn), `Log.entryAdded` (failed resource
 * loads) and the Network domain, on the session puppeteer drives each page over. A new tab's
 * Network domain is enabled as its session attaches, before the tab is let run (see
 * {@link everySession}).
 * Uncaught errors are not taken from here: the extension's relay, there at document_start, sees
 * them (pageErrorRelay.ts). Raw events, not puppeteer's request events, which wait for
 * extra-info events (a fetch answered 500 never "finished").
 * Headers are never read: nothing secret is kept but the URL, whose userinfo is redacted.
 */
export class PageWatch {
  readonly #watched = new WeakSet<CDPSession>();
  /**
   * Requests begun and not yet answered, of all sessions: a navigation that moves its tab to a
   * new page target begins on the old target's session and is answered on the new one's.
   */
  readonly #open = new Map<string, OpenRequest>();
  readonly #stop: () => void;
  #disposed = false;

  // Every page gets its puppeteer page at once, which enables Runtime and Log on its session.
  readonly #onTarget = (target: Target): void => {
    if (target.type() === 'page') void target.page().catch(() => undefined);
  };

  constructor(
    private readonly browser: Browser,
    private readonly sink: PageWatchSink,
  ) {
    this.#stop = everySession(browser, (session) => this.#watch(session));
    browser.on('targetcreated', this.#onTarget);
    for (const target of browser.targets()) this.#onTarget(target);
  }

  dispose(): void {
    this.#disposed = true;
    this.#open.clear();
    this.#stop();
    this.browser.off('targetcreated', this.#onTarget);
  }

  #watch(cdp: CDPSession): void {
    if (this.#watched.has(cdp)) return;
    this.#watched.add(cdp);
    // Every session is enabled at once (a new one is not told apart yet: its target comes in the
    // same turn); only a page's events are kept, from a tab's or a popup's top document.
    const isPage = (): boolean => !this.#disposed && targetTypeOf(cdp) === 'page';
    const pageUrl = (): string => redactUrl(targetUrlOf(cdp) ?? '');
    cdp.on('Runtime.consoleAPICalled', (e: Protocol.Runtime.ConsoleAPICalledEvent) => {
if ((e.type !== 'error' && e.type !== 'warning') || !isPage()) return;
      const text = e.args.map(argText).join(' ');
      const frame = e.stackTrace?.callFrames[0];
      this.sink.pageError({
        kind: e.type === 'error' ? 'console-error' : 'console-warning',
        text: cut(text),
        url: pageUrl(),
        ...(frame?.url ? { source: `${redactUrl(frame.url)}:${frame.lineNumber + 1}` } : {}),
      });
    });
    cdp.on('Log.entryAdded', ({ entry }: Protocol.Log.EntryAddedEvent) => {
      if (entry.level !== 'error' || !isPage()) return;
      const resource = entry.source === 'network';
      this.sink.pageError({
        kind: resource ? 'resource' : 'console-error',
        text: cut(entry.url ? `${entry.text} (${redactUrl(entry.url)})` : entry.text),
        url: pageUrl(),
      });
    });
    cdp.on('Network.requestWillBeSent', (e: Protocol.Network.RequestWillBeSentEvent) => {
      if (!isPage()) return;
      // A redirect ends the request that was redirected.
      if (e.redirectResponse) this.#answered(e.requestId, e.redirectResponse.status);
      this.#open.set(e.requestId, { url: e.request.url, method: e.request.method, type: (e.type ?? 'Other').toLowerCase(), started: performance.now() });
    });
    // Logged when the answer's head arrives: a body nobody reads may never finish loading.
    let documentSeen = false;
    cdp.on('Network.responseReceived', (e: Protocol.Network.ResponseReceivedEvent) => {
      if (e.type === 'Document') documentSeen = true;
      if (!this.#open.has(e.requestId) && e.type === 'Document' && isPage()) {
        // A new tab's first document (and a navigation that gets a new page target): Chrome
        // makes the page target when the answer commits, after the request began, so no session
        // saw it begin. It is logged from the answer: a document a tab opens is fetched by GET,
        // and the answer's timing says how long its head took.
        this.#open.set(e.requestId, { url: e.response.url, method: 'GET', type: 'document', started: performance.now() - (e.response.timing?.receiveHeadersEnd ?? 0) });
      }
      this.#answered(e.requestId, e.response.status);
    });
    cdp.on('Network.loadingFailed', (e: Protocol.Network.LoadingFailedEvent) => this.#answered(e.requestId, undefined, e.errorText || 'failed'));
    // Sent now, in the turn the session attached: before puppeteer lets the target run. A
    // session without it (a tab's, a service worker's) refuses it, which changes nothing. Not
    // Runtime or Log: puppeteer's page enables those on this session itself, and the first
    // enable replays what the page logged so far (measured), while a second one would keep the
    // page's execution contexts from puppeteer (an early Runtime.enable left waitForFunction
    // hanging).
    // On a busy machine a new tab's first answer can come before its session listens (Chrome
    // makes the page target as that answer commits): then the page's own navigation timing
    // says what it was. Events of a session come in order with its answers, so a document
    // answered after the enable was heard before this reads it.
    cdp
      .send('Network.enable')
      .then(async () => {
        if (documentSeen || !isPage()) return;
        const first = await readFirstDocument(cdp);
        if (!first || documentSeen || this.#disposed) return;
        documentSeen = true;
        this.sink.request({ url: redactUrl(first.url), method: 'GET', ...(first.status > 0 ? { status: first.status } : {}), type: 'document', ms: Math.round(first.ms) });
      })
      .catch(() => undefined);
  }

  #answered(id: string, status: number | undefined, failed?: string): void {
    const entry = this.#open.get(id);
    if (!entry || this.#disposed) return;
    this.#open.delete(id);
    if (/^(data|blob|chrome-extension):/.test(entry.url)) return;
    this.sink.request({
      url: redactUrl(entry.url),
      method: entry.method,
      ...(status !== undefined && status > 0 ? { status } : {}),
      type: entry.type,
      ms: Math.round(performance.now() - entry.started),
      ...(failed !== undefined ? { failed } : {}),
    });
  }
}

interface OpenRequest {
  url: string;
  method: string;
  type: string;
  started: number;
}

function argText(arg: Protocol.Runtime.RemoteObject): string {
  if (arg.type === 'string') return String(arg.value);
  if (arg.value !== undefined) return JSON.stringify(arg.value);
  return arg.description ?? arg.type;
}

function cut(text: string): string {
  return text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX - 1)}…` : text;
}
