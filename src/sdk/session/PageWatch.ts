import { AiteError } from '../errors/AiteError.js';
import { cutText, redactUrl, type WatchedEvents, type WatchedMethod } from '../protocol/index.js';
import type { NetworkEntry, PageError } from './types.js';

/** What the watch reports to. */
export interface PageWatchSink {
  pageError(error: PageError): void;
  request(entry: NetworkEntry): void;
}

/**
 * One page's CDP session as the watch hears it: over the pipe (pipe/PipePages.ts), or through
 * attach mode's debugger, whose extension forwards the events cut to what is read here
 * (DebuggerPages.ts).
 */
export interface PageEventSource {
  on<M extends WatchedMethod>(method: M, listener: (params: WatchedEvents[M]) => void): void;
  /**
   * Whether its events now are a page's: a tab's or a popup's top document, or a cross-site
   * frame of one (its own session), not a worker's.
   */
  isPage(): boolean;
  /** The page's (or the frame's) address now. */
  url(): string;
  /**
   * Turns on what the events need, at once; once the Network domain is on, tells the page's
   * `firstDocument` unless `seen()` by then (a document answer was heard).
   */
  start(seen: () => boolean): void;
}

/**
 * Console lines and requests of the run's pages, from their CDP sessions: `Runtime.consoleAPICalled`
 * (console.error, console.warn), `Log.entryAdded` (failed resource loads) and the Network domain.
 * Uncaught errors are not taken from here: the extension's relay, there at document_start, sees
 * them (pageErrorRelay.ts). Raw events, not puppeteer's request events, which wait for
 * extra-info events (a fetch answered 500 never "finished").
 * Headers are never read: nothing secret is kept but the URL, whose userinfo is redacted.
 * Durations are CDP's own timestamps (the browser's clock), so events relayed by the extension
 * time as those over the pipe.
 */
export class PageWatch {
  /**
   * Requests begun and not yet answered, of all sources: a navigation that moves its tab to a
   * new page target begins on the old target's session and is answered on the new one's.
   */
  readonly #open = new Map<string, OpenRequest>();
  /** Waits for a page's network to go quiet, told of every change. */
  readonly #changed = new Set<() => void>();
  #disposed = false;

  constructor(private readonly sink: PageWatchSink) {}

  dispose(): void {
    this.#disposed = true;
    this.#open.clear();
    this.#tell();
  }

