import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { groupLives, signalGroup } from '../../../src/sdk/launch/processGroup.js';
import { procState, processLives } from '../../../src/sdk/system/processState.js';

let leader: ChildProcess | undefined;
afterEach(() => void leader?.kill('SIGKILL'));

/** Blocks until `pid` reads as a zombie: this process reaps its children only between its tasks, so until this task ends it stays one. */
function untilZombie(pid: number): void {
  const end = Date.now() + 5_000;
  while (procState(pid)?.state !== 'Z') if (Date.now() > end) throw new Error(`${pid} did not become a zombie within 5 s`);
}

describe('a process group ends', () => {
  it('[CLOSE-GROUP-GONE] a group lives while a member runs, and has ended once its members are zombies, though kill(-pid, 0) still reaches them', async () => {
    leader = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    const pid = leader.pid!;
    await expect.poll(() => procState(pid)?.state, { timeout: 5_000 }).toBe('S');
    expect(procState(pid)?.group).toBe(pid);
    expect(groupLives(pid)).toBe(true);
    expect(processLives(pid)).toBe(true);
    process.kill(pid, 'SIGKILL');
    untilZombie(pid);
    expect(signalGroup(pid, 0)).toBe(true);
    expect(groupLives(pid)).toBe(false);
    expect(processLives(pid)).toBe(false);
    // Once reaped it is gone to kill() too.
    await expect.poll(() => signalGroup(pid, 0), { timeout: 5_000 }).toBe(false);
    expect(groupLives(pid)).toBe(false);
  });
});
