import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { open, readFile, rm, stat } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { AiteError } from '../errors/AiteError.js';
import { processLives } from '../system/processState.js';

/** What a holder writes into the mutex file, so another process can tell whether it is alive. */
interface Holder {
  pid: number;
  host: string;
  nonce: string;
}

/** Options of {@link FileMutex.hold}. */
export interface FileMutexOptions {
  /** How long to wait for another holder before giving up. Default 15 000 ms. */
  timeoutMs?: number;
  /** A holder this old is presumed dead even when its process cannot be checked (another host). Default 30 000 ms. */
  staleMs?: number;
}

/**
 * A lock between processes over one file: created with O_EXCL (`wx`), so exactly one creator
 * wins, and removed by its holder. Test-runner workers that share a lock file hold it for the
 * few milliseconds of a read-merge-write.
 *
 * A holder that died (its process is gone on this host, or its file is older than `staleMs`)
 * is taken over. The takeover itself goes through a second O_EXCL file, and removes the holder's
 * file only if it still holds the same nonce, so two waiters that both find it stale never remove
 * a live holder's fresh lock.
 */
export class FileMutex {
  private constructor(
    readonly path: string,
    readonly nonce: string,
  ) {}

  /** Runs `body` while holding the lock at `path`, and releases it whatever `body` does. */
  static async hold<T>(path: string, body: () => Promise<T>, options: FileMutexOptions = {}): Promise<T> {
    const mutex = await FileMutex.acquire(path, options);
    try {
      return await body();
    } finally {
      await mutex.release();
    }
  }

  static async acquire(path: string, options: FileMutexOptions = {}): Promise<FileMutex> {
    const timeoutMs = options.timeoutMs ?? 15_000;
    const staleMs = options.staleMs ?? 30_000;
    const deadline = Date.now() + timeoutMs;
    const nonce = randomBytes(8).toString('hex');
    const holder: Holder = { pid: process.pid, host: hostname(), nonce };
    for (let attempt = 0; ; attempt += 1) {
      if (await createExclusive(path, JSON.stringify(holder))) return new FileMutex(path, nonce);
      const seen = await readHolder(path);
      if (seen && (await isStale(path, seen, staleMs)) && (await takeOver(path, seen.text, staleMs))) continue;
      if (Date.now() >= deadline) {
        throw new AiteError(
          'timeout',
          `Another process has held ${path} for more than ${timeoutMs} ms (${seen?.text ?? 'unreadable'}). If no aite run is writing the lock file, delete ${path}.`,
        );
      }
      // Holders keep it for milliseconds; a little jitter keeps waiters from moving in step.
      await delay(Math.min(5 + attempt * 5, 50) + Math.random() * 10);
    }
  }

  /** Removes the lock file if it is still this holder's (a takeover may have removed it). */
  async release(): Promise<void> {
    const seen = await readHolder(this.path);
    if (seen?.holder?.nonce === this.nonce) await rm(this.path, { force: true });
  }
}

async function createExclusive(path: string, text: string): Promise<boolean> {
  try {
    const handle = await open(path, 'wx', 0o600);
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function readHolder(path: string): Promise<{ text: string; holder: Holder | undefined } | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return { text, holder: JSON.parse(text) as Holder };
  } catch {
    // Created but not written yet, or written by something else: judged by its age alone.
    return { text, holder: undefined };
  }
}

async function isStale(path: string, seen: { holder: Holder | undefined }, staleMs: number): Promise<boolean> {
  const { holder } = seen;
  if (holder && holder.host === hostname() && !processLives(holder.pid)) return true;
  try {
    return Date.now() - (await stat(path)).mtimeMs > staleMs;
  } catch {
    return false;
  }
}

/** Removes a dead holder's file; answers whether it did. */
async function takeOver(path: string, staleText: string, staleMs: number): Promise<boolean> {
  const guard = `${path}.takeover`;
  if (!(await createExclusive(guard, String(process.pid)))) {
    // Another waiter is taking over; its guard is only left behind if it died in those few lines.
    const age = await stat(guard).then((s) => Date.now() - s.mtimeMs, () => 0);
    if (age > staleMs) await rm(guard, { force: true });
    return false;
  }
  try {
    const now = await readHolder(path);
    if (now?.text !== staleText) return false;
    await rm(path, { force: true });
    return true;
  } finally {
    await rm(guard, { force: true });
  }
}
