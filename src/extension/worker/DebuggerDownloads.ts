import { redactUrl, type ExtensionEvent } from '../../sdk/protocol/index.js';

/** Downloads a run tab began whose file is not known yet, at most. */
const PENDING_MAX = 20;

interface Pending {
  tab: number;
  guid: string;
  url: string;
  /** The chrome.downloads item it is, once paired. */
  item?: number;
}

/**
 * Attach mode's downloads: chrome.debugger's `Page.downloadWillBegin` says which run tab began
 * one (chrome.downloads does not say which tab a download came from), and chrome.downloads where
 * Chrome saved the file once it is complete (CDP does not say, and the extension's debugger may
 * not choose the folder: `Page.setDownloadBehavior` is refused to extensions). The two are paired
 * by address. Without the "downloads" permission a completed download has no path.
 */
export class DebuggerDownloads {
  readonly #pending: Pending[] = [];
  /** Items created that no run tab's download claimed yet (their willBegin may come after). */
  readonly #unclaimed: chrome.downloads.DownloadItem[] = [];

  constructor(private readonly emit: (event: ExtensionEvent) => void) {
    if (!chrome.downloads) return;
    chrome.downloads.onCreated.addListener((item) => {
      const pending = this.#pending.find((p) => p.item === undefined && (p.url === item.url || p.url === item.finalUrl));
      if (!pending) {
        this.#unclaimed.push(item);
        if (this.#unclaimed.length > PENDING_MAX) this.#unclaimed.shift();
        return;
      }
      pending.item = item.id;
      if (item.state === 'complete') void this.#completed(pending);
    });
    chrome.downloads.onChanged.addListener((delta) => {
      const pending = this.#pending.find((p) => p.item === delta.id);
      if (!pending) return;
      if (delta.state?.current === 'complete') void this.#completed(pending);
      if (delta.state?.current === 'interrupted') this.#end(pending, { state: 'canceled' });
    });
  }

  /** A run tab's debugger event (`Page.download*`). */
  onDebuggerEvent(tab: number, method: string, params: Record<string, unknown>): void {
    if (method === 'Page.downloadWillBegin') {
      const { guid, url, suggestedFilename } = params as { guid: string; url: string; suggestedFilename: string };
      const pending: Pending = { tab, guid, url };
      if (this.#pending.push(pending) > PENDING_MAX) this.#pending.shift();
      this.emit({ type: 'event', kind: 'download', tab, guid, state: 'began', url: redactUrl(url), suggestedFilename: suggestedFilename.slice(0, 1_000) });
      const at = this.#unclaimed.findIndex((item) => item.url === url || item.finalUrl === url);
      if (at >= 0) {
        const [item] = this.#unclaimed.splice(at, 1);
        pending.item = item!.id;
        // It may have finished before its willBegin was heard.
        void chrome.downloads.search({ id: item!.id }).then(([now]) => {
          if (now?.state === 'complete') void this.#completed(pending);
        });
      }
      return;
    }
    if (method !== 'Page.downloadProgress') return;
    const { guid, state, receivedBytes } = params as { guid: string; state: string; receivedBytes: number };
    const pending = this.#pending.find((p) => p.guid === guid);
    if (!pending) return;
    if (state === 'canceled') this.#end(pending, { state: 'canceled' });
    // Without chrome.downloads nobody can say where the file went.
    else if (state === 'completed' && !chrome.downloads) this.#end(pending, { state: 'completed', bytes: receivedBytes });
  }

  async #completed(pending: Pending): Promise<void> {
    const [item] = await chrome.downloads.search({ id: pending.item! }).catch(() => []);
    if (!item || !this.#pending.includes(pending)) return;
    this.#end(pending, { state: 'completed', path: item.filename, bytes: Math.max(0, item.fileSize) });
  }

  #end(pending: Pending, how: { state: 'completed' | 'canceled'; path?: string; bytes?: number }): void {
    const at = this.#pending.indexOf(pending);
    if (at < 0) return;
    this.#pending.splice(at, 1);
    this.emit({ type: 'event', kind: 'download', tab: pending.tab, guid: pending.guid, ...how });
  }
}
