// Runs only the failing twin, wallet.fail.mjs:
//   npx vitest run --config examples/vitest/vitest.fail.config.mjs
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: { include: ['**/*.fail.mjs'], hookTimeout: 60_000, testTimeout: 30_000 },
});
