// `npm run bench` (after `npm run build`): bundles the benchmark into bench/out/ with esbuild and
// runs it. Arguments are passed on: `npm run bench -- --quick`, `-- --only launch,primitives`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const common = { bundle: true, logLevel: 'warning', absWorkingDir: root };

await Promise.all([
  build({
    ...common,
    entryPoints: { run: 'bench/run.ts', driver: 'bench/driver.ts' },
    outdir: 'bench/out',
    outExtension: { '.js': '.mjs' },
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // The tools run as installed; aite is its built package (dist/, via its own package name).
    external: ['aite', 'playwright-core', 'puppeteer-core'],
  }),
  // The content script's repair function alone, evaluated in the drifted page to time it there.
  build({
    ...common,
    entryPoints: ['bench/inpage/repairTimer.ts'],
    outfile: 'bench/out/repair-timer.js',
    platform: 'browser',
    format: 'iife',
    globalName: 'aiteBenchRepair',
    target: 'chrome120',
  }).catch((error) => console.warn(`bench: no in-page repair timer (${error.message.split('\n')[0]})`)),
]);

const child = spawn(process.execPath, ['bench/out/run.mjs', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
