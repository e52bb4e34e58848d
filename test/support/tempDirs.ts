import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * Makes folders in the OS temp dir that are removed when the file or describe block that called
 * `tempDirs()` ends, so a test run leaves nothing behind. Call it at the top of a file or a
 * describe block (it registers an afterAll there), then `await tempDir('aite-x-')` in the tests.
 */
export function tempDirs(): (prefix: string) => Promise<string> {
  const made: string[] = [];
  afterAll(() => Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 5 }))));
  return async (prefix) => {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
