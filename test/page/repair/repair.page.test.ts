// Repair in real Chromium: the old page is described, the new page repaired, as `resolve` does.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extensionZod } from '../../../build/extensionZodPlugin.js';
import type { Descriptor } from '../../../src/sdk/protocol/descriptor.js';
import type { Target } from '../../../src/sdk/protocol/target.js';
import type { Run } from '../../../bench/repair/harness.js';
import { startServer } from '../../../bench/repair/server.js';

type BenchGlobal = typeof import('../../../bench/repair/harness.js');
declare const aiteBench: BenchGlobal;

/** The tester's app of the settings dialog and pager cases, as one release or the next. */
function people(o: { dialog?: boolean; apply?: boolean; chevron?: boolean }): string {
  const rows = ['Alice', 'Bob', 'Carol', 'Dave', 'Erin']
    .map((n, i) => `<tr><td>${n}</td><td>${n.toLowerCase()}@ex.test</td><td>${i % 3 ? 'User' : 'Admin'}</td><td><button class="del">Delete</button></td></tr>`)
    .join('');
  const next = o.chevron ? '<button aria-label="Next page" data-truth>&rsaquo;</button>' : '<button>Next</button>';
  const actions = o.apply
    ? '<button data-truth>Apply</button> <button>Cancel</button> <button>Save draft</button>'
    : '<button>Save</button> <button>Cancel</button>';
  return `<style>.modal{position:fixed;inset:0;background:rgba(0,0,0,.3)}.modal>div{background:#fff;margin:60px auto;width:300px;padding:12px}</style>
    <header><span>Signed in as qa@ex.test</span> <span tabindex="0">Account</span> <button>Open settings</button>${o.chevron ? ' <button>Next</button>' : ''}</header>
    <div id="status"></div><table><thead><tr><th>Name</th><th>Email</th><th>Role</th><th></th></tr></thead><tbody>${rows}</tbody></table>
    <button>Previous</button> <span>Page 1 of 3</span> ${next}<label for="title">Title</label> <input id="title"><br><label for="notes">Notes</label><textarea id="notes"></textarea>
    ${o.dialog ? `<div class="modal" role="dialog" aria-labelledby="mt"><div><h2 id="mt">Settings</h2><label for="theme">Theme</label> <select id="theme"><option>Light</option><option>Dark</option></select><br>
    <label><input type="checkbox"> Email alerts</label><label><input type="checkbox"> SMS alerts</label><br>${actions}</div></div>` : ''}`;
}

