import { allowedOrigins, isAllowed } from '../../sdk/protocol/index.js';

/**
 * The run's allow list, read from the manifest's host permissions (the launcher writes them
 * from the run's `allow`). The extension touches no page outside it; the rule is the protocol's
 * `isAllowed`, which the runner checks too for what it does over the debugging pipe.
 */
export class AllowList {
  readonly origins: readonly string[];

  constructor(hostPermissions: readonly string[]) {
    this.origins = allowedOrigins(hostPermissions);
  }

  allows(url: string | undefined): boolean {
    return isAllowed(url, this.origins);
  }

  describe(): string {
    return this.origins.join(', ');
  }
}

/** The origin of a tab's url, for messages (the url itself when it has none). */
export function originOf(url: string | undefined): string {
  try {
    return new URL(url ?? '').origin;
  } catch {
    return url ?? '(no url)';
  }
}
