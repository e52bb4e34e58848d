import type { Session } from 'aite';

/**
 * The session an MCP connection uses: started by the first tool call that needs a browser, and
 * closed with the connection. Tool calls run one at a time, in the order they came: a Session runs
 * one step at a time, and an agent that sends two at once must not interleave their input.
 */
export class LazySession {
  readonly #start: () => Promise<Session>;
  #session: Promise<Session> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #closed: Promise<void> | undefined;

  constructor(start: () => Promise<Session>) {
    this.#start = start;
  }

  /** Whether a browser was started (or is starting). */
  get started(): boolean {
    return this.#session !== undefined;
  }

  /** Runs `work` after every call before it; `work` gets the session when it asks for it. */
  run<T>(work: (session: () => Promise<Session>) => Promise<T>): Promise<T> {
    const next = this.#queue.then(() => {
      if (this.#closed) throw new Error('The connection is closing; nothing more is run.');
      return work(() => this.#get());
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }

  #get(): Promise<Session> {
    if (!this.#session) {
      const starting = this.#start();
      this.#session = starting;
      // A launch that failed may be tried again by the next call (after the user fixed Chrome, say).
      starting.catch(() => {
        if (this.#session === starting) this.#session = undefined;
      });
    }
    return this.#session;
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
