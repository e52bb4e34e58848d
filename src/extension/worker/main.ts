import type { ExtensionEvent } from '../../sdk/protocol/index.js';
import { AllowList } from './AllowList.js';
import { BridgeConnection } from './BridgeConnection.js';
import { CommandRouter } from './CommandRouter.js';
import { commitFence } from './CommitFence.js';
import { DebuggerTabs } from './DebuggerTabs.js';
import { RunState } from './RunState.js';

// One controller per worker instance. Chrome may stop this worker at any time; everything it
// must remember lives in RunState (storage.session), and the alarm below reconnects it.
const state = new RunState();
const allow = new AllowList(chrome.runtime.getManifest().host_permissions ?? []);
const debuggerTabs = new DebuggerTabs(state, allow, emit, commitFence);
const router = new CommandRouter(state, allow, debuggerTabs);
// Nobody else would take down Chrome's bar on tabs an earlier instance of this worker held.
void debuggerTabs.releaseStale();

const connection = new BridgeConnection({
  async onMessage(message) {
    const type = (message as { type?: unknown }).type;
    if (type === 'ping') return { type: 'pong' };
    // Beside the requests, not in their turn: the request it names answers for itself.
    if (type === 'cancel') return router.cancel(message);
    return router.handle(message);
  },
  async lastRunId() {
    await state.load();
    return state.data.runId;
  },
  async onWelcome(welcome, resumed) {
    await state.begin(welcome.runId, resumed);
    if (!state.data.resumed) await debuggerTabs.begin();
  },
  onClose() {
    // The run ended (or its bridge went away): the person's tabs are theirs again.
    void debuggerTabs.detachAll();
  },
});

function emit(event: ExtensionEvent): void {
  connection.send(event);
}

chrome.tabs.onCreated.addListener((tab) => {
  if (tab.id === undefined) return;
  const id = tab.id;
  const at = Date.now();
  void state.update((data) => {
    if (data.created.includes(id)) return;
    data.opened.push(id);
    data.openedAt = { ...data.openedAt, [id]: at };
  });
  emit({ type: 'event', kind: 'tab-opened', tab: id, url: tab.pendingUrl ?? tab.url ?? '' });
});
chrome.tabs.onRemoved.addListener((tabId) => {
  // A run tab that closed by itself is left as closeTab leaves it; the event says where the run went.
  void router.tabGone(tabId).then(
    (runTab) => emit({ type: 'event', kind: 'tab-closed', tab: tabId, runTab }),
    () => emit({ type: 'event', kind: 'tab-closed', tab: tabId }),
  );
});
chrome.webNavigation.onCommitted.addListener((details) => {
  if (details.frameId !== 0) return;
  debuggerTabs.onNavigated(details.tabId, details.url);
  emit({ type: 'event', kind: 'navigated', tab: details.tabId, url: details.url });
});
// A single-page app's route change (pushState, replaceState, a #fragment, a popstate between
// them) loads no document and commits nothing: the runner still has to hear the new address.
function navigatedWithinDocument(details: chrome.webNavigation.WebNavigationTransitionCallbackDetails): void {
  if (details.frameId !== 0) return;
  emit({ type: 'event', kind: 'navigated', tab: details.tabId, url: details.url, sameDocument: true });
}
chrome.webNavigation.onHistoryStateUpdated.addListener(navigatedWithinDocument);
chrome.webNavigation.onReferenceFragmentUpdated.addListener(navigatedWithinDocument);
chrome.runtime.onMessage.addListener((message: { aite?: number; event?: ExtensionEvent }, sender) => {
  // Only our own content scripts can reach this listener; pages cannot.
  if (message?.aite !== 1 || !message.event || sender.id !== chrome.runtime.id || sender.tab?.id === undefined) return;
  if (message.event.kind !== 'console') return;
  // A tab the debugger holds has its failed loads told by CDP's Log domain (DebuggerTabs), as
  // over the pipe: the relay's would be the same failure twice.
  if (message.event.error === 'resource' && debuggerTabs.attached.includes(sender.tab.id)) return;
  emit({ ...message.event, tab: sender.tab.id });
});

chrome.alarms.create('aite-keepalive', { periodInMinutes: 0.5 });
chrome.alarms.onAlarm.addListener(() => connection.connect());
connection.connect();
