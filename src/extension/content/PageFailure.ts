import type { Reason } from '../../sdk/protocol/index.js';

/**
 * A command that ends in one of the protocol's failure reasons. Handlers throw it;
 * `handlePageRequest` turns it into the wire failure. Anything else thrown is a bug (`internal`).
 */
export class PageFailure extends Error {
  override readonly name = 'PageFailure';

  constructor(
    readonly reason: Reason,
    message: string,
    readonly detail?: Record<string, unknown>,
  ) {
    super(message);
  }
}
