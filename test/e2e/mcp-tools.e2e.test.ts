import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/FixtureServer.js';
import { connect, textOf, type Answer } from './support/mcp.js';

// The tools mcp.e2e.test.ts does not drive, each through `aite mcp` against a fixture page, each
// checked by what the page itself recorded (its counters and logs, read back with evaluate or
// read), not by the tool's own sentence. One server, started with --allow-evaluate, serves the
// file's tests in order.

const UPLOAD = fileURLToPath(new URL('../fixtures/upload/', import.meta.url));
const E2E = fileURLToPath(new URL('.', import.meta.url));
const AGENTS_MD = fileURLToPath(new URL('../../docs/agents.md', import.meta.url));

/** The tools API.md ("For agents: aite mcp") names; their names are fixed by it. */
const API_TOOLS = ['navigate', 'snapshot', 'click', 'type', 'fill', 'press', 'select', 'check', 'hover', 'drag', 'upload', 'dialog', 'read', 'verify', 'wait', 'tabs', 'switch_tab', 'close_tab', 'back', 'forward', 'reload', 'screenshot'];

let server: FixtureServer;
let cwd: string;
let client: Client;
const page = (path: string): string => new URL(path, server.url).href;
const call = (name: string, args: Record<string, unknown> = {}): Promise<Answer> => client.callTool({ name, arguments: args }) as Promise<Answer>;

/** A call that must pass: its text, or the test fails with the tool error. */
async function ok(name: string, args: Record<string, unknown> = {}): Promise<string> {
  const answer = await call(name, args);
  expect(answer.isError, `${name}: ${textOf(answer)}`).toBeFalsy();
  return textOf(answer);
}

/** What the page's main world holds (`expression` as JSON), through the evaluate tool. */
async function inPage<T>(expression: string): Promise<T> {
  const text = await ok('evaluate', { expression });
  const json = /^Evaluated: (.*)\. \(no re-sends\)$/s.exec(text);
  expect(json, text).not.toBeNull();
  return JSON.parse(json![1]!) as T;
}

beforeAll(async () => {
  server = await startFixtureServer();
  cwd = await mkdtemp(join(tmpdir(), 'aite-mcp-tools-'));
  // localhost is another site than 127.0.0.1: xframe.html's frame is a cross-site one there.
  ({ client } = await connect(['--allow', server.origin, '--allow', server.origin.replace('127.0.0.1', 'localhost'), '--allow-evaluate'], cwd));
});

afterAll(async () => {
  await client?.close();
  await server?.close();
  await rm(cwd, { recursive: true, force: true });
});

