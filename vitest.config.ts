import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const alias = { aite: fileURLToPath(new URL('./src/sdk/index.ts', import.meta.url)) };

// End-to-end files whose time goes into child processes (runners, the CLI, a packed package,
// processes stopped by signals) that wait mostly on their own Chrome and timers: they run in the
// first group beside the unit and page files instead of after them, one e2e Chromium of the SDK's
// at a time being kept for the second group.
const processFiles = [
  'test/e2e/runner-timeouts.e2e.test.ts',
  'test/e2e/examples-getting-started.e2e.test.ts',
  'test/e2e/examples.e2e.test.ts',
  'test/e2e/faults-process.e2e.test.ts',
  'test/e2e/process-edges.e2e.test.ts',
  'test/e2e/runner-launch.e2e.test.ts',
];

// Four tiers: unit (no browser), page (page logic in real Chromium, no extension), e2e (real
// Chromium with the real built extension) and the e2e files above. The environment shows in the
// file name. The first group (unit, page, processes) runs two files at a time; the e2e files run
// one at a time after it.
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
          name: 'e2e-processes',
          include: processFiles,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
          // Tests marked concurrent (child-process runners that wait mostly on their own Chrome) run two at a time.
          maxConcurrency: 2,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.test.ts'],
          exclude: processFiles,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Two cores: one Chromium at a time keeps timings honest.
          fileParallelism: false,
          // The files run one after another in one worker: the SDK and puppeteer are imported once,
          // not once per file (about a second each). Each file still launches its own Chrome.
          isolate: false,
          // After the first group (a group of its own: it runs with one worker).
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
