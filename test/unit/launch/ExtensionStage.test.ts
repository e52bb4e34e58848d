import { lstat, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AiteError, findChrome, UsageError } from '../../../src/sdk/index.js';
import { ExtensionStage, allowPatterns } from '../../../src/sdk/launch/ExtensionStage.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aite-stage-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('bridge.json and the staged extension', () => {
  it('row 18: is written 0600 through a temp file, and a planted symlink is replaced, never followed', async () => {
    const victim = join(dir, 'victim.txt');
    await writeFile(victim, 'untouched');
    await symlink(victim, join(dir, 'bridge.json'));
    await ExtensionStage.writeBridgeConfigInto(dir, { url: 'ws://127.0.0.1:1/ext', token: 'a'.repeat(32), profile: 'p' });
    expect(await readFile(victim, 'utf8')).toBe('untouched');
    const file = join(dir, 'bridge.json');
    expect((await lstat(file)).isSymbolicLink()).toBe(false);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ profile: 'p' });
  });

  it('row 22: host permissions are exactly the allow list, and bad entries are refused with a clear error', () => {
    expect(allowPatterns(['http://127.0.0.1:4173', 'https://example.test'])).toEqual(['http://127.0.0.1:4173/*', 'https://example.test/*']);
    expect(() => allowPatterns([])).toThrow(/allow/);
    expect(() => allowPatterns(['http://127.0.0.1:4173/app'])).toThrow(/without a path/);
    expect(() => allowPatterns(['file:///etc'])).toThrow(UsageError);
    expect(() => allowPatterns(['not a url'])).toThrow(/not an origin/);
  });

  it('row 39: no Chrome found names what was tried and what to do', () => {
    expect(() => findChrome('/nonexistent/chrome')).toThrow(/not found at \/nonexistent\/chrome/);
    const error = (() => {
      try {
        findChrome(undefined, { AITE_CHROME: '/nope' });
      } catch (e) {
        return e as AiteError;
      }
    })();
    expect(error?.message).toMatch(/AITE_CHROME/);
  });
});
