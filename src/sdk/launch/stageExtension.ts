import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { AiteError } from '../errors/AiteError.js';
import { UsageError } from '../errors/UsageError.js';
import { parseOptions } from '../errors/parseOptions.js';
import { AITE_EXTENSION_ID } from '../identity/ExtensionIdentity.js';
import { allowPatterns, BUNDLES, ExtensionStage } from './ExtensionStage.js';

/**
 * Options of {@link stageExtension}.
 *
 * @example
 * ```ts
 * import { stageExtension, type StageExtensionOptions } from 'aite';
 *
 * const options: StageExtensionOptions = { allow: ['http://127.0.0.1:4173', 'https://staging.example'], dir: 'aite-extension' };
 * await stageExtension(options);
 * ```
 * @public
 */
export interface StageExtensionOptions {
  /** The origins the extension may touch, e.g. `['http://127.0.0.1:4173']`: its host permissions. */
  allow: string[];
  /**
   * The folder to write. Created when missing; an existing folder must be empty or hold an aite
   * extension (it is then updated in place).
   */
  dir: string;
}

/**
 * What {@link stageExtension} wrote.
 *
 * @example
 * ```ts
 * import { stageExtension, type StagedExtension } from 'aite';
 *
 * const staged: StagedExtension = await stageExtension({ allow: ['http://127.0.0.1:4173'], dir: 'aite-extension' });
 * console.log(`chromium --load-extension=${staged.dir}`);
 * console.log(`allowed: ${staged.hostPermissions.join(' ')}; id ${staged.extensionId}`);
 * ```
 * @public
 */
export interface StagedExtension {
  /** The absolute path of the folder: pass it to Chrome's `--load-extension` and to `attach({ extensionDir })`. */
  dir: string;
  /** The id Chrome gives the extension (the same in every profile): {@link AITE_EXTENSION_ID}. */
  extensionId: string;
  /** The manifest's host permissions, one match pattern per allowed origin. */
  hostPermissions: string[];
}

const StageExtensionOptionsSchema = z.strictObject({
  allow: z.array(z.string()),
  dir: z.string().min(1),
});

/** Files an aite extension folder may hold besides the bundles and the manifest. */
const OWN_FILES = new Set<string>([...BUNDLES, 'manifest.json', 'bridge.json', '_metadata']);

/**
 * Writes the aite extension, ready to install, into a folder of your choice: the built bundles
 * and a manifest whose host permissions are exactly `allow`. It is what attach mode needs: load
 * the folder in your own Chrome (`--load-extension=<dir>`, or `chrome://extensions` → Developer
 * mode → Load unpacked), then {@link attach} with the same folder and allow list. The CLI does
 * the same with `aite extension --out <dir> --allow <origin>`.
 *
 * The folder is kept (nothing removes it); writing it again with another allow list updates
 * the manifest, and Chrome picks that up when the extension is reloaded.
 *
 * @param options - the origins to allow and the folder to write
 * @returns the folder's absolute path, the extension's id and its host permissions
 * @throws {@link UsageError} `invalid` when an `allow` entry is not an http(s) origin, or `dir`
 * holds files that are not an aite extension's; {@link AiteError} `internal` when the extension
 * is not built
 *
 * @example
 * ```ts
 * import { attach, stageExtension } from 'aite';
 *
 * const allow = ['http://127.0.0.1:4173'];
 * const extension = await stageExtension({ allow, dir: 'aite-extension' });
 * console.log(`start Chrome with --load-extension=${extension.dir}`);
 * const session = await attach({ extensionDir: extension.dir, allow });
 * await session.tab.navigate('http://127.0.0.1:4173/');
 * await session.close();
 * ```
 * @public
 */
export async function stageExtension(options: StageExtensionOptions): Promise<StagedExtension> {
  const opts = parseOptions(StageExtensionOptionsSchema, options, 'stageExtension()');
  const hostPermissions = allowPatterns(opts.allow);
  const dir = resolve(opts.dir);
  await refuseForeignFolder(dir);
  await ExtensionStage.writeFiles(dir, hostPermissions, ExtensionStage.checkBuild());
  return { dir, extensionId: AITE_EXTENSION_ID, hostPermissions };
}

/** Updating a folder in place is fine only when it is empty or already aite's: never mix into someone's files. */
export async function refuseForeignFolder(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code === 'ENOTDIR') throw new UsageError('invalid', `stageExtension(): ${dir} is a file; name a folder (new or empty) for the extension.`);
    throw error;
  }
  if (names.length === 0) return;
  const name = await readFile(join(dir, 'manifest.json'), 'utf8').then(
    (text) => (JSON.parse(text) as { name?: unknown }).name,
    () => undefined,
  );
  const foreign = names.filter((n) => !OWN_FILES.has(n) && !/^\.bridge-[0-9a-f]+\.json$/.test(n));
  if (name !== 'aite' || foreign.length > 0) {
    throw new UsageError('invalid', `stageExtension(): ${dir} is not empty and is not an aite extension folder (it holds ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', ...' : ''}). Name a new or empty folder.`,
    );
  }
}
