import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeFolder } from '../../../src/sdk/system/folders.js';

const root = await mkdtemp(join(tmpdir(), 'aite-folders-'));
afterAll(() => rm(root, { recursive: true, force: true }));

describe('makeFolder', () => {
  it('[FOLDERS] makes every missing folder down to the one asked, with the mode asked; again, and from two callers at once, it is not an error', async () => {
    const deep = join(root, 'a', 'b', 'c');
    await makeFolder(deep, { mode: 0o700 });
    expect((await stat(deep)).isDirectory()).toBe(true);
    expect((await stat(join(root, 'a'))).mode & 0o777).toBe(0o700);
    await makeFolder(deep);
    await Promise.all([makeFolder(join(root, 'x', 'y')), makeFolder(join(root, 'x', 'y')), makeFolder(join(root, 'x'))]);
    expect((await stat(join(root, 'x', 'y'))).isDirectory()).toBe(true);
  });

  it('[FOLDERS] a folder the system refuses with ENOENT though its parent is there (under /proc) is an error naming it, where Node\u2019s recursive mkdir never returns', async () => {
    await expect(makeFolder('/proc/aite-none/deeper')).rejects.toMatchObject({ code: 'ENOENT', path: '/proc/aite-none', message: expect.stringMatching(/^cannot make the folder \/proc\/aite-none: ENOENT/) });
  });

  it('[FOLDERS] a file in the way is ENOTDIR, naming the file', async () => {
    const file = join(root, 'plain.txt');
    await writeFile(file, 'x');
    await expect(makeFolder(join(file, 'inside', 'deeper'))).rejects.toMatchObject({ code: 'ENOTDIR', path: file, message: `cannot make the folder ${join(file, 'inside', 'deeper')}: ${file} is a file, not a folder` });
    await expect(makeFolder(file)).rejects.toMatchObject({ code: 'ENOTDIR', path: file, message: `cannot make the folder ${file}: ${file} is a file, not a folder` });
  });
});
