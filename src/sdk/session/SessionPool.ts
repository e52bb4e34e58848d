import { launch as launchSession } from './launch.js';
import type { LaunchOptions } from './options.js';
import type { Session } from './Session.js';

interface Idle {
  session: Session;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Sessions kept warm between their users in one process: a Chrome (and its extension's worker)
 * is launched once per set of launch options and {@link Session.reset | reset} for each next
 * user, instead of a relaunch. A session nobody takes back within `lingerMs` is closed, so a
 * process whose work is done still ends (and ends with nothing left behind); with `lingerMs:
 * Infinity` idle sessions wait for {@link SessionPool.closeAll} (a suite that knows its end).
 * @internal
 */
export class SessionPool {
  readonly #idle = new Map<string, Idle[]>();
  readonly #lingerMs: number;
  readonly #launch: (options: LaunchOptions) => Promise<Session>;

  constructor(options: { lingerMs?: number; launch?: (options: LaunchOptions) => Promise<Session> } = {}) {
    this.#lingerMs = options.lingerMs ?? 1_000;
    this.#launch = options.launch ?? launchSession;
  }

  /** A warm session launched with the same options, reset; else a new one. */
  async acquire(options: LaunchOptions): Promise<Session> {
    return (await this.take(options)).session;
  }

  /** As {@link SessionPool.acquire}, and whether the session is a warm one (reset, not launched). */
  async take(options: LaunchOptions): Promise<{ session: Session; reused: boolean }> {
    const key = keyOf(options);
    for (let idle = this.#take(key); idle; idle = this.#take(key)) {
      try {
        await idle.reset();
        return { session: idle, reused: true };
      } catch {
        // A Chrome that died or cannot be reset is not handed out; a fresh one is.
        await idle.close().catch(() => undefined);
      }
    }
    return { session: await this.#launch(options), reused: false };
  }

  /** Hands a session back: its lock file is saved, and it waits `lingerMs` for its next user. */
  async release(session: Session, options: LaunchOptions): Promise<void> {
    await session.lock?.save();
    const key = keyOf(options);
    const entry: Idle = { session, timer: undefined };
    if (Number.isFinite(this.#lingerMs)) {
      entry.timer = setTimeout(() => {
        this.#remove(key, entry);
        void session.close().catch(() => undefined);
      }, this.#lingerMs);
    }
    const list = this.#idle.get(key) ?? [];
    list.push(entry);
    this.#idle.set(key, list);
  }

  /** Closes every idle session now. */
  async closeAll(): Promise<void> {
    const all = [...this.#idle.values()].flat();
    this.#idle.clear();
    for (const entry of all) clearTimeout(entry.timer);
    await Promise.allSettled(all.map((entry) => entry.session.close()));
  }

  #take(key: string): Session | undefined {
    const entry = this.#idle.get(key)?.pop();
    if (entry) clearTimeout(entry.timer);
    return entry?.session;
  }

  #remove(key: string, entry: Idle): void {
    const list = this.#idle.get(key);
    if (list) this.#idle.set(key, list.filter((e) => e !== entry));
  }
}

/** The same options, whatever their key order, are the same Chrome. */
function keyOf(options: LaunchOptions): string {
  return JSON.stringify(options, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  );
}

const GLOBAL = Symbol.for('aite.warmPool');

/**
 * The process's pool, shared by every copy of the SDK a test runner loads (a runner that
 * re-evaluates modules per test file still shares one global object).
 * @internal
 */
export function warmPool(): SessionPool {
  const holder = globalThis as { [GLOBAL]?: SessionPool };
  holder[GLOBAL] ??= new SessionPool();
  return holder[GLOBAL];
}
