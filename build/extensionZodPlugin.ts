import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

/**
 * The extension bundles' `import { z } from 'zod'` (exactly that specifier) resolves to
 * build/extension-zod.ts: only the parts of zod the protocol uses, so a bundle that loads in
 * every page (the content script) or starts the extension (the worker) is a third of the size.
 * The build (tsup.config.ts) and the page tests' bundles of the same code use it.
 */
export const extensionZod: Plugin = {
  name: 'extension-zod',
  setup(build) {
    build.onResolve({ filter: /^zod$/ }, () => ({ path: fileURLToPath(new URL('./extension-zod.ts', import.meta.url)) }));
  },
};
