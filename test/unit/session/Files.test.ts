import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AiteError } from '../../../src/sdk/index.js';
import { checkFiles } from '../../../src/sdk/session/pipe/Files.js';

const dir = await mkdtemp(join(tmpdir(), 'aite-files-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function refusal(files: unknown): Promise<AiteError> {
  const error = await checkFiles(files as string[], dir).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AiteError);
  expect((error as AiteError).reason).toBe('unsupported');
  return error as AiteError;
}

describe('checkFiles (what upload sends)', () => {
  it('[STEP-ARGS] a path or a list of paths, relative to the folder given; [] clears', async () => {
    await writeFile(join(dir, 'a.txt'), 'a');
    expect(await checkFiles('a.txt', dir)).toEqual([join(dir, 'a.txt')]);
    expect(await checkFiles(['a.txt', join(dir, 'a.txt')], dir)).toEqual([join(dir, 'a.txt'), join(dir, 'a.txt')]);
    expect(await checkFiles([], dir)).toEqual([]);
  });

  it('[STEP-ARGS] neither a path nor a list, an empty path, a folder or no file is refused saying which', async () => {
    expect((await refusal(5)).message).toBe('upload takes a path or a list of paths ([] clears the input); it was given the number 5. Nothing was sent.');
    expect((await refusal(undefined)).message).toMatch(/it was given nothing\./);
    expect((await refusal([''])).message).toBe('upload: each file is a path (a non-empty string).');
    expect((await refusal('.')).message).toBe(`upload: there is no file at ${dir} (it is a folder).`);
    expect((await refusal('none.txt')).message).toBe(`upload: there is no file at ${join(dir, 'none.txt')}.`);
  });
});
