import type { Session } from 'aite';

/**
 * The session an MCP connection uses: started by the first tool call that needs a browser, and
 * closed with the connection. Tool calls run one at a time, in the order they came: a Session runs
 * one step at a time, and an agent that sends two at once must not interleave their input.
 */
export class LazySession {
  readonly #start: () => Promise<Session>;
  #session: Promise<Session> | undefined;
  #current: Session | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #closed: Promise<void> | undefined;

  constructor(start: () => Promise<Session>) {
    this.#start = start;
  }

  /** Whether a browser was started (or is starting). */
  get started(): boolean {
    return this.#session !== undefined;
  }

  /**
   * Runs `work` after every call before it; `work` gets the session when it asks for it. A Chrome
   * that exited since (the user closed the window, it crashed) is cleaned up first, and the next
   * session is a new Chrome: `work` is told so in `restarted`, to say it to the agent.
   */
  run<T>(work: (session: () => Promise<Session>, restarted: string | undefined) => Promise<T>): Promise<T> {
    const next = this.#queue.then(async () => {
      if (this.#closed) throw new Error('The connection is closing; nothing more is run.');
      return work(() => this.#get(), await this.#dropExited());
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }

  #get(): Promise<Session> {
    if (!this.#session) {
      const starting = this.#start();
      this.#session = starting;
      starting.then((session) => (this.#current = session)).catch(() => undefined);
      // A launch that failed may be tried again by the next call (after the user fixed Chrome, say).
      starting.catch(() => {
        if (this.#session === starting) this.#session = undefined;
      });
    }
    return this.#session;
  }

  async #dropExited(): Promise<string | undefined> {
    const gone = this.#current;
    const chrome = gone?.browser?.process();
    // The process's end is known as soon as Node has reaped it; the pipe's end may come later.
    const exited = gone?.browser && (!gone.browser.connected || (chrome && (chrome.exitCode !== null || chrome.signalCode !== null)));
    if (!gone || !exited) return undefined;
    this.#current = undefined;
    this.#session = undefined;
    await gone.close().catch(() => undefined);
    return 'Chrome had exited since the last call (closed or crashed); this call starts a new one, without the pages and, for a temporary profile, the logins of the old one.';
  }

  /** Closes the browser (after a launch in progress, if any); idempotent. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      const session = await this.#session?.catch(() => undefined);
      await session?.close();
    })();
    return this.#closed;
  }
}
