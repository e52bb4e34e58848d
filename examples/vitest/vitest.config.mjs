// Vitest config of the MallBucks example: its own root, so the repository's projects stay out.
// The failing twin runs with `--config examples/vitest/vitest.fail.config.mjs`.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    include: ['**/*.test.mjs'],
    // Chrome starts once per file (in beforeAll); on a loaded CI machine that takes a few seconds.
    hookTimeout: 60_000,
    testTimeout: 30_000,
  },
});
