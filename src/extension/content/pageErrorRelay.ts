/**
 * The page's uncaught errors, relayed to the content script.
 *
 * Measured in Chromium 156 (test/page/console.page.test.ts): a content script in its isolated
 * world receives NO `error` or `unhandledrejection` event for exceptions of the page's own
 * scripts: Chrome reports an exception only to listeners of the world it happened in. So the
 * listeners must run in the page's main world, and pass each error on as a DOM event, which
 * both worlds see. Only a string crosses (an object in `detail` would arrive as null).
 *
 * The relay starts at document_start, before the page's first script; the content script's
 * listener only at document_idle. So the relay keeps what it sees (at most 100) until the
 * listener says it is there, then hands it all over: errors thrown while the page parses, in a
 * `setTimeout 0` or at DOMContentLoaded are not lost.
 *
 * Not discoverable by the page: no global, no property, and the events' names are
 * {@link PAGE_ERROR_CHANNEL}, which the launcher replaces in the staged bundles with a random
 * name per staged extension (see ExtensionStage), so a page cannot listen for them or probe for
 * the relay. (A page that knew the name could only add lines to the run's list of page errors,
 * which it can do with real errors anyway.)
 *
 * In the main world the error event has everything: `message` ("Uncaught Error: boom"),
 * filename, line, column, and `error.stack` (measured). Errors of cross-origin scripts loaded
 * without CORS arrive as "Script error." with no location or stack (the browser hides them).
 */
export { PAGE_ERROR_CHANNEL } from '../../sdk/protocol/pageErrorChannel.js';

/** One relayed error, as JSON text in the DOM event's detail. */
export interface RelayedError {
  kind: 'error' | 'rejection' | 'resource';
  text: string;
}

/** What the relay keeps while no listener is there. */
const BUFFER_MAX = 100;

/**
 * Installs the main-world listeners for `channel`; a second install in the same document does
 * nothing (the first answers its probe, an event only the two know the name of).
 */
export function installPageErrorRelay(channel: string): void {
  const probe = new CustomEvent(`${channel}:probe`, { cancelable: true });
  window.dispatchEvent(probe);
  if (probe.defaultPrevented) return;
  window.addEventListener(`${channel}:probe`, (e) => e.preventDefault());

  let buffer: string[] | undefined = [];
  let dropped = 0;
  const send = (error: RelayedError): void => {
    const detail = JSON.stringify({ kind: error.kind, text: error.text.slice(0, 10_000) });
    if (!buffer) {
      window.dispatchEvent(new CustomEvent(channel, { detail }));
      return;
    }
    if (buffer.length < BUFFER_MAX) buffer.push(detail);
    else dropped++;
  };
  // The content script says it listens; everything kept goes to it, and later errors go at once.
  window.addEventListener(`${channel}:ready`, () => {
    const kept = buffer ?? [];
    buffer = undefined;
    for (const detail of kept) window.dispatchEvent(new CustomEvent(channel, { detail }));
    if (dropped > 0) send({ kind: 'error', text: `(${dropped} more page errors before aite listened were not kept)` });
    dropped = 0;
  });
  // A content script that was there first answers this with ready.
  window.dispatchEvent(new CustomEvent(`${channel}:hello`));

  const stackTail = (value: unknown): string => {
    const stack = value && typeof (value as { stack?: unknown }).stack === 'string' ? (value as { stack: string }).stack : '';
    const lines = stack.split('\n').slice(1); // the first line repeats the message
    return lines.length > 0 ? `\n${lines.join('\n')}` : '';
  };
  window.addEventListener(
    'error',
    (e: Event) => {
      if (e instanceof ErrorEvent) {
        const where = e.filename ? ` (${e.filename}:${e.lineno}:${e.colno})` : '';
        send({ kind: 'error', text: `${e.message || 'Uncaught error'}${where}${stackTail(e.error)}` });
        return;
      }
      // A script, stylesheet or image that failed to load: a plain Event on the element, seen only while capturing.
      const el = e.target as (Element & { src?: string; href?: string }) | null;
      const url = el && (el.src || el.href);
      if (el && el !== (window as unknown) && url) send({ kind: 'resource', text: `Failed to load resource: <${el.localName}> ${url}` });
    },
    true,
  );
  window.addEventListener('unhandledrejection', (e: PromiseRejectionEvent) => {
    let reason: string;
    try {
      const r: unknown = e.reason;
      reason = r instanceof Error ? `${r.name}: ${r.message}${stackTail(r)}` : typeof r === 'string' ? r : (JSON.stringify(r) ?? String(r));
    } catch {
      reason = '(a value that cannot be shown)';
    }
    send({ kind: 'rejection', text: `Uncaught (in promise) ${reason}` });
  });
}
