import { spawn } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { profileOwner } from '../../../src/sdk/launch/ChromeSingleton.js';
import { tempDirs } from '../../support/tempDirs.js';

const tempDir = tempDirs();
const lockedBy = async (pid: number): Promise<string> => {
  const dir = await tempDir('aite-singleton-');
  symlinkSync(`${hostname()}-${pid}`, join(dir, 'SingletonLock'));
  return dir;
};
let parent: ReturnType<typeof spawn> | undefined;
afterEach(() => void parent?.kill('SIGKILL'));

describe('who holds a profile', () => {
  it('[PROFILE-IN-USE] a live process named by SingletonLock holds it; no lock, no holder', async () => {
    expect(profileOwner(await lockedBy(process.pid))).toBe(process.pid);
    expect(profileOwner(await tempDir('aite-singleton-'))).toBeUndefined();
  });

  it('[PROFILE-IN-USE] a Chrome that exited but is not yet reaped (a zombie) holds nothing', async () => {
    // A shell's background child that outlives the shell's exec into `sleep`, which never waits
    // for it: killed only then, it stays a zombie (killed earlier, the shell could reap it).
    parent = spawn('sh', ['-c', 'sleep 60 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const pid = Number(await new Promise<string>((resolve) => parent!.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()))));
    await expect.poll(() => readFileSync(`/proc/${parent!.pid}/cmdline`, 'utf8'), { timeout: 5_000 }).toBe('sleep\u000030\u0000');
    process.kill(pid, 'SIGKILL');
    await expect.poll(() => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0], { timeout: 5_000 }).toBe('Z');
    expect(() => process.kill(pid, 0)).not.toThrow();
    expect(profileOwner(await lockedBy(pid))).toBeUndefined();
  });
});
