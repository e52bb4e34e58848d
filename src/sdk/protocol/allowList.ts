// The run's allow list as both sides check it: the extension before every page command, the
// runner before every action it takes itself over the debugging pipe (keys, mouse, pictures,
// network idle). One rule, one place: a URL is allowed when its origin is one of the list's.

/**
 * The origins of an allow list, from its entries or from the extension's host permissions
 * (`http://127.0.0.1:4173/*`): each as `new URL(entry).origin`.
 * @internal
 */
export function allowedOrigins(entries: readonly string[]): string[] {
  return entries.map((entry) => {
    const bare = entry.replace(/\/\*$/, '');
    try {
      return new URL(bare).origin;
    } catch {
      return bare;
    }
  });
}

/** Whether `url`'s origin is one of `origins` (opaque origins, bad URLs and `undefined` never are). @internal */
export function isAllowed(url: string | undefined, origins: readonly string[]): boolean {
  if (!url) return false;
  try {
    const { origin } = new URL(url);
    return origin !== 'null' && origins.includes(origin);
  } catch {
    return false;
  }
}

/** The origin of `url` as a message names it: its origin, else the URL itself. @internal */
export function originOf(url: string): string {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? url : origin;
  } catch {
    return url;
  }
}
