import { defineConfig, type Options } from 'tsup';
import { extensionZod } from './build/extensionZodPlugin.js';

// Embedding: one thin entry per test runner (aite/vitest, aite/jest, aite/jest-environment,
// aite/mocha, aite/node-test), each over the public API: 'aite' stays external so a test file
// and its helper share one copy of the SDK. The runners themselves are never bundled.
export const embedRunners = {
  entry: {
    jest: 'src/embed/jest.ts',
    'jest-environment': 'src/embed/jest-environment.ts',
    mocha: 'src/embed/mocha.ts',
    'node-test': 'src/embed/node-test.ts',
  },
  outDir: 'dist/embed',
  format: ['esm', 'cjs'],
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
  external: ['aite', 'jest-environment-node'],
  // Keep `node:test` as written: there is no bare `test` module.
  removeNodeProtocol: false,
} satisfies Options;

// Vitest is ESM only, so its entry is too.
export const embedVitest = {
  entry: { vitest: 'src/embed/vitest.ts' },
  outDir: 'dist/embed',
  format: ['esm'],
  sourcemap: true,
  clean: false,
  target: 'node20',
  platform: 'node',
  external: ['aite', 'vitest'],
} satisfies Options;

// Four products from one source tree: the SDK (ESM + CJS + types), the CLI, the extension's
// two bundles, and the runner entries. The extension bundles are self-contained because Chrome
// loads them from the staged extension folder, where there is no node_modules.
export default defineConfig([
  {
    entry: { index: 'src/sdk/index.ts' },
    outDir: 'dist/sdk',
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    // import.meta.url in the CJS build: the SDK finds its extension bundles next to itself.
    shims: true,
    // A class that names itself inside its body is emitted as `class _Name`; users see
    // `error.constructor.name` in runners' output, so it must read AiteError, Session, Bridge.
    keepNames: true,
    clean: true,
    target: 'node20',
    platform: 'node',
  },
  {
    entry: { aite: 'src/cli/main.ts' },
    outDir: 'dist/cli',
    format: ['esm'],
    sourcemap: true,
    clean: true,
    target: 'node20',
    platform: 'node',
    banner: { js: '#!/usr/bin/env node' },
    // The CLI is built over the public API only: it loads the SDK bundle, never a second copy.
    external: ['aite'],
  },
  {
    entry: { worker: 'src/extension/worker/main.ts' },
    outDir: 'dist/extension',
    format: ['esm'],
    // The extension folder is wiped first, so no stale bundle survives a rename.
    clean: true,
    minify: true,
    target: 'chrome120',
    platform: 'browser',
    noExternal: [/.*/],
    // A smaller worker starts sooner: see build/extension-zod.ts.
    esbuildPlugins: [extensionZod],
  },
  {
    entry: { content: 'src/extension/content/main.ts', 'guard-start': 'src/extension/content/guardStart.ts', 'page-errors': 'src/extension/content/mainWorld.ts' },
    outDir: 'dist/extension',
    format: ['iife'],
    outExtension: () => ({ js: '.js' }),
    clean: false,
    minify: true,
    target: 'chrome120',
    platform: 'browser',
    noExternal: [/.*/],
    // A content script loads in every page: see build/extension-zod.ts.
    esbuildPlugins: [extensionZod],
  },
  // Their declarations come from tsup.types.config.ts, the build's second step.
  embedRunners,
  embedVitest,
]);
