import type { ChildProcess } from 'node:child_process';
import { channel } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { Bridge } from '../bridge/Bridge.js';
import { AiteError } from '../errors/AiteError.js';
import { parseOptions } from '../errors/parseOptions.js';
import { ExtensionStage } from '../launch/ExtensionStage.js';
import { findChrome } from '../launch/findChrome.js';
import { singletonTempDir } from '../launch/ChromeSingleton.js';
import { launchChrome } from '../launch/launchChrome.js';
import { endGracefully, endGroup, killGroup } from '../launch/processGroup.js';
import { onProcessEnd } from '../launch/ProcessCleanup.js';
import { createTempProfile, removeOrphanedTempProfiles } from '../launch/TempProfiles.js';
import { LockFile } from '../lock/LockFile.js';
import { allowedOrigins, DEFAULT_TIMEOUT_MS, withTimeout } from '../protocol/index.js';
import { LaunchOptionsSchema, type BrowserPermission, type LaunchOptions } from './options.js';
import { Session } from './Session.js';

/** How long a Chrome killed while it started may take to exit, before its dirs are removed again. */
const STARTING_CHROME_EXIT_MS = 500;
/** How long the Chrome of a profile the user named may take to end cleanly when the process ends without close(). */
const KEPT_PROFILE_EXIT_MS = 3_000;
/** How long close() waits for Chrome's helpers to be gone before it removes the temp profile anyway. */
const CHROME_GROUP_EXIT_MS = 3_000;

/**
 * The `node:diagnostics_channel` name on which `launch()` says where it is, for whoever times its
 * phases (the bench's `--profile-launch` does): `{ phase: 'staged' }` once the bridge listens and
 * the extension is staged, `{ phase: 'chrome', browser }` once Chrome answers on its pipe,
 * `{ phase: 'connected' }` once the extension has said hello. Nothing is published without a
 * subscriber.
 * @internal
 */
export const LAUNCH_PHASES_CHANNEL = 'aite:launch';
const phases = channel(LAUNCH_PHASES_CHANNEL);

