import { CancelSchema, CommandFailure, DEFAULT_TIMEOUT_MS, NAVIGATE_TIMEOUT_MS, defaultTimeoutOf, isCrashedPage, originOf, parseRequest, type Command, type Request, type RequestOf } from '../../sdk/protocol/index.js';
import type { AllowList } from './AllowList.js';
import { closeTab } from './closeTab.js';
import type { DebuggerTabs } from './DebuggerTabs.js';
import { evaluateInTab } from './evaluate.js';
import { LoadWatch, tabSettled } from './LoadWatch.js';
import { FrameRoute } from './FrameRoute.js';
import { askActStatus, neverSent, type PageRequest } from './PageChannel.js';
import type { RunState } from './RunState.js';

/** What a navigate must have left of its time to load its page again after a crash: less would only end in its timeout. */
const MIN_LOAD_AGAIN_MS = 1_000;

type Handler<C extends Command> = (request: RequestOf<C>) => Promise<Record<string, unknown>>;

/** Turns each validated request into its answer. Tab commands run here; page commands go to the tab. */
export class CommandRouter {
  readonly #page: FrameRoute;
  readonly #handlers: { [C in Command]: Handler<C> };
  /** The loads navigate and history wait for, by request id, while they are handled: what a `cancel` ends. */
  readonly #loads = new Map<number, LoadWatch>();

