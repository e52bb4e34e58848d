// `npm run bench` (after `npm run build`): bundles the benchmark into bench/out/ with esbuild and
// runs it. Arguments are passed on: `npm run bench -- --quick`, `-- --only launch,primitives`.
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const common = { bundle: true, logLevel: 'warning', absWorkingDir: root };

await Promise.all([
  build({
    ...common,
    entryPoints: { run: 'bench/run.ts', driver: 'bench/driver.ts', profile: 'bench/profile.ts', 'profile-launch': 'bench/profile-launch.ts', ab: 'bench/ab.ts', 'ab-worker': 'bench/ab-worker.ts', 'profile-steps': 'bench/profile-steps.ts' },
    outdir: 'bench/out',
    outExtension: { '.js': '.mjs' },
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // The tools run as installed; aite is its built package (dist/, via its own package name).
    // profile.ts imports src/ directly, so only the SDK's own dependencies stay external.
    packages: 'external',
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

// A snapshot of the built package (dist/ and package.json) for the comparison to run against:
// a `npm run build` elsewhere during the run (tsup empties dist/ first) cannot break a launch.
const snapshot = join(root, 'bench/out/aite-pkg');
for (let i = 0; !['sdk/index.js', 'extension/worker.js', 'extension/content.js'].every((f) => existsSync(join(root, 'dist', f))); i++) {
  if (i === 60) throw new Error('bench: dist/ is not built; run `npm run build` first.');
  await new Promise((r) => setTimeout(r, 500));
}
rmSync(snapshot, { recursive: true, force: true });
cpSync(join(root, 'dist'), join(snapshot, 'dist'), { recursive: true });
copyFileSync(join(root, 'package.json'), join(snapshot, 'package.json'));

// `--profile`: aite's path piece by piece (bench/profile.ts) instead of the comparison.
// `--profile-launch`: launch to ready phase by phase, with variants (bench/profile-launch.ts).
// `--ab <case>`: an A/B of one candidate change (bench/ab.ts).
// `--ab-worker --a <dir> --b <dir>`: two builds of the extension side by side (bench/ab-worker.ts).
const mode = ['--profile-steps', '--profile-launch', '--profile', '--ab-worker', '--ab'].find((a) => process.argv.includes(a));
const script = mode ? `bench/out/${mode.slice(2)}.mjs` : 'bench/out/run.mjs';
const rest = process.argv.slice(2);
const child = spawn(process.execPath, [script, ...rest], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, AITE_BENCH_SDK: join(snapshot, 'dist/sdk/index.js') },
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
