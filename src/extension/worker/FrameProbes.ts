/** Which frame a probed iframe is: what its content script reported. */
export interface ProbedFrame {
  frameId: number;
  documentId: string | undefined;
}

interface Report extends ProbedFrame {
  tabId: number;
  at: number;
}

const KEEP_MS = 10_000;

/**
 * The frame probes' answers (content/frames.ts): a content script whose parent posted it a
 * nonce reports that nonce here, and Chrome says which tab, frame and document the report came
 * from. A report may arrive before the hop answer that asks for it, so reports are kept a while.
 */
export class FrameProbes {
  readonly #reports = new Map<string, Report>();
  readonly #waiters = new Set<() => void>();

  constructor() {
    chrome.runtime.onMessage.addListener((message: { aite?: number; frameProbe?: unknown }, sender) => {
      if (message?.aite !== 1 || typeof message.frameProbe !== 'string' || sender.id !== chrome.runtime.id) return;
      if (sender.tab?.id === undefined || sender.frameId === undefined) return;
      const now = Date.now();
      for (const [nonce, r] of this.#reports) if (now - r.at > KEEP_MS) this.#reports.delete(nonce);
      // The first report of a nonce wins; a second one is not believed.
      if (this.#reports.has(message.frameProbe)) return;
      this.#reports.set(message.frameProbe, { tabId: sender.tab.id, frameId: sender.frameId, documentId: sender.documentId, at: now });
      for (const wake of this.#waiters) wake();
    });
  }

  /** The frame that reported `nonce` in `tabId`, waiting until `until` (epoch ms); undefined if none did. */
  async wait(nonce: string, tabId: number, until: number): Promise<ProbedFrame | undefined> {
    for (;;) {
      const r = this.#reports.get(nonce);
      if (r && r.tabId === tabId) return { frameId: r.frameId, documentId: r.documentId };
      const left = until - Date.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          this.#waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.#waiters.add(wake);
      });
    }
  }
}
