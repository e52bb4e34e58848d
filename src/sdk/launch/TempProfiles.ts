import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processLives } from '../system/processState.js';
import { profileOwner } from './ChromeSingleton.js';

/**
 * The temp profiles of runs that named none (`aite-profile-*` in the temp folder). A run removes
 * its own when it ends, however it ends, except when it is killed with SIGKILL (an agent's MCP
 * client stopping its server, an OOM killer): nothing runs then. So each temp profile names the
 * process that made it, and a launch removes those whose process and Chrome are both gone.
 */

const PREFIX = 'aite-profile-';
/** The file in a temp profile that names the process it belongs to. */
const OWNER_FILE = 'aite-owner.json';

/** Makes a temp profile owned by this process. */
export async function createTempProfile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), PREFIX));
  writeFileSync(join(dir, OWNER_FILE), JSON.stringify({ pid: process.pid }));
  return dir;
}

/**
 * Removes the temp profiles whose process is gone and that no live Chrome holds, and answers
 * their paths. A folder that names no owner (still being made, or not aite's) is left alone, as
 * is one whose owner is another user's process (it lives: `kill(pid, 0)` answers EPERM).
 */
export async function removeOrphanedTempProfiles(): Promise<string[]> {
  const root = tmpdir();
  const names = await readdir(root).catch(() => [] as string[]);
  const orphans = names.filter((name) => name.startsWith(PREFIX)).map((name) => join(root, name)).filter(orphaned);
  await Promise.all(orphans.map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined)));
  return orphans;
}

function orphaned(dir: string): boolean {
  const owner = ownerOf(dir);
  return owner !== undefined && owner !== process.pid && !processLives(owner) && profileOwner(dir) === undefined;
}

function ownerOf(dir: string): number | undefined {
  try {
    const { pid } = JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8')) as { pid?: unknown };
    return Number.isInteger(pid) && (pid as number) > 0 ? (pid as number) : undefined;
  } catch {
    return undefined;
  }
}