const PAGES: Record<string, string> = {
  'compose-old.html': `<h1>New message</h1><form aria-label="Compose"><label for="to">To</label><input id="to" name="to">
    <div class="actions"><button id="send-btn" class="btn primary">Send</button><button class="btn">Save draft</button></div></form>`,
  'compose-new.html': `<h1>New message</h1><form aria-label="Compose"><label for="to">To</label><input id="to" name="to">
    <div class="toolbar"><div class="slot"><button class="btn2 primary" data-truth>Send now</button></div><button class="btn2">Save draft</button></div></form>`,
  'compose-mild.html': `<h1>New message</h1><form aria-label="Compose"><label for="to">To</label><input id="to" name="to">
    <div class="actions"><button id="send-button" class="button primary" data-truth>Send</button><button class="btn">Save draft</button></div></form>`,
  'compose-id.html': `<h1>New message</h1><form aria-label="Compose"><div><button id="send-btn" class="x">Submit message</button><button>Save draft</button></div></form>`,
  'compose-gone.html': `<h1>New message</h1><form aria-label="Compose"><label for="to">To</label><input id="to" name="to">
    <div class="actions"><button class="btn primary">Schedule</button><button class="btn">Save draft</button></div></form>`,
  'compose-decoy.html': `<h1>New message</h1><form aria-label="Compose"><label for="to">To</label><input id="to" name="to">
    <div class="actions"><button id="send-btn-alt" class="btn primary">Schedule</button><button id="send-btn" class="btn primary" data-truth>Send</button><button class="btn">Save draft</button></div></form>`,
  'twins-old.html': `<ul><li>Alpha <a href="/a">Open</a></li><li>Beta <a href="/b">Open</a></li></ul>`,
  'twins-new.html': `<ul><li>Gamma <a href="/c">Open it</a></li><li>Delta <a href="/d">Open it</a></li></ul>`,
  'checks-old.html': `<h2>Notifications</h2><div><input type="checkbox" id="a"><label for="a">Email notifications</label></div>
    <div><input type="checkbox" id="b"><label for="b">SMS notifications</label></div><div><input type="checkbox" id="c"><label for="c">Push notifications</label></div>`,
  'checks-new.html': `<h2>Notifications</h2><div><input type="checkbox" id="a2"><label for="a2">Email notifications</label></div>
    <div><input type="checkbox" id="b2" data-truth><label for="b2">SMS text notifications</label></div><div><input type="checkbox" id="c2"><label for="c2">Push notifications</label></div>`,
  'wrap-old.html': `<table><tr><th>Name</th><th>Action</th></tr><tr><td>Ada</td><td><a href="/ada/edit">Edit profile</a></td></tr></table>`,
  'wrap-new.html': `<table><tr><th>Name</th><th>Action</th></tr><tr><td>Ada</td><td><a href="/ada/edit" data-truth><span>Edit the profile</span></a></td></tr></table>`,
  'rows-old.html': `<h1>Users</h1><table><tr><td>Ada Lovelace</td><td>ada@example.com</td><td>Admin</td><td><button>Edit</button><button>Delete</button></td></tr><tr><td>Grace Hopper</td><td>grace@example.com</td><td>Editor</td><td><button>Edit</button><button>Delete</button></td></tr><tr><td>Alan Turing</td><td>alan@example.com</td><td>Viewer</td><td><button>Edit</button><button>Delete</button></td></tr></table>`,
  'rows-reordered.html': `<h1>Users</h1><table><tr><td>Grace Hopper</td><td>grace@example.com</td><td>Editor</td><td><button>Edit</button><button>Delete</button></td></tr><tr><td>Ada Lovelace</td><td>ada@example.com</td><td>Admin</td><td><button>Edit</button><button data-truth>Delete</button></td></tr><tr><td>Alan Turing</td><td>alan@example.com</td><td>Viewer</td><td><button>Edit</button><button>Delete</button></td></tr></table>`,
  'rows-wrapped.html': `<h1>Users</h1><table><tr><td>Grace Hopper</td><td>grace@example.com</td><td>Editor</td><td><span><button>Edit</button><button>Delete</button></span></td></tr><tr><td>Ada Lovelace</td><td>ada@example.com</td><td>Admin</td><td><span><button>Edit</button><button data-truth>Delete</button></span></td></tr><tr><td>Alan Turing</td><td>alan@example.com</td><td>Viewer</td><td><span><button>Edit</button><button>Delete</button></span></td></tr></table>`,
  'rows-renamed.html': `<h1>Users</h1><table><tr><td>Ada Lovelace</td><td>ada@example.com</td><td>Admin</td><td><span><button>Edit</button><button data-truth>Remove</button></span></td></tr><tr><td>Grace Hopper</td><td>grace@example.com</td><td>Editor</td><td><button>Edit</button><button>Delete</button></td></tr><tr><td>Alan Turing</td><td>alan@example.com</td><td>Viewer</td><td><button>Edit</button><button>Delete</button></td></tr></table>`,
  'rows-decoy.html': `<h1>Users</h1><table><tr><td>Ada Lovelace</td><td>ada@example.com</td><td>Admin</td><td><span><button>Edit</button><button data-truth>Delete</button><button>Preview</button></span></td></tr><tr><td>Grace Hopper</td><td>grace@example.com</td><td>Editor</td><td><span><button>Edit</button><button>Delete</button></span></td></tr><tr><td>Alan Turing</td><td>alan@example.com</td><td>Viewer</td><td><span><button>Edit</button><button>Delete</button></span></td></tr></table>`,
  'invoices-old.html': `<h1>Invoices</h1><table><tr><td>001401</td><td>Design Works</td><td><a href="#" class="btn">Manage</a></td></tr><tr><td>001402</td><td>UX Wireframes</td><td><a href="#" class="btn">Manage</a></td></tr></table>`,
  'invoices-new.html': `<h1>Invoices</h1><table><tr><td>001401</td><td>Design Works</td><td><a href="#" class="btn" data-truth>Manage</a></td></tr><tr><td>001402</td><td>UX Wireframes</td><td><a href="#" class="btn">Manage</a></td></tr><tr><td>001409</td><td>Design Works</td><td><a href="#" class="btn">Manage</a></td></tr></table>`,
  'save-old.html': `<h1>Settings</h1><form><label for="n">Name</label><input id="n"><div class="actions"><button class="btn primary">Save changes</button><button class="btn">Cancel</button></div></form>`,
  'save-gone.html': `<h1>Settings</h1><form><label for="n">Name</label><input id="n"><div class="actions"><button class="btn">Cancel</button></div></form>`,
  // Two sign-up forms whose buttons were renamed together; the header's heading was rewritten, the
  // call to action's kept (its button stands in the place the record remembers for the twin).
  'signup-old.html': `<header><h1>Build a landing page for your business</h1><form><input type="email" placeholder="Enter your email..."><button type="submit" class="btn btn-primary">Sign up!</button></form></header>
    <p>Testimonials and features.</p><section><h2>Ready to get started? Sign up now!</h2><form><input type="email" placeholder="Enter your email..."><button type="submit" class="btn btn-primary">Sign up!</button></form></section>`,
  'signup-new.html': `<header><h1>Generate more leads with a landing page for your business</h1><form><input type="email" placeholder="Email Address"><button type="submit" class="btn btn-primary btn-lg" data-truth>Submit</button></form></header>
    <p>Testimonials and features.</p><section><h2>Ready to get started? Sign up now!</h2><form><input type="email" placeholder="Email Address"><button type="submit" class="btn btn-primary btn-lg">Submit</button></form></section>`,
  'signup-gone.html': `<header><h1>Generate more leads with a landing page for your business</h1><p>Coming soon.</p></header>
    <p>Testimonials and features.</p><section><h2>Ready to get started? Sign up now!</h2><form><input type="email" placeholder="Email Address"><button type="submit" class="btn btn-primary btn-lg">Submit</button></form></section>`,
  // A small app (header, table, pager, a settings dialog) whose release renamed the dialog's
  // "Save" to "Apply" in its place and added "Save draft" after "Cancel"; another release turned the
  // pager's "Next" into "›" (aria-label "Next page") and put an unrelated "Next" in the header.
  'people-save-old.html': people({ dialog: true }),
  'people-save-new.html': people({ dialog: true, apply: true }),
  'people-next-old.html': people({}),
  'people-next-new.html': people({ chevron: true }),
  'big-old.html': `<main><button class="go">Continue</button></main>`,
  'big-new.html': `<section>${Array.from({ length: 2200 }, (_, i) => `<p>Line ${i}</p>`).join('')}</section><main><button class="go">Proceed</button></main>`,
};

