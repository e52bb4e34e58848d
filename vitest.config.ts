import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const alias = { aite: fileURLToPath(new URL('./src/sdk/index.ts', import.meta.url)) };

// End-to-end files whose time goes into child processes (runners, the CLI, a packed package,
// processes stopped by signals) that wait mostly on their own Chrome and timers: a project of
// their own, whose concurrent tests run two at a time.
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
// file name. All run together, two files at a time (two cores): a file waits mostly on its
// Chrome, and each file has a Chrome, a bridge and a temp profile of its own. A test that reads
// machine-wide state (ports, processes, temp folders) reads only what its own session holds.
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
          maxWorkers: 2,
          // The files run one after another in each worker: the SDK and puppeteer are imported once
          // per worker, not once per file (about a second each). Each file still launches its own Chrome.
          isolate: false,
        },
      },
    ],
  },
});
