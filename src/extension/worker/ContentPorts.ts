import { PAGE_PORT_NAME, type PagePortAnswer, type PagePortRequest } from '../PagePort.js';

interface Waiter {
  resolve(answer: unknown): void;
  reject(error: Error): void;
  /** The page said the request arrived. */
  received?: true;
}

/**
 * A request whose document went away before it said the request arrived (the worker posted it
 * to a page that had just been replaced, its commit event still on the way here). No document
 * ran it, so it may go to the new one as a first delivery, as one that found no content script
 * does, not as a re-send.
 */
export class NotDelivered extends Error {}

interface Link {
  port: chrome.runtime.Port;
  seq: number;
  waiting: Map<number, Waiter>;
}

/**
 * One port per frame of a tab to the content script of that frame's document (frameId 0: the
 * top document; others only for cross-site iframes a target reaches). A port belongs to one
 * document: it is dropped when its frame commits a new document (a new top document drops the
 * tab's every port), so no request is posted into a page that is going away, and when Chrome
 * closes it (its frame was removed), and every request still waiting on it then fails
 * with Chrome's reason, exactly as a `tabs.sendMessage` would ("Receiving end does not exist"
 * when the page has no content script; PageChannel injects it and asks again).
 */
export class ContentPorts {
  readonly #links = new Map<string, Link>();

  constructor() {
    chrome.webNavigation.onCommitted.addListener((details) => {
      if (details.frameId === 0) this.#dropTab(details.tabId, 'the page navigated');
      else this.#drop(keyOf(details.tabId, details.frameId), 'the frame navigated');
    });
    chrome.tabs.onRemoved.addListener((tabId) => this.#dropTab(tabId, 'the tab closed'));
  }

  request(tabId: number, request: unknown, frameId = 0): Promise<unknown> {
    const key = keyOf(tabId, frameId);
    const link = this.#links.get(key) ?? this.#connect(tabId, frameId);
    const seq = ++link.seq;
    return new Promise((resolve, reject) => {
      link.waiting.set(seq, { resolve, reject });
      try {
        link.port.postMessage({ aite: 1, seq, request } satisfies PagePortRequest);
      } catch (error) {
        this.#close(key, link, error instanceof Error ? error.message : String(error));
      }
    });
  }

  #connect(tabId: number, frameId: number): Link {
    const key = keyOf(tabId, frameId);
    const port = chrome.tabs.connect(tabId, { name: PAGE_PORT_NAME, frameId });
    const link: Link = { port, seq: 0, waiting: new Map() };
    port.onMessage.addListener((message: PagePortAnswer) => {
      const waiter = link.waiting.get(message?.seq);
      if (!waiter) return;
      if ('received' in message) {
        waiter.received = true;
        return;
      }
      link.waiting.delete(message.seq);
      waiter.resolve(message.answer);
    });
    port.onDisconnect.addListener(() => {
      // Reading lastError here also keeps Chrome from logging it as unchecked.
      const why = chrome.runtime.lastError?.message ?? 'the page closed its channel';
      this.#close(key, link, why);
    });
    this.#links.set(key, link);
    return link;
  }

  #dropTab(tabId: number, why: string): void {
    for (const key of [...this.#links.keys()]) if (key.startsWith(`${tabId}/`)) this.#drop(key, why);
  }

  #drop(key: string, why: string): void {
    const link = this.#links.get(key);
    if (link) this.#close(key, link, why);
  }

  #close(key: string, link: Link, why: string): void {
    if (this.#links.get(key) === link) this.#links.delete(key);
    try {
      link.port.disconnect();
    } catch {
      // already closed
    }
    const error = new Error(why);
    for (const waiter of link.waiting.values()) waiter.reject(waiter.received ? error : new NotDelivered(why));
    link.waiting.clear();
  }
}

function keyOf(tabId: number, frameId: number): string {
  return `${tabId}/${frameId}`;
}
