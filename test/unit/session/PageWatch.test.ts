import { describe, expect, it } from 'vitest';
import { cutWatchedEvent, EventSchema, type WatchedEvents, type WatchedMethod } from '../../../src/sdk/protocol/index.js';
import { PageWatch, type PageEventSource } from '../../../src/sdk/session/PageWatch.js';
import type { NetworkEntry, PageError } from '../../../src/sdk/session/types.js';

/** A page's event stream the test writes into, as the pipe or the extension would. */
function page(url: string): PageEventSource & { emit<M extends WatchedMethod>(method: M, params: WatchedEvents[M]): void } {
  const listeners = new Map<string, Array<(p: never) => void>>();
  return {
    on: (method, listener) => listeners.set(method, [...(listeners.get(method) ?? []), listener as (p: never) => void]),
    isPage: () => true,
    url: () => url,
    start: () => undefined,
    emit: (method, params) => {
      for (const l of listeners.get(method) ?? []) l(params as never);
    },
  };
}

describe('what attach mode\u2019s debugger sends of a page\u2019s CDP events', () => {
  it('[ATT-NETWORK] a request keeps its url (userinfo redacted), method, type, time and status, never headers or bodies', () => {
    const cut = cutWatchedEvent('Network.requestWillBeSent', {
      requestId: '7.1',
      loaderId: 'L',
      request: { url: 'https://ada:secret@api.example/v1?q=1', method: 'POST', headers: { Authorization: 'Bearer t0ken' }, postData: '{"card":"4242"}' },
      type: 'Fetch',
      timestamp: 10.5,
      initiator: { type: 'script' },
      redirectResponse: { status: 302, headers: { 'set-cookie': 'sid=1' } },
    });
    expect(cut).toEqual({ requestId: '7.1', request: { url: 'https://***@api.example/v1?q=1', method: 'POST' }, type: 'Fetch', timestamp: 10.5, redirectResponse: { status: 302 } });
    const answer = cutWatchedEvent('Network.responseReceived', {
      requestId: '7.1',
      type: 'Fetch',
      timestamp: 11,
      response: { url: 'https://api.example/v1', status: 500, headers: { 'set-cookie': 'sid=2' }, securityDetails: {}, timing: { requestTime: 10.5, receiveHeadersEnd: 3 } },
    });
    expect(JSON.stringify(answer)).not.toMatch(/cookie|sid=|Bearer|4242/);
    expect(EventSchema.parse({ type: 'event', kind: 'page-watch', tab: 1, method: 'Network.responseReceived', params: answer })).toBeTruthy();
  });

  it('[ATT-PAGE-ERRORS] console lines below warning and log entries below error are not sent; long text is cut', () => {
    expect(cutWatchedEvent('Runtime.consoleAPICalled', { type: 'log', args: [{ type: 'string', value: 'hi' }] })).toBeUndefined();
    expect(cutWatchedEvent('Log.entryAdded', { entry: { level: 'warning', source: 'network', text: 'slow' } })).toBeUndefined();
    const long = cutWatchedEvent('Runtime.consoleAPICalled', { type: 'error', args: [{ type: 'string', value: 'x'.repeat(10_000) }, { type: 'object', objectId: '1', preview: { properties: [] }, description: 'Object' }] }) as WatchedEvents['Runtime.consoleAPICalled'];
    expect(String(long.args[0]!.value).length).toBe(4_000);
    expect(long.args[1]).toEqual({ type: 'object', description: 'Object', preview: { overflow: false, properties: [] } });
  });

  it('[ATT-NETWORK] one watch turns relayed events into entries timed by CDP\u2019s clock, and page errors with where they came from', () => {
    const requests: NetworkEntry[] = [];
    const errors: PageError[] = [];
    const watch = new PageWatch({ request: (r) => requests.push(r), pageError: (e) => errors.push(e) });
    const tab = page('http://127.0.0.1:9/app.html');
    watch.watch(tab);
    tab.emit('Network.requestWillBeSent', { requestId: '1', request: { url: 'http://127.0.0.1:9/api', method: 'GET' }, type: 'Fetch', timestamp: 100 });
    tab.emit('Network.responseReceived', { requestId: '1', type: 'Fetch', timestamp: 100.426, response: { url: 'http://127.0.0.1:9/api', status: 500 } });
    tab.emit('Network.requestWillBeSent', { requestId: '2', request: { url: 'http://127.0.0.1:9/gone', method: 'GET' }, type: 'Image', timestamp: 101 });
    tab.emit('Network.loadingFailed', { requestId: '2', errorText: 'net::ERR_CONNECTION_REFUSED', timestamp: 101.01 });
    tab.emit('Runtime.consoleAPICalled', { type: 'error', args: [{ type: 'string', value: 'bad' }, { type: 'number', value: 4 }], stackTrace: { callFrames: [{ url: 'http://127.0.0.1:9/app.js', lineNumber: 9 }] } });
    expect(requests).toEqual([
      { url: 'http://127.0.0.1:9/api', method: 'GET', status: 500, type: 'fetch', ms: 426 },
      { url: 'http://127.0.0.1:9/gone', method: 'GET', type: 'image', ms: 10, failed: 'net::ERR_CONNECTION_REFUSED' },
    ]);
    expect(errors).toEqual([{ kind: 'console-error', text: 'bad 4', url: 'http://127.0.0.1:9/app.html', source: 'http://127.0.0.1:9/app.js:10' }]);
  });

  it('[ATT-NETWORK-IDLE] idle waits for the page\u2019s requests in flight, and a forgotten page (its debugger let go) has none', async () => {
    const watch = new PageWatch({ request: () => undefined, pageError: () => undefined });
    const tab = page('http://127.0.0.1:9/');
    watch.watch(tab);
    tab.emit('Network.requestWillBeSent', { requestId: '1', request: { url: 'http://127.0.0.1:9/slow', method: 'GET' }, timestamp: 1 });
    await expect(watch.idle((s) => s === tab, 10, 100)).rejects.toMatchObject({ reason: 'timeout', message: expect.stringMatching(/1 in flight: http:\/\/127\.0\.0\.1:9\/slow/) });
    const waiting = watch.idle((s) => s === tab, 10, 1_000);
    tab.emit('Network.responseReceived', { requestId: '1', type: 'XHR', timestamp: 2, response: { url: 'http://127.0.0.1:9/slow', status: 200 } });
    await expect(waiting).resolves.toBeUndefined();
    tab.emit('Network.requestWillBeSent', { requestId: '2', request: { url: 'http://127.0.0.1:9/never', method: 'GET' }, timestamp: 3 });
    watch.forget(tab);
    await expect(watch.idle((s) => s === tab, 10, 1_000)).resolves.toBeUndefined();
  });
});
