import { z } from 'zod';

/** The longest profile name: the hello, bridge.json and the launch and attach options share it. */
export const PROFILE_NAME_MAX = 200;

/** The file the runner writes into the extension's folder before Chrome starts; never web-accessible. */
export const BRIDGE_CONFIG_FILE = 'bridge.json';

/** bridge.json: where the run's bridge listens, its token, and the profile. Written by the runner, read by the worker. */
export const BridgeConfigSchema = z.object({
  url: z.string().startsWith('ws://127.0.0.1:', 'names a bridge that is not on 127.0.0.1'),
  token: z.string().min(1),
  profile: z.string().min(1).max(PROFILE_NAME_MAX).default('default'),
});
export type BridgeConfig = z.infer<typeof BridgeConfigSchema>;
