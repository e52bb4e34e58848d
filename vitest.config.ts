import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const alias = { aite: fileURLToPath(new URL('./src/sdk/index.ts', import.meta.url)) };

// Three tiers: unit (no browser), page (page logic in real Chromium, no extension), and e2e
// (real Chromium with the real built extension). The environment shows in the file name.
// Vitest gives a 2-core machine one worker (cores - 1): unit and page files share no browser or
// port, so they run two at a time; e2e files run one at a time after them.
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 10_000, maxWorkers: 2 },
      },
      {
        resolve: { alias },
        test: { name: 'page', include: ['test/page/**/*.page.test.ts'], testTimeout: 30_000, hookTimeout: 60_000, maxWorkers: 2 },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Two cores: one Chromium at a time keeps timings honest.
          fileParallelism: false,
          // The files run one after another in one worker: the SDK and puppeteer are imported once,
          // not once per file (about a second each). Each file still launches its own Chrome.
          isolate: false,
          // After the unit and page files (a group of its own: it runs with one worker).
          sequence: { groupOrder: 1 },
          // Tests marked concurrent (child-process runners that wait mostly on their own Chrome) run two at a time.
          maxConcurrency: 2,
        },
      },
    ],
  },
});
