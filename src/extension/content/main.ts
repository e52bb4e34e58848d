import { CONTENT_HANDLER_KEY, CONTENT_NOT_LOADED } from '../../sdk/protocol/index.js';
import { PAGE_PORT_NAME, type PagePortAnswer, type PagePortRequest } from '../PagePort.js';
import { actStatus, handlePageRequest, lastActDispatched, type PageRequest } from './PageCommands.js';
import { framePoint, probedFrame, probeOf, type FramePointQuery } from './frames.js';
import { PAGE_ERROR_CHANNEL, parseRelayedText, type RelayedError } from './pageErrorRelay.js';
import { refs } from './refs.js';

/**
 * The content script's entry (bundled as an IIFE). It only wires Chrome to the page logic:
 * every `chrome.*` call of the page side is in this file, so the rest runs in a plain page
 * for tests.
 *
 * From the worker:
 * - on the port named PAGE_PORT_NAME, `{ aite: 1, seq, request }`: a page command; answered on
 *   the port with `{ seq, answer }`, the ok answer or a failure (`handlePageRequest` never throws).
 * - `{ aite: 1, request }` as a one-off message: the same, answered through sendResponse.
 * - `{ aite: 1, query: 'actDispatched', id }`: whether act `id` began dispatching input in
 *   this document, `{ dispatched: ActDispatch | null }` (for reporting an act whose answer was lost).
 * - `{ aite: 1, query: 'actStatus', id }`: `{ dispatched: true | false | "unknown" }` for a lost
 *   act, and fences it so that an act not yet dispatched never dispatches (see `actStatus`).
 * - `{ aite: 1, query: 'framePoint', point: FramePointQuery }`: a point in a child frame's
 *   viewport moved into this document's, or why input there would not reach it (frames.ts).
 * - `{ aite: 1, query: 'frameRefs', probe, path, refs }`: the refs that the cross-site iframe
 *   this document's snapshot probed with `probe` gave out for it; a command naming one of them
 *   here is sent on to that frame (refs.ts). Answered `{ ok }` (false: the iframe is gone).
 * From the runner over the debugging pipe (launch mode; sdk/session/pipe/ContentWorld.ts): the
 *   same page commands, already validated, through the handler kept on this isolated world's
 *   global under `Symbol.for(CONTENT_HANDLER_KEY)`; it answers CONTENT_NOT_LOADED while the
 *   document is still loading (the worker waits for the load instead).
 * To the worker: `{ aite: 1, frameProbe: nonce }` when this document's parent probes it (frames.ts).
 * Events to the worker: `{ aite: 1, event: { type: 'event', kind: 'console', level: 'error', text, error } }`
 * for the page's uncaught errors, rejections and failed loads (`error`); the worker adds `tab`.
 */

// The worker injects this file on demand into tabs that were open before the extension
// loaded, and Chrome may have injected it already: all content scripts of the extension
// share this isolated world's global, so a symbol on it marks a document as served.
const INSTALLED = Symbol.for('aite.content.installed');
const scope = globalThis as typeof globalThis & { [INSTALLED]?: true };

// A page that throws in a loop must not flood the run's report or the socket.
const CONSOLE_EVENTS_MAX = 100;

/** How long a page that closed itself keeps requests unreceived, waiting to be gone. */
const CLOSING_GRACE_MS = 2_000;

if (!scope[INSTALLED]) {
  scope[INSTALLED] = true;
  install();
}

