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

/** One relayed error; it crosses as the text `kind:text` in the DOM event's detail ({@link relayedText}). */
export interface RelayedError {
  kind: 'error' | 'rejection' | 'resource';
  text: string;
}

const KINDS: readonly string[] = ['error', 'rejection', 'resource'];

/** The detail a relayed error crosses as: no JSON, which the page may have replaced. */
export function relayedText(error: RelayedError): string {
  return `${error.kind}:${error.text}`;
}

/** The error a relayed detail says; undefined for anything else. */
export function parseRelayedText(detail: unknown): RelayedError | undefined {
  if (typeof detail !== 'string') return undefined;
  const colon = detail.indexOf(':');
  const kind = detail.slice(0, colon);
  if (colon < 0 || !KINDS.includes(kind)) return undefined;
  return { kind: kind as RelayedError['kind'], text: detail.slice(colon + 1) };
}

/** What the relay keeps while no listener is there. */
const BUFFER_MAX = 100;

/**
 * Installs the main-world listeners for `channel`; a second install in the same document does
 * nothing (the first answers its probe, an event only the two know the name of).
 *
 * It runs before the page's scripts, and takes then everything it calls later
 * (`dispatchEvent`, `CustomEvent`, `ErrorEvent`, `Error`): a page that replaces them, or deletes
 * `Array.prototype[Symbol.iterator]`, neither silences it nor sees it throw. Its listeners never
 * throw into the page (whose `window.onerror` would report aite's error as the page's).
 */
export function installPageErrorRelay(channel: string): void {
  const apply = Reflect.apply;
  const dispatchEvent = EventTarget.prototype.dispatchEvent;
  const addEventListener = EventTarget.prototype.addEventListener;
  const NativeCustomEvent = CustomEvent;
  const NativeErrorEvent = ErrorEvent;
  const NativeError = Error;
  const stringify = JSON.stringify;
  const dispatch = (name: string, init?: CustomEventInit<string>): Event => {
    const event = new NativeCustomEvent(name, init);
    apply(dispatchEvent, window, [event]);
    return event;
  };
  const listen = (name: string, listener: (e: Event) => void, capture = false): void => {
    const guarded = (e: Event): void => {
      try {
        listener(e);
      } catch {
        // Never the page's error: a relay that cannot tell one loses only that one.
      }
    };
    apply(addEventListener, window, [name, guarded, capture]);
  };

  if (dispatch(`${channel}:probe`, { cancelable: true }).defaultPrevented) return;
  listen(`${channel}:probe`, (e) => e.preventDefault());

  let buffer: string[] | undefined = [];
  let dropped = 0;
  const send = (error: RelayedError): void => {
    const detail = relayedText({ kind: error.kind, text: error.text.slice(0, 10_000) });
    if (!buffer) {
      dispatch(channel, { detail });
      return;
    }
    if (buffer.length < BUFFER_MAX) buffer[buffer.length] = detail;
    else dropped++;
  };
  // The content script says it listens; everything kept goes to it, and later errors go at once.
  listen(`${channel}:ready`, () => {
    const kept = buffer ?? [];
    buffer = undefined;
    for (let i = 0; i < kept.length; i++) dispatch(channel, { detail: kept[i] });
    if (dropped > 0) send({ kind: 'error', text: `(${dropped} more page errors before aite listened were not kept)` });
    dropped = 0;
  });
  // A content script that was there first answers this with ready.
  dispatch(`${channel}:hello`);

  const stackTail = (value: unknown): string => {
    const stack = value && typeof (value as { stack?: unknown }).stack === 'string' ? (value as { stack: string }).stack : '';
    const newline = stack.indexOf('\n'); // the first line repeats the message
    return newline >= 0 ? stack.slice(newline) : '';
  };
  listen(
    'error',
    (e: Event) => {
      if (e instanceof NativeErrorEvent) {
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
  listen('unhandledrejection', (e: Event) => {
    let reason: string;
    try {
      const r: unknown = (e as PromiseRejectionEvent).reason;
      reason = r instanceof NativeError ? `${r.name}: ${r.message}${stackTail(r)}` : typeof r === 'string' ? r : (stringify(r) ?? String(r));
    } catch {
      reason = '(a value that cannot be shown)';
    }
    send({ kind: 'rejection', text: `Uncaught (in promise) ${reason}` });
  });
}
