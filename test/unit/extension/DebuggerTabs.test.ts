import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExtensionEvent } from '../../../src/sdk/protocol/index.js';
import { AllowList } from '../../../src/extension/worker/AllowList.js';
import { DebuggerTabs } from '../../../src/extension/worker/DebuggerTabs.js';
import type { RunState } from '../../../src/extension/worker/RunState.js';

// The worker's chrome.debugger bookkeeping with Chrome's APIs stubbed: what a headless e2e run
// cannot do (a person cancelling the bar, a call that never answers). The real extension in real
// Chromium is exercised by attach-debugger.e2e.test.ts.
type Listener = (...args: unknown[]) => void;
let detachListeners: Listener[];
let eventListeners: Listener[];
let calls: string[];
let attach: (target: { tabId: number }) => Promise<void>;
let sendCommand: (target: { tabId: number; sessionId?: string }, method: string, params?: object) => Promise<unknown>;
const URLS: Record<number, string> = { 1: 'http://127.0.0.1:4173/app', 2: 'http://127.0.0.1:4173/mine', 3: 'https://elsewhere.example/' };

beforeEach(() => {
  detachListeners = [];
  eventListeners = [];
  calls = [];
  attach = async ({ tabId }) => void calls.push(`attach ${tabId}`);
  sendCommand = async ({ tabId, sessionId }, method, params) => {
    calls.push(`${method} ${tabId}${sessionId ? `/${sessionId}` : ''}${params && Object.keys(params).length ? ` ${JSON.stringify(params)}` : ''}`);
    return {};
  };
  vi.stubGlobal('chrome', {
    debugger: {
      attach: (target: { tabId: number }) => attach(target),
      detach: async ({ tabId }: { tabId: number }) => void calls.push(`detach ${tabId}`),
      sendCommand: (target: { tabId: number; sessionId?: string }, method: string, params?: object) => sendCommand(target, method, params),
      onDetach: { addListener: (l: Listener) => detachListeners.push(l) },
      onEvent: { addListener: (l: Listener) => eventListeners.push(l) },
    },
    tabs: { get: async (id: number) => (URLS[id] ? { id, url: URLS[id] } : Promise.reject(new Error('no tab'))) },
  });
});
afterEach(() => vi.unstubAllGlobals());

/** What an attach turns on in a tab: dialogs (Page), the page watch's domains, then its first document is looked for. */
const WATCH_ON = (tab: number): string[] => ['Page.enable', 'Network.enable', 'Runtime.enable', 'Log.enable', `Target.setAutoAttach ${AUTO_ATTACH}`, 'Page.getFrameTree'].map((m) => `${m.split(' ')[0]} ${tab}${m.includes(' ') ? ` ${m.split(' ')[1]}` : ''}`);
const AUTO_ATTACH = JSON.stringify({ autoAttach: true, waitForDebuggerOnStart: true, flatten: true });

function tabs(runTab = 1, created = [1, 3], debugged: number[] = []): { tabs: DebuggerTabs; events: ExtensionEvent[]; fenced: string[] } {
  const events: ExtensionEvent[] = [];
  const fenced: string[] = [];
  const data = { runTab, created, taken: [], opened: [], history: [], debugged };
  const state = { data, load: async () => undefined, update: async (change: (d: typeof data) => void) => change(data) } as unknown as RunState;
  return { tabs: new DebuggerTabs(state, new AllowList(['http://127.0.0.1:4173/*']), (e) => events.push(e), { debuggerCommitted: (tab) => void fenced.push(`tab ${tab} after ${events.length} events`) }), events, fenced };
}

async function failure(work: Promise<unknown>): Promise<{ reason: string; message: string; detail?: Record<string, unknown> }> {
  return work.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as { reason: string; message: string; detail?: Record<string, unknown> },
  );
}