describe('aite mcp: every tool against real Chromium', () => {
  it('[MCP-EVALUATE] [MCP-EVALUATE-RUN] with --allow-evaluate, evaluate is listed and answers an object from the page\'s main world', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('evaluate');
    await ok('navigate', { url: page('evaluate.html') });
    expect(await ok('evaluate', { expression: '({ title: document.title, state: window.appState })' })).toBe('Evaluated: {"title":"Evaluate","state":{"user":"ana","items":[1,2,3]}}. (no re-sends)');
    // A promise is awaited.
    expect(await inPage('new Promise((r) => setTimeout(() => r(window.appState.items.length), 20))')).toBe(3);
  });

  it('[MCP-EVALUATE-RUN] [MCP-ERROR] a page exception is a tool error with its reason and the exception; the page still answers after it', async () => {
    const thrown = await call('evaluate', { expression: '(() => { throw new TypeError("the cart is empty"); })()' });
    expect(thrown.isError).toBe(true);
    expect(textOf(thrown)).toMatch(/^\[internal\] The page threw during evaluate: TypeError: the cart is empty\n/);
    // Said as the page's own error, so an agent does not take it for a bug in aite.
    expect(textOf(thrown)).toContain("The page's own code threw");
    const rejected = await call('evaluate', { expression: 'Promise.reject(new RangeError("no such row"))' });
    expect(rejected.isError).toBe(true);
    expect(textOf(rejected)).toMatch(/^\[internal\] The page threw during evaluate: RangeError: no such row/);
    expect(await inPage('document.title')).toBe('Evaluate');
  });

  it('[MCP-UPLOAD] upload sets a labelled input\'s files, a hidden multiple input\'s behind its label (a path relative to where the server started), a chooser\'s; [] clears', async () => {
    await ok('navigate', { url: page('files.html') });
    const receipt = join(UPLOAD, 'receipt.txt');
    expect(await ok('upload', { target: { label: 'Receipt' }, files: [receipt] })).toBe(`Done: upload ${receipt} into label "Receipt". (no re-sends)`);
    expect(await inPage('[...document.getElementById("receipt").files].map((f) => [f.name, f.size])')).toEqual([['receipt.txt', 11]]);
    expect(await ok('read', { target: { label: 'Events' } })).toContain('"input:receipt change:receipt"');

    await copyFile(join(UPLOAD, 'a.png'), join(cwd, 'photo.png'));
    await ok('upload', { target: 'Attach photos', files: ['photo.png', join(UPLOAD, 'b.png')] });
    expect(await inPage('[...document.getElementById("photos").files].map((f) => [f.name, f.size])')).toEqual([['photo.png', 7], ['b.png', 8]]);

    await ok('upload', { target: 'Choose file', files: [receipt] });
    expect(await ok('read', { target: { label: 'Log' } })).toContain('"chosen: receipt.txt (11 bytes)"');

    await ok('upload', { target: { label: 'Receipt' }, files: [] });
    expect(await inPage('document.getElementById("receipt").files.length')).toBe(0);
    expect(await ok('read', { target: { label: 'Log' } })).toContain('"receipt: empty"');

    // A file that is not there: nothing is set, and the agent is told.
    const missing = await call('upload', { target: { label: 'Contract' }, files: [join(cwd, 'nope.pdf')] });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/nope\.pdf/);
    expect(await inPage('document.getElementById("contract").files.length')).toBe(0);
  });

  it('[MCP-HOVER] hover opens a menu that opens only on the mouse, with real input, without clicking; its item is then clicked', async () => {
    await ok('navigate', { url: page('hover.html') });
    expect(await ok('hover', { target: { role: 'button', name: 'Account' } })).toBe('Done: hover button "Account". (no re-sends)');
    expect(await inPage('window.__hovers')).toEqual([{ trusted: true }]);
    expect(await ok('read', { target: { label: 'Log' } })).toContain('"menu open"');
    await ok('verify', { kind: 'state', target: { role: 'menuitem', name: 'Sign out' }, state: 'visible' });
    await ok('click', { target: { role: 'menuitem', name: 'Sign out' } });
    expect(await ok('read', { target: { label: 'Log' } })).toContain('"signed out (trusted true)"');
  });

  it('[MCP-DRAG] drag moves an item of a real SortableJS list onto another; the list\'s own order and end count show it', async () => {
    await ok('navigate', { url: page('sortable.html') });
    expect(await ok('drag', { from: 'Alpha', to: 'Gamma' })).toBe('Done: drag "Alpha" to "Gamma". (no re-sends)');
    expect(await inPage('[...document.querySelectorAll("#list li")].map((li) => li.textContent.trim())')).toEqual(['Beta', 'Gamma', 'Alpha']);
    expect(await ok('read', { target: { label: 'Ends' } })).toContain('"1"');
  });

  it('[MCP-PRESS] press sends a chord to a field, a Tab that moves the focus, focuses without clicking, and sends a key to the page when no target is named', async () => {
    await ok('navigate', { url: page('mouse-keys.html') });
    expect(await ok('press', { key: 'Control+Enter', target: { label: 'Message' } })).toBe('Done: press Control+Enter in label "Message". (no re-sends)');
    expect(await ok('read', { target: { label: 'Log' } })).toContain('"sent with ctrl"');
    await ok('press', { key: 'Tab', target: { label: 'First' } });
    expect(await inPage('document.activeElement.id')).toBe('second');
    // The target is focused, not clicked: Note counts its clicks.
    await ok('press', { key: 'End', target: { label: 'Note' } });
    expect(await inPage('[document.activeElement.id, document.getElementById("noteClicks").textContent]')).toEqual(['note', '0']);

    await ok('navigate', { url: page('keylog.html') });
    await ok('press', { key: 'a' });
    expect(await inPage('window.__log')).toEqual(['keydown a trusted']);
  });

  it('[MCP-FILL] fill replaces a value with trusted input events and clicks nothing; an empty text clears; a read-only field is refused', async () => {
    await ok('navigate', { url: page('fill.html') });
    expect(await ok('fill', { target: { label: 'Name' }, text: 'Grace Hopper' })).toBe('Done: fill "Grace Hopper" into label "Name". (no re-sends)');
    expect(await inPage('document.getElementById("name").value')).toBe('Grace Hopper');
    await ok('fill', { target: { label: 'Bio' }, text: '' });
    expect(await inPage('document.getElementById("bio").value')).toBe('');
    const inputs = await inPage<Array<{ id: string; trusted: boolean }>>('window.__inputs');
    expect(inputs.map((i) => i.id)).toEqual(expect.arrayContaining(['name', 'bio']));
    expect(inputs.every((i) => i.trusted)).toBe(true);
    expect(await inPage('window.__clicks')).toBe(0);
    const locked = await call('fill', { target: { label: 'Locked' }, text: 'x' });
    expect(locked.isError).toBe(true);
    expect(textOf(locked)).toMatch(/^\[unsupported\] /);
    expect(await inPage('document.getElementById("locked").value')).toBe('fixed');
  });

  it('[MCP-WAIT] wait sees a text change, an element appear and the network go idle; one that does not happen is a tool error with reason timeout', async () => {
    await ok('navigate', { url: page('textchange.html?ms=1000') });
    await ok('click', { target: 'Start' });
    expect(await ok('wait', { kind: 'textChanges', target: { css: '#status' } })).toBe('Done: wait for css "#status" to change. (no re-sends)');
    expect(await inPage('document.getElementById("status").textContent')).toBe('Finished');

    await ok('navigate', { url: page('buttons.html') });
    await ok('click', { target: 'Reveal' });
    await ok('wait', { kind: 'visible', target: 'Secret' });
    await ok('click', { target: 'Secret' });
    expect(await inPage('window.__secretClicks')).toBe(1);

    const never = await call('wait', { kind: 'gone', target: { text: 'Save', within: 'Billing' }, timeoutMs: 400 });
    expect(never.isError).toBe(true);
    expect(textOf(never)).toMatch(/^\[timeout\] /);
    const bad = await call('wait', { kind: 'visible' });
    expect(textOf(bad)).toMatch(/^\[usage\] wait was not run: target: /);

    // The page's own fetch takes 800 ms; network idle is after it answered.
    await ok('navigate', { url: page('slow.html?ms=800') });
    expect(await ok('wait', { kind: 'networkIdle' })).toBe('Done: wait for network idle. (no re-sends)');
    expect(await inPage('[document.getElementById("status").textContent, window.__loads]')).toEqual(['Done', 1]);
  });

  it('[MCP-TABS] switch_tab follows a popup by URL, a click there lands in it, close_tab goes back; a new tab is followed with new', async () => {
    await ok('navigate', { url: page('popup.html') });
    await ok('click', { target: 'Open payment' });
    expect(await ok('switch_tab', { urlContains: 'pay.html' })).toMatch(/^Done: switch to tab with url "pay\.html" \(tab \d+\)\. \(no re-sends\)$/);
    await ok('click', { target: 'Pay now' });
    expect(await inPage('window.__pays')).toBe(1);
    expect(await ok('tabs')).toMatch(/\n\* \d+ "Pay" http:\/\/127\.0\.0\.1:\d+\/pay\.html/);

    expect(await ok('close_tab')).toMatch(/^Closed tab \d+; back in http:\/\/127\.0\.0\.1:\d+\/popup\.html \("Checkout"\) in tab \d+\. \(no re-sends\)$/);
    expect(await inPage('[location.pathname, window.__opened]')).toEqual(['/popup.html', 1]);
    const tabs = await ok('tabs');
    expect(tabs).not.toContain('pay.html');
    expect(tabs).toMatch(/\n\* \d+ "Checkout" http:\/\/127\.0\.0\.1:\d+\/popup\.html/);

    // The tab a page opened by itself, its alert on load answered as armed (and said once, by
    // whichever answer came after it opened).
    await ok('navigate', { url: page('dialogs.html') });
    await ok('dialog', { accept: true });
    const opened = (await ok('click', { target: 'Open welcome tab' })) + (await ok('switch_tab', { new: true }));
    expect(opened.split('An alert dialog opened: "Welcome"; it was accepted.').length).toBe(2);
    expect(await inPage('[location.search, document.getElementById("out").textContent]')).toEqual(['?welcome=1', 'welcomed']);
    await ok('close_tab');
    expect(await inPage('[location.search, document.getElementById("clicks").textContent]')).toEqual(['', '1']);
    const none = await call('switch_tab', { titleContains: 'No such tab', timeoutMs: 400 });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toMatch(/^\[timeout\] No tab matching \{"titleContains":"No such tab"\}/);

    // The run's first tab came from nowhere: closing it leaves the run without one, and says so.
    const before = await ok('tabs');
    expect(await ok('close_tab')).toMatch(/^Closed tab \d+; the run has no tab now \(navigate opens a new one\)\. \(no re-sends\)$/);
    const after = await ok('tabs');
    expect(after).not.toContain('dialogs.html');
    expect(before).toContain('dialogs.html');
    expect(after).not.toMatch(/\n\* /);
    await ok('navigate', { url: page('counter.html') });
    expect(await ok('tabs')).toMatch(/\n\* \d+ "Counter" /);
  });

  it('[SW-ID] [SW-FORMS] switch_tab takes a tab by the id tabs lists; a match of no known form, or of two, is refused naming the forms', async () => {
    await ok('navigate', { url: page('popup.html') });
    await ok('click', { target: 'Open payment' });
    await ok('click', { target: 'Open payment' });
    // Two tabs show the same page: only their ids tell them apart.
    await expect.poll(async () => [...(await ok('tabs')).matchAll(/^ {2}\d+ "Pay" /gm)].length).toBe(2);
    const ids = [...(await ok('tabs')).matchAll(/^ {2}(\d+) "Pay" /gm)].map((m) => Number(m[1]));
    expect(await ok('switch_tab', { id: ids[1] })).toMatch(new RegExp(`^Done: switch to tab ${ids[1]} \\(tab ${ids[1]}\\)\\. \\(no re-sends\\)$`));
    expect(await ok('tabs')).toMatch(new RegExp(`\\n\\* ${ids[1]} "Pay" `));
    const forms = /a tab match takes exactly one of \{ urlContains: "…" \}, \{ titleContains: "…" \}, \{ new: true \} or \{ id: <tab id> \}/;
    const two = await call('switch_tab', { urlContains: 'pay', titleContains: 'Pay' });
    expect(two.isError).toBe(true);
    expect(textOf(two)).toMatch(/^\[usage\] switch_tab was not run: /);
    expect(textOf(two)).toMatch(forms);
    const none = await call('switch_tab', {});
    expect(textOf(none)).toMatch(forms);
    const playwright = await call('switch_tab', { url: 'pay' });
    expect(textOf(playwright)).toMatch(/^\[usage\] switch_tab was not run: unknown argument "url" \(it takes urlContains, titleContains, new, id, timeoutMs\)\.$/);
    // Nothing was switched by the refused calls.
    expect(await ok('tabs')).toMatch(new RegExp(`\\n\\* ${ids[1]} "Pay" `));
    await ok('close_tab');
    await ok('switch_tab', { id: ids[0] });
    await ok('close_tab');
  });

  it('[MCP-DIALOG] [MCP-RESULT] a dialog nobody armed, or one a timer opens after the call that started it, is said by the next answer, once', async () => {
    await ok('navigate', { url: page('dialogs.html') });
    // The tab opens, its alert is dismissed (nothing armed): the click or the switch says so.
    const unarmed = (await ok('click', { target: 'Open welcome tab' })) + (await ok('switch_tab', { new: true }));
    expect(unarmed.split('An alert dialog opened: "Welcome"; it was dismissed (no answer was armed).').length).toBe(2);
    await ok('close_tab');
    // The alert opens 400 ms after the click (after its answer, unless the machine is slow); the
    // verify waiting for its effect says it then. Either way it is said once.
    const click = await ok('click', { target: 'Alert later' });
    const later = await ok('verify', { kind: 'targetText', target: { label: 'Out' }, value: 'after later' });
    expect(later).toMatch(/^Done: verify label "Out" shows "after later"\. \(no re-sends\)/);
    expect(`${click}\n${later}`.split('\nAn alert dialog opened: "Later"; it was dismissed (no answer was armed).').length).toBe(2);
    expect(await ok('read', { target: { label: 'Out' } })).toBe('label "Out" reads: "after later" (no re-sends)');
  });

  it('[MCP-DIALOG] [DLG-BEFOREUNLOAD] a navigate a dismissed beforeunload kept from leaving fails saying to arm the dialog tool, not an SDK call', async () => {
    await ok('navigate', { url: page('dialogs.html') });
    await ok('click', { target: 'Guard unsaved changes' });
    const kept = await call('navigate', { url: page('counter.html'), timeoutMs: 20_000 });
    expect(kept.isError).toBe(true);
    expect(textOf(kept)).toMatch(/^\[navigation\] Stopped loading .*beforeunload dialog was dismissed .*; call the dialog tool with \{"accept": true\} \(or give click "dialog": \{"accept": true\}\) before leaving it\./);
    expect(textOf(kept)).not.toContain('session.dialogs');
    await ok('dialog', { accept: true });
    expect(await ok('navigate', { url: page('counter.html') })).toMatch(/^Opened http:\/\/127\.0\.0\.1:\d+\/counter\.html /);
  });

  it('[MCP-SNAPSHOT] [MCP-TARGET] a ref stays a target after another snapshot; once the page navigated it fails at once as not-found', async () => {
    await ok('navigate', { url: page('counter.html') });
    const ref = /- button "Increment" \[ref=(e\d+)\]/.exec(await ok('snapshot'))![1]!;
    expect(await ok('snapshot')).toContain('- button "Decrement"');
    await ok('click', { target: { ref } });
    expect(await inPage('document.getElementById("value").textContent')).toBe('11');
    await ok('navigate', { url: page('counter.html') });
    const started = Date.now();
    const gone = await call('click', { target: { ref } });
    expect(gone.isError).toBe(true);
    expect(textOf(gone)).toMatch(new RegExp(`^\\[not-found\\] .*${ref}`));
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await inPage('document.getElementById("value").textContent')).toBe('10');
  });

  it('[MCP-SNAPSHOT] [FR-XSITE-SNAPSHOT] [FR-XSITE-WITHIN] an allowed cross-site frame is in the snapshot; its ref clicks in it, and verify within it sees the change', async () => {
    await ok('navigate', { url: page('xframe.html') });
    await ok('verify', { kind: 'exists', target: { text: 'Inner button', frame: ['outer', 'inner'] } });
    const snap = await ok('snapshot');
    expect(snap).toMatch(/^- iframe "Payment" \[ref=e\d+\]\n {2}- heading "Payment frame" \[level=2\] \[ref=e\d+\]$/m);
    const ref = /^ {2}- button "Pay" \[ref=(e\d+)\]$/m.exec(snap)![1]!;
    expect(await ok('click', { target: { ref } })).toContain('the button "Pay"');
    expect(await ok('read', { target: { css: '#paid', frame: 'outer' } })).toContain('"1"');
    await ok('verify', { kind: 'text', value: 'Paid: 1', within: { css: 'body', frame: 'outer' } });
    const top = await call('verify', { kind: 'text', value: 'Paid: 1', within: { css: 'body' }, timeoutMs: 500 });
    expect(textOf(top)).toMatch(/^\[mismatch\]/);
    expect(await inPage('window.__topClicks')).toBe(0);
  });

  it('[MCP-SNAPSHOT] [FR-NESTED-SNAPSHOT] a cross-site frame inside a same-origin one is in the snapshot; its ref clicks there and nowhere else', async () => {
    const nest = (origin: string, params: Record<string, string>): string => `${origin}/nest.html?${new URLSearchParams(params)}`;
    const x = nest(server.origin.replace('127.0.0.1', 'localhost'), { name: 'X' });
    await ok('navigate', { url: nest(server.origin, { name: 'A', childName: 'same', child: nest(server.origin, { name: 'S', childName: 'x', child: x }) }) });
    await ok('verify', { kind: 'exists', target: { text: 'Frame X', frame: ['same', 'x'] } });
    const snap = await ok('snapshot');
    expect(snap).toMatch(/^ {2}- iframe "Holds x" \[ref=e\d+\]\n {4}- heading "Frame X" \[level=2\] \[ref=e\d+\]$/m);
    const ref = /^ {4}- button "Press X" \[ref=(e\d+)\]$/m.exec(snap)![1]!;
    expect(await ok('click', { target: { ref } })).toContain('"Press X"');
    await ok('verify', { kind: 'text', value: 'Pressed: 1', within: { css: 'body', frame: ['same', 'x'] } });
    // Neither the top page nor the same-origin frame around it got a click.
    expect(await inPage('[window.__clicks, document.getElementById("same").contentWindow.__clicks]')).toEqual([0, 0]);
  });

  it('[MCP-ERROR] a disabled button is refused as not-enabled, how long it waited in whole ms, and it is not clicked', async () => {
    await ok('navigate', { url: page('buttons.html') });
    const locked = await call('click', { target: 'Locked', timeoutMs: 500 });
    expect(locked.isError).toBe(true);
    expect(textOf(locked)).toMatch(/^\[not-enabled\] <button#locked> "Locked" is not enabled: it has the disabled attribute \(waited \d+ ms\)\.\n/);
    expect(await inPage('window.__lockedClicks')).toBe(0);
  });

  it('[MCP-ERROR] an argument the tool does not know is refused before anything runs, not dropped', async () => {
    await ok('navigate', { url: page('buttons.html') });
    const clicks = await inPage('window.__lockedClicks');
    for (const [name, args, key] of [
      ['click', { target: 'Locked', bogus: 1 }, 'bogus'],
      ['verify', { kind: 'exists', target: 'Locked', negated: true }, 'negated'],
    ] as const) {
      const answer = await call(name, args).catch((error: unknown) => ({ isError: true, content: [{ type: 'text', text: String(error) }] }) as Answer);
      expect(answer.isError, name).toBe(true);
      expect(textOf(answer)).toMatch(new RegExp(`^\\[usage\\] ${name} was not run: unknown argument "${key}" \\(it takes [a-zA-Z, ]+\\)\\.$`));
    }
    expect(await inPage('window.__lockedClicks')).toBe(clicks);
  });

  it('[MCP-HTTP-STATUS] a page the server answered with an error status opens, and navigate says the status; one answered 200 says none', async () => {
    expect(await ok('navigate', { url: page('status/404') })).toMatch(/^Opened http:\/\/127\.0\.0\.1:\d+\/status\/404 .*in tab \d+; the server answered HTTP 404\. \(no re-sends\)$/);
    const redirected = await ok('navigate', { url: page(`redirect?to=${encodeURIComponent('/status/503')}`) });
    expect(redirected).toMatch(/^Opened http:\/\/127\.0\.0\.1:\d+\/status\/503 .*; the server answered HTTP 503\. /);
    expect(await ok('navigate', { url: page('counter.html') })).toMatch(/^Opened http:\/\/127\.0\.0\.1:\d+\/counter\.html \("Counter"\) in tab \d+\. \(no re-sends\)$/);
    // A request's URL has no fragment: the page is still known by it. A move within the page
    // (the fragment alone) makes no request, and is not waited for.
    expect(await ok('navigate', { url: page('status/404#details') })).toMatch(/^Opened http:\/\/127\.0\.0\.1:\d+\/status\/404#details .*; the server answered HTTP 404\. /);
    expect(await ok('navigate', { url: page('counter.html') })).toMatch(/counter\.html/);
    expect(await ok('navigate', { url: page('counter.html#top') })).toMatch(/^Opened http:\/\/127\.0\.0\.1:\d+\/counter\.html#top \("Counter"\) in tab \d+\. \(no re-sends\)$/);
  });

  it('[MCP-EVERY-TOOL] every tool API.md names is listed, documented in docs/agents.md and driven by an mcp e2e test; nothing else is listed', async () => {
    const listed = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(listed).toEqual([...API_TOOLS, 'evaluate'].sort());
    // The first column of the tool table, between "## The tools" and the next heading.
    const table = /^## The tools\n([\s\S]*?)^#/m.exec(await readFile(AGENTS_MD, 'utf8'))![1]!;
    const documented = [...table.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]!);
    expect(documented.sort()).toEqual([...API_TOOLS].sort());
    // Called in the mcp e2e files: `call('name'`, `ok('name'` (this file's helpers).
    const files = (await readdir(E2E)).filter((f) => /^mcp.*\.e2e\.test\.ts$/.test(f));
    const called = new Set<string>();
    for (const f of files) for (const m of (await readFile(join(E2E, f), 'utf8')).matchAll(/\b(?:call|ok)\('([a-z_]+)'/g)) called.add(m[1]!);
    expect(listed.filter((name) => !called.has(name))).toEqual([]);
  });

  it('[MCP-DOWNLOAD] a click that starts a download says so, with the file\'s name, where it was saved and its size, once', async () => {
    await ok('navigate', { url: page('files.html') });
    const click = await ok('click', { target: 'Export CSV' });
    expect(click).toMatch(/^Done: click "Export CSV"\. \(no re-sends\)/);
    // A link with `download` starts no navigation to wait for: Chrome may say the download began
    // after the click's answer (later still on a busy machine), and then a later answer says it.
    let answers = click;
    const saidDone = /\nA download finished: "report\.csv" from (\S+), saved at (.+) \((\d+) bytes\)\./g;
    await expect.poll(async () => [...(answers = `${answers}\n${await ok('tabs')}`).matchAll(saidDone)].length, { timeout: 10_000 }).toBeGreaterThan(0);
    const finished = [...answers.matchAll(saidDone)];
    expect(finished, answers).toHaveLength(1);
    const [, url, path, bytes] = finished[0]!;
    expect(url).toBe(page('report.csv'));
    const saved = await readFile(path!, 'utf8');
    expect(saved).toBe(await readFile(fileURLToPath(new URL('../fixtures/pages/report.csv', import.meta.url)), 'utf8'));
    expect(Number(bytes)).toBe(Buffer.byteLength(saved));
    // Said once: a later answer does not repeat it.
    expect(await ok('tabs')).not.toContain('download');
  });

  it('[MCP-TABS-LOADING] tabs shows a new tab still loading as (loading) with its address, not an empty title', async () => {
    await ok('navigate', { url: page('popup.html') });
    const slow = page('slow?ms=3000');
    // The page's own link, opening a new tab on a page the server answers only after 3 s.
    await ok('evaluate', { expression: `document.getElementById('link').href = ${JSON.stringify(slow)}` });
    await ok('click', { target: { css: '#link' } });
    const listing = await ok('tabs');
    expect(listing).toMatch(new RegExp(`\\n {2}\\d+ \\(loading\\) ${slow.replace(/[.?]/g, '\\$&')}$`, 'm'));
    expect(listing).not.toContain('""');
    // Leaves the run on the page it was on.
    await ok('switch_tab', { new: true });
    await ok('close_tab');
  });

  it('[MCP-PAGE-TROUBLE] answers say the errors the page reported and the requests that failed, each once', async () => {
    let said = await ok('navigate', { url: page('console-error.html') });
    said += `\n${await ok('click', { target: 'Trigger error' })}`;
    said += `\n${await ok('evaluate', { expression: "fetch('/status/500').then((r) => r.status)" })}`;
    // Console lines and answers come as events: a later answer says what came after the one before.
    await expect.poll(async () => (said += `\n${await ok('read', { target: { css: '#count' } })}`), { timeout: 5_000 }).toMatch(/A request failed: GET \S+\/status\/500 → 500/);
    expect(said).toMatch(/The page reported an error \(error\): .*kaboom/);
    expect(said.match(/status\/500 → 500/g)).toHaveLength(1);
    expect(await ok('read', { target: { css: '#count' } })).not.toMatch(/request failed|reported an error/);
  });
});

