import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { processLives } from '../../../src/sdk/system/processState.js';

/** Running, not a zombie waiting for a parent that is gone to reap it. */
export const alive = processLives;

/** The profile folder a Chrome command line names (`--user-data-dir=`), if it names one. */
export function profileDirOf(args: readonly string[]): string | undefined {
  return args.find((a) => a.startsWith('--user-data-dir='))?.slice('--user-data-dir='.length);
}

/** Live processes whose command line names `needle` (a Chrome of a run left running). */
export function processesWith(needle: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle) && alive(Number(entry))) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** A child started by {@link startJob}. */
export interface Job {
  proc: ChildProcess;
  /** Its TMPDIR: a Chrome of its own names it, so {@link processesWith} finds what it left. */
  tmp: string;
  output: () => string;
  /** Resolves with how it ended, and when its last output came. */
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number; lastOutputAt: number }>;
}

/**
 * Starts `node args` in `dir` as the leader of its own process group, as a shell starts a job,
 * with a TMPDIR of its own under `dir`, no color and none of this runner's variables.
 */
export function startJob(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): Job {
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const clean = { ...process.env };
  for (const key of Object.keys(clean)) if (key.startsWith('VITEST') || key === 'NODE_OPTIONS') delete clean[key];
  const proc = spawn(process.execPath, args, { cwd: dir, env: { ...clean, TMPDIR: tmp, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  let lastOutputAt = Date.now();
  const onData = (d: Buffer): void => {
    out += d.toString();
    lastOutputAt = Date.now();
  };
  proc.stdout!.on('data', onData);
  proc.stderr!.on('data', onData);
  const ended = new Promise<Awaited<Job['ended']>>((done) => proc.on('close', (code, signal) => done({ code, signal, at: Date.now(), lastOutputAt })));
  return { proc, tmp, output: () => out, ended };
}

/**
 * Runs `node args` in `dir` to its end, as a test runner child: this runner's variables (VITEST*,
 * NODE_OPTIONS, TEST) left out, no color, CI set, and `env` added. Answers its exit code and its
 * output, stdout and stderr as they came.
 */
export function runChild(dir: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const all: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: 'true', ...env };
  for (const key of Object.keys(all)) if (key.startsWith('VITEST') || key === 'NODE_OPTIONS' || key === 'TEST') delete all[key];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: dir, env: all, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, output }));
  });
}
