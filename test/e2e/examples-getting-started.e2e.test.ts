import { execFile, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// docs/getting-started.md, followed to the letter in an empty folder: its `sh` blocks are run in
// order with bash (one shell per block, the folder carried from block to block), and its
// `file=<path>` blocks are written where they say. Two substitutions only: `apt-get` lines are
// checked, not run (the machine has Chromium; .ci/run installs it), and `aite` in `npm install`
// is this repository's packed tarball instead of the registry's. That tarball is made the way the
// guide's from-source block makes it: `npm pack` in a clean copy of the repository that was never
// built (its `prepack` must build dist/), with this checkout's node_modules standing in for
// `npm ci` (same lock file, no network). The from-source block itself is checked, not run: its
// `git clone` has no URL to clone here.
const root = resolve(process.env.AITE_PACKAGE_ROOT ?? resolve(__dirname, '../..'));
const guide = readFileSync(resolve(__dirname, '../../docs/getting-started.md'), 'utf8');
/** A child process that does not block the event loop, so two type checks run at once. */
const run = promisify(execFile);

interface Block {
  lang: string;
  file: string | undefined;
  fromSource: boolean;
  body: string;
}

const blocks: Block[] = [...guide.matchAll(/^```(\w*)([^\n]*)\n([\s\S]*?)^```$/gm)].map((m) => ({
  lang: m[1]!,
  file: /\bfile=(\S+)/.exec(m[2]!)?.[1],
  fromSource: /\bfrom-source\b/.test(m[2]!),
  body: m[3]!,
}));

/** Each `sh` block, with the files the guide shows before it. */
const steps: Array<{ files: Block[]; commands: string }> = [];
let pending: Block[] = [];
for (const block of blocks) {
  if (block.file) pending.push(block);
  else if (block.lang === 'sh' && !block.fromSource) {
    steps.push({ files: pending, commands: block.body });
    pending = [];
  }
}
if (pending.length > 0) steps.push({ files: pending, commands: '' });

const scratch = mkdtempSync(join(tmpdir(), 'aite-guide-'));
let cwd = join(scratch, 'home');
let tarball = '';

beforeAll(() => {
  mkdirSync(cwd, { recursive: true });
  mkdirSync(join(scratch, 'tmp'));
  // A clean copy: the files git knows (committed or not, minus ignored ones), so no dist/.
  const clone = join(scratch, 'clone');
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(root, file))) continue;
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    copyFileSync(join(root, file), join(clone, file));
  }
  expect(existsSync(join(clone, 'dist'))).toBe(false);
  symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'), 'dir');
  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', scratch], { cwd: clone, encoding: 'utf8', env: cleanEnv() });
  tarball = join(scratch, packed.trim().split('\n').at(-1)!);
}, 600_000);
// The guide's project holds three runners' node_modules: removing it is slow on a loaded machine.
afterAll(() => rmSync(scratch, { recursive: true, force: true }), 180_000);

function adapt(commands: string): string {
  return commands
    .split('\n')
    .map((line) => {
      if (/\bapt-get install\b/.test(line)) {
        expect(line).toContain('chromium');
        return `# (checked, not run) ${line}`;
      }
      if (/^npm install\b/.test(line.trim())) return line.replace(/(\s)aite(?=\s|$)/, `$1${tarball}`);
      return line;
    })
    .join('\n');
}

function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TMPDIR: join(scratch, 'tmp'),
    NO_COLOR: '1',
    CI: 'true',
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'NODE_OPTIONS' || key === 'TEST') delete env[key];
  return env;
}

function bash(script: string): Promise<{ code: number | null; output: string }> {
  const env = cleanEnv();
  return new Promise((done, fail) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, output }));
  });
}

describe('docs/getting-started.md, followed in an empty folder', () => {
  it('gives a from-source path: clone, npm ci, npm pack, and npm install of the file', () => {
    const fromSource = blocks.filter((block) => block.fromSource);
    expect(fromSource).toHaveLength(1);
    const commands = fromSource[0]!.body;
    for (const command of ['git clone ', 'npm ci', 'npm pack', 'npm install --save-dev ../aite/aite-*.tgz']) expect(commands).toContain(command);
    // The published path is there too, and is what the steps below run (with the packed file).
    expect(steps.some((step) => /^npm install --save-dev aite$/m.test(step.commands))).toBe(true);
  });

  it('the package packed from a clean copy ships a built dist/, the docs and the sources its maps name', () => {
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
    for (const file of ['package/dist/sdk/index.js', 'package/dist/cli/aite.js', 'package/dist/extension/worker.js', 'package/docs/cli.md', 'package/src/sdk/index.ts', 'package/schema/aite-script.schema.json', 'package/etc/aite.api.md', 'package/examples/vitest/wallet.test.mjs', 'package/examples/demo/server.mjs']) {
      expect(listing).toContain(file);
    }
    // A stack trace through the package (Jest and Vitest follow the source maps) names files it has.
    for (const map of ['dist/sdk/index.js.map', 'dist/embed/vitest.js.map', 'dist/embed/jest.cjs.map']) {
      const { sources } = JSON.parse(execFileSync('tar', ['-xzOf', tarball, `package/${map}`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })) as { sources: string[] };
      for (const source of sources) expect(listing, `${map} names ${source}`).toContain(`package/${join(dirname(map), source)}`);
    }
  });

  it('shows a test for each runner, and the commands that run them', () => {
    const commands = steps.map((step) => step.commands).join('\n');
    for (const run of ['npx vitest run', 'npx jest', 'npx mocha', 'node --test']) expect(commands).toContain(run);
    expect(blocks.filter((block) => block.file?.startsWith('tests/')).length).toBe(4);
  });

  for (const [index, step] of steps.entries()) {
    const title = step.commands.trim() || `writes ${step.files.map((file) => file.file).join(', ')}`;
    it(`${index + 1}. ${title.split('\n').join(' · ')}`, async () => {
      for (const file of step.files) {
        const path = join(cwd, file.file!);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, file.body);
      }
      if (!step.commands.trim()) return;
      const where = join(scratch, 'cwd');
      const result = await bash(`${adapt(step.commands)}\npwd > ${JSON.stringify(where)}`);
      expect(result.code, result.output).toBe(0);
      // aite/vitest makes Vitest warn of nothing in the user's run (Vitest 4.1 warns on an import of vitest/suite).
      if (step.commands.includes('vitest run')) expect(result.output).not.toMatch(/deprecated/i);
      cwd = readFileSync(where, 'utf8').trim();
    }, 600_000);
  }
});