describe('DebuggerTabs', () => {
  it('[ATT-OWN-TABS] attaches to the run\u2019s tab once (with the Page domain on), never to a tab of the person or a page outside the allow list', async () => {
    const { tabs: t } = tabs();
    expect(await t.handle({ id: 1, cmd: 'debugger', op: 'attach' })).toEqual({ ok: true, attached: [1] });
    await t.handle({ id: 2, cmd: 'debugger', op: 'attach' });
    expect(calls).toEqual(['attach 1', ...WATCH_ON(1)]);
    expect(await failure(t.handle({ id: 3, cmd: 'debugger', op: 'attach', tab: 2 }))).toMatchObject({ reason: 'unsupported', message: expect.stringMatching(/not one of the run's tabs/) });
    expect(await failure(t.handle({ id: 4, cmd: 'debugger', op: 'send', tab: 3, method: 'Input.insertText', params: { text: 'x' } }))).toMatchObject({ reason: 'navigation' });
    expect(calls).toEqual(['attach 1', ...WATCH_ON(1)]);
    await t.detachAll();
    expect(calls.at(-1)).toBe('detach 1');
    expect(t.attached).toEqual([]);
  });

  it('[ATT-UPLOAD-FRAMES] a cross-site frame Chrome attaches under the tab has its own frames attached, then runs; a worker only runs; nothing is held', async () => {
    const { tabs: t } = tabs();
    await t.handle({ id: 1, cmd: 'debugger', op: 'attach' });
    calls.length = 0;
    const attached = (sessionId: string, type: string, parent?: string): void => {
      for (const l of eventListeners) l({ tabId: 1, ...(parent ? { sessionId: parent } : {}) }, 'Target.attachedToTarget', { sessionId, targetInfo: { targetId: `T-${sessionId}`, type }, waitingForDebugger: true });
    };
    attached('S1', 'iframe');
    attached('S2', 'iframe', 'S1');
    attached('W1', 'worker', 'S1');
    await vi.waitFor(() => expect(calls.filter((c) => c.startsWith('Runtime.runIf'))).toHaveLength(3));
    const without = calls.filter((c) => !/^(Network|Runtime|Log)\.enable/.test(c));
    expect(without.filter((c) => c.startsWith('Target.'))).toEqual([`Target.setAutoAttach 1/S1 ${AUTO_ATTACH}`, `Target.setAutoAttach 1/S2 ${AUTO_ATTACH}`]);
    expect(without.filter((c) => c.startsWith('Runtime.runIf')).sort()).toEqual(['Runtime.runIfWaitingForDebugger 1/S1', 'Runtime.runIfWaitingForDebugger 1/S2', 'Runtime.runIfWaitingForDebugger 1/W1']);
    // Each frame runs only once its own frames are attached.
    for (const s of ['S1', 'S2']) expect(calls.indexOf(`Target.setAutoAttach 1/${s} ${AUTO_ATTACH}`)).toBeLessThan(calls.indexOf(`Runtime.runIfWaitingForDebugger 1/${s}`));
  });

  it('[ATT-PERR-FRAMES] a cross-site frame\u2019s session has the page watch\u2019s domains on before it runs, and what it hears is its tab\u2019s; a worker\u2019s is not relayed, nor a frame\u2019s dialogs', async () => {
    const { tabs: t, events } = tabs();
    await t.handle({ id: 1, cmd: 'debugger', op: 'attach' });
    calls.length = 0;
    const hear = (sessionId: string, method: string, params: object): void => {
      for (const l of eventListeners) l({ tabId: 1, sessionId }, method, params);
    };
    for (const l of eventListeners) l({ tabId: 1 }, 'Target.attachedToTarget', { sessionId: 'S1', targetInfo: { targetId: 'F1', type: 'iframe' }, waitingForDebugger: true });
    for (const l of eventListeners) l({ tabId: 1 }, 'Target.attachedToTarget', { sessionId: 'W1', targetInfo: { targetId: 'W', type: 'worker' }, waitingForDebugger: false });
    await vi.waitFor(() => expect(calls.at(-1)).toBe('Runtime.runIfWaitingForDebugger 1/S1'));
    expect(calls).toEqual(['Network.enable 1/S1', 'Runtime.enable 1/S1', 'Log.enable 1/S1', `Target.setAutoAttach 1/S1 ${AUTO_ATTACH}`, 'Runtime.runIfWaitingForDebugger 1/S1']);
    hear('S1', 'Runtime.consoleAPICalled', { type: 'error', args: [{ type: 'string', value: 'in the frame' }] });
    hear('W1', 'Runtime.consoleAPICalled', { type: 'error', args: [{ type: 'string', value: 'in the worker' }] });
    hear('S1', 'Page.javascriptDialogOpening', { type: 'alert', message: 'x', url: 'http://localhost/' });
    expect(events.map((e) => `${e.kind} ${e.tab} ${'method' in e ? e.method : ''}`)).toEqual(['page-watch 1 Runtime.consoleAPICalled']);
    for (const l of eventListeners) l({ tabId: 1 }, 'Target.detachedFromTarget', { sessionId: 'S1' });
    hear('S1', 'Runtime.consoleAPICalled', { type: 'error', args: [{ type: 'string', value: 'after' }] });
    expect(events).toHaveLength(1);
  });

  it('[ATT-NET-IDLE-FRAME-REMOVED] a cross-site frame whose session detaches tells the runner to forget the requests it began and never answered, only those', async () => {
    const { tabs: t, events } = tabs();
    await t.handle({ id: 1, cmd: 'debugger', op: 'attach' });
    const hear = (sessionId: string | undefined, method: string, params: object): void => {
      for (const l of eventListeners) l({ tabId: 1, ...(sessionId ? { sessionId } : {}) }, method, params);
    };
    const request = (requestId: string): object => ({ requestId, request: { url: `http://localhost/${requestId}`, method: 'GET' }, timestamp: 1 });
    hear(undefined, 'Target.attachedToTarget', { sessionId: 'S1', targetInfo: { targetId: 'F1', type: 'iframe' }, waitingForDebugger: false });
    hear('S1', 'Network.requestWillBeSent', request('answered'));
    hear('S1', 'Network.requestWillBeSent', request('failed'));
    hear('S1', 'Network.requestWillBeSent', request('hanging'));
    hear(undefined, 'Network.requestWillBeSent', request('top'));
    hear('S1', 'Network.responseReceived', { requestId: 'answered', type: 'Fetch', timestamp: 2, response: { url: 'http://localhost/answered', status: 200 } });
    hear('S1', 'Network.loadingFailed', { requestId: 'failed', errorText: 'net::ERR_FAILED', timestamp: 2 });
    hear(undefined, 'Target.detachedFromTarget', { sessionId: 'S1' });
    expect(events.at(-1)).toEqual({ type: 'event', kind: 'page-watch', tab: 1, method: 'frameDetached', params: { requestIds: ['hanging'] } });
    // Once: a second detach of the same session tells nothing more.
    const told = events.length;
    hear(undefined, 'Target.detachedFromTarget', { sessionId: 'S1' });
    expect(events).toHaveLength(told);
  });

  it('[ATT-CHOOSER-XSITE] interception reaches each cross-site frame’s session (its Page domain on only meanwhile), and a chooser opened there is answered in that session', async () => {
    const { tabs: t } = tabs();
    await t.handle({ id: 1, cmd: 'debugger', op: 'attach' });
    for (const l of eventListeners) l({ tabId: 1 }, 'Target.attachedToTarget', { sessionId: 'S1', targetInfo: { targetId: 'F1', type: 'iframe' }, waitingForDebugger: false });
    await vi.waitFor(() => expect(calls).toContain(`Target.setAutoAttach 1/S1 ${AUTO_ATTACH}`));
    calls.length = 0;
    await t.handle({ id: 2, cmd: 'debugger', op: 'send', method: 'Page.setInterceptFileChooserDialog', params: { enabled: true } });
    expect(calls).toEqual(['Page.enable 1/S1', 'Page.setInterceptFileChooserDialog 1/S1 {"enabled":true}', 'Page.setInterceptFileChooserDialog 1 {"enabled":true}']);
    // A worker's session, or one the tab never attached, opens no chooser of the run's.
    for (const l of eventListeners) l({ tabId: 1, sessionId: 'W1' }, 'Page.fileChooserOpened', { mode: 'selectSingle', backendNodeId: 5 });
    for (const l of eventListeners) l({ tabId: 1, sessionId: 'S1' }, 'Page.fileChooserOpened', { mode: 'selectSingle', backendNodeId: 7 });
    calls.length = 0;
    await t.handle({ id: 3, cmd: 'debugger', op: 'chooser', files: ['/tmp/a.png'] });
    expect(calls).toEqual(['DOM.setFileInputFiles 1/S1 {"backendNodeId":7,"files":["/tmp/a.png"]}']);
    calls.length = 0;
    await t.handle({ id: 4, cmd: 'debugger', op: 'send', method: 'Page.setInterceptFileChooserDialog', params: { enabled: false } });
    expect(calls).toEqual(['Page.setInterceptFileChooserDialog 1/S1 {"enabled":false}', 'Page.disable 1/S1', 'Page.setInterceptFileChooserDialog 1 {"enabled":false}']);
  });

  it('[ATT-NETWORK] relays what the debugger hears in an attached tab, cut (no headers), and nothing of a tab it does not hold; a detach says so', async () => {
    const { tabs: t, events } = tabs();
    await t.handle({ id: 1, cmd: 'debugger', op: 'attach' });
    const hear = (tabId: number, method: string, params: object): void => {
      for (const l of eventListeners) l({ tabId }, method, params);
    };
    hear(1, 'Network.requestWillBeSent', { requestId: '9', request: { url: 'http://u:p@127.0.0.1:4173/api', method: 'GET', headers: { Cookie: 'sid=1' } }, type: 'XHR', timestamp: 5 });
    hear(3, 'Network.requestWillBeSent', { requestId: '10', request: { url: 'https://elsewhere.example/', method: 'GET', headers: {} }, timestamp: 5 });
    hear(1, 'Runtime.consoleAPICalled', { type: 'log', args: [{ type: 'string', value: 'chatter' }] });
    expect(events).toEqual([
      { type: 'event', kind: 'page-watch', tab: 1, method: 'Network.requestWillBeSent', params: { requestId: '9', request: { url: 'http://***@127.0.0.1:4173/api', method: 'GET' }, type: 'XHR', timestamp: 5 } },
    ]);
    await t.detachAll();
    expect(events.at(-1)).toEqual({ type: 'event', kind: 'page-watch', tab: 1, method: 'detached', params: {} });
  });

  it('[ATT-NAV] a top document commit the debugger hears is fenced before the runner hears it; a frame\u2019s commit is not', async () => {
    const { tabs: t, events, fenced } = tabs();
    await t.handle({ id: 1, cmd: 'debugger', op: 'attach' });
    const hear = (method: string, params: object): void => {
      for (const l of eventListeners) l({ tabId: 1 }, method, params);
    };
    hear('Page.frameNavigated', { frame: { id: 'child', parentId: 'top', url: 'http://127.0.0.1:4173/inner', loaderId: 'b' } });
    hear('Page.frameNavigated', { frame: { id: 'top', url: 'http://127.0.0.1:4173/next', loaderId: 'a' } });
    expect(fenced).toEqual(['tab 1 after 1 events']);
    expect(events.filter((e) => e.kind === 'navigation')).toHaveLength(2);
  });

  it('[ATT-FALLBACK] a person who cancelled the debugging bar is not asked again in that run; a new run may ask', async () => {
    const { tabs: t } = tabs();
    await t.handle({ id: 1, cmd: 'debugger', op: 'attach' });
    for (const l of detachListeners) l({ tabId: 1 }, 'canceled_by_user');
    expect(t.attached).toEqual([]);
    const refused = await failure(t.handle({ id: 2, cmd: 'debugger', op: 'send', method: 'Input.insertText', params: { text: 'x' } }));
    expect(refused).toMatchObject({ reason: 'unsupported', detail: { debugger: 'refused', why: 'cancelled' }, message: expect.stringMatching(/cancelled the debugging bar/) });
    expect(calls.filter((c) => c.startsWith('attach'))).toEqual(['attach 1']);
    await t.begin();
    await t.handle({ id: 3, cmd: 'debugger', op: 'attach' });
    expect(calls.filter((c) => c.startsWith('attach'))).toEqual(['attach 1', 'attach 1']);
  });

  it('[ATT-FALLBACK] Chrome\u2019s refusal says why: another debugger; an attach that never answers is refused within its deadline', async () => {
    const { tabs: t } = tabs();
    attach = () => Promise.reject(new Error('Another debugger is already attached to the tab with id: 1.'));
    expect(await failure(t.handle({ id: 1, cmd: 'debugger', op: 'attach' }))).toMatchObject({
      reason: 'unsupported',
      detail: { debugger: 'refused', why: 'other-debugger' },
      message: "The extension could not attach chrome.debugger to the run's tab: Another debugger is already attached to the tab with id: 1.",
    });
    attach = () => new Promise<void>(() => undefined);
    const started = performance.now();
    expect(await failure(t.handle({ id: 2, cmd: 'debugger', op: 'attach', timeoutMs: 50 }))).toMatchObject({ detail: { debugger: 'refused', why: 'attach-failed' }, message: expect.stringMatching(/did not answer within 50 ms/) });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('[ATT-TRUSTED] a CDP call that never answers is a timeout, not sent again; a debugger gone under it is connection-lost', async () => {
    const { tabs: t } = tabs();
    await t.handle({ id: 1, cmd: 'debugger', op: 'attach' });
    sendCommand = () => new Promise(() => undefined);
    expect(await failure(t.handle({ id: 2, cmd: 'debugger', op: 'send', method: 'Input.dispatchMouseEvent', params: {}, timeoutMs: 50 }))).toMatchObject({ reason: 'timeout', message: expect.stringMatching(/not sent again/) });
    sendCommand = () => Promise.reject(new Error('Debugger is not attached to the tab with id: 1.'));
    expect(await failure(t.handle({ id: 3, cmd: 'debugger', op: 'send', method: 'Input.dispatchMouseEvent', params: {} }))).toMatchObject({ reason: 'connection-lost' });
    expect(t.attached).toEqual([]);
  });

  it('[ATT-DIALOG] answers a dialog in an attached tab by the armed answer it has not used, then by the policy, and reports each', async () => {
    const { tabs: t, events } = tabs();
    await t.handle({ id: 1, cmd: 'debugger', op: 'dialogs', policy: 'accept', armed: [{ id: 7, accept: true, promptText: 'Zephyr' }] });
    await t.handle({ id: 2, cmd: 'debugger', op: 'attach' });
    const open = (params: object): void => {
      for (const l of eventListeners) l({ tabId: 1 }, 'Page.javascriptDialogOpening', params);
    };
    open({ type: 'prompt', message: 'Your name?', url: URLS[1], defaultPrompt: 'anon' });
    // The same armed list again (the runner had not heard yet): id 7 is not used twice.
    await t.handle({ id: 3, cmd: 'debugger', op: 'dialogs', policy: 'accept', armed: [{ id: 7, accept: true, promptText: 'Zephyr' }] });
    open({ type: 'confirm', message: 'Sure?', url: URLS[1] });
    await vi.waitFor(() => expect(calls.filter((c) => c.startsWith('Page.handleJavaScriptDialog'))).toHaveLength(2));
    expect(calls.filter((c) => c.startsWith('Page.handleJavaScriptDialog'))).toEqual(['Page.handleJavaScriptDialog 1 {"accept":true,"promptText":"Zephyr"}', 'Page.handleJavaScriptDialog 1 {"accept":true}']);
    expect(events).toEqual([
      { type: 'event', kind: 'dialog', tab: 1, dialog: 'prompt', message: 'Your name?', url: URLS[1], defaultPrompt: 'anon', accepted: true, promptText: 'Zephyr', armed: 7 },
      { type: 'event', kind: 'dialog', tab: 1, dialog: 'confirm', message: 'Sure?', url: URLS[1], accepted: true },
    ]);
    // A tab the extension does not hold is none of its business.
    for (const l of eventListeners) l({ tabId: 2 }, 'Page.javascriptDialogOpening', { type: 'alert', message: 'x', url: URLS[2] });
    expect(events).toHaveLength(2);
  });

  it('[ATT-OWN-TABS] a worker that starts again lets go of the tabs an earlier instance held, before it attaches any', async () => {
    const { tabs: t } = tabs(1, [1, 3], [1, 3]);
    await t.handle({ id: 1, cmd: 'debugger', op: 'attach' });
    expect(calls).toEqual(['detach 1', 'detach 3', 'attach 1', ...WATCH_ON(1)]);
    expect(t.attached).toEqual([1]);
  });

  it('[ATT-OWN-TABS] a run tab that commits a page outside the allow list is detached at once', async () => {
    const { tabs: t } = tabs();
    await t.handle({ id: 1, cmd: 'debugger', op: 'attach' });
    t.onNavigated(1, 'http://127.0.0.1:4173/next');
    expect(t.attached).toEqual([1]);
    t.onNavigated(1, 'https://elsewhere.example/');
    expect(t.attached).toEqual([]);
    expect(calls.at(-1)).toBe('detach 1');
  });

  it('[ATT-FALLBACK] without the permission there is no chrome.debugger: refused, saying what to do', async () => {
    vi.stubGlobal('chrome', { tabs: { get: async (id: number) => ({ id, url: URLS[id] }) } });
    const { tabs: t } = tabs();
    expect(await failure(t.handle({ id: 1, cmd: 'debugger', op: 'attach' }))).toMatchObject({ detail: { debugger: 'refused', why: 'permission' }, message: expect.stringMatching(/no "debugger" permission .* stage it again/) });
  });
});
