import { RECONNECT_BACKOFF_MS } from '../../sdk/protocol/index.js';

/** The reconnect delays of the spec: 0.5 s, 1 s, 2 s, 4 s, 8 s, then every 8 s. */
export class Backoff {
  #attempt = 0;

  next(): number {
    const delay = RECONNECT_BACKOFF_MS[Math.min(this.#attempt, RECONNECT_BACKOFF_MS.length - 1)]!;
    this.#attempt += 1;
    return delay;
  }

  reset(): void {
    this.#attempt = 0;
  }
}