  constructor(
    private readonly state: RunState,
    private readonly allow: AllowList,
    private readonly debuggerTabs: DebuggerTabs,
  ) {
    this.#page = new FrameRoute(allow);
    const page = (request: PageRequest): Promise<Record<string, unknown>> => this.#runOnPage(request);
    this.#handlers = {
      tabs: () => this.#tabs(),
      navigate: (request) => this.#navigate(request),
      switchTab: (request) => this.#switchTab(request),
      closeTab: (request) => this.#closeTab(request),
      resolve: page,
      locate: page,
      read: page,
      verify: page,
      wait: page,
      act: async (request) => {
        // Recorded before the act can reach the page: a lost act missing here never left the worker.
        await this.state.update((data) => {
          data.acts = [...(data.acts ?? []), request.id].slice(-50);
        });
        return page(request);
      },
      outline: page,
      snapshot: page,
      scroll: page,
      history: (request) => this.#history(request),
      evaluate: (request) => {
        const tabId = request.tab ?? this.state.data.runTab;
        if (tabId === undefined) throw new CommandFailure('tab-closed', 'There is no run tab yet for evaluate: navigate first.');
        return evaluateInTab(request, tabId, this.allow);
      },
      guard: page,
      actStatus: (request) => this.#actStatus(request),
      debugger: (request) => this.debuggerTabs.handle(request),
    } satisfies { [C in Command]: Handler<C> };
  }

  /** Validates a raw request and answers it (undefined: no answer, the worker is being stopped); never throws. */
  async handle(raw: unknown): Promise<Record<string, unknown> | undefined> {
    const id = (raw as { id?: unknown } | null)?.id;
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 1) return undefined;
    const parsed = parseRequest(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return new CommandFailure('unsupported', `The extension cannot read this request: ${issue?.path.join('.') || '(root)'}: ${issue?.message}.`).toAnswer(id);
    }
    const request = parsed.data;
    try {
      await this.state.load();
      const handler = this.#handlers[request.cmd] as Handler<Command>;
      const answer = await handler(request as never);
      return { ...answer, id };
    } catch (error) {
      if (error instanceof CommandFailure) return error.toAnswer(id);
      // Chrome is stopping this worker (its chrome.* calls throw "No SW"; seen in the soak): the
      // socket goes with it, and the bridge re-sends what only looks, or asks what became of an
      // act. Answering `internal` now would turn a worker stop into a failed step.
      if (error instanceof Error && /^No SW\b/.test(error.message)) return undefined;
      return new CommandFailure('internal', `The extension failed on ${request.cmd}: ${error instanceof Error ? error.message : String(error)}.`).toAnswer(id);
    } finally {
      this.#loads.delete(id);
    }
  }

  /** Ends the load a request waits for, when the runner says it will not come; anything else is ignored. */
  cancel(raw: unknown): void {
    const parsed = CancelSchema.safeParse(raw);
    if (parsed.success) this.#loads.get(parsed.data.id)?.cancel(parsed.data.why);
  }

  /** A load watch that a `cancel` of request `id` ends. */
  #cancellableLoad(id: number): LoadWatch {
    const watch = new LoadWatch();
    this.#loads.set(id, watch);
    return watch;
  }

  async #tabs(): Promise<Record<string, unknown>> {
    const tabs = await chrome.tabs.query({});
    return {
      ok: true,
      tabs: tabs
        .filter((tab) => tab.id !== undefined)
        // A tab that has not committed its first page has an empty `url` and the address in `pendingUrl`.
        .map((tab) => ({ id: tab.id!, url: urlOf(tab), title: tab.title ?? '', active: tab.active, ...(tab.status === 'loading' ? { loading: true } : {}) })),
    };
  }

  async #navigate(request: RequestOf<'navigate'>): Promise<Record<string, unknown>> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw new CommandFailure('unsupported', `"${request.url}" is not an absolute URL.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new CommandFailure('unsupported', `navigate only opens http and https pages, not ${url.protocol} ones.`);
    }
    if (!this.allow.allows(url.href)) {
      throw new CommandFailure('navigation', `${url.origin} is not in the run's allow list (${this.allow.describe()}), so aite did not open it. Add it to \`allow\` to let aite open it.`, {
        url: url.href,
        allow: [...this.allow.origins],
      });
    }
    const deadline = Date.now() + (request.timeoutMs ?? defaultTimeoutOf('navigate')!);
    const watch = this.#cancellableLoad(request.id);
    let tabId: number;
    try {
      if (request.tab !== undefined) {
        tabId = request.tab;
        await this.debuggerTabs.adopt(tabId);
        await loadIn(watch, tabId, url.href);
      } else {
        const tab = await openTab(url.href);
        tabId = tab.id!;
        // onCreated may have counted it as a tab that opened by itself before create() returned.
        await this.state.update((data) => {
          data.created.push(tabId);
          data.opened = data.opened.filter((id) => id !== tabId);
        });
        // As the page loads (Chrome cannot hold a new tab for an extension's debugger): a dialog
        // its very first script opens may come before the debugger, and is left to the person.
        await this.debuggerTabs.adopt(tabId);
      }
    } catch (error) {
      watch.dispose();
      throw error;
    }
    await this.state.update((data) => {
      data.runTab = tabId;
    });
    // From here on the tab is the run's, whatever becomes of its load: each failure names it in
    // `detail.tab` (the timeout and load-failed of the watch do), so the runner reuses it.
    const { tab, crashedLoads } = await this.#loadedAfterCrash(request.id, tabId, url.href, watch, deadline);
    if (!this.allow.allows(tab.url)) {
      throw new CommandFailure('navigation', `The page went to ${tab.url}, and ${originOf(tab.url ?? '(no url)')} is outside the run's allow list (${this.allow.describe()}), so aite stops there. Add that origin to \`allow\` if the test is meant to follow it.`, {
        tab: tabId,
        url: tab.url,
        allow: [...this.allow.origins],
      });
    }
    return { ok: true, tab: tabId, url: tab.url ?? url.href, ...(crashedLoads ? { crashedLoads, retries: crashedLoads } : {}) };
  }

  /**
   * Waits for a navigate's load; one whose renderer crashed as it loaded is loaded again, once,
   * as a person presses Reload on Chrome's "Aw, Snap!" page: Chrome's renderer sometimes crashes
   * on a page's first load on a busy machine (seen right after Chrome starts). The address is
   * fetched again, so the load counts as a re-send, on a failure of it too; a second crash fails the step.
   */
  async #loadedAfterCrash(id: number, tabId: number, url: string, watch: LoadWatch, deadline: number): Promise<{ tab: chrome.tabs.Tab; crashedLoads: number }> {
    const what = `loading ${url}`;
    try {
      return { tab: await watch.forTab(tabId, deadline, what), crashedLoads: 0 };
    } catch (error) {
      if (!crashedWhileLoading(error) || deadline - Date.now() < MIN_LOAD_AGAIN_MS) throw error;
    }
    const again = this.#cancellableLoad(id);
    try {
      await loadIn(again, tabId, url);
      return { tab: await again.forTab(tabId, deadline, what), crashedLoads: 1 };
    } catch (error) {
      again.dispose();
      if (!(error instanceof CommandFailure)) throw error;
      const twice = crashedWhileLoading(error);
      const message = twice ? `${error.message} Its renderer had crashed on the load before too, and aite loaded it again once.` : error.message;
      throw new CommandFailure(error.reason, message, twice ? { ...error.detail, crashedLoads: 2 } : error.detail, 1);
    }
  }

  async #history(request: RequestOf<'history'>): Promise<Record<string, unknown>> {
    const tabId = request.tab ?? this.state.data.runTab;
    if (tabId === undefined) throw new CommandFailure('tab-closed', `There is no run tab yet to ${request.action === 'reload' ? 'reload' : `go ${request.action} in`}: navigate first.`);
    const deadline = Date.now() + (request.timeoutMs ?? NAVIGATE_TIMEOUT_MS);
    // A page still loading (a link's step returns once its page commits) would end the watch
    // below with its own load, before the history move had started.
    // A tab whose page is gone (a crash) waits for nothing: reloading it is how it comes back.
    await tabSettled(tabId, deadline, `waiting for the page to load before going ${request.action}`, true).catch((error: unknown) => {
      if (!(error instanceof CommandFailure && isCrashedPage(error.reason, error.detail))) throw error;
    });
    // Watching before going: a page restored from the back/forward cache may be complete at once.
    const watch = this.#cancellableLoad(request.id);
    try {
      if (request.action === 'reload') await chrome.tabs.reload(tabId);
      else await goInHistory(tabId, request.action === 'back' ? -1 : 1);
    } catch (error) {
      watch.dispose();
      if (!(await chrome.tabs.get(tabId).catch(() => undefined))) throw new CommandFailure('tab-closed', `Tab ${tabId} does not exist.`, { tab: tabId });
      if (error instanceof CommandFailure) throw error;
      const why = error instanceof Error ? error.message : String(error);
      throw new CommandFailure('unsupported', `Cannot go ${request.action} in the run's tab: ${why}.`, { tab: tabId, error: why });
    }
    const tab = await watch.forTab(tabId, deadline, `going ${request.action}`);
    if (!this.allow.allows(tab.url)) {
      throw new CommandFailure('navigation', `Going ${request.action} led to ${tab.url}, outside the run's allow list (${this.allow.describe()}).`, {
        url: tab.url,
        allow: [...this.allow.origins],
      });
    }
    return { ok: true, tab: tabId, url: tab.url ?? '' };
  }

  async #switchTab(request: RequestOf<'switchTab'>): Promise<Record<string, unknown>> {
    const current = request.tab ?? this.state.data.runTab;
    const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = Date.now() + timeoutMs;
    const match = request.match;
    // A tab that has not committed its first page yet shows '' or about:blank as its url.
    const address = (tab: chrome.tabs.Tab): string => (tab.url && !isBlank(tab.url) ? tab.url : tab.pendingUrl || tab.url || '');
    const matches = (tab: chrome.tabs.Tab): boolean => {
      if ('urlContains' in match) return address(tab).includes(match.urlContains);
      if ('titleContains' in match) return (tab.title ?? '').includes(match.titleContains);
      if ('id' in match) return tab.id === match.id;
      return this.state.data.opened.includes(tab.id!) && !this.state.data.taken.includes(tab.id!);
    };
    for (;;) {
      const all = await chrome.tabs.query({});
      const tabs = all.filter((tab) => tab.id !== undefined && tab.id !== current);
      const candidates = tabs.filter(matches);
      const own = all.find((tab) => tab.id === current);
      // An id names one tab: one that is not open now never will be (Chrome does not reuse ids).
      if ('id' in match && candidates.length === 0 && !(own && matches(own))) {
        throw new CommandFailure('tab-closed', `No tab has the id ${match.id}: it closed, or no tab ever had it. ${openTabs(all, current)}`, {
          tabs: all.map(urlOf),
          open: all.map(describeTab),
        });
      }
      // Switching to the page already in front is no switch: when no other tab matches (not
      // even one still loading), the run's own tab is the answer, at once. A tab that opened by
      // itself and is still loading may match once it has its address and title (a popup before
      // its first commit shows '' or about:blank, and no title): it is waited for, within the
      // timeout, before the own tab answers. An id names the own tab and no other.
      const pending = tabs.some((tab) => tab.status !== 'complete' && this.state.data.opened.includes(tab.id!));
      if (candidates.length === 0 && own && !('new' in match) && matches(own) && (!pending || 'id' in match || Date.now() >= deadline)) {
        await chrome.tabs.update(own.id!, { active: true });
        if (own.windowId !== undefined) await chrome.windows.update(own.windowId, { focused: true }).catch(() => undefined);
        return { ok: true, tab: own.id!, url: own.url ?? own.pendingUrl ?? '', title: own.title ?? '' };
      }
      const picked = 'new' in match ? this.#newest(candidates, request.inputAt ?? []) : candidates;
      if (picked.length > 1) {
        throw new CommandFailure('ambiguous', `${picked.length} tabs match ${JSON.stringify(match)}; name one more precisely (or by its id).`, {
          candidates: picked.map((tab) => ({ tab: tab.id, url: tab.url, title: tab.title })),
        });
      }
      const tab = picked[0];
      // A popup opened blank (window.open('') or 'about:blank') that its opener then sends to
      // its page is complete at about:blank first: it is waited for until it has its address.
      if (tab && tab.status === 'complete' && !isBlank(tab.url)) {
        // The run never adopts a tab it may not touch: the runner would send it keys and pictures.
        if (!this.allow.allows(tab.url)) {
          throw new CommandFailure(
            'navigation',
            `The tab matching ${JSON.stringify(match)} shows ${originOf(tab.url ?? '(no url)')}, outside the run's allow list (${this.allow.describe()}); aite does not switch to it. Add that origin to \`allow\` if the run may work there.`,
            { tab: tab.id, url: tab.url, allow: [...this.allow.origins] },
          );
        }
        await chrome.tabs.update(tab.id!, { active: true });
        if (tab.windowId !== undefined) await chrome.windows.update(tab.windowId, { focused: true }).catch(() => undefined);
        await this.state.update((data) => {
          if (current !== undefined) data.history.push(current);
          data.taken.push(tab.id!);
          data.runTab = tab.id!;
        });
        return { ok: true, tab: tab.id!, url: tab.url ?? '', title: tab.title ?? '' };
      }
      if (Date.now() >= deadline) {
        const detail = { tabs: tabs.map(urlOf), open: all.map(describeTab) };
        if (tab && isBlank(tab.url) && !tab.pendingUrl) {
          throw new CommandFailure(
            'timeout',
            `The tab matching ${JSON.stringify(match)} (tab ${tab.id}) is still at about:blank after ${timeoutMs} ms: the page opened it blank and has not sent it to an address (writing into it leaves it at about:blank), and aite switches only to pages of the allow list. Give the popup its address, or a longer timeoutMs if it comes later. ${openTabs(all, current)}`,
            { ...detail, tab: tab.id },
          );
        }
        throw new CommandFailure('timeout', `No tab matching ${JSON.stringify(match)} finished loading in time. ${openTabs(all, current)}`, detail);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * The tab `new: true` takes: of the tabs that opened by themselves and were not taken yet, the
   * newest; but of tabs one step opened (one click's two popups) the first, then the next, so
   * the first is not passed over for one that opened a moment after it.
   */
  #newest(candidates: chrome.tabs.Tab[], inputAt: readonly number[]): chrome.tabs.Tab[] {
    const { opened, openedAt = {} } = this.state.data;
    const order = candidates.filter((tab) => opened.includes(tab.id!)).sort((a, b) => opened.indexOf(a.id!) - opened.indexOf(b.id!));
    const newest = order.at(-1);
    if (!newest) return [];
    // The step whose input opened the newest began at the last input before it opened.
    const at = openedAt[newest.id!];
    const stepBegan = at === undefined ? undefined : inputAt.filter((t) => t <= at).at(-1);
    if (stepBegan === undefined) return [newest];
    return [order.find((tab) => (openedAt[tab.id!] ?? -Infinity) >= stepBegan) ?? newest];
  }

  async #closeTab(request: RequestOf<'closeTab'>): Promise<Record<string, unknown>> {
    const target = request.tab ?? this.state.data.runTab;
    if (target === undefined) throw new CommandFailure('tab-closed', 'There is no run tab to close.');
    const { alreadyClosed } = await closeTab(target);
    const next = await this.tabGone(target);
    return { ok: true, closed: target, tab: next, ...(alreadyClosed ? { alreadyClosed: true } : {}) };
  }

  /**
   * Where the run is once `closed` is gone, by closeTab or by itself (a popup's `window.close()`):
   * a closed run tab is left for the last tab the run switched from that is still open and in the
   * allow list; another tab's closing leaves the run where it is. Called for each closing by both
   * closeTab and the tab's removal event, one after the other: the second finds the run moved.
   */
  tabGone(closed: number): Promise<number | null> {
    const next = this.#leaving.then(() => this.#leave(closed));
    this.#leaving = next.catch(() => undefined);
    return next;
  }

  #leaving: Promise<unknown> = Promise.resolve();

  async #leave(closed: number): Promise<number | null> {
    await this.state.update((data) => {
      data.history = data.history.filter((id) => id !== closed);
      if (data.runTab !== closed) return;
      data.runTab = undefined;
      data.closedRunTabs = [...(data.closedRunTabs ?? []).filter((id) => id !== closed), closed].slice(-20);
    });
    if (this.state.data.runTab !== undefined) return this.state.data.runTab;
    let next: number | null = null;
    while (this.state.data.history.length > 0) {
      const candidate = this.state.data.history[this.state.data.history.length - 1]!;
      // A tab that is gone, or has since left the allow list, is not gone back to.
      const usable = await chrome.tabs.get(candidate).then(
        (tab) => this.allow.allows(tab.url),
        () => false,
      );
      await this.state.update((data) => data.history.pop());
      if (usable) {
        next = candidate;
        break;
      }
    }
    await this.state.update((data) => {
      data.runTab = next ?? undefined;
    });
    if (next !== null) await chrome.tabs.update(next, { active: true }).catch(() => undefined);
    return next;
  }

  async #actStatus(request: RequestOf<'actStatus'>): Promise<Record<string, unknown>> {
    const tabId = request.tab ?? this.state.data.runTab;
    if (tabId === undefined) return { ok: true, dispatched: 'unknown', why: 'the extension does not know which tab the action ran in' };
    const status = await askActStatus(tabId, request.act);
    // The page never saw it; if this worker's memory goes back to the act and holds no trace of it,
    // the act never left the worker that was stopped (a reload clears that memory: then unknown).
    if (status.neverSeen && this.state.data.resumed && !(this.state.data.acts ?? []).includes(request.act)) {
      return { ok: true, dispatched: false };
    }
    const { neverSeen: _neverSeen, ...answer } = status;
    return answer;
  }

  async #runOnPage(request: PageRequest): Promise<Record<string, unknown>> {
    const tabId = request.tab ?? this.state.data.runTab;
    if (tabId === undefined) throw new CommandFailure('tab-closed', `There is no run tab yet for ${request.cmd}: navigate first.`);
    const started = Date.now();
    // The runner names the run's tab as it last heard of it: a popup that closed itself may be
    // gone before the runner has heard. The run has gone back to its opener (tabGone), and the
    // command goes there, as it would have once the runner knew.
    let to = this.#wentBackFrom(tabId);
    let retries = 0;
    if (to === undefined) {
      try {
        return await this.#page.run(request, tabId);
      } catch (error) {
        if (!(error instanceof CommandFailure) || error.reason !== 'tab-closed') throw error;
        // The run leaves the tab now, as its removal event will (or after that event's own
        // leaving, which may be under way: the two take turns).
        await this.tabGone(tabId);
        to = this.#wentBackFrom(tabId);
        // Sent there once more only if the closed tab never received it (it came after the
        // close): an act that may have run is not run twice, and a command that was under way
        // in the tab when it closed (a wait for what the popup would show) is no step of the opener.
        if (to === undefined || !neverSent(error)) throw error;
        retries = 1;
      }
    }
    // What is left of the command's own budget, not a fresh one.
    const timeoutMs = Math.max(1, (request.timeoutMs ?? DEFAULT_TIMEOUT_MS) - (Date.now() - started));
    const answer = await this.#page.run({ ...request, tab: to, timeoutMs }, to);
    const total = (typeof answer.retries === 'number' ? answer.retries : 0) + retries;
    return { ...answer, ...(total > 0 ? { retries: total } : {}), runTab: to };
  }

  /** The run's tab now, when `tabId` is a run tab that closed and the run went back to another. */
  #wentBackFrom(tabId: number): number | undefined {
    const { runTab, closedRunTabs } = this.state.data;
    return runTab !== undefined && runTab !== tabId && closedRunTabs?.includes(tabId) ? runTab : undefined;
  }
}

