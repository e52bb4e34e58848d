import { isBrowserFaviconUrl } from './PageWatch.js';
import type { NetworkEntry, PageError } from './types.js';

/** Requests kept over a run, oldest dropped first. */
export const NETWORK_MAX = 1_000;
/** Page errors kept over a run, oldest dropped first. */
export const PAGE_ERRORS_MAX = 1_000;
/** Page errors kept per step, however often the page reloads during it. */
export const PAGE_ERRORS_PER_STEP = 100;
/** Failed requests a failed step's error lists. */
const FAILED_LISTED_MAX = 20;

/** The line in place of a step's page errors past {@link PAGE_ERRORS_PER_STEP}. */
function droppedLine(dropped: number): string {
  return `(more than ${PAGE_ERRORS_PER_STEP} page errors in this step: ${dropped} more ${dropped === 1 ? 'was' : 'were'} not kept)`;
}

/**
 * A failed request of the page's: no answer, or an HTTP error status. Chrome's own fetch of
 * `/favicon.ico` (resource type `other`) is the browser's, not the page's: most servers answer
 * it 404, and a step, a report or an agent told so would blame the step after every navigation.
 * It stays in `session.network`.
 * @internal
 */
export function isFailedRequest(entry: NetworkEntry): boolean {
  return (entry.failed !== undefined || (entry.status ?? 0) >= 400) && !isBrowserFavicon(entry);
}

function isBrowserFavicon(entry: NetworkEntry): boolean {
  return entry.type === 'other' && isBrowserFaviconUrl(entry.url);
}

/**
 * The run's requests and page errors, bounded in memory: at most {@link NETWORK_MAX} requests
 * and {@link PAGE_ERRORS_MAX} errors, and {@link PAGE_ERRORS_PER_STEP} errors per step (the
 * next one is a line saying how many more there were), so a page that throws in a loop or
 * reloads ten times in a step cannot flood a report; the line counts the ones left out. Each entry has a sequence number, so a
 * step can ask for what happened since it started.
 */
export class RunRecords {
  readonly network: NetworkEntry[] = [];
  readonly pageErrors: PageError[] = [];
  #requestSeq = 0;
  #errorSeq = 0;
  #stepErrors = 0;
  #stepDropped = 0;
  /** The step's line that says how many page errors were not kept; its count grows as they come. */
  #stepMarker: PageError | undefined;

  /** A step starts: its page errors are counted from here. */
  startStep(): { requests: number; errors: number } {
    this.#stepErrors = 0;
    this.#stepDropped = 0;
    this.#stepMarker = undefined;
    return this.startMark();
  }

  /** Where the records stand now, for asking what came since. */
  startMark(): { requests: number; errors: number } {
    return { requests: this.#requestSeq, errors: this.#errorSeq };
  }

  /** Keeps a request; answers it. */
  addRequest(entry: NetworkEntry): NetworkEntry {
    this.network.push(entry);
    this.#requestSeq++;
    if (this.network.length > NETWORK_MAX) this.network.shift();
    return entry;
  }

  /** Keeps a page error, unless the step has had its share; answers what was kept (or nothing). */
  addPageError(error: PageError): PageError | undefined {
    if (this.#stepErrors >= PAGE_ERRORS_PER_STEP) {
      this.#stepDropped++;
      const text = droppedLine(this.#stepDropped);
      // One line says so, once per step, and counts what was left out so far (the same object
      // in session.consoleErrors and in the report, so its count is the step's when it is read).
      if (this.#stepMarker) {
        this.#stepMarker.text = text;
        return undefined;
      }
      this.#stepMarker = this.#keep({ kind: error.kind, text, ...(error.url ? { url: error.url } : {}) });
      return this.#stepMarker;
    }
    this.#stepErrors++;
    return this.#keep(error);
  }

  /** Failed requests since `mark` (at most 20, the latest). */
  failedSince(mark: { requests: number }): NetworkEntry[] {
    const count = Math.min(this.#requestSeq - mark.requests, this.network.length);
    return this.network.slice(this.network.length - count).filter(isFailedRequest).slice(-FAILED_LISTED_MAX);
  }

  /**
   * The HTTP status of the latest document answered for `url` since `mark` (its fragment aside):
   * what a navigation landed on. Undefined when none was fetched (a back/forward-cache restore)
   * or none was seen.
   */
  documentStatus(mark: { requests: number }, url: string): number | undefined {
    const count = Math.min(this.#requestSeq - mark.requests, this.network.length);
    const want = documentKey(url);
    for (let i = this.network.length - 1; i >= this.network.length - count; i--) {
      const entry = this.network[i]!;
      if (entry.type === 'document' && entry.status !== undefined && documentKey(entry.url) === want) return entry.status;
    }
    return undefined;
  }

  /** Page errors since `mark`. */
  errorsSince(mark: { errors: number }): PageError[] {
    const count = Math.min(this.#errorSeq - mark.errors, this.pageErrors.length);
    return this.pageErrors.slice(this.pageErrors.length - count);
  }

  /** Forgets everything (a reset between tests). */
  clear(): void {
    this.network.length = 0;
    this.pageErrors.length = 0;
  }

  #keep(error: PageError): PageError {
    this.pageErrors.push(error);
    this.#errorSeq++;
    if (this.pageErrors.length > PAGE_ERRORS_MAX) this.pageErrors.shift();
    return error;
  }
}

/**
 * The document an address names: without its fragment, and without a login in it (the log keeps
 * it as `***@`, the tab may show it or not).
 */
function documentKey(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.hash = '';
    return parsed.href;
  } catch {
    const at = url.indexOf('#');
    return at < 0 ? url : url.slice(0, at);
  }
}
