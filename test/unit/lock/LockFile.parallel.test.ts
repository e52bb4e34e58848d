import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AiteError, LockFile } from '../../../src/sdk/index.js';
import { FileMutex } from '../../../src/sdk/lock/FileMutex.js';

// Several test-runner workers share one lock file. Each is a real process here, with its own
// LockFile, saving several times while the others do.
const root = resolve(__dirname, '../../..');
const cache = join(root, 'node_modules/.cache/aite-lock-parallel');
const writerScript = join(cache, 'writer.mjs');

let dir: string;
beforeAll(async () => {
  mkdirSync(cache, { recursive: true });
  await build({
    stdin: {
      // A writer: opens the file, waits for "go" on stdin, then records `perRound` new targets and
      // saves, `rounds` times; with "repair" it also writes a repair of the shared target.
      contents: `
        import { LockFile } from './src/sdk/lock/LockFile.ts';
        import { createInterface } from 'node:readline';
        const [path, name, rounds, perRound, mode] = process.argv.slice(2);
        const descriptor = (text) => ({ v: 1, tag: 'button', text, xpath: '/html/body/button' });
        const lock = await LockFile.open(path, { updateLock: mode === 'repair' });
        process.stdout.write('ready\\n');
        const lines = createInterface({ input: process.stdin });
        for await (const line of lines) if (line === 'go') break;
        lock.recordExact({ text: 'Shared' }, 'http://h/shared', descriptor('first of ' + name));
        if (mode === 'repair') lock.proposeRepair({ text: 'Shared' }, 'http://h/shared', descriptor('repaired by ' + name), undefined);
        for (let r = 0; r < Number(rounds); r += 1) {
          for (let i = 0; i < Number(perRound); i += 1) lock.recordExact({ text: name + ' ' + r + ' ' + i }, 'http://h/' + name, descriptor(name));
          await lock.save();
        }
        process.stdout.write('saved ' + name + '\\n');
        process.exit(0);
      `,
      resolveDir: root,
      loader: 'ts',
      sourcefile: 'writer.ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: writerScript,
    logLevel: 'warning',
  });
}, 60_000);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aite-lock-parallel-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Writer {
  child: ChildProcess;
  ready: Promise<void>;
  done: Promise<{ code: number | null; output: string }>;
}

function startWriter(path: string, name: string, rounds: number, perRound: number, mode = 'record'): Writer {
  const child = spawn(process.execPath, [writerScript, path, name, String(rounds), String(perRound), mode], { cwd: cache, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ready = new Promise<void>((done, fail) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      output += `${line}\n`;
      if (line === 'ready') done();
    });
    child.once('exit', () => fail(new Error(`writer ${name} exited before it was ready: ${output}`)));
  });
  const done = new Promise<{ code: number | null; output: string }>((settle) => child.once('exit', (code) => settle({ code, output })));
  ready.catch(() => undefined);
  return { child, ready, done };
}

async function entriesOf(path: string): Promise<Record<string, { descriptor: { text: string } }>> {
  return (JSON.parse(await readFile(path, 'utf8')) as { entries: Record<string, { descriptor: { text: string } }> }).entries;
}

