import { stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { FILE_LIMITS, readBounded } from '../errors/fileLimits.js';
import { SourceText } from '../errors/SourceText.js';
import { UsageError } from '../errors/UsageError.js';
import { describeValue, issuesFromZod } from '../errors/zodIssues.js';
import { ConfigSchema, type AiteConfig, type AiteConfigFile } from './schema.js';

/**
 * The name `aite` looks for, from the working directory upwards.
 *
 * @example
 * ```ts
 * import { join } from 'node:path';
 * import { CONFIG_FILE_NAME } from 'aite';
 *
 * const path = join(process.cwd(), CONFIG_FILE_NAME); // .../aite.config.json
 * ```
 * @public
 */
export const CONFIG_FILE_NAME = 'aite.config.json';

/**
 * Values that override the config file (the CLI's flags).
 *
 * @example
 * ```ts
 * import { loadConfig, type ConfigOverrides } from 'aite';
 *
 * // What the CLI's flags become: they win over the file.
 * const overrides: ConfigOverrides = { headless: false, timeoutMs: 10_000, allow: ['http://127.0.0.1:5000'] };
 * const config = await loadConfig({ overrides });
 * ```
 * @public
 */
export interface ConfigOverrides {
  /** Origins added to the config's (`--allow`). */
  allow?: string[];
  /** Replaces the config's `baseUrl` (`--base-url`). */
  baseUrl?: string;
  /** Replaces the Chrome executable (`--chrome`). */
  chrome?: string;
  /** Replaces the lock file (`--lock-file`). */
  lockFile?: string;
  /** Default timeout of each step (`--timeout`). */
  timeoutMs?: number;
  /** False shows Chrome (`--headed`). */
  headless?: boolean;
  /** The report folder (`--report`). */
  report?: string;
  /** Also write junit.xml (`--reporter junit`). */
  junit?: boolean;
  /** What a native dialog nobody armed gets (`--dialogs`). */
  dialogs?: 'dismiss' | 'accept';
}

/**
 * Finds `aite.config.json` in `cwd` or the nearest folder above it.
 *
 * @example
 * ```ts
 * import { findConfigFile } from 'aite';
 *
 * const file = await findConfigFile(process.cwd());
 * console.log(file ?? 'no aite.config.json here or above: defaults apply');
 * ```
 * @public
 */
export async function findConfigFile(cwd: string = process.cwd()): Promise<string | undefined> {
  let dir = resolve(cwd);
  for (;;) {
    const candidate = join(dir, CONFIG_FILE_NAME);
    if (await isFile(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Loads the config: the file named by `file`, else the one found from `cwd` upwards, else
 * none (defaults). Flags in `overrides` win. Throws {@link UsageError} naming the file and the
 * field of a mistake.
 *
 * @example
 * ```ts
 * import { launch, loadConfig } from 'aite';
 *
 * const config = await loadConfig({ cwd: process.cwd() });
 * const session = await launch({ allow: config.allow, headless: config.headless, timeoutMs: config.timeoutMs });
 * await session.close();
 * ```
 * @public
 */
export async function loadConfig(options: { file?: string; cwd?: string; overrides?: ConfigOverrides } = {}): Promise<AiteConfig> {
  const cwd = resolve(options.cwd ?? process.cwd());
  let path: string | undefined;
  if (options.file) {
    path = resolve(cwd, options.file);
    if (!(await isFile(path))) {
      throw new UsageError('file-not-found', [{ file: options.file, message: `no such config file (looked in ${path}).` }]);
    }
  } else {
    path = await findConfigFile(cwd);
  }
  let written: AiteConfigFile = {};
  if (path) {
    const shown = options.file ?? (relative(cwd, path) || path);
    const read = await readBounded(path, FILE_LIMITS.configBytes);
    if ('refused' in read) throw new UsageError('invalid', [{ file: shown, message: `not read as a config: ${read.refused}` }]);
    const source = SourceText.parse(read.text, shown);
    if (source.data === null || typeof source.data !== 'object' || Array.isArray(source.data)) {
      throw new UsageError('invalid', [{ file: shown, line: 1, message: `a config is an object such as { "allow": ["http://127.0.0.1:4173"] }, got ${describeValue(source.data)}.` }]);
    }
    const parsed = ConfigSchema.safeParse(source.data, { reportInput: true });
    if (!parsed.success) throw new UsageError('invalid', issuesFromZod(parsed.error, { file: shown, source, base: [] }));
    written = parsed.data;
  }
  return resolveConfig(written, path ? dirname(path) : cwd, path, options.overrides ?? {}, cwd);
}

/**
 * The config a run uses from written values: paths resolved against `dir`, flags applied
 * (flag paths resolve against `cwd`).
 *
 * @example
 * ```ts
 * import { resolveConfig } from 'aite';
 *
 * // A config built in code rather than read from a file: paths resolve against the folder given.
 * const config = resolveConfig({ allow: ['http://127.0.0.1:4173'], profiles: { ana: { userDataDir: 'profiles/ana' } } }, process.cwd());
 * console.log(config.profiles.ana?.userDataDir); // absolute
 * ```
 * @public
 */
export function resolveConfig(
  written: AiteConfigFile,
  dir: string,
  file?: string,
  overrides: ConfigOverrides = {},
  cwd: string = process.cwd(),
): AiteConfig {
  const at = (p: string | undefined, base = dir): string | undefined => (p === undefined ? undefined : isAbsolute(p) ? p : resolve(base, p));
  // A bare command name (`chromium`) is left for the OS to find; a path is resolved.
  const exe = (p: string | undefined, base = dir): string | undefined => (p && /[\\/]/.test(p) ? at(p, base) : p);
  const profiles: AiteConfig['profiles'] = {};
  for (const [name, profile] of Object.entries(written.profiles ?? {})) {
    profiles[name] = { userDataDir: at(profile.userDataDir), allow: profile.allow ?? [], chrome: exe(profile.chrome) };
  }
  profiles.default ??= { allow: [] };
  const writtenReport = typeof written.report === 'string' ? { dir: written.report, junit: false } : written.report;
  const report = overrides.report
    ? { dir: resolve(cwd, overrides.report), junit: overrides.junit ?? writtenReport?.junit ?? false }
    : writtenReport
      ? { dir: at(writtenReport.dir)!, junit: overrides.junit ?? writtenReport.junit ?? false }
      : undefined;
  const server = written.webServer;
  return {
    file,
    dir,
    allow: [...(written.allow ?? []), ...(overrides.allow ?? [])],
    baseUrl: overrides.baseUrl ?? written.baseUrl,
    ...(overrides.baseUrl !== undefined ? { baseUrlOverride: overrides.baseUrl } : {}),
    profiles,
    chrome: overrides.chrome ? exe(overrides.chrome, cwd) : exe(written.chrome),
    lockFile: overrides.lockFile ? resolve(cwd, overrides.lockFile) : at(written.lockFile),
    timeoutMs: overrides.timeoutMs ?? written.timeoutMs,
    headless: overrides.headless ?? written.headless ?? true,
    ...((overrides.dialogs ?? written.dialogs) ? { dialogs: overrides.dialogs ?? written.dialogs } : {}),
    ...(written.permissions?.length ? { permissions: written.permissions } : {}),
    report,
    webServer: server && {
      command: server.command,
      url: server.url,
      cwd: at(server.cwd) ?? dir,
      timeoutMs: server.timeoutMs ?? 30_000,
      reuseExisting: server.reuseExisting ?? true,
    },
  };
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
