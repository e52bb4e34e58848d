import { resolve } from 'node:path';
import { loadConfig, stageExtension, UsageError, type StagedExtension, type StageExtensionOptions } from 'aite';
import { defaultExtensionDir } from '../extensionFolder.js';
import { colorsFor, writeLines, type Io } from '../Io.js';

export interface ExtensionFlags {
  /** Default: {@link defaultExtensionDir}. */
  out?: string;
  allow?: string[];
  config?: string;
  profile?: string;
}

/**
 * `aite extension [--out <dir>]`: writes the installable extension for attach mode, with the
 * config's allow list (and the profile's) plus any `--allow`, and says how to load it.
 */
export async function extensionCommand(
  flags: ExtensionFlags,
  io: Io,
  seams: { stageExtension?: (o: StageExtensionOptions) => Promise<StagedExtension> } = {},
): Promise<number> {
  const config = await loadConfig({ file: flags.config, cwd: io.cwd, overrides: { allow: flags.allow } });
  const profile = flags.profile === undefined ? undefined : config.profiles[flags.profile];
  if (flags.profile !== undefined && !profile) {
    const known = Object.keys(config.profiles).map((p) => `"${p}"`).join(', ');
    throw new UsageError('unknown-profile', [
      { file: config.file, field: 'profiles', message: `unknown profile "${flags.profile}". Known profiles: ${known}. Declare it under "profiles" in aite.config.json.` },
    ]);
  }
  const allow = [...new Set([...config.allow, ...(profile?.allow ?? [])])];
  if (allow.length === 0) {
    throw new UsageError('usage', 'aite extension needs the origins the extension may touch: pass --allow http://127.0.0.1:4173, or set "allow" in aite.config.json.');
  }
  const staged = await (seams.stageExtension ?? stageExtension)({ allow, dir: flags.out === undefined ? defaultExtensionDir(io.env) : resolve(io.cwd, flags.out) });
  const c = colorsFor(io.stdout, io.env);
  writeLines(
    io.stdout,
    `${c.green('✓')} The aite extension is in ${staged.dir}`,
    `  allowed:  ${allow.join(', ')}`,
    `  id:       ${staged.extensionId}`,
    'Load it in your Chrome: start it with',
    `  --load-extension=${staged.dir}`,
    'or open chrome://extensions, turn on Developer mode, and Load unpacked that folder.',
    `Then: attach({ extensionDir: '${staged.dir}', allow: ${JSON.stringify(allow)} })`,
  );
  return 0;
}
