import { z } from 'zod';
import { BROWSER_PERMISSIONS, PROFILE_NAME_MAX } from '../protocol/index.js';

const ProfileSchema = z.strictObject({
  userDataDir: z.string().min(1).optional().describe('Chrome user data dir of this profile (relative to the config file); default a fresh temp dir per run.'),
  allow: z.array(z.string().min(1)).optional().describe('Origins this profile may touch besides the shared `allow`.'),
  chrome: z.string().min(1).optional().describe('Chrome executable for this profile.'),
});

const WebServerSchema = z.strictObject({
  command: z.string().min(1).describe('Shell command that starts the app, e.g. "node server.mjs 4173".'),
  url: z.string().min(1).describe('aite waits until this URL answers before running scripts.'),
  cwd: z.string().min(1).optional().describe('Working directory of the command (relative to the config file); default the config file\'s folder.'),
  timeoutMs: z.number().int().positive().max(600_000).optional().describe('How long the app may take to start; default 30000.'),
  reuseExisting: z.boolean().optional().describe('Use an app already answering at `url` instead of starting one; default true.'),
});

/** The schema of `aite.config.json`. */
export const ConfigSchema = z.strictObject({
  $schema: z.string().optional(),
  allow: z.array(z.string().min(1)).optional().describe('Origins the extension may touch (its host permissions).'),
  baseUrl: z.string().min(1).optional().describe('Relative navigate and http URLs in scripts resolve against it.'),
  profiles: z
    .record(z.string().min(1).max(PROFILE_NAME_MAX), ProfileSchema)
    .optional()
    .describe('Named profiles: a script step with `profile` runs in that profile\'s Chrome. "default" always exists.'),
  chrome: z.string().min(1).optional().describe('Chrome executable; else AITE_CHROME, then the usual install paths.'),
  lockFile: z.string().min(1).optional().describe('The lock file remembering the elements scripts name (relative to the config file).'),
  timeoutMs: z.number().int().positive().max(600_000).optional().describe('Default timeout of each step, in milliseconds.'),
  headless: z.boolean().optional().describe('Default true; --headed overrides.'),
  report: z
    .union([z.string().min(1), z.strictObject({ dir: z.string().min(1), junit: z.boolean().optional() })])
    .optional()
    .describe('Where `aite run` writes its report (relative to the config file); --report overrides.'),
  webServer: WebServerSchema.optional().describe('An app to start before the scripts run and stop after.'),
  dialogs: z.enum(['dismiss', 'accept']).optional().describe('A native dialog (alert, confirm, prompt, beforeunload) no `dialog` step armed: "dismiss" (default) or "accept"; --dialogs overrides.'),
  permissions: z.array(z.enum(BROWSER_PERMISSIONS)).optional().describe('Browser permissions granted to the allowed origins for the run (launch({ permissions })): "clipboard-read" lets a script read what a copy button copied.'),
});

/**
 * The contents of `aite.config.json`, as written.
 *
 * @example
 * ```ts
 * import { writeFile } from 'node:fs/promises';
 * import type { AiteConfigFile } from 'aite';
 *
 * const file: AiteConfigFile = {
 *   allow: ['http://127.0.0.1:4173'],
 *   baseUrl: 'http://127.0.0.1:4173/',
 *   profiles: { sender: {}, receiver: { userDataDir: 'profiles/receiver' } },
 * };
 * await writeFile('aite.config.json', JSON.stringify(file, null, 2));
 * ```
 * @public
 */
export type AiteConfigFile = z.infer<typeof ConfigSchema>;

/**
 * A profile of the config, with its paths made absolute.
 *
 * @example
 * ```ts
 * import type { ProfileConfig } from 'aite';
 *
 * const receiver: ProfileConfig = { allow: ['http://127.0.0.1:4174'], userDataDir: '/srv/profiles/receiver' };
 * ```
 * @public
 */
export interface ProfileConfig {
  /** A lasting user data dir (cookies, logins), absolute; absent: a temporary one. */
  userDataDir?: string;
  /** Origins this profile may touch, besides the config's. */
  allow: string[];
  /** A Chrome executable for this profile alone. */
  chrome?: string;
}

/**
 * The config a run uses: the file's values with paths made absolute, and flags applied.
 *
 * @example
 * ```ts
 * import { loadConfig, type AiteConfig } from 'aite';
 *
 * const config: AiteConfig = await loadConfig();
 * for (const [name, profile] of Object.entries(config.profiles)) {
 *   console.log(name, [...config.allow, ...profile.allow].join(', '));
 * }
 * ```
 * @public
 */
export interface AiteConfig {
  /** The config file it came from (absolute), if any. */
  file?: string;
  /** The folder relative paths are resolved against. */
  dir: string;
  /** Origins every profile may touch (the extension's host permissions). */
  allow: string[];
  /** Relative URLs in scripts resolve against it. */
  baseUrl?: string;
  /** A `baseUrl` given as an override (`--base-url`): it beats a script's own `baseUrl`. */
  baseUrlOverride?: string;
  /** The profiles by name; `default` is always there. */
  profiles: Record<string, ProfileConfig>;
  /** The Chrome executable; default: `AITE_CHROME`, then the usual paths. */
  chrome?: string;
  /** The lock file, absolute; absent: nothing is remembered. */
  lockFile?: string;
  /** Default timeout of each step, in milliseconds. */
  timeoutMs?: number;
  /** Run Chrome without a window. Default true. */
  headless: boolean;
  /** Where `aite run` writes its report, and whether with junit.xml. */
  report?: { dir: string; junit: boolean };
  /** A server `aite run` starts first (or reuses), and stops after. */
  webServer?: { command: string; url: string; cwd: string; timeoutMs: number; reuseExisting: boolean };
  /** What a native dialog nobody armed gets (`launch({ dialogs })`); absent: dismiss. */
  dialogs?: 'dismiss' | 'accept';
  /** Browser permissions granted to the allowed origins (`launch({ permissions })`). */
  permissions?: (typeof BROWSER_PERMISSIONS)[number][];
}

/**
 * The JSON Schema of `aite.config.json`, generated from the zod schema that checks it.
 *
 * @example
 * ```ts
 * import { writeFile } from 'node:fs/promises';
 * import { configJsonSchema } from 'aite';
 *
 * // For editors: "$schema": "./aite.config.schema.json" in aite.config.json.
 * await writeFile('aite.config.schema.json', JSON.stringify(configJsonSchema(), null, 2));
 * ```
 * @public
 */
export function configJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ConfigSchema, { io: 'input', unrepresentable: 'any' }),
    $id: 'https://aite.dev/schema/aite-config.schema.json',
    title: 'aite.config.json',
  };
}
