import type { Reason } from './reasons.js';

/**
 * A command that ends in one of the protocol's failure reasons, in the extension: handlers in
 * the worker and in the page throw it, and it becomes the wire failure once (`toAnswer`).
 * Anything else thrown is a bug (`internal`). The runner's side of a failure is `AiteError`.
 */
export class CommandFailure extends Error {
  override readonly name = 'CommandFailure';

  constructor(
    readonly reason: Reason,
    message: string,
    readonly detail?: Record<string, unknown>,
    /** The re-sends the failed command took (a navigate whose page it loaded again). */
    readonly retries = 0,
  ) {
    super(message);
  }

  /** The failure answer of request `id`, with the re-sends it took. */
  toAnswer(id: number, retries = this.retries): { id: number; ok: false; reason: Reason; message: string; detail?: Record<string, unknown>; retries?: number } {
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
