import type { Command, Request } from '../protocol/index.js';
import { AiteError } from '../errors/AiteError.js';

/** One request the bridge sent (or will send) and has no answer for yet. */
export interface PendingRequest {
  readonly id: number;
  readonly cmd: Command;
  /** What goes on the wire (a re-send after a navigation carries what is left of its timeout). */
  request: Request;
  /** When its answer is due (performance.now() ms), and how much of that is the grace after its own timeout. */
  readonly due: { at: number; graceMs: number };
  /** Re-sends after reconnects, added to the answer's own count. */
  resends: number;
  /** How many times it went out. */
  attempts: number;
  /** Whether the request went out on the current connection. */
  sent: boolean;
  /** On its way over the bridge's shortcut (not the socket): not sent again on a reconnect. */
  shortcut?: boolean;
  /** An act whose connection closed before its answer: waiting to learn whether it dispatched. */
  lost?: boolean;
  readonly resolve: (answer: Record<string, unknown>) => void;
  readonly reject: (error: AiteError) => void;
}

/**
 * The one registry of requests in flight. Each entry has a label and a deadline; closing the
 * bridge clears them all with one error, so nothing waits forever.
 */
export class PendingRequests {
  readonly #entries = new Map<number, PendingRequest & { timer: NodeJS.Timeout }>();
  #nextId = 1;

  nextId(): number {
    return this.#nextId++;
  }

  add(
    entry: Omit<PendingRequest, 'resolve' | 'reject'>,
    timeoutMs: number,
    onTimeout: (entry: PendingRequest) => AiteError,
  ): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const pending = this.#entries.get(entry.id)!;
        this.#entries.delete(entry.id);
        reject(onTimeout(pending));
      }, timeoutMs);
      timer.unref?.();
      this.#entries.set(entry.id, { ...entry, resolve, reject, timer });
    });
  }

  /** Gives an entry a new deadline (and a new error for it), counted from now. */
  rearm(id: number, timeoutMs: number, onTimeout: (entry: PendingRequest) => AiteError): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      this.#entries.delete(id);
      entry.reject(onTimeout(entry));
    }, timeoutMs);
    entry.timer.unref?.();
  }

  get(id: number): PendingRequest | undefined {
    return this.#entries.get(id);
  }

  /** Settles one entry; false when the id is unknown (late, duplicate or forged answer). */
  settle(id: number, outcome: { answer: Record<string, unknown> } | { error: AiteError }): boolean {
    const entry = this.#entries.get(id);
    if (!entry) return false;
    clearTimeout(entry.timer);
    this.#entries.delete(id);
    if ('answer' in outcome) entry.resolve(outcome.answer);
    else entry.reject(outcome.error);
    return true;
  }

  all(): PendingRequest[] {
    return [...this.#entries.values()];
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Rejects everything still waiting. */
  clear(error: (entry: PendingRequest) => AiteError): void {
    for (const entry of [...this.#entries.values()]) this.settle(entry.id, { error: error(entry) });
  }
}