let browser: Browser;
let page: Page;
let server: Awaited<ReturnType<typeof startServer>>;
let dir: string;
let profile: string;
let script: string;

// The corpus's wallet page: "Receive" renamed "Request" in its place, or renamed and moved to the page's end.
const WALLET = readFileSync('test/fixtures/drift/pages/wallet.html', 'utf8');
const RECEIVE = '<button type="button" class="btn">Receive</button>';
const REQUEST = '<button type="button" class="btn" data-truth>Request</button>';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'aite-repair-pages-'));
  for (const [name, body] of Object.entries(PAGES)) writeFileSync(join(dir, name), `<!doctype html><html><body>${body}</body></html>`);
  writeFileSync(join(dir, 'wallet-old.html'), WALLET);
  writeFileSync(join(dir, 'wallet-new.html'), WALLET.replace(RECEIVE, REQUEST));
  writeFileSync(join(dir, 'wallet-moved.html'), WALLET.replace(RECEIVE, '').replace('</body>', `<footer>${REQUEST}</footer></body>`));
  server = await startServer({ p: dir });
  script = (await build({ entryPoints: ['bench/repair/harness.ts'], bundle: true, format: 'iife', globalName: 'aiteBench', write: false, logLevel: 'silent', plugins: [extensionZod] })).outputFiles[0]!.text;
  profile = mkdtempSync(join(tmpdir(), 'aite-repair-profile-'));
  browser = await puppeteer.launch({
    executablePath: process.env.AITE_CHROME ?? '/usr/bin/chromium',
    headless: true,
    pipe: true,
    userDataDir: profile,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(profile, { recursive: true, force: true });
});

