import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LockFile } from '../../../src/sdk/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aite-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const send = { v: 1 as const, tag: 'button', text: 'Send', xpath: '/html/body/button', handle: 'doc:1' };

describe('LockFile', () => {
  it('keys by page path and target, so the same target on two pages does not collide', () => {
    expect(LockFile.key({ text: 'Send' }, 'http://127.0.0.1:4173/wallet?x=1')).toBe('/wallet {"text":"Send"}');
    expect(LockFile.key({ name: 'a', role: 'b' }, 'http://h/')).toBe(LockFile.key({ role: 'b', name: 'a' }, 'http://other:1/'));
    expect(LockFile.key({ text: 'Send' }, 'http://h/a')).not.toBe(LockFile.key({ text: 'Send' }, 'http://h/b'));
  });

  it('[ROLE-LOCK] a role target\u2019s filters are part of its key: { checked: true } and { checked: false } are two entries, kept through a save and a reopen', async () => {
    const on = { role: 'checkbox', name: 'Notify', checked: true } as const;
    const off = { role: 'checkbox', name: 'Notify', checked: false } as const;
    const mixed = { role: 'checkbox', name: 'Notify', checked: 'mixed' } as const;
    const h2 = { role: 'heading', name: 'Settings', level: 2 };
    const keys = [on, off, mixed, h2, { role: 'heading', name: 'Settings' }].map((t) => LockFile.key(t, 'http://h/form'));
    expect(new Set(keys).size).toBe(5);
    const path = join(dir, 'aite.lock.json');
    const lock = await LockFile.open(path);
    lock.recordExact(on, 'http://h/form', { ...send, tag: 'input', text: 'on' });
    expect(lock.willRecord(off, 'http://h/form')).toBe(true);
    lock.recordExact(off, 'http://h/form', { ...send, tag: 'input', text: 'off' });
    lock.recordExact(h2, 'http://h/form', { ...send, tag: 'h2', text: 'Settings' });
    await lock.save();
    const reopened = await LockFile.open(path);
    expect(reopened.get(on, 'http://h/form')?.text).toBe('on');
    expect(reopened.get(off, 'http://h/form')?.text).toBe('off');
    expect(reopened.get(mixed, 'http://h/form')).toBeUndefined();
    expect(reopened.get(h2, 'http://h/form')?.tag).toBe('h2');
  });

  it('records the first exact success, sorted and pretty, without the runtime handle, atomically', async () => {
    const path = join(dir, 'aite.lock.json');
    const lock = await LockFile.open(path);
    lock.recordExact({ text: 'Send' }, 'http://h/b', send);
    lock.recordExact({ text: 'Amount' }, 'http://h/a', { ...send, text: 'Amount' });
    lock.recordExact({ text: 'Send' }, 'http://h/b', { ...send, text: 'changed' });
    await lock.save();
    const text = await readFile(path, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const json = JSON.parse(text) as { version: number; entries: Record<string, { descriptor: Record<string, unknown> }> };
    expect(Object.keys(json.entries)).toEqual(['/a {"text":"Amount"}', '/b {"text":"Send"}']);
    expect(json.entries['/b {"text":"Send"}']!.descriptor.text).toBe('Send');
    expect(text).not.toContain('handle');
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const reopened = await LockFile.open(path);
    expect(reopened.get({ text: 'Send' }, 'http://other/b')?.text).toBe('Send');
  });

  it('willRecord: true until the target has an entry, always with updateLock', async () => {
    const lock = await LockFile.open(join(dir, 'aite.lock.json'));
    expect(lock.willRecord({ text: 'Send' }, 'http://h/wallet')).toBe(true);
    lock.recordExact({ text: 'Send' }, 'http://h/wallet', send);
    expect(lock.willRecord({ text: 'Send' }, 'http://h/wallet')).toBe(false);
    expect(lock.willRecord({ text: 'Send' }, 'http://h/other')).toBe(true);
    const updating = await LockFile.open(join(dir, 'aite.lock.json'), { updateLock: true });
    updating.recordExact({ text: 'Send' }, 'http://h/wallet', send);
    expect(updating.willRecord({ text: 'Send' }, 'http://h/wallet')).toBe(true);
  });

  it('never writes a repair without updateLock: it is only proposed', async () => {
    const path = join(dir, 'aite.lock.json');
    const first = await LockFile.open(path);
    first.recordExact({ text: 'Send' }, 'http://h/', send);
    await first.save();
    const before = await readFile(path, 'utf8');
    const lock = await LockFile.open(path);
    lock.proposeRepair({ text: 'Send' }, 'http://h/', { ...send, text: 'Send now' }, undefined);
    await lock.save();
    expect(await readFile(path, 'utf8')).toBe(before);
    expect(lock.proposals).toHaveLength(1);
    expect(lock.proposals[0]!.old.text).toBe('Send');
    const updating = await LockFile.open(path, { updateLock: true });
    updating.proposeRepair({ text: 'Send' }, 'http://h/', { ...send, text: 'Send now' }, undefined);
    await updating.save();
    expect((await LockFile.open(path)).get({ text: 'Send' }, 'http://h/')?.text).toBe('Send now');
  });

  it('refuses a corrupt lock file with a message naming it', async () => {
    const path = join(dir, 'aite.lock.json');
    await writeFile(path, '{ nope');
    await expect(LockFile.open(path)).rejects.toThrow(/aite\.lock\.json is not valid JSON/);
    await writeFile(path, JSON.stringify({ version: 2, entries: {} }));
    await expect(LockFile.open(path)).rejects.toThrow(/not a valid aite lock file/);
  });
});
