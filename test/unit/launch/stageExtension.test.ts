import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AITE_EXTENSION_ID, attach, stageExtension, UsageError } from '../../../src/sdk/index.js';
import { extensionIdFromKey } from '../../../src/sdk/identity/ExtensionIdentity.js';
import { allowPatterns, BUNDLES, ExtensionStage } from '../../../src/sdk/launch/ExtensionStage.js';
import { refuseForeignFolder } from '../../../src/sdk/launch/stageExtension.js';
import { PAGE_ERROR_CHANNEL } from '../../../src/sdk/protocol/index.js';

// The folder a user loads in their own Chrome for attach mode. The bundles here are stand-ins:
// the real ones are checked end to end in test/e2e/attach.e2e.test.ts.
let dir: string;
let build: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aite-ext-'));
  build = join(dir, 'build');
  await mkdir(build);
  // The page-error bundles name their channel; the stage makes it random (pageErrorRelay.ts).
  for (const file of BUNDLES) await writeFile(join(build, file), file === 'worker.js' ? `// ${file}` : `// ${file} "${PAGE_ERROR_CHANNEL}"`);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Manifest {
  manifest_version: number;
  name: string;
  key: string;
  host_permissions: string[];
  background: { service_worker: string };
  content_scripts: { matches: string[]; js: string[]; world?: string }[];
}

describe('the extension folder for attach mode', () => {
  it('[SEC-HOSTS] holds the bundles and a manifest allowing exactly the allow list, with the id aite pins', async () => {
    const out = join(dir, 'nested', 'aite-extension');
    await ExtensionStage.writeFiles(out, allowPatterns(['http://127.0.0.1:4173', 'https://shop.example']), ExtensionStage.checkBuild(build));
    expect((await readdir(out)).sort()).toEqual(['content.js', 'guard-start.js', 'manifest.json', 'page-errors.js', 'worker.js']);
    expect(await readFile(join(out, 'worker.js'), 'utf8')).toBe('// worker.js');
    expect((await stat(out)).mode & 0o777).toBe(0o700);
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest).toMatchObject({ manifest_version: 3, name: 'aite', background: { service_worker: 'worker.js' } });
    expect(manifest.host_permissions).toEqual(['http://127.0.0.1:4173/*', 'https://shop.example/*']);
    for (const script of manifest.content_scripts) expect(script.matches).toEqual(manifest.host_permissions);
    expect(extensionIdFromKey(manifest.key)).toBe(AITE_EXTENSION_ID);
  });

  it('[PERR-HIDDEN] the page-error relay and its listener share a channel name that is random per staged extension', async () => {
    const names: string[] = [];
    for (const out of [join(dir, 'a'), join(dir, 'b')]) {
      await ExtensionStage.writeFiles(out, allowPatterns(['http://127.0.0.1:4173']), build);
      const relay = await readFile(join(out, 'page-errors.js'), 'utf8');
      const listener = await readFile(join(out, 'content.js'), 'utf8');
      expect(relay).not.toContain(PAGE_ERROR_CHANNEL);
      const name = /"(x[0-9a-f]{24})"/.exec(relay)?.[1];
      expect(name).toBeDefined();
      expect(listener).toContain(`"${name}"`);
      names.push(name!);
    }
    expect(names[0]).not.toBe(names[1]);
  });

  it('writing again updates the manifest in place and keeps bridge.json', async () => {
    const out = join(dir, 'ext');
    await ExtensionStage.writeFiles(out, allowPatterns(['http://127.0.0.1:4173']), build);
    await writeFile(join(out, 'bridge.json'), '{}');
    await refuseForeignFolder(out);
    await ExtensionStage.writeFiles(out, allowPatterns(['http://127.0.0.1:5000']), build);
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.host_permissions).toEqual(['http://127.0.0.1:5000/*']);
    expect(await readFile(join(out, 'bridge.json'), 'utf8')).toBe('{}');
  });

  it('an empty or missing folder is fine; a folder of other files, or a file, is refused and left alone', async () => {
    await refuseForeignFolder(join(dir, 'missing'));
    await mkdir(join(dir, 'empty'));
    await refuseForeignFolder(join(dir, 'empty'));
    const home = join(dir, 'home');
    await mkdir(home);
    await writeFile(join(home, 'notes.txt'), 'mine');
    await expect(stageExtension({ allow: ['http://127.0.0.1:4173'], dir: home })).rejects.toThrow(/not empty and is not an aite extension folder \(it holds notes\.txt\)/);
    expect(await readdir(home)).toEqual(['notes.txt']);
    await expect(stageExtension({ allow: ['http://127.0.0.1:4173'], dir: join(home, 'notes.txt') })).rejects.toThrow(/is a file/);
  });

  it('bad options are refused with what to write instead, before anything is written', async () => {
    const out = join(dir, 'never');
    await expect(stageExtension({ allow: [], dir: out })).rejects.toThrow(/`allow` is empty/);
    await expect(stageExtension({ allow: ['http://127.0.0.1:4173/app'], dir: out })).rejects.toThrow(/without a path, like "http:\/\/127\.0\.0\.1:4173"/);
    await expect(stageExtension({ allow: ['http://127.0.0.1:4173'], dir: '' })).rejects.toThrow(/stageExtension\(\): dir/);
    await expect(stat(out)).rejects.toThrow(/ENOENT/);
  });

  it('attach() refuses a folder that is not the extension, or one that does not allow the run, before it starts a bridge', async () => {
    const error = await attach({ extensionDir: dir, allow: ['http://127.0.0.1:4173'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(/has no manifest\.json: it is not the aite extension's folder\. Write one with stageExtension/);
    const out = join(dir, 'ext');
    await ExtensionStage.writeFiles(out, allowPatterns(['http://127.0.0.1:4173']), build);
    await expect(attach({ extensionDir: out, allow: ['http://127.0.0.1:4173', 'http://127.0.0.1:9999'] })).rejects.toThrow(
      /may not touch http:\/\/127\.0\.0\.1:9999 \(its host permissions: http:\/\/127\.0\.0\.1:4173\/\*\)/,
    );
    expect((await readdir(out)).includes('bridge.json')).toBe(false);
  });
});
