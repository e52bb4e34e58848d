import { defineConfig } from 'tsup';
import { embedRunners, embedVitest } from './tsup.config.js';

// The build's second step: the runner entries' declarations, after `tsup` has written the SDK's.
// The entries see 'aite' only through its public API, so here 'aite' is the built
// dist/sdk/index.d.ts rather than src/sdk/index.ts: emitting a few small declaration files then
// does not type-check the whole SDK again for each of the two configs (the SDK's own declaration
// build and `npm run typecheck` check it).
const dts = { only: true, compilerOptions: { paths: { aite: ['./dist/sdk/index.d.ts'] } } };

export default defineConfig([
  // clean: false, because the first step's clean already emptied dist/embed, and its bundles stay.
  { ...embedRunners, clean: false, dts },
  // Declarations in both forms: a CommonJS TypeScript project (nodenext) imports aite/vitest
  // through `require` types; Vitest loads the ESM file whatever the project's type, so the
  // `require` condition has types only and Node's require() of it still fails.
  { ...embedVitest, format: ['esm', 'cjs'], clean: false, dts },
]);