  /** Watches one page's session from now on. */
  watch(source: PageEventSource): void {
    // Only a page's events are kept: a tab's or a popup's, its documents and its frames'.
    const isPage = (): boolean => !this.#disposed && source.isPage();
    const pageUrl = (): string => redactUrl(source.url());
    source.on('Runtime.consoleAPICalled', (e) => {
      if ((e.type !== 'error' && e.type !== 'warning') || !isPage()) return;
      const text = e.args.map(argText).join(' ');
      const frame = e.stackTrace?.callFrames[0];
      this.sink.pageError({
        kind: e.type === 'error' ? 'console-error' : 'console-warning',
        text: cutText(text),
        url: pageUrl(),
        ...(frame?.url ? { source: `${redactUrl(frame.url)}:${frame.lineNumber + 1}` } : {}),
      });
    });
    source.on('Log.entryAdded', ({ entry }) => {
      if (entry.level !== 'error' || !isPage()) return;
      const resource = entry.source === 'network';
      if (resource && entry.url && isBrowserFaviconUrl(entry.url)) return;
      this.sink.pageError({
        kind: resource ? 'resource' : 'console-error',
        text: cutText(entry.url ? `${entry.text} (${redactUrl(entry.url)})` : entry.text),
        url: pageUrl(),
      });
    });
    source.on('Network.requestWillBeSent', (e) => {
      if (!isPage()) return;
      // A redirect ends the request that was redirected.
      if (e.redirectResponse) this.#answered(e.requestId, e.timestamp, e.redirectResponse.status);
      this.#open.set(e.requestId, { url: e.request.url, method: e.request.method, type: (e.type ?? 'Other').toLowerCase(), started: e.timestamp, source });
      this.#tell();
    });
    // Logged when the answer's head arrives: a body nobody reads may never finish loading.
    let documentSeen = false;
    source.on('Network.responseReceived', (e) => {
      if (e.type === 'Document') documentSeen = true;
      if (!this.#open.has(e.requestId) && e.type === 'Document' && isPage()) {
        // A new tab's first document (and a navigation that gets a new page target): Chrome
        // makes the page target when the answer commits, after the request began, so no session
        // saw it begin. It is logged from the answer: a document a tab opens is fetched by GET,
        // and the answer's timing says when it was asked for.
        this.#open.set(e.requestId, { url: e.response.url, method: 'GET', type: 'document', started: e.response.timing?.requestTime ?? e.timestamp, source });
      }
      this.#answered(e.requestId, e.timestamp, e.response.status);
    });
    source.on('Network.loadingFailed', (e) => this.#answered(e.requestId, e.timestamp, undefined, e.errorText || 'failed'));
    // On a busy machine a new tab's first answer can come before its session listens (Chrome
    // makes the page target as that answer commits): then the page's own navigation timing
    // says what it was.
    source.on('firstDocument', (first) => {
      if (documentSeen || !isPage()) return;
      documentSeen = true;
      this.sink.request({ url: redactUrl(first.url), method: 'GET', ...(first.status > 0 ? { status: first.status } : {}), type: 'document', ms: Math.round(first.ms) });
    });
    source.start(() => documentSeen);
  }

  /**
   * Forgets the requests `source` began and never answered (its session went away), or only
   * those of them `requestIds` names (a frame of it went away).
   */
  forget(source: PageEventSource, requestIds?: readonly string[]): void {
    const named = requestIds && new Set(requestIds);
    for (const [id, open] of this.#open) if (open.source === source && (!named || named.has(id))) this.#open.delete(id);
    this.#tell();
  }

  /**
   * Waits until the page whose sources `of` names (its own session, and those of its cross-site
   * frames) has had no request in flight for `idleMs`; `timeout` when it has not by `timeoutMs`.
   * Requests begun before a source was watched are not known.
   */
  idle(of: (source: PageEventSource) => boolean, idleMs: number, timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let quiet: ReturnType<typeof setTimeout> | undefined;
      const done = (error?: AiteError): void => {
        clearTimeout(quiet);
        clearTimeout(deadline);
        this.#changed.delete(check);
        if (error) reject(error);
        else resolve();
      };
      const check = (): void => {
        const busy = [...this.#open.values()].some((open) => of(open.source));
        if (busy) {
          clearTimeout(quiet);
          quiet = undefined;
        } else quiet ??= setTimeout(() => done(), idleMs);
      };
      const deadline = setTimeout(() => {
        const open = [...this.#open.values()].filter((o) => of(o.source)).map((o) => redactUrl(o.url));
        done(new AiteError('timeout', `The network did not go idle within ${timeoutMs} ms (${open.length} in flight${open.length ? `: ${open.slice(0, 3).join(', ')}` : ''}).`, { command: 'wait' }));
      }, timeoutMs);
      this.#changed.add(check);
      check();
    });
  }

  #tell(): void {
    for (const changed of [...this.#changed]) changed();
  }

  #answered(id: string, at: number, status: number | undefined, failed?: string): void {
    const entry = this.#open.get(id);
    if (!entry || this.#disposed) return;
    this.#open.delete(id);
    this.#tell();
    if (/^(data|blob|chrome-extension):/.test(entry.url)) return;
    this.sink.request({
      url: redactUrl(entry.url),
      method: entry.method,
      ...(status !== undefined && status > 0 ? { status } : {}),
      type: entry.type,
      // CDP's timestamps are in seconds.
      ms: Math.max(0, Math.round((at - entry.started) * 1_000)),
      ...(failed !== undefined ? { failed } : {}),
    });
  }
}

interface OpenRequest {
  url: string;
  method: string;
  type: string;
  /** When it began, in CDP's seconds. */
  started: number;
  source: PageEventSource;
}

/**
 * One console argument as DevTools and Playwright show it: a string as is, an object or array
 * from CDP's preview (`{a: 1, b: 'x'}`, `[1, 2]`), not as its class name (`Object`).
 */
function argText(arg: WatchedEvents['Runtime.consoleAPICalled']['args'][number]): string {
  if (arg.type === 'string') return String(arg.value);
  if (arg.value !== undefined) return JSON.stringify(arg.value);
  const preview = arg.preview;
  if (arg.type === 'object' && preview && (arg.subtype === undefined || arg.subtype === 'array')) {
    const shown = (p: { type: string; value?: string }): string => (p.type === 'string' ? `'${p.value ?? ''}'` : (p.value ?? p.type));
    const more = preview.overflow ? ', …' : '';
    if (arg.subtype === 'array') return `[${preview.properties.map(shown).join(', ')}${more}]`;
    return `{${preview.properties.map((p) => `${p.name}: ${shown(p)}`).join(', ')}${more}}`;
  }
  return arg.description ?? arg.type;
}

/**
 * Chrome's own fetch of the site's icon: its failure is the browser's, not the page's (most
 * servers answer it 404), so it is never a page error, as it is never a step's failed request.
 * @internal
 */
export function isBrowserFaviconUrl(url: string): boolean {
  try {
    return new URL(url).pathname === '/favicon.ico';
  } catch {
    return false;
  }
}
