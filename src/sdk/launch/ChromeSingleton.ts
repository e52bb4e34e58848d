import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { processLives } from '../system/processState.js';

/**
 * What Chrome's process singleton leaves in a user data dir: `SingletonLock` links to
 * `<host>-<pid>` of the Chrome that owns the profile, and `SingletonSocket` links into a temp dir
 * of Chrome's own (`org.chromium.Chromium.*`, `com.google.Chrome.*`) that Chrome removes only
 * when it exits normally.
 */

/** The pid of a live Chrome on this machine that holds `userDataDir`, if one does. */
export function profileOwner(userDataDir: string): number | undefined {
  const target = link(join(userDataDir, 'SingletonLock'));
  const match = target ? /^(.*)-(\d+)$/.exec(target) : null;
  if (!match || match[1] !== hostname()) return undefined;
  const pid = Number(match[2]);
  // A zombie (exited, not yet reaped) holds no profile: Chrome takes its lock as stale.
  return processLives(pid) ? pid : undefined;
}

/**
 * The holder of `userDataDir` once it had `waitMs` to let go: a Chrome the last run left shutting
 * down (a script that died asks its Chrome to end cleanly, so the profile keeps its cookies)
 * lets go within a second or two; a Chrome the user runs on it does not.
 */
export async function profileOwnerAfter(userDataDir: string, waitMs: number): Promise<number | undefined> {
  const end = Date.now() + waitMs;
  for (;;) {
    const owner = profileOwner(userDataDir);
    if (owner === undefined || Date.now() >= end) return owner;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Chrome's own temp dir for this profile's singleton socket, if its link is there. */
export function singletonTempDir(userDataDir: string): string | undefined {
  const target = link(join(userDataDir, 'SingletonSocket'));
  if (!target) return undefined;
  const dir = dirname(target);
  // Only a dir of the shape Chrome makes: never remove anything else a link might point at.
  return /^(org\.chromium\.Chromium|com\.google\.Chrome(\.\w+)?)\.\w+$/.test(basename(dir)) ? dir : undefined;
}

function link(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}
