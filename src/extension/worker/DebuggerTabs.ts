import {
  CommandFailure,
  cutNavigationEvent,
  cutWatchedEvent,
  FIND_FILE_INPUT,
  FIND_FRAME,
  NAVIGATION_CDP_METHODS,
  readFirstDocumentOver,
  redactUrl,
  WATCHED_CDP_METHODS,
  type ExtensionEvent,
  type RequestOf,
  withTimeout,
} from '../../sdk/protocol/index.js';
import type { CommitFence } from './CommitFence.js';
import { DebuggerDownloads } from './DebuggerDownloads.js';
import { pageGone } from './deadPages.js';
import type { AllowList } from './AllowList.js';
import type { RunState } from './RunState.js';

/** How long one chrome.debugger call may take when the request names no timeout. */
const CALL_TIMEOUT_MS = 10_000;
/** Detaching at the run's end is quick, or the tab is gone. */
const DETACH_TIMEOUT_MS = 2_000;

type Armed = NonNullable<RequestOf<'debugger'>['armed']>[number];
type Debuggee = chrome.debugger.DebuggerSession;

/** What Chrome auto-attaches (`Target.setAutoAttach`, flat) under a tab's session. */
const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: true, flatten: true };

/**
 * Attach mode's real input: `chrome.debugger` on the run's own tabs only (those it opened with
 * navigate, switched to, or navigated by id) and only while they show an allowed origin, so the
 * person's other tabs never show the debugging bar. Dialogs in those tabs are answered here, at
 * once (an input call the dialog holds waits for that answer), by the runner's armed answers,
 * else its policy. Every chrome.debugger call has a deadline.
 */
export class DebuggerTabs {
  readonly #attached = new Set<number>();
  /**
   * Attached tabs whose renderer crashed and that have loaded nothing since: Chrome takes input
   * for them and delivers it nowhere, so none is sent (see {@link pageGone}).
   */
  readonly #crashed = new Set<number>();
  /** Tabs whose debugging bar the person cancelled: not attached again in this run. */
  readonly #cancelled = new Set<number>();
  #policy: 'dismiss' | 'accept' = 'dismiss';
  #armed: Armed[] = [];
  readonly #used = new Set<number>();
  /** Whether this run uses the debugger (it said so with its first `debugger` request). */
  #wanted = false;
  #released: Promise<void> | undefined;
  /** File choosers opened (and intercepted) in each tab, oldest first, not answered yet. */
  readonly #choosers = new Map<number, ChooserOpened[]>();
  readonly #downloads: DebuggerDownloads | undefined;
  /**
   * Each attached tab's cross-site (out-of-process) frames, nested ones too: the child session
   * Chrome auto-attached for each, by its frame's id (which is its target's id). A document in
   * another process answers only its own session.
   */
  readonly #frames = new Map<number, Map<string, string>>();
  /**
   * The requests each cross-site frame's session began and that were not answered yet, by its
   * session id: when the frame goes away (its session detaches) Chrome tells nothing more of
   * them, so the runner is told to forget them.
   */
  readonly #frameRequests = new Map<string, Set<string>>();