function install(): void {
  // Only this isolated world can read its global: the page's scripts have a world of their own.
  Object.defineProperty(globalThis, Symbol.for(CONTENT_HANDLER_KEY), {
    value: (request: PageRequest) => (document.readyState === 'complete' ? handlePageRequest(request) : CONTENT_NOT_LOADED),
  });
  /** When this page was first asked something after it had closed itself. */
  let closingSince: number | undefined;
  chrome.runtime.onConnect.addListener((port) => {
    if (port.name !== PAGE_PORT_NAME || port.sender?.id !== chrome.runtime.id) return;
    port.onMessage.addListener((message: PagePortRequest) => {
      if (message?.aite !== 1 || typeof message.seq !== 'number') return;
      const take = (): void => {
        try {
          port.postMessage({ seq: message.seq, received: true } satisfies PagePortAnswer);
        } catch {
          // The port closed while the request waited (a page that had closed itself): it was never received.
          return;
        }
        void handlePageRequest(message.request as PageRequest).then((answer) => {
          try {
            port.postMessage({ seq: message.seq, answer } satisfies PagePortAnswer);
          } catch {
            // The worker went away with the port; the bridge fails or re-sends the request.
          }
        });
      };
      // A page that closed itself (`window.close()`, which Chrome honours: `closed` is true at
      // once, and stays false for a close it ignores) is going away. A request that reaches it
      // now was sent after that close: it is left unreceived, so when the tab is gone the worker
      // sends it where the run went back to, as a first delivery. A page still here after the
      // grace (its close was called off) takes it then, and every later one at once.
      if (window.closed) closingSince ??= Date.now();
      const wait = closingSince === undefined ? 0 : closingSince + CLOSING_GRACE_MS - Date.now();
      if (wait > 0) setTimeout(take, wait);
      else take();
    });
  });

  chrome.runtime.onMessage.addListener((message: unknown, sender, sendResponse) => {
    if (sender.id !== chrome.runtime.id) return false;
    const m = message as { aite?: unknown; request?: unknown; query?: unknown; id?: unknown } | null;
    if (!m || m.aite !== 1) return false;
    if (m.request !== undefined) {
      void handlePageRequest(m.request as PageRequest).then(sendResponse);
      return true; // the answer comes asynchronously
    }
    if (m.query === 'actDispatched' && typeof m.id === 'number') {
      sendResponse({ dispatched: lastActDispatched(m.id) ?? null });
    }
    if (m.query === 'actStatus' && typeof m.id === 'number') {
      sendResponse({ dispatched: actStatus(m.id) });
    }
    if (m.query === 'frameRefs') {
      const q = m as { probe?: unknown; path?: unknown; refs?: unknown };
      const iframe = typeof q.probe === 'string' ? probedFrame(q.probe) : undefined;
      const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
      if (iframe && strings(q.path) && strings(q.refs)) refs.inFrame(iframe, q.path, q.refs);
      sendResponse({ ok: iframe !== undefined });
    }
    if (m.query === 'framePoint') {
      void framePoint((m as { point: FramePointQuery }).point).then(sendResponse);
      return true; // answered once the frame is drawn where it is
    }
    return false;
  });

  // A navigation ends the refs of the document it leaves; one shown again from the back/forward
  // cache comes back with this script and its refs, which must stay ended.
  window.addEventListener('pageshow', (e) => {
    if (e.persisted) refs.forget();
  });

  // A parent document asks which frame this is (a target's frame path goes through it).
  window.addEventListener('message', (e) => {
    const nonce = probeOf(e);
    if (nonce === undefined) return;
    try {
      chrome.runtime.sendMessage({ aite: 1, frameProbe: nonce }).catch(() => undefined);
    } catch {
      // The extension was reloaded and this script is orphaned.
    }
  });

  // Page errors reach this isolated world only through the main-world relay (pageErrorRelay.ts),
  // which keeps what it saw before this listener was there until it hears `ready`.
  let sent = 0;
  window.addEventListener(PAGE_ERROR_CHANNEL, (e) => {
    const error = parseRelayedText((e as CustomEvent<unknown>).detail);
    if (!error || sent > CONSOLE_EVENTS_MAX) return;
    sent++;
    sendConsole(sent > CONSOLE_EVENTS_MAX ? { kind: 'error', text: `(more than ${CONSOLE_EVENTS_MAX} page errors; the rest of this page's errors are not reported)` } : error);
  });
  window.addEventListener(`${PAGE_ERROR_CHANNEL}:hello`, () => window.dispatchEvent(new CustomEvent(`${PAGE_ERROR_CHANNEL}:ready`)));
  window.dispatchEvent(new CustomEvent(`${PAGE_ERROR_CHANNEL}:ready`));
}

function sendConsole(error: RelayedError): void {
  try {
    chrome.runtime
      .sendMessage({ aite: 1, event: { type: 'event', kind: 'console', level: 'error', text: error.text.slice(0, 10_000), error: error.kind } })
      .catch(() => {
        // No worker listening (it is restarting): the error is lost, the page is not disturbed.
      });
  } catch {
    // The extension was reloaded and this script is orphaned: nothing to report to.
  }
}
