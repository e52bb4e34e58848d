import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bridge } from '../bridge/Bridge.js';
import { AiteError } from '../errors/AiteError.js';
import { parseOptions } from '../errors/parseOptions.js';
import { ExtensionStage } from '../launch/ExtensionStage.js';
import { findChrome } from '../launch/findChrome.js';
import { launchChrome } from '../launch/launchChrome.js';
import { onProcessEnd } from '../launch/ProcessCleanup.js';
import { LockFile } from '../lock/LockFile.js';
import { DEFAULT_TIMEOUT_MS } from '../protocol/index.js';
import { LaunchOptionsSchema, type LaunchOptions } from './options.js';
import { Session } from './Session.js';

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
      allow: opts.allow,
      tempProfile: tempDir !== undefined,
      ...(opts.dialogs ? { dialogs: opts.dialogs } : {}),
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
