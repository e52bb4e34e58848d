import { z } from 'zod';
import { Bridge } from '../bridge/Bridge.js';
import { AiteError } from '../errors/AiteError.js';
import { allowPatterns, ExtensionStage } from '../launch/ExtensionStage.js';
import { onProcessEnd } from '../launch/ProcessCleanup.js';
import { DEFAULT_TIMEOUT_MS } from '../protocol/index.js';
import { rmSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseOptions } from './launch.js';
import { Session } from './Session.js';

/**
 * Options of {@link attach}.
 *
 * @example
 * ```ts
 * import { attach, type AttachOptions } from 'aite';
 *
 * const options: AttachOptions = { extensionDir: 'aite-extension', allow: ['http://127.0.0.1:4173'], profile: 'mine', connectTimeoutMs: 120_000 };
 * const session = await attach(options);
 * await session.close();
 * ```
 * @public
 */
export interface AttachOptions {
  /**
   * The folder of the aite extension as installed in the user's Chrome (bridge.json is written
   * there): the folder {@link stageExtension} (or `aite extension --out`) wrote.
   */
  extensionDir: string;
  /** Origins the run may touch; each must be among the installed extension's host permissions. */
  allow: string[];
  /** A name for the profile, carried in the extension's hello. Default `default`. */
  profile?: string;
  /** Default `timeoutMs` of each command. Default 5000. */
  timeoutMs?: number;
  /** How long to wait for the extension to connect. Default 60 000 (the worker's backoff reaches 8 s). */
  connectTimeoutMs?: number;
  /** Bridge port; default a free one. */
  port?: number;
}

const AttachOptionsSchema = z.strictObject({
  extensionDir: z.string().min(1),
  allow: z.array(z.string()).min(1),
  profile: z.string().min(1).optional(),
  timeoutMs: z.number().int().positive().optional(),
  connectTimeoutMs: z.number().int().positive().optional(),
  port: z.number().int().min(0).max(65535).optional(),
});

/**
 * Starts a bridge for a Chrome the user runs with the aite extension installed, and resolves once
 * the extension has connected. There is no debugging pipe: actions are plain DOM events through
 * `act`, and screenshots are reported as unavailable warnings. Get the extension folder with
 * {@link stageExtension}, and start Chrome with it loaded, before or after this call.
 *
 * @throws {@link AiteError} `unsupported` when `extensionDir` holds no aite extension or its host
 * permissions miss an `allow` origin; `timeout` when the extension does not connect in
 * `connectTimeoutMs`
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
  const profile = opts.profile ?? 'default';
  const bridge = await Bridge.start({ profile, port: opts.port, defaultTimeoutMs: opts.timeoutMs });
  const configPath = join(opts.extensionDir, 'bridge.json');
  const unregister = onProcessEnd(() => rmSync(configPath, { force: true }));
  const cleanup = async (): Promise<void> => {
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
  return new Session({ bridge, browser: undefined, profile, timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, close: cleanup });
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
    throw new AiteError('unsupported', `attach(): extensionDir ${dir} ${why}: it is not the aite extension's folder. ${how}`);
  }
  const granted = Array.isArray(manifest.host_permissions) ? manifest.host_permissions : [];
  const missing = wanted.filter((pattern) => !granted.includes(pattern));
  if (missing.length > 0) {
    throw new AiteError(
      'unsupported',
      `attach(): the extension in ${dir} may not touch ${missing.map((p) => p.replace(/\/\*$/, '')).join(', ')} (its host permissions: ${granted.join(', ') || 'none'}). Write it again with this allow list (stageExtension or \`aite extension\`) and reload it in Chrome.`,
    );
  }
}
