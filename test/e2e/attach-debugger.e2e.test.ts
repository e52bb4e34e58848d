import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { AITE_EXTENSION_ID, attach, stageExtension, type AiteError, type Session } from '../../src/sdk/index.js';
import { startFixtureServer, type FixtureServer } from '../support/FixtureServer.js';
import { startUserChrome, stopUserChrome } from './support/userChrome.js';

// Attach mode with real input: a Chrome the test starts as a person would (no pipe), with the
// staged extension loaded and a tab of "the person" already open. The extension attaches
// chrome.debugger to the run's own tab only. The test watches which tabs have a debugger
// attached from outside, over Chrome's own remote debugging port (Target.getTargets; the test
// never attaches to anything itself).

interface Started {
  chrome: ChildProcess;
  profileDir: string;
  session: Session;
}

let server: FixtureServer;
const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/upload/${name}`, import.meta.url));
/** An origin outside the run's allow list. */
let outside: FixtureServer;

/**
 * Another extension with the debugger permission (as a person's DevTools-like extension would
 * be), to hold a tab's debugger before aite asks for it; its id is Chrome's for its folder.
 */
async function otherExtension(profileDir: string): Promise<{ dir: string; id: string }> {
  const dir = join(profileDir, 'other-extension');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'manifest.json'), JSON.stringify({ manifest_version: 3, name: 'other debugger', version: '1.0', permissions: ['debugger', 'tabs'] }));
  await writeFile(join(dir, 'page.html'), '<!doctype html><title>other</title>');
  const hex = createHash('sha256').update(dir).digest('hex').slice(0, 32);
  return { dir, id: [...hex].map((c) => String.fromCharCode(97 + parseInt(c, 16))).join('') };
}

async function startChrome(options: { firstPage: string; withoutDebugger?: boolean; sessionOptions?: { debugger?: boolean } }): Promise<Started & { other: { dir: string; id: string } }> {
  const profileDir = await mkdtemp(join(tmpdir(), 'aite-attach-dbg-'));
  const other = await otherExtension(profileDir);
  // localhost: the cross-site frame of xframe.html (another site than 127.0.0.1).
  const allow = [server.origin, server.origin.replace('127.0.0.1', 'localhost')];
  const stage = await stageExtension({ allow, dir: join(profileDir, 'extension') });
  if (options.withoutDebugger) {
    // An extension staged without the permission: Chrome gives it no chrome.debugger at all.
    const path = join(stage.dir, 'manifest.json');
    const manifest = JSON.parse(await readFile(path, 'utf8')) as { permissions: string[] };
    manifest.permissions = manifest.permissions.filter((p) => p !== 'debugger');
    await writeFile(path, JSON.stringify(manifest));
  }
  const attached = attach({ extensionDir: stage.dir, allow, connectTimeoutMs: 30_000, ...options.sessionOptions });
  const chrome = startUserChrome({ profileDir, extensions: [stage.dir, other.dir], firstPage: options.firstPage, debuggingPort: true });
  return { chrome, profileDir, session: await attached, other };
}

/** A raw CDP connection to Chrome's remote debugging port (the test's own, never aite's). */
async function cdp(profileDir: string): Promise<{ send: (method: string, params?: object, sessionId?: string) => Promise<Record<string, unknown>>; close: () => void }> {
  const [port, path] = (await readFile(join(profileDir, 'DevToolsActivePort'), 'utf8')).split('\n');
  const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let next = 0;
  const waiting = new Map<number, { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: Record<string, unknown>; error?: { message: string } };
    const w = message.id === undefined ? undefined : waiting.get(message.id);
    if (!w) return;
    waiting.delete(message.id!);
    if (message.error) w.reject(new Error(message.error.message));
    else w.resolve(message.result ?? {});
  });
  return {
    send: (method, params = {}, sessionId) =>
      new Promise((resolve, reject) => {
        const id = ++next;
        waiting.set(id, { resolve, reject });
        ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      }),
    close: () => ws.close(),
  };
}

async function stop(started: Started | undefined): Promise<void> {
  if (!started) return;
  await started.session.close();
  await stopUserChrome(started.chrome);
  await rm(started.profileDir, { recursive: true, force: true, maxRetries: 5 });
}

/** Chrome's page targets and whether a debugger client is attached to each, from outside. */
async function pageTargets(profileDir: string): Promise<Array<{ url: string; attached: boolean }>> {
  const [port, path] = (await readFile(join(profileDir, 'DevToolsActivePort'), 'utf8')).split('\n');
  const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  try {
    const answer = new Promise<{ result: { targetInfos: Array<{ type: string; url: string; attached: boolean }> } }>((resolve) => {
      ws.on('message', (data) => {
        const message = JSON.parse(String(data)) as { id?: number };
        if (message.id === 1) resolve(message as never);
      });
    });
    ws.send(JSON.stringify({ id: 1, method: 'Target.getTargets' }));
    const { result } = await answer;
    return result.targetInfos.filter((t) => t.type === 'page').map((t) => ({ url: t.url, attached: t.attached }));
  } finally {
    ws.close();
  }
}

/** PNG width and height, from its IHDR chunk. */
function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

beforeAll(async () => {
  server = await startFixtureServer();
  outside = await startFixtureServer();
});

afterAll(async () => {
  await server?.close();
  await outside?.close();
});

/** Polls the page targets until `done` holds of them (within 5 s), and answers them. */
async function targetsWhen(profileDir: string, done: (targets: Array<{ url: string; attached: boolean }>) => boolean): Promise<Array<{ url: string; attached: boolean }>> {
  const deadline = Date.now() + 5_000;
  let targets = await pageTargets(profileDir);
  while (!done(targets) && Date.now() < deadline) targets = await pageTargets(profileDir);
  return targets;
}

describe('attach mode with chrome.debugger', () => {
  let started: Started & { other: { dir: string; id: string } };
  let session: Session;
  let userPage: string;

  beforeAll(async () => {
    // The person's own tab, on an allowed origin even: still not the run's.
    userPage = new URL('counter.html?mine=1', server.url).href;
    started = await startChrome({ firstPage: userPage });
    session = started.session;
  });

  afterAll(async () => {
    await stop(started);
  });

  it('[ATT-TRUSTED] a click, typed text and a key press reach the page as trusted input', async () => {
    await session.tab.navigate(new URL('trusted.html', server.url).href);
    const click = await session.click({ role: 'button', name: 'Go' });
    expect(click.warnings).toEqual([]);
    await session.verify.targetText({ css: '#click' }, 'click trusted=true detail=1');
    await session.type({ label: 'Name' }, 'Ada');
    await session.verify.value({ label: 'Name' }, 'Ada');
    await session.verify.targetText({ css: '#keys' }, '3 keydown, trusted=true');
    await session.press('Enter', { label: 'Name' });
    await session.verify.targetText({ css: '#pressed' }, 'Enter trusted=true');
    await session.fill({ label: 'Name' }, 'Grace');
    await session.verify.value({ label: 'Name' }, 'Grace');
  });

  it('[ATT-TRUSTED] clicks with a button and modifiers, which plain events cannot make', async () => {
    await session.tab.navigate(new URL('mouse-keys.html', server.url).href);
    await session.click({ text: 'budget.xlsx' }, { button: 'right' });
    await session.verify.targetText({ css: '#log' }, 'menu for budget.xlsx (button 2)');
    await session.click({ role: 'button', name: 'Modifiers' }, { modifiers: ['Shift'], clickCount: 2 });
    await session.verify.targetText({ css: '#log' }, 'click shift detail 2');
  });

  it('[ATT-TRUSTED] [DRAG-HTML5] drags travel as over the pipe: an HTML5 drag (SortableJS) intercepted and dropped, and its pointer fallback with real moves', async () => {
    await session.tab.navigate(new URL('sortable.html', server.url).href);
    const dragged = await session.drag('Alpha', 'Gamma');
    expect(dragged.warnings).toEqual([]);
    await session.verify.targetText({ label: 'Order' }, 'Beta,Gamma,Alpha');
    await session.verify.targetText({ label: 'Ends' }, '1');
    await session.tab.navigate(new URL('sortable.html?fallback=1', server.url).href);
    await session.evaluate(`window.__moves = 0; document.addEventListener('pointermove', (e) => { if (e.isTrusted && e.buttons === 1) window.__moves += 1; })`);
    await session.drag('Alpha', 'Gamma');
    await session.verify.targetText({ label: 'Order' }, 'Beta,Gamma,Alpha');
    expect(await session.evaluate<number>('window.__moves')).toBeGreaterThanOrEqual(5);
  });

  it('[ATT-TRUSTED] [SCROLL-WHEEL] a carousel that moves only on wheel events gets trusted wheel input through the debugger', async () => {
    await session.tab.navigate(new URL('carousel.html', server.url).href);
    const one = await session.scroll({ css: '#carousel' }, { deltaY: 100 });
    expect(one).toMatchObject({ by: 'wheel', steps: 1, scrolled: 0, warnings: [] });
    await session.verify.targetText({ css: '#carousel' }, 'Slide 2');
    await session.verify.targetText({ css: '#trusted' }, '1');
  });

  it('[ATT-PICTURE] pictures the viewport, one element at its size, and the full page', async () => {
    await session.tab.navigate(new URL('pictures.html', server.url).href);
    const viewport = await session.screenshot();
    expect(viewport).toBeDefined();
    const inner = await session.evaluate<{ w: number; h: number; full: number }>('({ w: innerWidth, h: innerHeight, full: document.documentElement.scrollHeight })');
    // Chrome's debugging bar takes a few pixels of the window's height as it comes and goes.
    expect(pngSize(viewport!).width).toBe(inner.w);
    expect(Math.abs(pngSize(viewport!).height - inner.h)).toBeLessThanOrEqual(40);
    expect(pngSize(viewport!).height).toBeLessThan(inner.full);
    const box = await session.screenshot({ target: { text: 'Total: 42' } });
    expect(pngSize(box!)).toEqual({ width: 200, height: 120 });
    const full = await session.screenshot({ fullPage: true });
    expect(pngSize(full!).height).toBe(inner.full);
    expect(pngSize(full!).height).toBeGreaterThan(2400);
  });

  it('[ATT-PICTURE] [MCP-SCREENSHOT-FIT] maxSide paints a full page taller than it smaller, its aspect kept, and warns with the size it would have had; a picture that fits is unchanged', async () => {
    await session.tab.navigate(new URL('pictures.html', server.url).href);
    const warnings: { code: string; message: string }[] = [];
    const listen = (w: { code: string; message: string }): void => void warnings.push(w);
    session.on('warning', listen);
    try {
      const fitted = pngSize((await session.screenshot({ fullPage: true, maxSide: 1000 }))!);
      expect(warnings).toEqual([{ code: 'screenshot-scaled', message: expect.stringMatching(/^The picture was scaled down to \d+×1000 px to fit maxSide 1000 \(the page is \d+×3000 px\)/) }]);
      // The page's width changes by a scrollbar as Chrome's debugging bar comes and goes: the warning says what it was.
      const [, width] = /the page is (\d+)×/.exec(warnings[0]!.message)!;
      expect(fitted).toEqual({ width: Math.floor((Number(width) * 1000) / 3000), height: 1000 });
      const box = await session.screenshot({ target: { text: 'Total: 42' }, maxSide: 1000 });
      expect(pngSize(box!)).toEqual({ width: 200, height: 120 });
      expect(warnings).toHaveLength(1);
    } finally {
      session.off('warning', listen);
    }
  });

  it('[ATT-DIALOG] a dialog is answered by the armed answer, the next by the policy, each listed in its step', async () => {
    await session.tab.navigate(new URL('dialogs.html', server.url).href);
    session.dialogs.next({ accept: true, promptText: 'Zephyr' });
    const prompted = await session.click({ role: 'button', name: 'Prompt' });
    await session.verify.targetText({ css: '#out' }, 'name: Zephyr');
    expect(prompted.dialogs).toEqual([expect.objectContaining({ type: 'prompt', message: 'Your name?', defaultPrompt: 'anon', accepted: true, promptText: 'Zephyr', by: 'armed' })]);
    const confirmed = await session.click({ role: 'button', name: 'Confirm' });
    await session.verify.targetText({ css: '#out' }, 'cancelled');
    expect(confirmed.dialogs).toEqual([expect.objectContaining({ type: 'confirm', message: 'Delete the file?', accepted: false, by: 'policy' })]);
    expect(session.dialogs.seen.map((d) => d.type)).toEqual(['prompt', 'confirm']);
    expect(session.dialogs.armed).toBe(0);
  });

  it('[ATT-OWN-TABS] only the run\u2019s tab has a debugger attached; the person\u2019s tab never', async () => {
    const targets = await pageTargets(started.profileDir);
    const mine = targets.filter((t) => t.url === userPage);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.attached).toBe(false);
    // The run's tab is attached (the same observation can see an attached debugger).
    expect(targets.find((t) => t.url.endsWith('/dialogs.html'))?.attached).toBe(true);
    const answer = await session.bridge.request({ cmd: 'debugger', op: 'attach' });
    const tabs = await session.tab.list();
    const userTab = tabs.find((t) => t.url === userPage)!;
    expect(answer.attached).toEqual([session.tab.current]);
    expect(answer.attached).not.toContain(userTab.id);
    // Asked for the person's tab by id, the extension refuses without attaching.
    await expect(session.bridge.request({ cmd: 'debugger', op: 'attach', tab: userTab.id })).rejects.toMatchObject({ reason: 'unsupported', message: expect.stringMatching(/not one of the run's tabs/) });
    expect((await pageTargets(started.profileDir)).find((t) => t.url === userPage)?.attached).toBe(false);
  });

  it('[ATT-DIALOG] [FAULT-43] an alert that opens while a verify waits is answered at once; the verify passes', async () => {
    await session.tab.navigate(new URL('dialogs.html', server.url).href);
    await session.click({ role: 'button', name: 'Alert later' });
    const waited = await session.verify.text('after later');
    expect(waited.ok).toBe(true);
    expect(session.dialogs.seen.at(-1)).toMatchObject({ type: 'alert', message: 'Later', accepted: false, by: 'policy', tab: session.tab.current });
  });

  it('[ATT-DIALOG] [DLG-BEFOREUNLOAD] a beforeunload the extension dismissed keeps the page: a navigate away fails at once, saying so', async () => {
    await session.tab.navigate(new URL('dialogs.html', server.url).href);
    await session.click('Guard unsaved changes');
    await session.verify.targetText({ label: 'Out' }, 'guarded');
    const started = performance.now();
    const error = await session.tab.navigate(new URL('counter.html', server.url).href, { timeoutMs: 20_000 }).then(
      () => undefined,
      (failed: unknown) => failed as { reason: string; detail?: unknown; message: string },
    );
    expect(performance.now() - started).toBeLessThan(5000);
    expect(error).toMatchObject({ reason: 'navigation', detail: { cancelled: true } });
    expect(error!.message).toMatch(/beforeunload dialog was dismissed \(the dialogs policy\)/);
    expect(session.dialogs.seen.at(-1)).toMatchObject({ type: 'beforeunload', accepted: false, by: 'policy' });
    session.dialogs.next({ accept: true });
    await session.tab.navigate(new URL('counter.html', server.url).href);
    await session.verify.text('Increment');
  });

  // As it opens, not before: Chrome cannot hold a new tab's first page for an extension's
  // debugger, so an alert from the page's very first script may reach the person (docs/sdk.md).
  it('[ATT-DIALOG] [FAULT-43] a new run tab is attached as it opens: an alert soon after its first load is answered before any step', async () => {
    if (session.tab.current !== null) await session.tab.close();
    expect(session.tab.current).toBeNull();
    const opened = await session.tab.navigate(new URL('dialogs.html?welcome=soon', server.url).href);
    await session.verify.targetText({ css: '#out' }, 'welcomed');
    expect(session.dialogs.seen.at(-1)).toMatchObject({ type: 'alert', message: 'Welcome', by: 'policy', tab: opened.tab });
  });

  it('[ATT-TRUSTED] [FR-XSITE-INPUT] trusted clicks and typing land in nested cross-site frames', async () => {
    await session.tab.navigate(new URL('xframe.html', server.url).href);
    const paid = await session.click({ role: 'button', name: 'Pay', frame: 'outer' });
    expect(paid.warnings).toEqual([]);
    await session.type({ label: 'Card number', frame: 'outer' }, '4242');
    await session.verify.value({ label: 'Card number', frame: 'outer' }, '4242');
    // As in launch mode (frames.e2e), input inside frames goes without the hit-target guard: the
    // nested frame is let finish its layout (its text shown) before it is clicked.
    await session.verify.exists({ text: 'Inside the inner frame', frame: ['outer', 'inner'] });
    await session.click({ text: 'Inner button', frame: ['outer', 'inner'] });
    await session.type({ label: 'Note', frame: ['outer', 'inner'] }, 'trusted');
    await session.verify.targetText({ css: '#paid', frame: 'outer' }, '1');
    await session.verify.targetText({ css: '#count', frame: ['outer', 'inner'] }, '1');
    await session.verify.value({ label: 'Note', frame: ['outer', 'inner'] }, 'trusted');
    await session.verify.targetText({ css: '#count' }, '0');
  });

  it('[ATT-TRUSTED] [FR-NESTED-SAME-XSITE] a cross-site frame inside a same-origin one: the trusted click and typing land in it, not in the frames around it', async () => {
    const nest = (origin: string, params: Record<string, string>): string => `${origin}/nest.html?${new URLSearchParams(params)}`;
    const x = nest(server.origin.replace('127.0.0.1', 'localhost'), { name: 'X' });
    await session.tab.navigate(nest(server.origin, { name: 'A', childName: 'same', child: nest(server.origin, { name: 'S', childName: 'x', child: x }) }));
    const path = ['same', 'x'];
    await session.verify.exists({ text: 'Frame X', frame: path });
    await session.click({ role: 'button', name: 'Press X', frame: path });
    await session.type({ label: 'Note X', frame: path }, 'trusted');
    await session.verify.targetText({ css: '#pressed', frame: path }, '1');
    await session.verify.value({ label: 'Note X', frame: path }, 'trusted');
    await session.verify.targetText({ css: '#pressed', frame: 'same' }, '0');
    await session.verify.targetText({ css: '#pressed' }, '0');
  });

  it('[ATT-UPLOAD] uploads into a labelled input, a hidden multiple input behind its label, and through an intercepted chooser; [] clears', async () => {
    await session.tab.navigate(new URL('files.html', server.url).href);
    await session.upload({ label: 'Receipt' }, fixture('receipt.txt'));
    await session.verify.targetText({ label: 'Log' }, 'receipt: receipt.txt (11 bytes)');
    await session.verify.targetText({ label: 'Events' }, 'input:receipt change:receipt');
    await session.upload({ label: 'Receipt' }, []);
    await session.verify.targetText({ label: 'Log' }, 'receipt: empty');
    await session.upload('Attach photos', [fixture('a.png'), fixture('b.png')]);
    await session.verify.targetText({ label: 'Log' }, 'photos: a.png (7 bytes), b.png (8 bytes)');
    await session.upload('Choose file', fixture('b.png'));
    await session.verify.targetText({ label: 'Log' }, 'chosen: b.png (8 bytes)');
  });

  it('[ATT-UPLOAD] [FAULT-45] a control that opens no chooser fails within the timeout; two files for a single input are refused; the next step works', async () => {
    const started = performance.now();
    const none = await session.upload('Not a chooser', fixture('a.png'), { timeoutMs: 1500 }).catch((e: unknown) => e as { reason: string; message: string });
    expect(none).toMatchObject({ reason: 'timeout', message: expect.stringMatching(/opened no file chooser within 1500 ms; name the file input or its label instead/) });
    expect(performance.now() - started).toBeLessThan(1500 + 2000);
    const two = await session.upload({ label: 'Contract' }, [fixture('a.png'), fixture('b.png')]).catch((e: unknown) => e as { reason: string; message: string });
    expect(two).toMatchObject({ reason: 'unsupported', message: expect.stringMatching(/2 files for an input that takes one/) });
    await session.upload({ label: 'Contract' }, fixture('a.png'));
    await session.verify.targetText({ label: 'Log' }, 'contract: a.png (7 bytes)');
  });

  it('[ATT-UPLOAD-FRAMES] uploads into file inputs inside a same-origin frame and a cross-site (out-of-process) one, by label and through a hidden input behind its label', async () => {
    for (const origin of [server.origin, server.origin.replace('127.0.0.1', 'localhost')]) {
      await session.tab.navigate(new URL(`xframe.html?outer=${encodeURIComponent(`${origin}/files.html`)}`, server.url).href);
      await session.upload({ label: 'Receipt', frame: 'outer' }, fixture('receipt.txt'));
      await session.verify.targetText({ label: 'Log', frame: 'outer' }, 'receipt: receipt.txt (11 bytes)');
      await session.verify.targetText({ label: 'Events', frame: 'outer' }, 'input:receipt change:receipt');
      await session.upload({ text: 'Attach photos', frame: 'outer' }, [fixture('a.png'), fixture('b.png')]);
      await session.verify.targetText({ label: 'Log', frame: 'outer' }, 'photos: a.png (7 bytes), b.png (8 bytes)');
    }
  });

  it('[ATT-CHOOSER-XSITE] a chooser a control opens inside a cross-site (out-of-process) frame is intercepted and answered there, as in launch mode', async () => {
    await session.tab.navigate(new URL(`xframe.html?outer=${encodeURIComponent(`${server.origin.replace('127.0.0.1', 'localhost')}/files.html`)}`, server.url).href);
    const started = performance.now();
    await session.upload({ text: 'Choose file', frame: 'outer' }, fixture('b.png'), { timeoutMs: 5_000 });
    expect(performance.now() - started).toBeLessThan(5_000);
    await session.verify.targetText({ label: 'Log', frame: 'outer' }, 'chosen: b.png (8 bytes)');
    // The top document's chooser is answered as before, after the frame's.
    await session.tab.navigate(new URL('files.html', server.url).href);
    await session.upload('Choose file', fixture('a.png'), { timeoutMs: 5_000 });
    await session.verify.targetText({ label: 'Log' }, 'chosen: a.png (7 bytes)');
    // While its session intercepts choosers, the frame's dialogs are still answered as any of the tab's.
    await session.tab.navigate(new URL(`xframe.html?outer=${encodeURIComponent(`${server.origin.replace('127.0.0.1', 'localhost')}/dialogs.html`)}`, server.url).href);
    await session.verify.exists({ text: 'Confirm', frame: 'outer' });
    const intercept = (enabled: boolean): Promise<unknown> => session.bridge.request({ cmd: 'debugger', op: 'send', method: 'Page.setInterceptFileChooserDialog', params: { enabled } });
    await intercept(true);
    try {
      const confirmed = await session.click({ role: 'button', name: 'Confirm', frame: 'outer' }, { timeoutMs: 5_000 });
      await session.verify.targetText({ css: '#out', frame: 'outer' }, 'cancelled', { timeoutMs: 3_000 });
      expect(confirmed.dialogs).toEqual([expect.objectContaining({ type: 'confirm', accepted: false, by: 'policy' })]);
    } finally {
      await intercept(false);
    }
  });

  it('[ATT-NAV] a click on a link waits for the page it opens, as over the pipe; a select whose onchange navigates too, and a click whose handler submits a form; the next step talks to the new page', async () => {
    await session.tab.navigate(new URL('trusted.html', server.url).href);
    const slow = new URL('status/200?ms=500', server.url).href;
    await session.evaluate(`(() => { const a = document.createElement('a'); a.href = ${JSON.stringify(slow)}; a.textContent = 'Slow page'; document.body.append(a); })()`);
    const clicked = await session.click({ text: 'Slow page' });
    expect(clicked.navigated).toBe(slow);
    expect(clicked.warnings).toEqual([]);
    expect(await session.evaluate('location.pathname')).toBe('/status/200');
    await session.tab.navigate(new URL('click-nav.html', server.url).href);
    const selected = await session.select({ label: 'Go to' }, 'Slow page');
    expect(selected.navigated).toBe(slow);
    expect(await session.evaluate('location.pathname')).toBe('/status/200');
    // A form the page's own click handler submits starts its navigation a task later.
    await session.tab.navigate(new URL('script-submit.html', server.url).href);
    const scripted = await session.click('Send by script');
    expect(scripted.navigated).toBe(new URL('status/201?ms=100&by=script', server.url).href);
    expect(await session.evaluate('location.pathname')).toBe('/status/201');
    // A click that starts none answers at once, without a navigation.
    await session.tab.navigate(new URL('trusted.html', server.url).href);
    const stays = await session.click({ role: 'button', name: 'Go' });
    expect(stays.navigated).toBeUndefined();
    await session.verify.targetText({ css: '#click' }, 'click trusted=true detail=1');
  });

  it('[ATT-NAV] [FAULT-40] a click whose navigation lands outside the allow list (a redirect) fails as navigation: delivered once, saying where the page went', async () => {
    await session.tab.navigate(new URL('trusted.html', server.url).href);
    const away = new URL('counter.html?landed=1', outside.url).href;
    const via = new URL(`redirect?to=${encodeURIComponent(away)}`, server.url).href;
    await session.evaluate(`(() => { const a = document.createElement('a'); a.href = ${JSON.stringify(via)}; a.textContent = 'Leave'; document.body.append(a); })()`);
    const clicked = await session.click({ text: 'Leave' }).then(
      () => undefined,
      (e: unknown) => e as { reason: string; message: string; retries: number },
    );
    expect(clicked).toMatchObject({ reason: 'navigation', retries: 0 });
    expect(clicked!.message).toContain(`the page went to ${away}`);
    expect(clicked!.message).toMatch(/delivered and is not sent again/);
    await session.tab.navigate(new URL('trusted.html', server.url).href, { tab: session.tab.current! });
  });

  it('[ATT-OWN-TABS] a run tab that goes outside the allow list is detached at once; back on the list, the next step attaches again', async () => {
    await session.tab.navigate(new URL('trusted.html', server.url).href);
    await session.click({ role: 'button', name: 'Go' });
    const away = new URL('counter.html?away=1', outside.url).href;
    await session.evaluate(`setTimeout(() => { location.href = ${JSON.stringify(away)}; }, 0)`);
    const targets = await targetsWhen(started.profileDir, (ts) => ts.some((t) => t.url === away && !t.attached));
    expect(targets.find((t) => t.url === away)).toEqual({ url: away, attached: false });
    await session.tab.navigate(new URL('trusted.html', server.url).href, { tab: session.tab.current! });
    const click = await session.click({ role: 'button', name: 'Go' });
    expect(click.warnings).toEqual([]);
    await session.verify.targetText({ css: '#click' }, 'click trusted=true detail=1');
  });

  it('[ATT-OWN-TABS] a tab whose debugger another extension holds: this Chrome lets both attach; aite\u2019s input is trusted, and its detach leaves the other\u2019s session alone', async () => {
    const browser = await cdp(started.profileDir);
    const held = new URL('trusted.html?held=1', server.url).href;
    const { targetId: heldTarget } = (await browser.send('Target.createTarget', { url: held })) as { targetId: string };
    const { targetId } = (await browser.send('Target.createTarget', { url: `chrome-extension://${started.other.id}/page.html` })) as { targetId: string };
    try {
      const { sessionId } = (await browser.send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
      const inOther = async (expression: string): Promise<unknown> =>
        ((await browser.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId)).result as { value: unknown }).value;
      // The extension's page may not have committed yet (its chrome APIs come with it).
      const until = Date.now() + 5_000;
      while ((await inOther(`typeof chrome !== 'undefined' && chrome.tabs !== undefined`).catch(() => false)) !== true && Date.now() < until);
      // The tab may still be loading: it is found by its url once it shows it.
      const heldTab = await inOther(
        `(async () => { for (let i = 0; i < 100; i++) { const [tab] = await chrome.tabs.query({ url: ${JSON.stringify(held)} }); if (tab) { await chrome.debugger.attach({ tabId: tab.id }, '1.3'); return tab.id; } await new Promise((r) => setTimeout(r, 50)); } return 'no tab'; })()`,
      );
      expect(typeof heldTab).toBe('number');
      await session.tab.switchTo({ urlContains: 'held=1' });
      expect(session.tab.current).toBe(heldTab);
      const click = await session.click({ role: 'button', name: 'Go' });
      expect(click.warnings).toEqual([]);
      await session.verify.targetText({ css: '#click' }, 'click trusted=true detail=1');
      const answer = await session.bridge.request({ cmd: 'debugger', op: 'detach' });
      expect(answer.attached).toEqual([]);
      // The other extension's session still answers in that tab.
      expect(await inOther(`chrome.debugger.sendCommand({ tabId: ${String(heldTab)} }, 'Runtime.evaluate', { expression: '6 * 7', returnByValue: true }).then((r) => r.result.value)`)).toBe(42);
      await inOther(`chrome.debugger.detach({ tabId: ${String(heldTab)} })`);
    } finally {
      await session.tab.close().catch(() => undefined);
      await browser.send('Target.closeTarget', { targetId: heldTarget }).catch(() => undefined);
      await browser.send('Target.closeTarget', { targetId }).catch(() => undefined);
      browser.close();
    }
  });

  it('[PAGE-CRASHED] [ATT-TRUSTED] a renderer crash in attach mode: a key press, a click and a verify fail at once as load-failed, sending nothing; a reload brings the page back', async () => {
    await session.tab.navigate(new URL('trusted.html', server.url).href);
    const browser = await cdp(started.profileDir);
    try {
      const { targetInfos } = (await browser.send('Target.getTargets')) as { targetInfos: Array<{ type: string; url: string; targetId: string }> };
      const page = targetInfos.find((t) => t.type === 'page' && t.url.endsWith('/trusted.html'))!;
      const { sessionId } = (await browser.send('Target.attachToTarget', { targetId: page.targetId, flatten: true })) as { sessionId: string };
      // The crashed renderer never answers this.
      void browser.send('Page.crash', {}, sessionId).catch(() => undefined);
      await expect.poll(async () => session.verify.text('Go', { timeoutMs: 200 }).then(() => 'alive', (e: AiteError) => e.reason), { timeout: 5_000 }).toBe('load-failed');
    } finally {
      browser.close();
    }
    const steps = { press: () => session.press('Enter'), click: () => session.click({ role: 'button', name: 'Go' }), verify: () => session.verify.text('Go') };
    for (const [name, step] of Object.entries(steps)) {
      const started = Date.now();
      const error = await step().then(() => undefined, (e: AiteError) => e);
      expect(error?.reason, name).toBe('load-failed');
      expect(error?.message, name).toMatch(/is gone: its renderer crashed.*was not sent there/s);
      expect(Date.now() - started, name).toBeLessThan(3_000);
    }
    await session.tab.reload();
    const again = await session.click({ role: 'button', name: 'Go' });
    expect(again.warnings).toEqual([]);
    await session.verify.targetText({ css: '#click' }, 'click trusted=true detail=1');
  });

  it('[ATT-TRUSTED] [FAULT-23] the extension\u2019s worker stopped while it holds the tab: it comes back, and the next click is trusted again', async () => {
    await session.tab.navigate(new URL('trusted.html', server.url).href);
    await session.click({ role: 'button', name: 'Go' });
    const browser = await cdp(started.profileDir);
    try {
      const { targetInfos } = (await browser.send('Target.getTargets')) as { targetInfos: Array<{ type: string; url: string; targetId: string }> };
      const worker = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${AITE_EXTENSION_ID}/`));
      expect(worker).toBeDefined();
      // The bridge hears the worker's socket close before the next command goes: one sent on the
      // closing socket would be cut off, and an evaluate is never sent twice.
      const gone = new Promise((done) => session.bridge.once('disconnected', done));
      await browser.send('Target.closeTarget', { targetId: worker!.targetId });
      await gone;
      // Nothing wakes a stopped worker in attach mode but its alarm (30 s) or its page: an
      // uncaught error the page's relay hands to the worker wakes it now.
      const page = targetInfos.find((t) => t.type === 'page' && t.url.endsWith('/trusted.html'))!;
      const { sessionId } = (await browser.send('Target.attachToTarget', { targetId: page.targetId, flatten: true })) as { sessionId: string };
      await browser.send('Runtime.evaluate', { expression: 'setTimeout(() => { throw new Error("wake the worker"); }, 0), 0' }, sessionId);
      await browser.send('Target.detachFromTarget', { sessionId });
    } finally {
      browser.close();
    }
    await session.evaluate('document.getElementById("click").textContent = "none"', undefined, { timeoutMs: 20_000 });
    const again = await session.click({ role: 'button', name: 'Go' });
    expect(again.warnings).toEqual([]);
    await session.verify.targetText({ css: '#click' }, 'click trusted=true detail=1');
  });

  it('[ATT-OWN-TABS] the run\u2019s tab is detached when the session closes', async () => {
    await session.tab.navigate(new URL('trusted.html', server.url).href);
    await session.click({ role: 'button', name: 'Go' });
    await session.close();
    const targets = await targetsWhen(started.profileDir, (ts) => !ts.some((t) => t.attached));
    expect(targets.filter((t) => t.attached)).toEqual([]);
    expect(targets.some((t) => t.url.endsWith('/trusted.html'))).toBe(true);
  });
});

describe('attach mode where chrome.debugger is refused', () => {
  let started: Started;

  beforeAll(async () => {
    started = await startChrome({ firstPage: 'about:blank', withoutDebugger: true });
  });

  afterAll(async () => {
    await stop(started);
  });

  it('[ATT-FALLBACK] an extension without the debugger permission: plain events, and each step says so once', async () => {
    const { session } = started;
    await session.tab.navigate(new URL('trusted.html', server.url).href);
    const click = await session.click({ role: 'button', name: 'Go' });
    await session.verify.targetText({ css: '#click' }, 'click trusted=false detail=1');
    expect(click.warnings).toEqual([{ code: 'trusted-input', message: expect.stringMatching(/^click went as plain DOM events, not trusted input: chrome\.debugger was refused: the extension has no "debugger" permission.*isTrusted false/) }]);
    const typed = await session.type({ label: 'Name' }, 'Ada');
    expect(typed.warnings.map((w) => w.code)).toEqual(['trusted-input']);
    await session.verify.value({ label: 'Name' }, 'Ada');
    const warnings: string[] = [];
    session.on('warning', (w) => warnings.push(w.message));
    expect(await session.screenshot()).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/^No screenshot: chrome\.debugger was refused: the extension has no "debugger" permission/)]);
  });
});