  constructor(
    private readonly state: RunState,
    private readonly allow: AllowList,
    private readonly emit: (event: ExtensionEvent) => void,
    private readonly fence: Pick<CommitFence, 'debuggerCommitted'>,
  ) {
    if (!chrome.debugger) return;
    this.#downloads = new DebuggerDownloads(emit);
    chrome.debugger.onDetach.addListener((source, reason) => {
      if (source.tabId === undefined) return;
      this.#forget(source.tabId);
      void this.#remember();
      if (reason === 'canceled_by_user') this.#cancelled.add(source.tabId);
    });
    chrome.debugger.onEvent.addListener((source, method, params) => {
      if (source.tabId === undefined || !this.#attached.has(source.tabId)) return;
      if (method === 'Target.attachedToTarget') return void this.#adoptChild(source.tabId, params as unknown as ChildAttached);
      if (method === 'Target.detachedFromTarget') return this.#dropChild(source.tabId, (params as { sessionId?: string } | undefined)?.sessionId);
      if ((WATCHED_CDP_METHODS as readonly string[]).includes(method)) {
        // A cross-site frame's requests and console lines are its tab's, as launch mode has them.
        if (source.sessionId !== undefined && !this.#isFrame(source.tabId, source.sessionId)) return;
        this.#track(source.sessionId, method, params as { requestId?: string } | undefined);
        const cut = cutWatchedEvent(method as (typeof WATCHED_CDP_METHODS)[number], (params ?? {}) as Record<string, unknown>);
        if (cut) emit({ type: 'event', kind: 'page-watch', tab: source.tabId, method: method as (typeof WATCHED_CDP_METHODS)[number], params: cut as unknown as Record<string, unknown> });
        return;
      }
      if (method === 'Page.fileChooserOpened') {
        // Chrome hands a chooser to the session of the process its frame runs in: a cross-site frame's is answered there.
        if (source.sessionId !== undefined && !this.#isFrame(source.tabId, source.sessionId)) return;
        const opened = { ...(params as unknown as ChooserOpened), ...(source.sessionId !== undefined ? { sessionId: source.sessionId } : {}) };
        this.#choosers.set(source.tabId, [...(this.#choosers.get(source.tabId) ?? []), opened]);
        return;
      }
      // Else only the tab's own session speaks for its page (dialogs, navigations, downloads).
      if (source.sessionId !== undefined) return;
      if (method === 'Inspector.targetCrashed') this.#crashed.add(source.tabId);
      if (method === 'Inspector.targetReloadedAfterCrash') this.#crashed.delete(source.tabId);
      if (method === 'Page.javascriptDialogOpening') void this.#answerDialog(source.tabId, params as unknown as DialogOpening);
      if (method === 'Input.dragIntercepted') emit({ type: 'event', kind: 'drag-intercepted', tab: source.tabId, data: (params as { data: Record<string, unknown> }).data });
      if (method === 'Page.downloadWillBegin' || method === 'Page.downloadProgress') this.#downloads?.onDebuggerEvent(source.tabId, method, (params ?? {}) as Record<string, unknown>);
      if ((NAVIGATION_CDP_METHODS as readonly string[]).includes(method)) {
        // Before the runner can hear it: its next command must not reach the document left.
        if (method === 'Page.frameNavigated' && (params as { frame?: { parentId?: string } } | undefined)?.frame?.parentId === undefined) this.fence.debuggerCommitted(source.tabId);
        const navigation = method as (typeof NAVIGATION_CDP_METHODS)[number];
        emit({ type: 'event', kind: 'navigation', tab: source.tabId, method: navigation, params: cutNavigationEvent(navigation, (params ?? {}) as Record<string, unknown>) as unknown as Record<string, unknown> });
      }
    });
  }

  /** The tabs attached now. */
  get attached(): number[] {
    return [...this.#attached];
  }

  /**
   * A tab the run loads a page in (navigate): attached at once when the run uses the debugger, so
   * a dialog the page opens as it loads is answered too. A refusal is left for the run's next
   * step to report; the allow list is checked when input is sent.
   */
  async adopt(tabId: number): Promise<void> {
    if (!this.#wanted || !chrome.debugger || this.#attached.has(tabId) || this.#cancelled.has(tabId)) return;
    await this.releaseStale();
    try {
      await withTimeout(chrome.debugger.attach({ tabId }, '1.3'), CALL_TIMEOUT_MS, () => new Error('chrome.debugger.attach timed out'));
    } catch {
      return;
    }
    this.#attached.add(tabId);
    await this.#remember();
    await this.#watch(tabId, CALL_TIMEOUT_MS);
  }

  async handle(request: RequestOf<'debugger'>): Promise<Record<string, unknown>> {
    const timeoutMs = request.timeoutMs ?? CALL_TIMEOUT_MS;
    await this.releaseStale();
    if (request.op !== 'detach') this.#wanted = true;
    if (request.op === 'detach') {
      await this.detachAll();
      return { ok: true, attached: this.attached };
    }
    if (request.op === 'dialogs') {
      this.#policy = request.policy ?? this.#policy;
      this.#armed = request.armed ?? [];
      return { ok: true, attached: this.attached };
    }
    const tabId = request.tab ?? this.state.data.runTab;
    if (tabId === undefined) throw new CommandFailure('tab-closed', 'There is no run tab yet for the debugger: navigate first.');
    await this.#attach(tabId, timeoutMs);
    if (request.op === 'attach') return { ok: true, attached: this.attached };
    if (request.op === 'upload') return { ok: true, result: await this.#upload(tabId, request, timeoutMs), attached: this.attached };
    if (request.op === 'chooser') return { ok: true, result: await this.#chooser(tabId, request.files!, timeoutMs), attached: this.attached };
    if (this.#crashed.has(tabId)) {
      const tab = await chrome.tabs.get(tabId).catch(() => undefined);
      if (tab?.status === 'unloaded') throw pageGone(tab, `${request.method} was not sent there.`);
      this.#crashed.delete(tabId);
    }
    if (request.method === 'Page.setInterceptFileChooserDialog') {
      // A chooser from before interception began is not this step's.
      this.#choosers.delete(tabId);
      await this.#interceptInFrames(tabId, request.params ?? {}, timeoutMs);
    }
    const result = await withTimeout(chrome.debugger.sendCommand({ tabId }, request.method!, request.params ?? {}), timeoutMs, () =>
      new CommandFailure('timeout', `${request.method} got no answer from the page within ${timeoutMs} ms (its main thread may be busy); it is not sent again.`, { method: request.method }),
    ).catch((error: unknown) => {
      if (error instanceof CommandFailure) throw error;
      const why = messageOf(error);
      // The person cancelled the bar, or the tab went away, while the input went out.
      if (/not attached|detached/i.test(why)) {
        this.#forget(tabId);
        void this.#remember();
      }
      throw new CommandFailure('connection-lost', `${request.method} failed in the run's tab: ${why}.`, { method: request.method, error: why });
    });
    return { ok: true, result: result ?? {}, attached: this.attached };
  }

  /** Lets go of every tab (the run ended, or its bridge went away). */
  async detachAll(): Promise<void> {
    const tabs = [...this.#attached];
    for (const tabId of tabs) this.#forget(tabId);
    await this.#remember();
    await Promise.all(tabs.map((tabId) => detach(tabId)));
  }

  /**
   * A worker that starts again lets go of the tabs an earlier instance of it held (Chrome may
   * stop a worker while its debugger sessions live on, and their run may have ended meanwhile);
   * the run attaches them again when it needs them. Requests wait for it.
   */
  releaseStale(): Promise<void> {
    this.#released ??= (async () => {
      if (!chrome.debugger) return;
      await this.state.load();
      const stale = (this.state.data.debugged ?? []).filter((tabId) => !this.#attached.has(tabId));
      await Promise.all(stale.map((tabId) => detach(tabId)));
      await this.#remember();
    })().catch(() => undefined);
    return this.#released;
  }

  /** Keeps the attached tabs in the run's state, for a worker that starts again. */
  #remember(): Promise<void> {
    const now = [...this.#attached];
    return this.state.update((data) => {
      data.debugged = now;
    });
  }

  /** A new run: nothing attached, nothing cancelled, no armed answers. */
  async begin(): Promise<void> {
    await this.detachAll();
    this.#cancelled.clear();
    this.#armed = [];
    this.#used.clear();
    this.#policy = 'dismiss';
    this.#wanted = false;
  }

  /** A tab of the run went to a page outside the allow list: it leaves the debugger at once. */
  onNavigated(tabId: number, url: string): void {
    if (!this.#attached.has(tabId) || this.allow.allows(url)) return;
    this.#forget(tabId);
    void this.#remember();
    void detach(tabId);
  }

  async #attach(tabId: number, timeoutMs: number): Promise<void> {
    if (!chrome.debugger) refuse('the extension has no "debugger" permission (it was staged by an older aite); stage it again and reload it', 'permission');
    const data = this.state.data;
    const ours = data.runTab === tabId || data.created.includes(tabId) || data.taken.includes(tabId);
    if (!ours) throw new CommandFailure('unsupported', `Tab ${tabId} is not one of the run's tabs; aite attaches its debugger only to the tabs the run opened or switched to.`, { tab: tabId });
    const tab = await chrome.tabs.get(tabId).catch(() => undefined);
    if (!tab) throw new CommandFailure('tab-closed', `Tab ${tabId} does not exist.`, { tab: tabId });
    if (!this.allow.allows(tab.url)) {
      throw this.allow.refusal(tab.url, 'input through chrome.debugger', { tab: tabId });
    }
    if (this.#attached.has(tabId)) return;
    if (this.#cancelled.has(tabId)) refuse('the person at the browser cancelled the debugging bar in this tab', 'cancelled');
    const attaching = chrome.debugger.attach({ tabId }, '1.3');
    try {
      await withTimeout(attaching, timeoutMs, () => new Error(`chrome.debugger.attach did not answer within ${timeoutMs} ms`));
    } catch (error) {
      // An attach that succeeds after its deadline is let go of at once: nobody would use it.
      void attaching.then(() => chrome.debugger.detach({ tabId })).catch(() => undefined);
      const why = messageOf(error);
      refuse(why.replace(/\.$/, ''), /another debugger/i.test(why) ? 'other-debugger' : 'attach-failed');
    }
    this.#attached.add(tabId);
    await this.#remember();
    await this.#watch(tabId, timeoutMs);
  }

  /**
   * Turns on what the run hears of a tab it attached: the Page domain (dialogs reach this
   * extension, and no longer the person, only with it on; downloads are told with it), the
   * Network, Runtime and Log domains for the runner's page watch (Runtime's and Log's enable
   * replay what the page logged before). Then, not waited for (a busy page would hold the
   * step's input), the page's first document from its navigation timing, for a page answered
   * before the Network domain listened. Each within `timeoutMs`; one that fails leaves the rest on.
   */
  async #watch(tabId: number, timeoutMs: number): Promise<void> {
    const send = (method: string, params: object = {}): Promise<unknown> =>
      withTimeout(chrome.debugger.sendCommand({ tabId }, method, params), timeoutMs, () => new Error(`${method} timed out`)).catch(() => undefined);
    await Promise.all([send('Page.enable'), send('Network.enable'), send('Runtime.enable'), send('Log.enable')]);
    // After the domains: a cross-site frame's session is attached (see #adoptChild) for what runs in its process.
    await send('Target.setAutoAttach', AUTO_ATTACH);
    void this.#firstDocument(tabId, send);
  }

  /**
   * A target Chrome attached under a tab (auto-attach, flat): a cross-site frame is remembered,
   * the page watch's domains turned on in it, and its own frames attached in turn; anything else (a worker) is only let run. Chrome holds
   * a new one until told to run, so it is told in every case, within a deadline.
   */
  async #adoptChild(tabId: number, child: ChildAttached): Promise<void> {
    const session = { tabId, sessionId: child.sessionId };
    const send = (method: string, params: object = {}): Promise<unknown> =>
      withTimeout(chrome.debugger.sendCommand(session, method, params), CALL_TIMEOUT_MS, () => new Error(`${method} timed out`)).catch(() => undefined);
    try {
      if (child.targetInfo.type !== 'iframe') return;
      const frames = this.#frames.get(tabId) ?? new Map<string, string>();
      frames.set(child.targetInfo.targetId, child.sessionId);
      this.#frames.set(tabId, frames);
      // Before the frame runs: what it logs and asks for as it loads is heard (see #watch).
      await Promise.all([send('Network.enable'), send('Runtime.enable'), send('Log.enable')]);
      await send('Target.setAutoAttach', AUTO_ATTACH);
    } finally {
      if (child.waitingForDebugger) await send('Runtime.runIfWaitingForDebugger');
    }
  }

  /**
   * Chrome hands a file chooser only to the session of the process its frame runs in: each
   * cross-site frame's session intercepts (or stops) as the tab's does. Its Page domain, which
   * tells the chooser, is on only while it intercepts (the frame's dialogs still reach the tab's
   * session, which answers them). A frame that went away meanwhile opens no chooser, so its
   * refusal is no failure.
   */
  async #interceptInFrames(tabId: number, params: Record<string, unknown>, timeoutMs: number): Promise<void> {
    const on = params.enabled === true;
    await Promise.all(
      [...(this.#frames.get(tabId)?.values() ?? [])].map(async (sessionId) => {
        const send = (method: string, sent: object): Promise<unknown> =>
          withTimeout(chrome.debugger.sendCommand({ tabId, sessionId }, method, sent), timeoutMs, () => new Error(`${method} timed out`)).catch(() => undefined);
        if (on) await send('Page.enable', {});
        await send('Page.setInterceptFileChooserDialog', params);
        if (!on) await send('Page.disable', {});
      }),
    );
  }

  #isFrame(tabId: number, sessionId: string): boolean {
    for (const id of this.#frames.get(tabId)?.values() ?? []) if (id === sessionId) return true;
    return false;
  }

  #dropChild(tabId: number, sessionId: string | undefined): void {
    const frames = this.#frames.get(tabId);
    for (const [frameId, id] of frames ?? []) if (id === sessionId) frames!.delete(frameId);
    const open = sessionId === undefined ? undefined : this.#frameRequests.get(sessionId);
    if (!open) return;
    this.#frameRequests.delete(sessionId!);
    if (open.size > 0) this.emit({ type: 'event', kind: 'page-watch', tab: tabId, method: 'frameDetached', params: { requestIds: [...open] } });
  }

  /** Keeps {@link #frameRequests} as a frame's session begins a request, and as any session hears it answered. */
  #track(sessionId: string | undefined, method: string, params: { requestId?: string } | undefined): void {
    const id = params?.requestId;
    if (id === undefined) return;
    if (method === 'Network.requestWillBeSent') {
      if (sessionId === undefined) return;
      const open = this.#frameRequests.get(sessionId) ?? new Set<string>();
      this.#frameRequests.set(sessionId, open.add(id));
    } else if (method === 'Network.responseReceived' || method === 'Network.loadingFailed') {
      for (const open of this.#frameRequests.values()) open.delete(id);
    }
  }

  async #firstDocument(tabId: number, send: (method: string, params?: object) => Promise<unknown>): Promise<void> {
    const first = await readFirstDocumentOver(send);
    if (first && this.#attached.has(tabId)) {
      this.emit({ type: 'event', kind: 'page-watch', tab: tabId, method: 'firstDocument', params: { url: redactUrl(first.url), status: first.status, ms: first.ms } });
    }
  }

  /** A tab the debugger no longer holds: the runner forgets what it began and never answered. */
  #forget(tabId: number): void {
    for (const sessionId of this.#frames.get(tabId)?.values() ?? []) this.#frameRequests.delete(sessionId);
    this.#frames.delete(tabId);
    this.#crashed.delete(tabId);
    if (!this.#attached.delete(tabId)) return;
    this.emit({ type: 'event', kind: 'page-watch', tab: tabId, method: 'detached', params: {} });
  }

  /**
   * Sets the files of the file input the element at `xpath` is or labels, in the top document or
   * the iframe `request.frame` names.
   */
  async #upload(tabId: number, request: RequestOf<'debugger'>, timeoutMs: number): Promise<{ input: boolean }> {
    const end = Date.now() + timeoutMs;
    const { target, contextId } = request.frame === undefined ? { target: { tabId } } : await this.#documentOf(tabId, request.frame, end);
    const send = (method: string, params: object): Promise<Record<string, unknown>> => this.#call(target, method, params, end, uploadFailure);
    const found = (await send('Runtime.evaluate', { expression: `(${FIND_FILE_INPUT})(${JSON.stringify(request.xpath)}, ${JSON.stringify(request.tag)})`, ...(contextId !== undefined ? { contextId } : {}) })) as {
      result: { type: string; subtype?: string; value?: unknown; objectId?: string };
    };
    const { result } = found;
    if (result.type === 'string') {
      if (result.value === 'other') return { input: false };
      throw new CommandFailure('not-found', `The <${request.tag}> to upload into was removed from the page since resolve (the page re-rendered it); resolve again.`, { xpath: request.xpath, stale: 'removed' });
    }
    const objectId = result.objectId!;
    const files = request.files!;
    try {
      const multiple = (await send('Runtime.callFunctionOn', { objectId, functionDeclaration: 'function () { return this.multiple; }', returnByValue: true })) as { result: { value?: unknown } };
      if (files.length > 1 && multiple.result.value !== true) {
        throw new CommandFailure('unsupported', `upload: ${files.length} files for an input that takes one (it has no \`multiple\`).`);
      }
      if (files.length === 0) {
        // Chrome sets no empty list: the input is cleared as a person's "cancel" would, with its events.
        await send('Runtime.callFunctionOn', {
          objectId,
          functionDeclaration: "function () { this.value = ''; this.dispatchEvent(new Event('input', { bubbles: true })); this.dispatchEvent(new Event('change', { bubbles: true })); }",
        });
      } else {
        await send('DOM.setFileInputFiles', { objectId, files });
      }
    } finally {
      void send('Runtime.releaseObject', { objectId }).catch(() => undefined);
    }
    return { input: true };
  }

  /**
   * The document of the iframe `path` names (keys outermost first, each as a target's `frame`
   * names it): a cross-site frame's own session, or an isolated world of a frame in the process
   * of the document around it. A cross-site frame that Chrome has not attached yet is waited for.
   */
  async #documentOf(tabId: number, path: string | string[], end: number): Promise<{ target: Debuggee; contextId?: number }> {
    let target: Debuggee = { tabId };
    let contextId: number | undefined;
    for (const spec of typeof path === 'string' ? [path] : path) {
      const send = (method: string, params: object): Promise<Record<string, unknown>> => this.#call(target, method, params, end, uploadFailure);
      const { result } = (await send('Runtime.evaluate', { expression: `(${FIND_FRAME})(${JSON.stringify(spec)})`, ...(contextId !== undefined ? { contextId } : {}) })) as { result: { value?: unknown; objectId?: string } };
      if (result.objectId === undefined) {
        if (typeof result.value === 'number' && result.value > 1) {
          throw new CommandFailure('ambiguous', `Several iframes answer to "${spec}" now, so the file input's frame is not known; nothing was uploaded. Resolve again, with a frame key that names one.`, { frame: spec });
        }
        throw new CommandFailure('not-found', `The iframe "${spec}" that held the file input is not in the page any more; resolve again.`, { frame: spec });
      }
      const described = (await send('DOM.describeNode', { objectId: result.objectId }).finally(() => void send('Runtime.releaseObject', { objectId: result.objectId }).catch(() => undefined))) as { node: { frameId?: string } };
      const frameId = described.node.frameId;
      if (frameId === undefined) throw new CommandFailure('not-found', `The iframe "${spec}" that held the file input shows no document now; resolve again.`, { frame: spec });
      const world = (await this.#call(target, 'Page.createIsolatedWorld', { frameId, worldName: 'aite-upload' }, end, uploadFailure).catch(() => undefined)) as { executionContextId?: number } | undefined;
      if (world?.executionContextId !== undefined) {
        contextId = world.executionContextId;
        continue;
      }
      // Not in this process: a cross-site frame, reached through its own session.
      let sessionId: string | undefined;
      while ((sessionId = this.#frames.get(tabId)?.get(frameId)) === undefined) {
        if (Date.now() >= end) throw new CommandFailure('timeout', `The iframe "${spec}" runs in another process and its session was not attached within the time left; nothing was uploaded.`, { frame: spec });
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      target = { tabId, sessionId };
      contextId = undefined;
    }
    return { target, ...(contextId !== undefined ? { contextId } : {}) };
  }

  /** One chrome.debugger call to `target` by the deadline `end`; what Chrome refused, as `failure` says. */
  #call(target: Debuggee, method: string, params: object, end: number, failure: (why: string) => CommandFailure): Promise<Record<string, unknown>> {
    const ms = Math.max(0, end - Date.now());
    return withTimeout(chrome.debugger.sendCommand(target, method, params) as Promise<Record<string, unknown>>, ms, () => new CommandFailure('timeout', `${method} got no answer from the page within the time left (${ms} ms).`)).catch((error: unknown) => {
      throw error instanceof CommandFailure ? error : failure(messageOf(error));
    });
  }

  /** Answers the file chooser a click opened (intercepted) with `files`, waiting for it within `timeoutMs`. */
  async #chooser(tabId: number, files: string[], timeoutMs: number): Promise<{ input: boolean }> {
    const end = Date.now() + timeoutMs;
    let opened: ChooserOpened | undefined;
    while (!(opened = this.#choosers.get(tabId)?.shift())) {
      if (Date.now() >= end) throw new CommandFailure('timeout', `The click opened no file chooser within ${timeoutMs} ms; name the file input or its label instead.`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    if (files.length > 1 && opened.mode !== 'selectMultiple') throw new CommandFailure('unsupported', `upload: ${files.length} files for a chooser that takes one.`);
    if (opened.backendNodeId === undefined) throw new CommandFailure('unsupported', 'The file chooser did not come from a file input of the page, so aite cannot answer it.');
    const target: Debuggee = opened.sessionId === undefined ? { tabId } : { tabId, sessionId: opened.sessionId };
    await withTimeout(chrome.debugger.sendCommand(target, 'DOM.setFileInputFiles', { backendNodeId: opened.backendNodeId, files }), timeoutMs, () => new CommandFailure('timeout', `DOM.setFileInputFiles got no answer within ${timeoutMs} ms.`)).catch(
      (error: unknown) => {
        throw error instanceof CommandFailure ? error : uploadFailure(messageOf(error));
      },
    );
    return { input: true };
  }

  async #answerDialog(tabId: number, event: DialogOpening): Promise<void> {
    const armed = this.#armed.find((a) => !this.#used.has(a.id));
    if (armed) this.#used.add(armed.id);
    const accepted = armed ? armed.accept : this.#policy === 'accept';
    const promptText = accepted && event.type === 'prompt' ? (armed?.promptText ?? event.defaultPrompt ?? '') : undefined;
    // Reported before the answer goes out: the step the dialog interrupted ends as soon as it closes.
    this.emit({
      type: 'event',
      kind: 'dialog',
      tab: tabId,
      dialog: event.type,
      message: event.message.slice(0, 10_000),
      url: event.url,
      ...(event.type === 'prompt' ? { defaultPrompt: event.defaultPrompt ?? '' } : {}),
      accepted,
      ...(promptText !== undefined ? { promptText } : {}),
      ...(armed ? { armed: armed.id } : {}),
    });
    await withTimeout(
      chrome.debugger.sendCommand({ tabId }, 'Page.handleJavaScriptDialog', { accept: accepted, ...(promptText !== undefined ? { promptText } : {}) }),
      CALL_TIMEOUT_MS,
      () => new Error('handleJavaScriptDialog timed out'),
    ).catch(() => undefined);
  }
}

/** `Target.attachedToTarget`, as far as it is read. */
interface ChildAttached {
  sessionId: string;
  targetInfo: { targetId: string; type: string };
  waitingForDebugger: boolean;
}

interface ChooserOpened {
  mode: 'selectSingle' | 'selectMultiple';
  backendNodeId?: number;
  /** The cross-site frame's session it opened in (its `backendNodeId` is that process's); absent: the tab's. */
  sessionId?: string;
}

/** Chrome lets an extension's debugger hand a page local files only with file access. */
function uploadFailure(why: string): CommandFailure {
  if (/not allowed/i.test(why)) {
    return new CommandFailure('unsupported', `Chrome refused to give the page the files (${why}): turn on "Allow access to file URLs" for the aite extension in chrome://extensions.`, { error: why });
  }
  return new CommandFailure('connection-lost', `The files could not be set in the run's tab: ${why}.`, { error: why });
}

interface DialogOpening {
  url: string;
  message: string;
  type: 'alert' | 'confirm' | 'prompt' | 'beforeunload';
  defaultPrompt?: string;
}

/** Detaches one tab within its deadline; a tab already gone is no error. */
function detach(tabId: number): Promise<void> {
  return withTimeout(chrome.debugger.detach({ tabId }), DETACH_TIMEOUT_MS, () => new Error('detach timed out')).catch(() => undefined);
}

function refuse(why: string, kind: 'permission' | 'cancelled' | 'other-debugger' | 'attach-failed'): never {
  throw new CommandFailure('unsupported', `The extension could not attach chrome.debugger to the run's tab: ${why}.`, { debugger: 'refused', why: kind });
}

/** `work`, or the error `expired` makes when it takes longer than `ms`. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
