// What a page's CDP session tells the runner's page watch (requests, console lines, failed
// loads): the fields it reads of each event, one copy for the pipe and for attach mode's
// debugger, which sends them over the bridge cut to these fields (no headers, no bodies).
import { redactUrl } from './redactUrl.js';

/** The CDP events the page watch reads, with the fields it reads of each. */
export interface WatchedEvents {
  'Runtime.consoleAPICalled': {
    type: string;
    args: Array<{ type: string; subtype?: string; value?: unknown; description?: string; preview?: ArgPreview }>;
    stackTrace?: { callFrames: Array<{ url: string; lineNumber: number }> };
  };
  'Log.entryAdded': { entry: { level: string; source: string; text: string; url?: string } };
  'Network.requestWillBeSent': {
    requestId: string;
    request: { url: string; method: string };
    type?: string;
    timestamp: number;
    redirectResponse?: { status: number };
  };
  'Network.responseReceived': {
    requestId: string;
    type: string;
    timestamp: number;
    response: { url: string; status: number; timing?: { requestTime: number } };
  };
  'Network.loadingFailed': { requestId: string; errorText: string; timestamp: number };
  /**
   * Not CDP's: the page's top document as its own navigation timing says, read once the Network
   * domain is on, for a page whose document was answered before anyone listened.
   */
  firstDocument: FirstDocument;
}

/** CDP's preview of an object argument: its first properties, each value as short text. */
export interface ArgPreview {
  overflow: boolean;
  properties: Array<{ name: string; type: string; value?: string }>;
}

export type WatchedMethod = keyof WatchedEvents;

/** The CDP methods of {@link WatchedEvents}, as attach mode's debugger forwards them. */
export const WATCHED_CDP_METHODS = ['Runtime.consoleAPICalled', 'Log.entryAdded', 'Network.requestWillBeSent', 'Network.responseReceived', 'Network.loadingFailed'] as const satisfies readonly WatchedMethod[];

export interface FirstDocument {
  url: string;
  status: number;
  ms: number;
}

/**
 * The page's top document as its navigation timing says, once answered: for a page whose answer
 * came before its session could listen. Read only, nothing kept; both ends evaluate it in an
 * isolated world of their own ({@link FIRST_DOCUMENT_WORLD}), so the page's scripts cannot
 * replace what it calls and forge the log's line.
 */
export const FIRST_DOCUMENT = `(() => {
  const n = performance.getEntriesByType('navigation')[0];
  return n && n.responseStart > 0 && /^https?:/.test(n.name) ? { url: n.name, status: n.responseStatus || 0, ms: n.responseStart - n.startTime } : undefined;
})()`;

/** The isolated world {@link FIRST_DOCUMENT} is read in. */
export const FIRST_DOCUMENT_WORLD = 'aite:first-document';

/**
 * Reads {@link FIRST_DOCUMENT} in a world of aite's own over `send` (the pipe's CDP session, or
 * the extension's debugger; the caller holds the deadline). Undefined when any call answers
 * nothing or the page has no answered document.
 */
export async function readFirstDocumentOver(send: (method: string, params?: object) => Promise<unknown>): Promise<FirstDocument | undefined> {
  const tree = (await send('Page.getFrameTree')) as { frameTree?: { frame: { id: string } } } | undefined;
  if (!tree?.frameTree) return undefined;
  const world = (await send('Page.createIsolatedWorld', { frameId: tree.frameTree.frame.id, worldName: FIRST_DOCUMENT_WORLD })) as { executionContextId?: number } | undefined;
  if (world?.executionContextId === undefined) return undefined;
  const read = (await send('Runtime.evaluate', { expression: FIRST_DOCUMENT, contextId: world.executionContextId, returnByValue: true })) as { result?: { value?: FirstDocument } } | undefined;
  return read?.result?.value;
}

/** How long a console line or log entry may be. */
export const WATCHED_TEXT_MAX = 4_000;
/** Console arguments kept of one call. */
const ARGS_MAX = 20;

/** `text` cut to {@link WATCHED_TEXT_MAX}. */
export function cutText(text: string): string {
  return text.length > WATCHED_TEXT_MAX ? `${text.slice(0, WATCHED_TEXT_MAX - 1)}…` : text;
}

/**
 * A CDP event cut to the fields the page watch reads, with URLs' userinfo redacted; undefined
 * for one it would drop (a console line below warning, a log entry below error). Attach mode's
 * debugger sends what this answers; nothing else of the page's traffic leaves the tab.
 */
export function cutWatchedEvent(method: (typeof WATCHED_CDP_METHODS)[number], params: Record<string, unknown>): WatchedEvents[WatchedMethod] | undefined {
  const p = params as never;
  if (method === 'Runtime.consoleAPICalled') {
    const e = p as WatchedEvents['Runtime.consoleAPICalled'];
    if (e.type !== 'error' && e.type !== 'warning') return undefined;
    const frame = e.stackTrace?.callFrames[0];
    return {
      type: e.type,
      args: e.args.slice(0, ARGS_MAX).map((a) => ({
        type: a.type,
        ...(a.value !== undefined && (typeof a.value !== 'object' || a.value === null) ? { value: typeof a.value === 'string' ? cutText(a.value) : a.value } : {}),
        ...(a.subtype !== undefined ? { subtype: a.subtype } : {}),
        ...(a.description !== undefined ? { description: cutText(a.description) } : {}),
        ...(a.preview ? { preview: { overflow: a.preview.overflow === true, properties: a.preview.properties.map((q) => ({ name: q.name, type: q.type, ...(q.value !== undefined ? { value: cutText(q.value) } : {}) })) } } : {}),
      })),
      ...(frame ? { stackTrace: { callFrames: [{ url: redactUrl(frame.url), lineNumber: frame.lineNumber }] } } : {}),
    };
  }
  if (method === 'Log.entryAdded') {
    const { entry } = p as WatchedEvents['Log.entryAdded'];
    if (entry.level !== 'error') return undefined;
    return { entry: { level: entry.level, source: entry.source, text: cutText(entry.text), ...(entry.url ? { url: redactUrl(entry.url) } : {}) } };
  }
  if (method === 'Network.requestWillBeSent') {
    const e = p as WatchedEvents['Network.requestWillBeSent'];
    return {
      requestId: e.requestId,
      request: { url: redactUrl(e.request.url), method: e.request.method },
      ...(e.type ? { type: e.type } : {}),
      timestamp: e.timestamp,
      ...(e.redirectResponse ? { redirectResponse: { status: e.redirectResponse.status } } : {}),
    };
  }
  if (method === 'Network.responseReceived') {
    const e = p as WatchedEvents['Network.responseReceived'];
    const requestTime = e.response.timing?.requestTime;
    return {
      requestId: e.requestId,
      type: e.type,
      timestamp: e.timestamp,
      response: { url: redactUrl(e.response.url), status: e.response.status, ...(requestTime !== undefined ? { timing: { requestTime } } : {}) },
    };
  }
  const e = p as WatchedEvents['Network.loadingFailed'];
  return { requestId: e.requestId, errorText: cutText(e.errorText), timestamp: e.timestamp };
}
