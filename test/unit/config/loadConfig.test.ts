import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findConfigFile, loadConfig, UsageError } from 'aite';
import { tempDirs } from '../../support/tempDirs.js';

const tempDir = tempDirs();

async function tree(files: Record<string, string>): Promise<string> {
  const root = await tempDir('aite-config-');
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

describe('loadConfig', () => {
  it('is found in the working directory or the nearest folder above it', async () => {
    const root = await tree({ 'aite.config.json': '{ "allow": ["http://127.0.0.1:4173"] }', 'a/b/c/.keep': '' });
    expect(await findConfigFile(join(root, 'a/b/c'))).toBe(join(root, 'aite.config.json'));
    const config = await loadConfig({ cwd: join(root, 'a/b/c') });
    expect(config.file).toBe(join(root, 'aite.config.json'));
    expect(config.allow).toEqual(['http://127.0.0.1:4173']);
  });

  it('resolves paths against the config file and lets flags win', async () => {
    const root = await tree({
      'proj/aite.config.json': JSON.stringify({
        allow: ['http://127.0.0.1:4173'],
        profiles: { sender: { userDataDir: 'profiles/sender' }, receiver: { userDataDir: '/abs/receiver', allow: ['http://127.0.0.1:5000'] } },
        lockFile: 'aite.lock.json',
        timeoutMs: 3000,
        report: { dir: 'out/report', junit: true },
        webServer: { command: 'node server.mjs', url: 'http://127.0.0.1:4173/' },
      }),
    });
    const config = await loadConfig({ cwd: join(root, 'proj') });
    expect(config.profiles).toEqual({
      sender: { userDataDir: join(root, 'proj/profiles/sender'), allow: [], chrome: undefined },
      receiver: { userDataDir: '/abs/receiver', allow: ['http://127.0.0.1:5000'], chrome: undefined },
      default: { allow: [] },
    });
    expect(config.lockFile).toBe(join(root, 'proj/aite.lock.json'));
    expect(config.report).toEqual({ dir: join(root, 'proj/out/report'), junit: true });
    expect(config.webServer).toEqual({ command: 'node server.mjs', url: 'http://127.0.0.1:4173/', cwd: join(root, 'proj'), timeoutMs: 30_000, reuseExisting: true });
    expect(config.headless).toBe(true);

    const flagged = await loadConfig({ cwd: root, file: 'proj/aite.config.json', overrides: { timeoutMs: 9000, report: 'r', headless: false, allow: ['http://x:1'] } });
    expect(flagged.timeoutMs).toBe(9000);
    expect(flagged.report?.dir).toBe(join(root, 'r'));
    expect(flagged.headless).toBe(false);
    expect(flagged.allow).toEqual(['http://127.0.0.1:4173', 'http://x:1']);
  });

  it('has only the default profile and no file when none is found', async () => {
    const root = await tree({ '.keep': '' });
    const config = await loadConfig({ cwd: root });
    expect(config.file === undefined || !config.file.startsWith(root)).toBe(true);
    expect(config.profiles.default).toEqual({ allow: [] });
  });

  it('names the file and the field of a mistake', async () => {
    const root = await tree({ 'aite.config.json': '{\n  "timeoutMs": "5000",\n  "profile": {}\n}' });
    const error = (await loadConfig({ cwd: root }).catch((e: unknown) => e)) as UsageError;
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain('aite.config.json:2:16, field "timeoutMs": expected a number, got the text "5000".');
    expect(error.message).toContain('aite.config.json:3:3, field "profile": unknown field "profile". Did you mean "profiles"?');
  });

  it('says when the named config file is missing, or is not JSON', async () => {
    const root = await tree({ 'bad.json': '{ allow: [] }' });
    await expect(loadConfig({ cwd: root, file: 'nope.json' })).rejects.toMatchObject({ code: 'file-not-found' });
    await expect(loadConfig({ cwd: root, file: 'bad.json' })).rejects.toMatchObject({ code: 'syntax', message: expect.stringMatching(/^bad\.json:1:\d+: this is not valid JSON/) });
  });
});