describe('LockFile shared by parallel writers', () => {
  it('four processes saving five times each at the same moment lose no entry', async () => {
    const path = join(dir, 'aite.lock.json');
    const names = ['w0', 'w1', 'w2', 'w3'];
    const writers = names.map((name) => startWriter(path, name, 5, 4));
    await Promise.all(writers.map((w) => w.ready));
    for (const w of writers) w.child.stdin!.write('go\n');
    const results = await Promise.all(writers.map((w) => w.done));
    for (const result of results) expect(result.code, result.output).toBe(0);

    const entries = await entriesOf(path);
    const expected = names.flatMap((name) => [0, 1, 2, 3, 4].flatMap((r) => [0, 1, 2, 3].map((i) => LockFile.key({ text: `${name} ${r} ${i}` }, `http://h/${name}`))));
    expect(expected).toHaveLength(80);
    expect(Object.keys(entries).filter((key) => !key.startsWith('/shared'))).toEqual([...expected].sort());
    // Every writer recorded the shared target; the first one saved stays.
    expect(entries['/shared {"text":"Shared"}']!.descriptor.text).toMatch(/^first of w\d$/);
    expect((await readdir(dir)).sort()).toEqual(['aite.lock.json']);
  }, 60_000);

  it('a repair written with updateLock replaces an entry another writer saved; a first exact success does not', async () => {
    const path = join(dir, 'aite.lock.json');
    const descriptor = (text: string) => ({ v: 1 as const, tag: 'button', text, xpath: '/html/body/button' });
    const recorder = await LockFile.open(path);
    const repairer = await LockFile.open(path, { updateLock: true });
    const late = await LockFile.open(path);
    recorder.recordExact({ text: 'Send' }, 'http://h/', descriptor('Send'));
    await recorder.save();
    late.recordExact({ text: 'Send' }, 'http://h/', descriptor('Send (late)'));
    late.recordExact({ text: 'Amount' }, 'http://h/', descriptor('Amount'));
    await late.save();
    expect((await entriesOf(path))['/ {"text":"Send"}']!.descriptor.text).toBe('Send');
    repairer.proposeRepair({ text: 'Send' }, 'http://h/', descriptor('Send now'), undefined);
    await repairer.save();
    const entries = await entriesOf(path);
    expect(entries['/ {"text":"Send"}']!.descriptor.text).toBe('Send now');
    expect(entries['/ {"text":"Amount"}']!.descriptor.text).toBe('Amount');
    // After saving, a writer sees what the others saved.
    expect(repairer.get({ text: 'Amount' }, 'http://h/')?.text).toBe('Amount');
  });

  it('takes over the lock of a writer that died holding it', async () => {
    const path = join(dir, 'aite.lock.json');
    const dead = spawn(process.execPath, ['-e', '0']);
    const pid = await new Promise<number>((done) => dead.once('exit', () => done(dead.pid!)));
    await writeFile(`${path}.lock`, JSON.stringify({ pid, host: (await import('node:os')).hostname(), nonce: 'dead' }));
    const lock = await LockFile.open(path);
    lock.recordExact({ text: 'Send' }, 'http://h/', { v: 1, tag: 'button', text: 'Send', xpath: '/html/body/button' });
    await lock.save();
    expect(Object.keys(await entriesOf(path))).toEqual(['/ {"text":"Send"}']);
    expect((await readdir(dir)).sort()).toEqual(['aite.lock.json']);
  });

  it('takes over a lock older than staleMs whose holder cannot be checked (another host)', async () => {
    const lockPath = join(dir, 'x.lock');
    await writeFile(lockPath, JSON.stringify({ pid: 1, host: 'elsewhere', nonce: 'old' }));
    const old = new Date(Date.now() - 60_000);
    await utimes(lockPath, old, old);
    const order: string[] = [];
    await FileMutex.hold(lockPath, async () => {
      order.push(JSON.parse(await readFile(lockPath, 'utf8')).host);
    });
    expect(order).toHaveLength(1);
    expect(order[0]).not.toBe('elsewhere');
    expect(await readdir(dir)).toEqual([]);
  });

  it('waits for a live holder and, past timeoutMs, fails with a message naming the lock and what to do', async () => {
    const lockPath = join(dir, 'x.lock');
    const held = await FileMutex.acquire(lockPath);
    const error = await FileMutex.acquire(lockPath, { timeoutMs: 150 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AiteError);
    expect((error as AiteError).reason).toBe('timeout');
    expect((error as AiteError).message).toContain(`delete ${lockPath}`);
    const waiting = FileMutex.acquire(lockPath, { timeoutMs: 5_000 });
    await held.release();
    const next = await waiting;
    expect(JSON.parse(await readFile(lockPath, 'utf8')).nonce).toBe(next.nonce);
    await next.release();
    expect(await readdir(dir)).toEqual([]);
  });
});
