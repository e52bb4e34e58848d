import { readFileSync } from 'node:fs';
// What Linux's /proc says of a process, where `kill(pid, 0)` cannot tell: a process that has
// exited but is not yet reaped (a zombie) still answers it, though it writes and holds nothing.

/**
 * A process's state letter (`R`, `S`, `Z` …) and process group as Linux's /proc tells them;
 * undefined without /proc or once the process is gone.
 */
export function procState(pid: number): { state: string; group: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) S ppid pgrp …": the fields follow the last ')', as comm may hold spaces and parentheses.
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return state && group ? { state, group: Number(group) } : undefined;
  } catch {
    return undefined;
  }
}

/** A state of a process that has exited: a zombie not yet reaped (`Z`), or one being reaped (`X`). */
export const hasExited = (state: string): boolean => state === 'Z' || state === 'X';

/**
 * Whether process `pid` runs: it answers `kill(pid, 0)` (EPERM: it does, and is another user's)
 * and, where /proc says, is not a zombie. A script that died took its Chrome down and nobody has
 * waited for it yet: it holds no profile and no lock.
 */
export function processLives(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const proc = procState(pid);
  return proc === undefined || !hasExited(proc.state);
}