/**
 * Starts a bridge and a Chrome with the aite extension over a private debugging pipe, and
 * resolves once the extension has connected.
 *
 * @throws {@link UsageError} `invalid` when an option is wrong (named, with the field meant);
 * {@link AiteError} `timeout` when the extension does not connect in `connectTimeoutMs`
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
  // What runs killed with SIGKILL left goes while this one starts.
  const orphansRemoved = removeOrphanedTempProfiles();
  const tempDir = opts.userDataDir ? undefined : await createTempProfile();
  const userDataDir = opts.userDataDir ?? tempDir!;
  let bridge: Bridge | undefined;
  let stage: ExtensionStage | undefined;
  let browserPid: number | undefined;
  let browserProcess: ChildProcess | undefined;
  let closeBrowser: (() => Promise<void>) | undefined;
  // Read once Chrome answers: a Chrome ending on a signal sent to the whole group may unlink its
  // socket before it removes the dir, and is killed before it does.
  let chromiumDirAtStart: string | undefined;
  const chromiumDir = (): string | undefined => singletonTempDir(userDataDir) ?? chromiumDirAtStart;
  let cleaned = false;
  const starting = new AbortController();

  // Runs if the process is interrupted or exits first; close() runs the full cleanup.
  const unregister = onProcessEnd((end) => {
    if (stage) rmSync(stage.bridgeConfigPath, { force: true });
    // Read before Chrome goes: killed, it cannot remove its own temp dir.
    const chromiumTemp = chromiumDir();
    const exited = browserProcess && browserProcess.exitCode === null && browserProcess.signalCode === null ? once(browserProcess, 'exit') : undefined;
    // A profile the user named is theirs to keep: on a signal its Chrome is closed over the pipe as
    // close() does (it writes its cookies and state then; it does not on SIGTERM), and killed only
    // if it has not ended within a few seconds. On exit puppeteer kills it at once whatever this
    // does (its own exit handler), as Playwright does.
    if (end === 'signal' && browserPid && !tempDir && exited && closeBrowser) return endGracefully(browserPid, closeBrowser, exited, KEPT_PROFILE_EXIT_MS);
    if (browserPid) killGroup(browserPid);
    // Still starting: puppeteer kills what it spawned (at once), but gives no process to wait for.
    else starting.abort();
    const removeDirs = (): void => {
      if (chromiumTemp) rmSync(chromiumTemp, { recursive: true, force: true });
      if (tempDir) rmSync(tempDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    };
    // On a signal nothing may block: a runner's SIGKILL follows soon (Vitest: 500 ms), and a killed
    // Chrome takes 100-200 ms to exit, its profile as long to remove. Both at once, without
    // blocking, then once more after Chrome's last write.
    if (end === 'signal' && exited) {
      const removing = Promise.all([chromiumTemp, tempDir].map((dir) => (dir ? rm(dir, { recursive: true, force: true, maxRetries: 5 }).catch(() => undefined) : undefined)));
      return Promise.all([removing, exited]).then(removeDirs, removeDirs);
    }
    // On exit nothing can be awaited: remove what can be removed now (the retries ride out
    // Chrome's last writes).
    removeDirs();
    if (!browserPid) return new Promise<void>((done) => setTimeout(done, STARTING_CHROME_EXIT_MS)).then(removeDirs);
  });
  const cleanup = async (browserClose?: () => Promise<void>): Promise<void> => {
    await stage?.removeBridgeConfig();
    const chromiumTemp = chromiumDir();
    await browserClose?.().catch(() => (browserPid ? killGroup(browserPid) : undefined));
    // Chrome's helpers may outlive its browser process and write into the temp profile after it is removed.
    if (browserPid && tempDir) await endGroup(browserPid, CHROME_GROUP_EXIT_MS);
    await bridge?.close();
    // Chrome removes it when it exits normally; not when it was killed.
    if (chromiumTemp) await rm(chromiumTemp, { recursive: true, force: true });
    if (tempDir) await rm(tempDir, { recursive: true, force: true, maxRetries: 3 });
    unregister();
  };

  try {
    bridge = await Bridge.start({ profile, defaultTimeoutMs: timeoutMs, ...opts.keepAlive });
    stage = await ExtensionStage.create({ userDataDir, allow: opts.allow });
    await stage.writeBridgeConfig({ url: bridge.url, token: bridge.token, profile });
    if (phases.hasSubscribers) phases.publish({ phase: 'staged' });
    const connectTimeoutMs = opts.connectTimeoutMs ?? 20_000;
    const connected = bridge.waitForExtension(connectTimeoutMs);
    connected.catch(() => undefined);
    const browser = await launchChrome({
      executablePath,
      userDataDir,
      extensionDir: stage.dir,
      headless: opts.headless ?? true,
      args: opts.args,
      deadlineMs: connectTimeoutMs,
      signal: starting.signal,
    });
    browserProcess = browser.process() ?? undefined;
    browserPid = browserProcess?.pid;
    chromiumDirAtStart = singletonTempDir(userDataDir);
    closeBrowser = () => browser.close();
    if (phases.hasSubscribers) phases.publish({ phase: 'chrome', browser });
    try {
      await connected;
      if (phases.hasSubscribers) phases.publish({ phase: 'connected' });
    } catch {
      cleaned = true;
      await cleanup(() => browser.close());
      throw new AiteError(
        'timeout',
        `Chrome (${executablePath}) started, but the aite extension did not connect within ${connectTimeoutMs} ms. Run \`aite doctor\` to see why.`,
      );
    }
    if (opts.permissions?.length) await grantPermissions(browser, opts.allow, opts.permissions, timeoutMs);
    const session = new Session({
      bridge,
      browser,
      profile,
      timeoutMs,
      lock,
      allow: opts.allow,
      tempProfile: tempDir !== undefined,
      ...(tempDir ? { downloads: join(tempDir, 'aite-downloads') } : {}),
      ...(opts.dialogs ? { dialogs: opts.dialogs } : {}),
      close: () => cleanup(() => browser.close()),
    });
    browser.on('disconnected', () => void stage?.removeBridgeConfig());
    await orphansRemoved;
    return session;
  } catch (error) {
    if (!cleaned) await cleanup();
    throw error;
  }
}

/** Grants `permissions` to each allowed origin in the browser's default context (where the run's tabs are). */
async function grantPermissions(browser: Browser, allow: readonly string[], permissions: readonly BrowserPermission[], timeoutMs: number): Promise<void> {
  const context = browser.defaultBrowserContext();
  const granted = permissions.map((name) => ({ permission: { name }, state: 'granted' as const }));
  for (const origin of allowedOrigins(allow)) {
    await withTimeout(context.setPermission(origin, ...granted), timeoutMs, `Chrome did not grant ${permissions.join(', ')} to ${origin} within ${timeoutMs} ms.`);
  }
}
