import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../support/FixtureServer.js';

/** The repository's root: runner children run inside it so that `aite` resolves to this package. */
export const repoRoot = resolve(__dirname, '../../..');

/**
 * A fixture server and a folder for runner children, made once per test file: the folder under
 * the repository's temp/ (ignored by git), removed after the file. `ready` is told both.
 */
export function useRunnerFolder(prefix: string, ready: (server: FixtureServer, dir: string) => void): void {
  let server: FixtureServer | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    server = await startFixtureServer();
    mkdirSync(join(repoRoot, 'temp'), { recursive: true });
    dir = mkdtempSync(join(repoRoot, 'temp', prefix));
    ready(server, dir);
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
}
