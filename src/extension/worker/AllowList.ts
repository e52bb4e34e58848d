/**
 * The run's allow list, read from the manifest's host permissions (the launcher writes them
 * from the run's `allow`). The extension touches no page outside it.
 */
export class AllowList {
  readonly origins: readonly string[];

  constructor(hostPermissions: readonly string[]) {
    this.origins = hostPermissions.map((pattern) => pattern.replace(/\/\*$/, ''));
  }

  allows(url: string | undefined): boolean {
    if (!url) return false;
    try {
      const { origin } = new URL(url);
      return this.origins.includes(origin);
    } catch {
      return false;
    }
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
