import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { Bridge } from '../bridge/Bridge.js';
import { AiteError } from '../errors/AiteError.js';
import { ExtensionStage } from '../launch/ExtensionStage.js';
import { findChrome } from '../launch/findChrome.js';
import { launchChrome } from '../launch/launchChrome.js';
import { onProcessEnd } from '../launch/ProcessCleanup.js';
import { LockFile } from '../lock/LockFile.js';
import { DEFAULT_TIMEOUT_MS } from '../protocol/index.js';
import { Session } from './Session.js';

/**
 * Options of {@link launch}.
 *
 * @example
 * ```ts
 * import { launch, type LaunchOptions } from 'aite';
 *
 * const options: LaunchOptions = {
 *   allow: ['http://127.0.0.1:4173'],
 *   profile: 'ana',
 *   userDataDir: 'profiles/ana', // kept between runs: cookies, logins
 *   lockFile: 'aite.lock.json',
 *   timeoutMs: 10_000,
 * };
 * const session = await launch(options);
 * await session.close();
 * ```
 * @public
 */
export interface LaunchOptions {
  /** Origins the extension may touch (its host permissions), e.g. `["http://127.0.0.1:4173"]`. Required. */
  allow: string[];
  /** Profile name carried in hello; one bridge per profile. Default `default`. */
  profile?: string;
  /** Chrome executable; else `AITE_CHROME`, then the usual install paths. */
  chrome?: string;
  /** Chrome user data dir; default a fresh temp dir, removed by `close()`. */
  userDataDir?: string;
  /** Default true. */
  headless?: boolean;
  /** Path of the lock file; absent: nothing remembered. */
  lockFile?: string;
  /** Write repairs into the lock file (never silently otherwise). */
  updateLock?: boolean;
  /** Default `timeoutMs` of each command. Default 5000. */
  timeoutMs?: number;
  /** How long to wait for the extension to connect after Chrome starts. Default 20 000. */
  connectTimeoutMs?: number;
  /** Extra Chrome flags. */
  args?: string[];
  /** Keepalive timing of the bridge (defaults: ping every 15 s, 4410 after 30 s of silence). */
  keepAlive?: { pingIntervalMs?: number; pongTimeoutMs?: number };
}

const LaunchOptionsSchema = z.strictObject({
  allow: z.array(z.string()).min(1, '`allow` must list at least one origin'),
  profile: z.string().min(1).max(200).optional(),
  chrome: z.string().min(1).optional(),
  userDataDir: z.string().min(1).optional(),
  headless: z.boolean().optional(),
  lockFile: z.string().min(1).optional(),
  updateLock: z.boolean().optional(),
  timeoutMs: z.number().int().positive().max(600_000).optional(),
  connectTimeoutMs: z.number().int().positive().optional(),
  args: z.array(z.string()).optional(),
  keepAlive: z
    .strictObject({ pingIntervalMs: z.number().int().positive().optional(), pongTimeoutMs: z.number().int().positive().optional() })
    .optional(),
});

/** Checks options at the door so a typo is an error that names it, not a silent default. */
export function parseOptions<T>(schema: z.ZodType<T>, options: unknown, what: string): T {
  const parsed = schema.safeParse(options);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new AiteError('unsupported', `${what}: ${issue?.path.join('.') || 'options'}: ${issue?.message}.`);
}

/**
 * Starts a bridge and a Chrome with the aite extension over a private debugging pipe, and
 * resolves once the extension has connected.
 *
 * @example
 * ```ts
 * const session = await launch({ allow: ['http://127.0.0.1:4173'] });
 * await session.tab.navigate('http://127.0.0.1:4173/');
 * await session.click({ text: 'Send' });
 * await session.close();
 * ```
 * @public
 */
export async function launch(options: LaunchOptions): Promise<Session> {
  const opts = parseOptions(LaunchOptionsSchema, options, 'launch()');
  const executablePath = findChrome(opts.chrome);
  const lock = opts.lockFile ? await LockFile.open(opts.lockFile, { updateLock: opts.updateLock }) : undefined;
  const profile = opts.profile ?? 'default';
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const tempDir = opts.userDataDir ? undefined : await mkdtemp(join(tmpdir(), 'aite-profile-'));
  const userDataDir = opts.userDataDir ?? tempDir!;
  let bridge: Bridge | undefined;
  let stage: ExtensionStage | undefined;
  let browserPid: number | undefined;

  // The synchronous half runs if the process is interrupted; close() runs the full one.
  const unregister = onProcessEnd(() => {
    if (stage) rmSync(stage.bridgeConfigPath, { force: true });
    if (browserPid) killQuietly(browserPid);
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  });
  const cleanup = async (browserClose?: () => Promise<void>): Promise<void> => {
    await stage?.removeBridgeConfig();
    await browserClose?.().catch(() => (browserPid ? killQuietly(browserPid) : undefined));
    await bridge?.close();
    if (tempDir) await rm(tempDir, { recursive: true, force: true, maxRetries: 3 });
    unregister();
  };

  try {
    bridge = await Bridge.start({ profile, defaultTimeoutMs: timeoutMs, ...opts.keepAlive });
    stage = await ExtensionStage.create({ userDataDir, allow: opts.allow });
    await stage.writeBridgeConfig({ url: bridge.url, token: bridge.token, profile });
    const connectTimeoutMs = opts.connectTimeoutMs ?? 20_000;
    const connected = bridge.waitForExtension(connectTimeoutMs);
    connected.catch(() => undefined);
    const browser = await launchChrome({
      executablePath,
      userDataDir,
      extensionDir: stage.dir,
      headless: opts.headless ?? true,
      args: opts.args,
    });
    browserPid = browser.process()?.pid;
    try {
      await connected;
    } catch {
      await cleanup(() => browser.close());
      throw new AiteError(
        'timeout',
        `Chrome (${executablePath}) started, but the aite extension did not connect within ${connectTimeoutMs} ms. Run \`aite doctor\` to see why.`,
      );
    }
    const session = new Session({
      bridge,
      browser,
      profile,
      timeoutMs,
      lock,
      close: () => cleanup(() => browser.close()),
    });
    browser.on('disconnected', () => void stage?.removeBridgeConfig());
    return session;
  } catch (error) {
    if (error instanceof AiteError && error.reason === 'timeout') throw error;
    await cleanup();
    throw error;
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