// The same packed file, seen by a TypeScript user's compiler under each module setting a project
// may have: nodenext from ESM (.mts) and from CommonJS (.cts), which read package.json `exports`
// as Node does; bundler; and node10, which reads `types` and ignores `exports`. A type that reads
// differently under one of them (an `export =` package imported as a default) fails the consumer
// file here rather than in a user's editor. The declarations themselves are checked once
// (skipLibCheck off under nodenext ESM, the strictest reader); checking them under every setting
// would double the time for nothing more. The compiler and @types/node are this checkout's: the
// folder has no network of its own to install them from.
describe.concurrent('the packed package type-checks in a TypeScript project, under every module setting', () => {
  const project = join(scratch, 'types');
  const consumer = `import { AiteError, BridgeEvent, SessionEvent, launch, type Session, type StepRecord } from 'aite';

export async function run(): Promise<void> {
  const session: Session = await launch({ allow: ['http://127.0.0.1:4173'] });
  session.on('step', (record: StepRecord) => console.log(record.name, record.ok));
  session.on(SessionEvent.Warning, (warning) => console.warn(warning.code));
  session.once('pageError', (error) => console.warn(error.kind, error.text));
  session.bridge.on('hello', (hello) => console.log(hello.extVersion));
  session.bridge.on(BridgeEvent.Disconnected, ({ code, reason }) => console.warn(code, reason));
  // @ts-expect-error: not an event of the session
  session.on('hello', () => undefined);
  await session.verify.text('ok').catch((error: unknown) => {
    if (error instanceof AiteError) console.error(error.reason);
  });
  await session.close();
}
`;
  // A runner entry from CommonJS: aite/vitest is ESM (Vitest loads it so), but its types must resolve through `require`.
  const vitestConsumer = `import { useAite, type SessionFixture } from 'aite/vitest';

export const fixture: (allow: string[]) => SessionFixture = (allow) => useAite({ allow });
`;
  // One project, so one compiler run, per setting: its files are the consumers it type-checks.
  const settings: Record<string, { dir: string; files: Record<string, string>; compilerOptions: Record<string, unknown> }> = {
    'nodenext, ESM (.mts)': { dir: 'esm', files: { 'esm.mts': consumer }, compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', skipLibCheck: false } },
    'nodenext, CommonJS (.cts), aite and aite/vitest': {
      dir: 'cjs',
      files: { 'cjs.cts': consumer, 'cjs-vitest.cts': vitestConsumer },
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' },
    },
    bundler: { dir: 'bundler', files: { 'bundler.ts': consumer }, compilerOptions: { module: 'esnext', moduleResolution: 'bundler' } },
    // TypeScript 6 deprecates node10; projects on it still exist.
    'node10, CommonJS': { dir: 'node10', files: { 'node10.ts': consumer }, compilerOptions: { module: 'commonjs', moduleResolution: 'node10', ignoreDeprecations: '6.0' } },
  };

  beforeAll(() => {
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'types-check', private: true }));
    execFileSync('npm', ['install', '--no-save', tarball], { cwd: project, encoding: 'utf8', env: cleanEnv(), stdio: 'pipe' });
  }, 600_000);

  it.for<[string, (typeof settings)[string]]>(Object.entries(settings))('%s: tsc --noEmit passes', { timeout: 120_000 }, async ([, { dir: name, files, compilerOptions }], { expect }) => {
    const dir = join(project, name);
    mkdirSync(dir, { recursive: true });
    for (const [file, source] of Object.entries(files)) writeFileSync(join(dir, file), source);
    const tsconfig = {
      compilerOptions: {
        target: 'es2022',
        lib: ['es2023', 'dom'],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        typeRoots: [join(root, 'node_modules/@types')],
        types: ['node'],
        ...compilerOptions,
      },
      files: Object.keys(files),
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    const result = await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir, encoding: 'utf8', env: cleanEnv() }).then(
      ({ stdout, stderr }) => ({ status: 0, output: stdout + stderr }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({ status: error.code ?? -1, output: `${error.stdout ?? ''}${error.stderr ?? ''}` }),
    );
    expect(result.status, result.output).toBe(0);
  });
});
