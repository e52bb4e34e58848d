import { z } from 'zod';
import { Bridge } from '../bridge/Bridge.js';
import { ExtensionStage } from '../launch/ExtensionStage.js';
import { onProcessEnd } from '../launch/ProcessCleanup.js';
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseOptions } from './launch.js';
import { Session } from './Session.js';

/**
 * Options of {@link attach}.
 * @public
 */
export interface AttachOptions {
  /** The folder of the aite extension as installed in the user's Chrome (bridge.json is written there). */
  extensionDir: string;
  /** Origins the run may touch; must match the installed extension's host permissions. */
  allow: string[];
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
 * Starts a bridge for a Chrome the user runs with the aite extension installed. There is no
 * debugging pipe: actions are plain DOM events through `act`, and screenshots are reported as
 * unavailable warnings.
 * @public
 */
export async function attach(options: AttachOptions): Promise<Session> {
  const opts = parseOptions(AttachOptionsSchema, options, 'attach()');
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
  return new Session({ bridge, browser: undefined, profile, timeoutMs: opts.timeoutMs ?? 5_000, close: cleanup });
}