/**
 * Goes back (-1) or forward (1) as the page's own `history.go` does. Not `chrome.tabs.goBack`:
 * like the browser's back button, that skips entries of pages left without a user gesture (the
 * history-manipulation intervention), so after two `navigate`s it finds nothing to go back to.
 * Running in the page also keeps the allow list: Chrome only lets the extension script its hosts.
 */
async function goInHistory(tabId: number, delta: -1 | 1): Promise<void> {
  const [injected] = await chrome.scripting.executeScript({
    target: { tabId, frameIds: [0] },
    func: (d: number) => {
      const nav = (globalThis as unknown as { navigation?: { canGoBack: boolean; canGoForward: boolean } }).navigation;
      const can = nav ? (d < 0 ? nav.canGoBack : nav.canGoForward) : true;
      if (can) history.go(d);
      return can;
    },
    args: [delta],
  });
  if (injected?.result !== true) {
    const way = delta < 0 ? 'back' : 'forward';
    throw new CommandFailure('unsupported', `Cannot go ${way} in the run's tab: there is no page to go ${way} to.`, { tab: tabId });
  }
}

export type { Request };

/** A tab's page is about:blank (or it has none yet): a popup opened blank that has no address of its own. */
function isBlank(url: string | undefined): boolean {
  return !url || /^about:blank([?#]|$)/.test(url);
}

/** A tab's address, or the one it is loading when it has none yet. */
function urlOf(tab: chrome.tabs.Tab): string {
  return tab.url || tab.pendingUrl || '';
}

function describeTab(tab: chrome.tabs.Tab): { tab: number | undefined; url: string; title: string } {
  return { tab: tab.id, url: urlOf(tab), title: tab.title ?? '' };
}

/** The open tabs in a sentence: each one's id, address and title, the run's marked. */
function openTabs(all: chrome.tabs.Tab[], current: number | undefined): string {
  if (all.length === 0) return 'No tab is open.';
  const each = all.map((tab) => `${tab.id} ${urlOf(tab) || '(no address yet)'} ${JSON.stringify(tab.title ?? '')}${tab.id === current ? " (the run's)" : ''}`);
  return `Open tabs: ${each.join('; ')}.`;
}

/** A new active tab showing `url`; in a new window when Chrome has none left (the run closed its last tab). */
/** Sends tab `tabId` (which has a page) to load `url`, for `watch` to wait for. */
async function loadIn(watch: LoadWatch, tabId: number, url: string): Promise<void> {
  await chrome.tabs.update(tabId, { url }).catch(() => {
    throw new CommandFailure('tab-closed', `Tab ${tabId} does not exist.`, { tab: tabId });
  });
  watch.loading(tabId);
}

/** Whether `error` is a load's failure because the tab's renderer crashed (not a discarded tab). */
function crashedWhileLoading(error: unknown): boolean {
  return error instanceof CommandFailure && isCrashedPage(error.reason, error.detail) && error.detail?.crashed === true;
}

async function openTab(url: string): Promise<chrome.tabs.Tab> {
  try {
    return await chrome.tabs.create({ url, active: true });
  } catch (error) {
    if (!/no current window/i.test(error instanceof Error ? error.message : String(error))) throw error;
    const window = await chrome.windows.create({ url, focused: true });
    const tab = window?.tabs?.[0];
    if (tab?.id === undefined) throw new CommandFailure('internal', `Chrome had no window left and opened one without a tab for ${url}.`);
    return tab;
  }
}
