import { Bridge } from '../bridge/Bridge.js';
import { AiteError } from '../errors/AiteError.js';
import { UsageError } from '../errors/UsageError.js';
import { parseOptions } from '../errors/parseOptions.js';
import { allowPatterns, ExtensionStage } from '../launch/ExtensionStage.js';
import { onProcessEnd } from '../launch/ProcessCleanup.js';
import { LockFile } from '../lock/LockFile.js';
import { DEFAULT_TIMEOUT_MS } from '../protocol/index.js';
import { rmSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AttachOptionsSchema, type AttachOptions } from './options.js';
import { Session } from './Session.js';

/**
 * Starts a bridge for a Chrome the user runs with the aite extension installed, and resolves once
 * the extension has connected. There is no debugging pipe: the extension attaches
 * `chrome.debugger` to the run's own tabs only (never the user's other tabs) for trusted input,
 * pictures and dialogs, and detaches when the session closes. Where that is refused (or
 * `debugger: false`), actions are plain DOM events through `act` and pictures are unavailable,
 * each step saying so in its warnings. Get the extension folder with {@link stageExtension},
 * and start Chrome with it loaded, before or after this call.
 *
 * @throws {@link UsageError} `invalid` when an option is wrong, `extensionDir` holds no aite
 * extension or its host permissions miss an `allow` origin; {@link AiteError} `timeout` when the
 * extension does not connect in `connectTimeoutMs`
 *
 * @example
 * ```ts
 * import { attach, stageExtension } from 'aite';
 *
 * const allow = ['http://127.0.0.1:4173'];
 * const { dir } = await stageExtension({ allow, dir: 'aite-extension' });
 * // now: chromium --load-extension=aite-extension (or Load unpacked in chrome://extensions)
 * const session = await attach({ extensionDir: dir, allow, connectTimeoutMs: 120_000 });
 * try {
 *   await session.tab.navigate('http://127.0.0.1:4173/');
 *   await session.click({ text: 'Send' });
 * } finally {
 *   await session.close(); // deletes bridge.json; your Chrome keeps running
 * }
 * ```
 * @public
 */
export async function attach(options: AttachOptions): Promise<Session> {
  const opts = parseOptions(AttachOptionsSchema, options, 'attach()');
  await checkInstalled(opts.extensionDir, opts.allow);
  const lock = opts.lockFile ? await LockFile.open(opts.lockFile, { updateLock: opts.updateLock }) : undefined;
  const profile = opts.profile ?? 'default';
  const bridge = await Bridge.start({ profile, port: opts.port, defaultTimeoutMs: opts.timeoutMs });
  const configPath = join(opts.extensionDir, 'bridge.json');
  const unregister = onProcessEnd(() => rmSync(configPath, { force: true }));
  const useDebugger = opts.debugger ?? true;
  const cleanup = async (): Promise<void> => {
    // The person's tabs are theirs again (the extension also lets go when the socket closes).
    if (useDebugger && bridge.connected) await bridge.request({ cmd: 'debugger', op: 'detach', timeoutMs: 3_000 }).catch(() => undefined);
    await rm(configPath, { force: true });
    await bridge.close();
    unregister();
  };
  try {
    await ExtensionStage.writeBridgeConfigInto(opts.extensionDir, { url: bridge.url, token: bridge.token, profile });
    await bridge.waitForExtension(opts.connectTimeoutMs ?? 60_000);
  } catch (error) {
    await cleanup();
    throw error;
  }
  return new Session({ bridge, browser: undefined, profile, timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, allow: opts.allow, tempProfile: false, debugger: useDebugger, dialogs: opts.dialogs, lock, close: cleanup });
}

/**
 * The extension in `dir` must allow every origin of the run: otherwise the bridge would wait for
 * a worker that connects and then cannot reach the page, which is slow to diagnose.
 */
async function checkInstalled(dir: string, allow: string[]): Promise<void> {
  const wanted = allowPatterns(allow);
  const how = 'Write one with stageExtension({ allow, dir }) or `aite extension --out <dir> --allow <origin>`, load it in Chrome, and pass that folder.';
  let manifest: { host_permissions?: unknown };
  try {
    manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as typeof manifest;
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'has no manifest.json' : `has a manifest.json that cannot be read (${(error as Error).message})`;
    throw new UsageError('invalid', `attach(): extensionDir ${dir} ${why}: it is not the aite extension's folder. ${how}`);
  }
  const granted = Array.isArray(manifest.host_permissions) ? manifest.host_permissions : [];
  const missing = wanted.filter((pattern) => !granted.includes(pattern));
  if (missing.length > 0) {
    throw new UsageError('invalid', `attach(): the extension in ${dir} may not touch ${missing.map((p) => p.replace(/\/\*$/, '')).join(', ')} (its host permissions: ${granted.join(', ') || 'none'}). Write it again with this allow list (stageExtension or \`aite extension\`) and reload it in Chrome.`,
    );
  }
}
