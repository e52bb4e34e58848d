import type { Browser, Page, Protocol, Target } from 'puppeteer-core';
import type { NetworkEntry, PageError } from '../types.js';
import { redactUrl } from './redact.js';

/** What the watch reports to. */
export interface PageWatchSink {
  pageError(error: PageError): void;
  request(entry: NetworkEntry): void;
}

const TEXT_MAX = 4_000;

/**
 * Console lines and requests of every page of a launched Chrome, from the debugging pipe: CDP's
 * `Runtime.consoleAPICalled` (console.error, console.warn), `Log.entryAdded` (failed resource
 * loads) and the Network domain. Uncaught errors are not taken from here: measured, CDP misses
 * an error thrown by a page's first script (the page is attached after it ran), which the
 * extension's relay, there at document_start, sees (pageErrorRelay.ts).
 * Headers are never read: nothing secret is kept but the URL, whose userinfo is redacted.
 */
export class PageWatch {
  readonly #watched = new WeakSet<Page>();
  readonly #onTarget = (target: Target): void => {
    if (target.type() !== 'page') return;
    void target.page().then((page) => page && this.#watch(page), () => undefined);
  };

  constructor(
    private readonly browser: Browser,
    private readonly sink: PageWatchSink,
  ) {
    browser.on('targetcreated', this.#onTarget);
    for (const target of browser.targets()) this.#onTarget(target);
  }

  dispose(): void {
    this.browser.off('targetcreated', this.#onTarget);
  }

  #watch(page: Page): void {
    if (this.#watched.has(page)) return;
    this.#watched.add(page);
    const pageUrl = (): string => redactUrl(page.url());
    // A CDP session of our own: enabling Runtime and Log on it replays what the page logged
    // before it was attached (measured), and its Network events are not held back waiting for
    // extra-info events as puppeteer's request events are (a fetch answered 500 never "finished").
    void page
      .createCDPSession()
      .then(async (cdp) => {
        cdp.on('Runtime.consoleAPICalled', (e: Protocol.Runtime.ConsoleAPICalledEvent) => {
          if (e.type !== 'error' && e.type !== 'warning') return;
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
          if (entry.level !== 'error') return;
          const resource = entry.source === 'network';
          this.sink.pageError({
            kind: resource ? 'resource' : 'console-error',
            text: cut(entry.url ? `${entry.text} (${redactUrl(entry.url)})` : entry.text),
            url: pageUrl(),
          });
        });
        const open = new Map<string, OpenRequest>();
        cdp.on('Network.requestWillBeSent', (e: Protocol.Network.RequestWillBeSentEvent) => {
          // A redirect ends the request that was redirected.
          if (e.redirectResponse) this.#answered(open, e.requestId, e.redirectResponse.status);
          open.set(e.requestId, { url: e.request.url, method: e.request.method, type: (e.type ?? 'Other').toLowerCase(), started: performance.now() });
        });
        // Logged when the answer's head arrives: a body nobody reads may never finish loading.
        cdp.on('Network.responseReceived', (e: Protocol.Network.ResponseReceivedEvent) => this.#answered(open, e.requestId, e.response.status));
        cdp.on('Network.loadingFailed', (e: Protocol.Network.LoadingFailedEvent) => this.#answered(open, e.requestId, undefined, e.errorText || 'failed'));
        await Promise.all([cdp.send('Network.enable'), cdp.send('Runtime.enable'), cdp.send('Log.enable')]);
      })
      .catch(() => undefined);
  }

  #answered(open: Map<string, OpenRequest>, id: string, status: number | undefined, failed?: string): void {
    const entry = open.get(id);
    if (!entry) return;
    open.delete(id);
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
