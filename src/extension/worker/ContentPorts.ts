import { PAGE_PORT_NAME, type PagePortAnswer, type PagePortRequest } from '../PagePort.js';

interface Waiter {
  resolve(answer: unknown): void;
  reject(error: Error): void;
}

interface Link {
  port: chrome.runtime.Port;
  seq: number;
  waiting: Map<number, Waiter>;
}

/**
 * One port per tab to the content script of its top document. A port belongs to one document:
 * it is dropped when the tab commits a new document (so no request is posted into a page that
 * is going away) and when Chrome closes it, and every request still waiting on it then fails
 * with Chrome's reason, exactly as a `tabs.sendMessage` would ("Receiving end does not exist"
 * when the page has no content script; PageChannel injects it and asks again).
 */
export class ContentPorts {
  readonly #links = new Map<number, Link>();

  constructor() {
    chrome.webNavigation.onCommitted.addListener((details) => {
      if (details.frameId === 0) this.#drop(details.tabId, 'the page navigated');
    });
    chrome.tabs.onRemoved.addListener((tabId) => this.#drop(tabId, 'the tab closed'));
  }

  request(tabId: number, request: unknown): Promise<unknown> {
    const link = this.#links.get(tabId) ?? this.#connect(tabId);
    const seq = ++link.seq;
    return new Promise((resolve, reject) => {
      link.waiting.set(seq, { resolve, reject });
      try {
        link.port.postMessage({ aite: 1, seq, request } satisfies PagePortRequest);
      } catch (error) {
        this.#close(tabId, link, error instanceof Error ? error.message : String(error));
      }
    });
  }

  #connect(tabId: number): Link {
    const port = chrome.tabs.connect(tabId, { name: PAGE_PORT_NAME, frameId: 0 });
    const link: Link = { port, seq: 0, waiting: new Map() };
    port.onMessage.addListener((message: PagePortAnswer) => {
      const waiter = link.waiting.get(message?.seq);
      if (!waiter) return;
      link.waiting.delete(message.seq);
      waiter.resolve(message.answer);
    });
    port.onDisconnect.addListener(() => {
      // Reading lastError here also keeps Chrome from logging it as unchecked.
      const why = chrome.runtime.lastError?.message ?? 'the page closed its channel';
      this.#close(tabId, link, why);
    });
    this.#links.set(tabId, link);
    return link;
  }

  #drop(tabId: number, why: string): void {
    const link = this.#links.get(tabId);
    if (link) this.#close(tabId, link, why);
  }

  #close(tabId: number, link: Link, why: string): void {
    if (this.#links.get(tabId) === link) this.#links.delete(tabId);
    try {
      link.port.disconnect();
    } catch {
      // already closed
    }
    const error = new Error(why);
    for (const waiter of link.waiting.values()) waiter.reject(error);
    link.waiting.clear();
  }
}
