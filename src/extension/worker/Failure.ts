import type { Reason } from '../../sdk/protocol/index.js';

/** A failure the worker answers with: thrown inside a handler, turned into the wire form once. */
export class Failure extends Error {
  constructor(
    readonly reason: Reason,
    message: string,
    readonly detail?: Record<string, unknown>,
  ) {
    super(message);
  }

  toAnswer(id: number, retries = 0): Record<string, unknown> {
    return {
      id,
      ok: false,
      reason: this.reason,
      message: this.message,
      ...(this.detail ? { detail: this.detail } : {}),
      ...(retries > 0 ? { retries } : {}),
    };
  }
}
