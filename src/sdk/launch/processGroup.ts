import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { hasExited, procState } from '../system/processState.js';
// The processes aite starts (Chrome, the config's web server) each lead a process group of their
// own, so what they start in turn is stopped with them: these are the ways a group is ended.

/** Kills a process and its group at once (puppeteer starts Chrome as the leader of its own group). */
export function killGroup(pid: number): void {
  signalGroup(pid, 'SIGKILL');
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Ends what is left of Chrome's process group and resolves once none of it lives, or after
 * `deadlineMs` (false then). The browser process can be gone while its helpers are not: after a
 * crash or a kill of the browser process alone nobody kills them, and they take seconds to notice
 * (more under load). Meanwhile the network service writes the HTTP cache index into the profile,
 * so a profile removed before they are gone comes back.
 */
export async function endGroup(pid: number, deadlineMs: number): Promise<boolean> {
  // Only the group (-pid): the leader itself was reaped, and its pid may be another process's now.
  // A group's id is not reused while any member lives, so -pid still names Chrome's helpers.
  signalGroup(pid, 'SIGKILL');
  return groupGone(pid, deadlineMs);
}

/**
 * Asks a process group to stop (SIGTERM, so a server can close its connections), kills what is
 * left of it after `graceMs` (SIGKILL), and resolves once none of it lives, or `killMs` after the
 * kill (false then). The leader's own exit is not enough: a shell's or npm's children outlive it.
 */
export async function stopGroup(pid: number, graceMs: number, killMs: number): Promise<boolean> {
  if (!signalGroup(pid, 'SIGTERM')) return true;
  if (await groupGone(pid, graceMs)) return true;
  signalGroup(pid, 'SIGKILL');
  return groupGone(pid, killMs);
}

/** Sends `signal` to the process group `pid` leads; whether any process of it was there. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether a process of the group `pid` leads still runs. A member that has exited but is not yet
 * reaped (a zombie) still answers `kill(-pid, 0)`, and one whose parent is gone waits for the
 * machine's first process to reap it: a container's init may take a second or more, and a
 * container whose first process is a program that never reaps leaves it for ever. A zombie writes
 * nothing and holds nothing, so where Linux says (/proc) a group of zombies is gone; elsewhere,
 * or when /proc shows none of the group, `kill` is believed.
 */
export function groupLives(pid: number): boolean {
  if (!signalGroup(pid, 0)) return false;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  let seen = false;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const proc = procState(Number(entry));
    if (proc?.group !== pid) continue;
    if (!hasExited(proc.state)) return true;
    seen = true;
  }
  return !seen;
}

async function groupGone(pid: number, deadlineMs: number): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (groupLives(pid)) {
    if (Date.now() >= end) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

/**
 * Closes Chrome (its browser process, `pid`, leads its group) with `close`, as a session's close
 * does, and kills what is left of its group after `graceMs` — also when this process is gone by
 * then (a runner's SIGKILL follows its SIGTERM soon): a detached watcher does it. Resolves when
 * the browser process has exited or `graceMs` passed.
 */
export function endGracefully(pid: number, close: () => Promise<void>, exited: Promise<unknown>, graceMs: number): Promise<void> {
  close().catch(() => undefined);
  const watcher = `const [pid, ms] = process.argv.slice(1).map(Number); const end = Date.now() + ms;
const alive = () => { try { process.kill(-pid, 0); return true; } catch (e) { return e.code === 'EPERM'; } };
setInterval(() => { if (!alive()) process.exit(0); if (Date.now() >= end) { try { process.kill(-pid, 'SIGKILL'); } catch {} process.exit(0); } }, 100);`;
  try {
    spawn(process.execPath, ['-e', watcher, String(pid), String(graceMs)], { detached: true, stdio: 'ignore' }).unref();
  } catch {
    // Without a watcher Chrome still ends on its own; only one that hangs on close would stay.
  }
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]).then(
    () => clearTimeout(timer),
    () => clearTimeout(timer),
  );
}