async function open(name: string): Promise<void> {
  await page.goto(`${server.base}/p/${name}`, { waitUntil: 'load' });
  await page.addScriptTag({ content: script });
}

/** The target recorded on the old page (as the lock file would hold it), then the new page opened and its truth marker taken. */
async function recordThenOpen(oldPage: string, target: Target, newPage: string): Promise<{ old: Descriptor; truth: string | undefined }> {
  await open(oldPage);
  const rec = await page.evaluate((t) => aiteBench.record(t as Target), target as never);
  if (!rec.ok) throw new Error(`old page: ${rec.why}`);
  await open(newPage);
  const mark = await page.evaluate(() => aiteBench.takeTruth('data-truth'));
  return { old: rec.descriptor, truth: mark?.usable ? mark.xpath : undefined };
}

async function drift(oldPage: string, newPage: string, target: Target): Promise<{ run: Run; truth: string | undefined }> {
  const { old, truth } = await recordThenOpen(oldPage, target, newPage);
  const run = await page.evaluate((t, d) => aiteBench.resolveWithRepair(t as Target, d as Descriptor), target as never, old as never);
  if (process.env.AITE_DEBUG) console.log(JSON.stringify({ old, run }, null, 1));
  return { run, truth };
}

describe('repair in the page', () => {
  it('does not repair what the exact target still finds', async () => {
    const { run, truth } = await drift('compose-old.html', 'compose-new.html', { text: 'Send' });
    expect(run.exact).toBe('found'); // "Send now" still contains "Send"
    expect(run.exactXpath).toBe(truth);
    expect(run.ok).toBeUndefined();
  });

  it('repairs when the exact target is gone, with via "repair" and readable changes', async () => {
    const { run, truth } = await drift('compose-old.html', 'compose-mild.html', { css: '#send-btn' });
    expect(run.ok).toBe(true);
    expect(run.via).toBe('repair');
    expect(run.xpath).toBe(truth);
    expect(run.score).toBeGreaterThanOrEqual(0.85);
    expect(run.changes).toContain('id "send-btn" -> "send-button"');
    expect(run.changes).toContain('classes [btn primary] -> [button primary]');
  });

  it('after a restyle, rewrap and rename it acts or proposes the right element, never another', async () => {
    const { run, truth } = await drift('compose-old.html', 'compose-new.html', { css: '#send-btn' });
    if (run.ok) expect(run.xpath).toBe(truth);
    else {
      expect(run.reason).toBe('drifted');
      expect(run.proposed?.[0]).toBe(truth);
    }
  });

  it('uses a surviving id first (via "descriptor")', async () => {
    const { run } = await drift('compose-old.html', 'compose-id.html', { text: 'Send' });
    expect(run.ok).toBe(true);
    expect(run.via).toBe('descriptor');
  });

  it('refuses when the element is gone: a look-alike is never acted on', async () => {
    const { run } = await drift('compose-old.html', 'compose-gone.html', { css: '#send-btn' });
    expect(run.ok).toBe(false);
    expect(['not-found', 'drifted', 'ambiguous']).toContain(run.reason);
  });

  it('two equally close candidates are never a guess', async () => {
    await open('twins-old.html');
    const rec = await page.evaluate(() => aiteBench.record({ xpath: '//li[1]/a' }));
    expect(rec.ok).toBe(true);
    await open('twins-new.html');
    // The old row's words (Alpha) are gone from both rows: nothing tells the two links apart.
    const run = await page.evaluate((d) => aiteBench.resolveWithRepair({ text: 'Nope' }, d as Descriptor), (rec as { descriptor: Descriptor }).descriptor as never);
    expect(run.ok).toBe(false);
    expect(run.reason).toBe('ambiguous');
    expect(run.proposed).toHaveLength(2);
  });

  it('tells similar checkboxes apart by their visual label', async () => {
    const { run, truth } = await drift('checks-old.html', 'checks-new.html', { label: 'SMS notifications' });
    // Its label and id both changed: acting or proposing it are both right, another checkbox is not.
    if (run.ok) expect(run.xpath).toBe(truth);
    else expect(run.proposed?.[0]).toBe(truth);
    expect(run.runnerUp ?? 0).toBeLessThan((run.score ?? 0) - 0.15);
  });

  it('an element and its same-text wrapper are one candidate (the link wins)', async () => {
    const { run, truth } = await drift('wrap-old.html', 'wrap-new.html', { text: 'Edit profile' });
    expect(run.ok).toBe(true);
    expect(run.xpath).toBe(truth);
  });

  it('on a page of more than 2000 candidates, looks at 2000 and says so when it finds nothing', async () => {
    const { run } = await drift('big-old.html', 'big-new.html', { text: 'Continue' });
    expect(run.lookedAt).toBe(2000);
    expect(run.candidates).toBeGreaterThan(2000);
    if (run.ok === false && run.reason === 'not-found') expect(run.note).toMatch(/looked at 2000/);
  });

  it('a recorded target remembers its twins and the neighbours beside it', async () => {
    await open('rows-old.html');
    const rec = await page.evaluate(() => aiteBench.record({ xpath: '//tr[1]/td[4]/button[2]' }));
    if (!rec.ok) throw new Error(rec.why);
    expect(rec.descriptor.text).toBe('Delete');
    expect(rec.descriptor.twins).toBe(2);
    expect(rec.descriptor.peers).toContain('edit');
    expect(rec.descriptor.peers).not.toContain('delete');
    // Where the twins stand (their rows as rendered: the buttons touch), never the target's own row.
    expect(rec.descriptor.twinPlaces).toEqual(['grace hopper grace@example.com editor editdelete', 'alan turing alan@example.com viewer editdelete']);
  });

  it('slot: a button renamed in its place, between the neighbours it had, is repaired; renamed and moved away it is only proposed', async () => {
    const inPlace = await drift('wallet-old.html', 'wallet-new.html', { text: 'Receive' });
    expect(inPlace.run.ok).toBe(true);
    expect(inPlace.run.xpath).toBe(inPlace.truth);
    expect(inPlace.run.changes).toContain('text "Receive" -> "Request"');
    const moved = await drift('wallet-old.html', 'wallet-moved.html', { text: 'Receive' });
    expect(moved.run.ok).toBe(false);
    expect(moved.run.reason).toBe('drifted');
    expect(moved.run.proposed?.[0]).toBe(moved.truth);
  });

  it('twins: only the target was renamed, its twins kept the text; the twins in their remembered rows are not candidates', async () => {
    const target = { xpath: '//tr[1]/td[4]/button[2]' };
    const { old, truth } = await recordThenOpen('rows-old.html', target, 'rows-renamed.html');
    const run = await page.evaluate((t, d) => aiteBench.resolveWithRepair(t as Target, d as Descriptor), target as never, old as never);
    expect(run.exact).toBe('not-found');
    expect(run.ok).toBe(true);
    expect(run.xpath).toBe(truth);
    // Without the twins' places the untouched "Delete" of another row is the lead: never acted on.
    const { twinPlaces: _places, ...bare } = old;
    const blind = await page.evaluate((t, d) => aiteBench.resolveWithRepair(t as Target, d as Descriptor), target as never, bare as never);
    expect(blind.ok === true && blind.xpath === truth).toBe(false);
  });

  it('[RS-TWIN-ORDER] twins that nothing else tells apart are told apart by the order the record remembers; without `record` they stay ambiguous', async () => {
    await open('invoices-old.html');
    const second = await page.evaluate(() => aiteBench.record({ xpath: '//tr[2]/td[3]/a' }));
    if (!second.ok) throw new Error(second.why);
    expect(second.descriptor.twins).toBe(1);
    expect(second.descriptor.twinIndex).toBe(1);
    const target = { xpath: '//tr[1]/td[3]/a' };
    const { old, truth } = await recordThenOpen('invoices-old.html', target, 'invoices-new.html');
    expect(old.twinIndex).toBe(0);
    // The new release repeats the first row as its last, but for the invoice number.
    const run = await page.evaluate((t, d) => aiteBench.resolveWithRepair(t as Target, d as Descriptor, 'ours', false, true), target as never, old as never);
    expect(run.ok).toBe(true);
    expect(run.xpath).toBe(truth);
    await open('invoices-old.html');
    const bare = await page.evaluate((t) => aiteBench.record(t as Target, false), target as never);
    if (!bare.ok) throw new Error(bare.why);
    expect(bare.descriptor.twinIndex).toBeUndefined();
    await open('invoices-new.html');
    const blind = await page.evaluate((t, d) => aiteBench.resolveWithRepair(t as Target, d as Descriptor, 'ours', false, true), target as never, bare.descriptor as never);
    expect(blind.ok).toBe(false);
    expect(blind.reason).toBe('ambiguous');
  });

  it('[RS-TWIN-ORDER] a twin group renamed together: the twin standing in its remembered place counts in the group; gone, or without `record`, nothing is acted on', async () => {
    const target = { xpath: '//header//button' };
    const { old, truth } = await recordThenOpen('signup-old.html', target, 'signup-new.html');
    expect(old.twins).toBe(1);
    expect(old.twinIndex).toBe(0);
    expect(old.twinPlaces?.length).toBe(1);
    const run = await page.evaluate((t, d) => aiteBench.resolveWithRepair(t as Target, d as Descriptor, 'ours', false, true), target as never, old as never);
    expect(run.ok).toBe(true);
    expect(run.xpath).toBe(truth);
    // The header's form gone: the call to action's button, in its twin's remembered place, is not it.
    await open('signup-gone.html');
    const gone = await page.evaluate((t, d) => aiteBench.resolveWithRepair(t as Target, d as Descriptor, 'ours', false, true), target as never, old as never);
    expect(gone.ok).toBe(false);
    // Recorded without `record` (no twinIndex) the group is not read.
    await open('signup-old.html');
    const bare = await page.evaluate((t) => aiteBench.record(t as Target, false), target as never);
    if (!bare.ok) throw new Error(bare.why);
    await open('signup-new.html');
    const blind = await page.evaluate((t, d) => aiteBench.resolveWithRepair(t as Target, d as Descriptor, 'ours', false, true), target as never, bare.descriptor as never);
    expect(blind.ok === true && blind.xpath !== truth).toBe(false);
  });

  it('a neighbour remembered beside a removed target is never acted on, nor even proposed', async () => {
    await open('save-old.html');
    const rec = await page.evaluate(() => aiteBench.record({ text: 'Save changes' }));
    if (!rec.ok) throw new Error(rec.why);
    expect(rec.descriptor.peers).toContain('cancel');
    await open('save-gone.html');
    const run = await page.evaluate((d) => aiteBench.resolveWithRepair({ text: 'Save changes' }, d as Descriptor), rec.descriptor as never);
    expect(run.ok).toBe(false);
    expect(run.reason).toBe('not-found');
    // Without what the lock remembered of the page, the button left beside it is the lead.
    const { peers: _peers, ...bare } = rec.descriptor;
    const blind = await page.evaluate((d) => aiteBench.resolveWithRepair({ text: 'Save changes' }, d as Descriptor), bare as never);
    expect(blind.ok).toBe(false);
    expect(blind.proposed?.length ?? 0).toBeGreaterThan(0);
    expect(blind.score).toBeGreaterThan(run.score ?? 0);
  });

  it('checkExact: a positional target that now names a twin in another row is refused; in its own row it is taken', async () => {
    await open('rows-old.html');
    const rec = await page.evaluate(() => aiteBench.record({ xpath: '//tr[1]/td[4]/button[2]' }));
    if (!rec.ok) throw new Error(rec.why);
    await open('rows-reordered.html');
    await page.evaluate(() => aiteBench.takeTruth('data-truth'));
    const moved = await page.evaluate((d) => aiteBench.resolveWithRepair({ xpath: '//tr[1]/td[4]/button[2]' }, d as Descriptor), rec.descriptor as never);
    expect(moved.exact).toBe('found');
    expect(moved.refusedExact).toBe(true);
    expect(moved.exactWhy).toBe('context');
    await open('rows-old.html');
    const same = await page.evaluate((d) => aiteBench.resolveWithRepair({ xpath: '//tr[1]/td[4]/button[2]' }, d as Descriptor), rec.descriptor as never);
    expect(same.exact).toBe('found');
    expect(same.refusedExact).toBeUndefined();
  });

  it('checkExact: a target that now names a remembered neighbour is refused', async () => {
    await open('save-old.html');
    const rec = await page.evaluate(() => aiteBench.record({ css: '.actions button:first-child' }));
    if (!rec.ok) throw new Error(rec.why);
    await open('save-gone.html');
    const run = await page.evaluate((d) => aiteBench.resolveWithRepair({ css: '.actions button:first-child' }, d as Descriptor), rec.descriptor as never);
    expect(run.exact).toBe('found');
    expect(run.refusedExact).toBe(true);
    expect(run.exactWhy).toBe('peer');
  });

  it('twins: when the text was shared, the row decides, so a reordered and rewrapped list is repaired to the right row', async () => {
    // The old xpath finds nothing any more (a span was added); repair runs.
    const { run, truth } = await drift('rows-old.html', 'rows-wrapped.html', { xpath: '//tr[1]/td[4]/button[2]' });
    expect(run.exact).toBe('not-found');
    expect(run.ok).toBe(true);
    expect(run.xpath).toBe(truth);
  });

  it('a look-alike added beside the target (same row, tag and place, another text) is told apart by its text', async () => {
    const { run, truth } = await drift('rows-old.html', 'rows-decoy.html', { xpath: '//tr[1]/td[4]/button[2]' });
    expect(run.exact).toBe('not-found');
    expect(run.ok).toBe(true);
    expect(run.xpath).toBe(truth);
    expect(run.score! - run.runnerUp!).toBeGreaterThan(0.15);
  });
  it('[RS-REPAIR-IN-PLACE] "Save" renamed "Apply" in its place and a new "Save draft" added after "Cancel": repair never acts on "Save draft"', async () => {
    const target = { text: 'Save' };
    const { old, truth } = await recordThenOpen('people-save-old.html', target, 'people-save-new.html');
    expect(old.peers).toContain('cancel');
    // `{ text: 'Save', exact: true }` finds nothing on the new page: repair runs.
    const run = await page.evaluate((t, d) => aiteBench.resolveWithRepair(t as Target, d as Descriptor, 'ours', false, true), target as never, old as never);
    if (process.env.AITE_DEBUG) console.log(await page.evaluate((d, x) => aiteBench.explain(d as Descriptor, x), old as never, truth as never));
    // The two are named side by side: the new "Save draft" is not trusted over the one in the place.
    expect(run.ok).toBe(false);
    expect(run.reason).toBe('ambiguous');
    expect(run.proposed).toContain(truth);
  });

  it('[RS-CHECK-EXACT] the pager\'s "Next" became "›" in its place and a new "Next" stands in the header: the exact match is refused, naming the pager button; one shifted beside a look-alike added before it is taken', async () => {
    const target = { text: 'Next' };
    const { old, truth } = await recordThenOpen('people-next-old.html', target, 'people-next-new.html');
    const run = await page.evaluate((t, d) => aiteBench.resolveWithRepair(t as Target, d as Descriptor), target as never, old as never);
    if (process.env.AITE_DEBUG) console.log(JSON.stringify(run), await page.evaluate((d, x) => aiteBench.explain(d as Descriptor, x), old as never, truth as never));
    expect(run.exact).toBe('found');
    expect(run.exactXpath).not.toBe(truth);
    expect(run.refusedExact).toBe(true);
    expect(run.exactWhy).toBe('place');
    // A look-alike added before the remembered element holds its spot; the element, shifted beside
    // it, kept most of its place and is taken.
    const shifted = await drift('compose-old.html', 'compose-decoy.html', { text: 'Send' });
    if (process.env.AITE_DEBUG) console.log(JSON.stringify(shifted.run));
    expect(shifted.run.exact).toBe('found');
    expect(shifted.run.exactXpath).toBe(shifted.truth);
    expect(shifted.run.refusedExact).toBeUndefined();
    // On the old page the same target is taken.
    await open('people-next-old.html');
    const same = await page.evaluate((t, d) => aiteBench.resolveWithRepair(t as Target, d as Descriptor), target as never, old as never);
    expect(same.exact).toBe('found');
    expect(same.refusedExact).toBeUndefined();
  });
});
