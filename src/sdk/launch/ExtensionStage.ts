import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AiteError } from '../errors/AiteError.js';
import { UsageError } from '../errors/UsageError.js';
import { BRIDGE_CONFIG_FILE, BridgeConfigSchema, PAGE_ERROR_CHANNEL, type BridgeConfig } from '../protocol/index.js';
import { AITE_EXTENSION_NAME, EXTENSION_PUBLIC_KEY } from '../identity/ExtensionIdentity.js';
import { packageRoot, packageVersion } from './packageRoot.js';
import { makeFolder } from '../system/folders.js';

/** The built files every copy of the extension needs. */
export const BUNDLES = ['worker.js', 'content.js', 'guard-start.js', 'page-errors.js'] as const;

/**
 * Turns the run's `allow` list into host match patterns, refusing what is not an http(s) origin.
 * @internal
 */
export function allowPatterns(allow: readonly string[]): string[] {
  if (allow.length === 0) {
    throw new UsageError('invalid', '`allow` is empty: list the origins aite may touch, e.g. ["http://127.0.0.1:4173"].');
  }
  return allow.map((entry) => {
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      throw new UsageError('invalid', `\`allow\` entry "${entry}" is not an origin like "http://127.0.0.1:4173".`);
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.href.replace(/\/$/, '') !== url.origin) {
      throw new UsageError('invalid', `\`allow\` entry "${entry}" must be an http(s) origin without a path, like "${url.origin}".`);
    }
    return `${url.origin}/*`;
  });
}

/**
 * One run's copy of the aite extension, in `<userDataDir>/aite-extension/`: the bundles, a
 * manifest whose host permissions are exactly the run's allow list, and bridge.json.
 * Parallel runs never share a copy.
 */
export class ExtensionStage {
  private constructor(readonly dir: string) {}

  static async create(options: { userDataDir: string; allow: readonly string[]; buildDir?: string }): Promise<ExtensionStage> {
    const patterns = allowPatterns(options.allow);
    const buildDir = ExtensionStage.checkBuild(options.buildDir);
    const dir = join(options.userDataDir, 'aite-extension');
    await rm(dir, { recursive: true, force: true });
    await ExtensionStage.writeFiles(dir, patterns, buildDir);
    return new ExtensionStage(dir);
  }

  /** The folder of the built bundles, after checking they are all there. */
  static checkBuild(buildDir = join(packageRoot(), 'dist', 'extension')): string {
    for (const file of BUNDLES) {
      if (!existsSync(join(buildDir, file))) {
        throw new AiteError('internal', `The aite extension is not built (${file} missing in ${buildDir}). Run \`npm run build\`.`);
      }
    }
    return buildDir;
  }

  /**
   * Writes the bundles and a manifest for `patterns` into `dir` (created 0700 if missing), each
   * file replacing any of the same name; nothing else in the folder is touched.
   */
  static async writeFiles(dir: string, patterns: string[], buildDir: string): Promise<void> {
    await makeFolder(dir, { mode: 0o700 });
    await Promise.all(BUNDLES.map((file) => copyFile(join(buildDir, file), join(dir, file))));
    await stampPageErrorChannel(dir);
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest(patterns), null, 2));
  }

  get bridgeConfigPath(): string {
    return join(this.dir, BRIDGE_CONFIG_FILE);
  }

  writeBridgeConfig(config: BridgeConfig): Promise<void> {
    return ExtensionStage.writeBridgeConfigInto(this.dir, config);
  }

  /** Writes bridge.json with mode 0600: a fresh file, then a rename, so no planted link is followed. */
  static async writeBridgeConfigInto(dir: string, config: BridgeConfig): Promise<void> {
    const temp = join(dir, `.bridge-${randomBytes(6).toString('hex')}.json`);
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(JSON.stringify(BridgeConfigSchema.parse(config)));
    } finally {
      await handle.close();
    }
    await rename(temp, join(dir, BRIDGE_CONFIG_FILE));
  }

  async removeBridgeConfig(): Promise<void> {
    await rm(this.bridgeConfigPath, { force: true });
  }
}

/**
 * The page-error relay and its listener talk over DOM events a page could listen for; their name
 * is made random per staged extension, so a page can neither hear nor probe for them
 * (pageErrorRelay.ts).
 */
async function stampPageErrorChannel(dir: string): Promise<void> {
  const channel = `x${randomBytes(12).toString('hex')}`;
  for (const file of ['content.js', 'page-errors.js']) {
    const path = join(dir, file);
    const text = await readFile(path, 'utf8');
    if (!text.includes(PAGE_ERROR_CHANNEL)) throw new AiteError('internal', `The built ${file} has no page-error channel to stamp; run \`npm run build\` again.`);
    await writeFile(path, text.replaceAll(PAGE_ERROR_CHANNEL, channel));
  }
}

function manifest(patterns: string[]): Record<string, unknown> {
  return {
    manifest_version: 3,
    name: AITE_EXTENSION_NAME,
    description: 'Runs aite test and automation steps in the origins of the run’s allow list.',
    version: packageVersion().replace(/[^\d.].*$/, ''),
    key: EXTENSION_PUBLIC_KEY,
    minimum_chrome_version: '120',
    background: { service_worker: 'worker.js', type: 'module' },
    // debugger: attach mode's trusted input, pictures, dialogs, requests and console lines, on the
    // run's own tabs only; downloads: where Chrome saved a file a run tab downloaded (attach mode).
    permissions: ['tabs', 'scripting', 'storage', 'alarms', 'webNavigation', 'debugger', 'downloads'],
    host_permissions: patterns,
    content_scripts: [
      // In frames too: a target in a cross-site iframe is resolved by that frame's own script.
      { matches: patterns, js: ['content.js'], run_at: 'document_idle', all_frames: true },
      // The hit-target guard's listeners, on each window before the page's own (guardTap.ts).
      { matches: patterns, js: ['guard-start.js'], run_at: 'document_start', all_frames: true },
      // Page errors are only seen in the page's own world (see pageErrorRelay.ts); a frame's
      // only in the frame's, so the relay runs in every frame.
      { matches: patterns, js: ['page-errors.js'], run_at: 'document_start', world: 'MAIN', all_frames: true },
    ],
    action: { default_title: 'aite' },
  };
}
