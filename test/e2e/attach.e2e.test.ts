import { execFile, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../src/sdk/index.js';
import type { FixtureServer } from '../support/FixtureServer.js';
import { closeAttached, openAttached } from './support/userChrome.js';

// Attach mode: a Chrome the user runs with the aite extension installed, no debugging pipe. The
// extension folder comes from the public stageExtension(), as a user gets it. This file drives it
// with chrome.debugger turned off (plain DOM events); attach-debugger.e2e.test.ts with it on.
let server: FixtureServer;
let chrome: ChildProcess;
let session: Session;
let profileDir: string;
let extensionDir: string;

beforeAll(async () => {
  // localhost: the cross-site frame of xframe.html (another site than 127.0.0.1).
  ({ server, chrome, session, profileDir, extensionDir } = await openAttached({
    prefix: 'aite-attach-',
    allow: (s) => [s.origin, s.origin.replace('127.0.0.1', 'localhost')],
    extensionFolder: 'my-extension',
    attach: { debugger: false },
  }));
});

afterAll(() => closeAttached({ server, chrome, session, profileDir }));

describe('attach mode', () => {
  it('connects to a Chrome started without a pipe, with no browser handle', () => {
    expect(session.bridge.connected).toBe(true);
    expect(session.browser).toBeUndefined();
  });

  it('[ACT-ACTIONS, ATT-FALLBACK] clicks and types through act with plain events; attach({ debugger: false }) says so once per step', async () => {
    await session.tab.navigate(new URL('buttons.html', server.url).href);
    const result = await session.click({ text: 'Save', within: 'Actions' });
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([{ code: 'trusted-input', message: expect.stringMatching(/^click went as plain DOM events, not trusted input: attach\(\{ debugger: false \}\) turned chrome\.debugger off\./) }]);
    await session.verify.targetText({ css: '#count' }, '1');
    await session.type({ label: 'Email' }, 'x@y.z');
    await session.verify.value({ label: 'Email' }, 'x@y.z');
  });

  it('[ACT-ACTIONS] fill replaces a value with plain events (act fill, beyond v1): inputs, email, textarea, contenteditable, empty', async () => {
    await session.tab.navigate(new URL('buttons.html', server.url).href);
    await session.type({ label: 'Email' }, 'old@y.z');
    await session.fill({ label: 'Email' }, 'new@y.z');
    await session.verify.value({ label: 'Email' }, 'new@y.z');
    await session.tab.navigate(new URL('fill.html', server.url).href);
    await session.fill({ label: 'Name' }, 'Grace Hopper');
    await session.verify.value({ label: 'Name' }, 'Grace Hopper');
    await session.fill({ label: 'Bio' }, 'one line');
    await session.verify.value({ label: 'Bio' }, 'one line');
    await session.fill({ role: 'textbox', name: 'Motto' }, 'new motto');
    await session.verify.targetText({ role: 'textbox', name: 'Motto' }, 'new motto');
    await session.fill({ label: 'Name' }, '');
    await session.verify.value({ label: 'Name' }, '');
    const readOnly = await session.fill({ label: 'Locked' }, 'x').then(
      () => undefined,
      (e: unknown) => e as { reason?: string; message?: string },
    );
    expect(readOnly).toMatchObject({ reason: 'unsupported', message: expect.stringMatching(/fill needs a text field/) });
    await session.verify.value({ label: 'Locked' }, 'fixed');
  });

  it('[FR-XSITE-INPUT, RG-ROW] attach mode: acts in nested cross-site frames run in the frame\u2019s own document; a row named by its text', async () => {
    await session.tab.navigate(new URL('xframe.html', server.url).href);
    await session.click({ role: 'button', name: 'Pay', frame: 'outer' });
    await session.click({ text: 'Inner button', frame: ['outer', 'inner'] });
    await session.type({ label: 'Note', frame: ['outer', 'inner'] }, 'attached');
    await session.verify.targetText({ css: '#paid', frame: 'outer' }, '1');
    await session.verify.targetText({ css: '#count', frame: ['outer', 'inner'] }, '1');
    await session.verify.value({ label: 'Note', frame: ['outer', 'inner'] }, 'attached');
    await session.verify.targetText({ css: '#count' }, '0');
    await session.tab.navigate(new URL('todos.html', server.url).href);
    await session.check({ role: 'checkbox', within: 'Buy milk' });
    await session.verify.text('2 items left');
  });

  it('[ATT-FALLBACK] without chrome.debugger, download and waitForNetworkIdle are unsupported, saying why, and the network log stays empty', async () => {
    await session.tab.navigate(new URL('files.html', server.url).href);
    await expect(session.download('Export CSV')).rejects.toMatchObject({ reason: 'unsupported', message: expect.stringMatching(/^download needs chrome\.debugger in attach mode, and attach\(\{ debugger: false \}\) turned chrome\.debugger off/) });
    await expect(session.waitForNetworkIdle()).rejects.toMatchObject({ reason: 'unsupported', message: expect.stringMatching(/^waitForNetworkIdle needs chrome\.debugger in attach mode/) });
    expect(session.network).toEqual([]);
  });

  it('[SS-WARNING] reports screenshots as unavailable warnings, not failures', async () => {
    const warnings: string[] = [];
    session.on('warning', (w) => warnings.push(w.code));
    expect(await session.screenshot()).toBeUndefined();
    expect(warnings).toEqual(['screenshot']);
    expect(() => session.dialogs.next({ accept: true })).toThrow(/debugger: false/);
  });

  it('the CLI writes the same extension folder: `aite extension --out`', async () => {
    const out = join(profileDir, 'from-cli');
    const cli = resolve(__dirname, '../../dist/cli/aite.js');
    const { stdout } = await promisify(execFile)(process.execPath, [cli, 'extension', '--out', out, '--allow', server.origin, '--allow', server.origin.replace('127.0.0.1', 'localhost')], { cwd: profileDir });
    expect(stdout).toContain(`--load-extension=${out}`);
    const files = async (dir: string) => (await readdir(dir)).filter((name) => name !== 'bridge.json').sort();
    expect(await files(out)).toEqual(await files(extensionDir));
    // Each staged copy gets a page-error channel name of its own (x + 24 hex): the rest is the same.
    const unstamped = async (dir: string, name: string) => (await readFile(join(dir, name), 'utf8')).replace(/\bx[0-9a-f]{24}\b/g, 'CHANNEL');
    for (const name of await files(out)) {
      expect(await unstamped(out, name), name).toBe(await unstamped(extensionDir, name));
    }
  });
});
