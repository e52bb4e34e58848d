import { allowedOrigins, CommandFailure, isAllowed } from '../../sdk/protocol/index.js';

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

  /**
   * The `navigation` refusal of `doing` in the run's tab, which shows `url` outside the list: a
   * tab with no page yet (about:blank, before the first navigate or after reset()) is told to
   * navigate first, any other is told how to allow its origin.
   */
  refusal(url: string | undefined, doing: string, detail: Record<string, unknown> = {}): CommandFailure {
    const blank = !url || url === 'about:blank';
    return new CommandFailure(
      'navigation',
      blank
        ? `${doing} was not done: the run's tab shows no page yet (about:blank, before the first navigate or after reset()). Navigate to a page of the allow list (${this.describe()}) first.`
        : `${doing} was not done: the run's tab shows ${originOf(url)}, which is not in the run's allow list (${this.describe()}). Add that origin to \`allow\` to let aite work on it.`,
      { ...detail, url, allow: [...this.origins] },
    );
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
