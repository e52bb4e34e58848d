import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, type Descriptor, type Session, type StepRecord, type Target } from '../../src/sdk/index.js';
import { servePages, type PageServer } from './support/pageServer.js';
import { failure } from './support/failure.js';

// Repair through the real extension: a page before and after a release, one target.
const PAGES: Record<string, string> = {
  'compose-old.html': `<h1>New message</h1><form aria-label="Compose"><label for="to">To</label><input id="to" name="to">
    <div class="actions"><button id="send-btn" class="btn primary" type="submit">Send</button><button type="button">Save draft</button></div></form>`,
  'compose-mild.html': `<h1>New message</h1><form aria-label="Compose"><label for="to">To</label><input id="to" name="to">
    <div class="actions"><button id="send-button" class="btn primary" type="submit">Send</button><button type="button">Save draft</button></div></form>`,
  'compose-testid-old.html': `<h1>New message</h1><form aria-label="Compose"><button data-testid="send" id="a1">Send</button></form>`,
  'compose-testid-new.html': `<h1>New message</h1><form aria-label="Compose"><button data-testid="send" id="b7">Send</button></form>`,
  'compose-testid-drift.html': `<h1>New message</h1><form aria-label="Compose"><button data-testid="send" id="b7">Post</button></form>`,
  'compose-drift.html': `<h1>New message</h1><form aria-label="Compose"><label for="to">To</label><input id="to" name="to">
    <div class="actions"><button class="btn primary" type="submit">Post</button><button type="button">Save draft</button></div></form>`,
  'frame-old.html': `<h1>Checkout</h1><button class="pay">Pay now</button><iframe name="pay" src="/pay-old.html"></iframe>`,
  'frame-new.html': `<h1>Checkout</h1><button class="pay">Pay now</button><iframe name="pay" src="/pay-new.html"></iframe>`,
  'pay-old.html': `<h2>Card</h2><button id="pay-btn" class="pay">Pay now</button><button>Back</button>`,
  'pay-new.html': `<h2>Card</h2><button id="pay-button" class="pay">Pay now</button><button>Back</button>`,
  'compose-gone.html': `<h1>New message</h1><form aria-label="Compose"><label for="to">To</label><input id="to" name="to">
    <div class="actions"><button type="button">Save draft</button></div></form>`,
  'twins-old.html': `<h1>Files</h1><ul><li>Alpha <a href="/a" class="open">Open</a></li><li>Beta <a href="/b" class="other">Close</a></li></ul>`,
  'twins-new.html': `<h1>Files</h1><ul><li>Gamma <a href="/c" class="open">Open it</a></li><li>Delta <a href="/c" class="open">Open it</a></li></ul>`,
  'role-old.html': `<main><h1>Files</h1><p>Report.pdf <button class="del" onclick="o.textContent='deleted'">Delete</button></p><p><button type="button">Upload</button></p><p id="o">-</p></main>`,
  'role-new.html': `<main><h1>Files</h1><p>Report.pdf <a class="btn" href="#" onclick="o.textContent='deleted'">Delete</a></p><p><button type="button">Upload</button></p><p id="o">-</p><footer><button type="button">Remove files</button></footer></main>`,
  'big-old.html': `<main><h2>Checkout</h2><button class="go">Continue</button></main>`,
  'big-new.html': `<section>${Array.from({ length: 2200 }, (_, i) => `<p>Line ${i}</p>`).join('')}</section><main><h2>Payment</h2><a href="/x">Help</a></main>`,
};

// A settings page whose "Save settings" is replaced in place by a button that does another thing.
const settings = (button: string, says: string): string =>
  `<main><h1>Settings</h1><label>Theme <select><option>Light</option></select></label><button type="button" onclick="o.textContent='${says}'">${button}</button><p id="o">-</p></main>`;
// A sign-in form whose button is renamed within its action, under a heading that kept the old name.
const signIn = (button: string): string =>
  `<main><h1>Sign in</h1><form onsubmit="event.preventDefault(); msg.textContent='Welcome'"><label for="u">Username</label> <input id="u"> <button type="submit">${button}</button></form><p id="msg"></p></main>`;
PAGES['save-id.html'] = settings('Save settings', 'SAVED').replace('<button ', '<button id="apply" ');
PAGES['reset-id.html'] = settings('Reset settings', 'WIPED').replace('<button ', '<button id="apply" ');
PAGES['signin-old.html'] = signIn('Sign in');
PAGES['signin-new.html'] = signIn('Log in');

// One table before and after its rows were reordered; the page counts the clicks of each Delete.
function rows(order: string, renamed?: string): string {
  const people: Record<string, [string, string, string]> = {
    A: ['Ada Lovelace', 'ada@example.com', 'Admin'],
    G: ['Grace Hopper', 'grace@example.com', 'Editor'],
    T: ['Alan Turing', 'alan@example.com', 'Viewer'],
    J: ['Judy Hall', 'judy@example.com', 'Admin'],
  };
  const body = [...order]
    .map((k) => {
      const [name, mail, role] = people[k]!;
      const del = `<button onclick="document.getElementById('log').textContent += '${k}'">${k === renamed ? 'Remove' : 'Delete'}</button>`;
      // The renamed row's buttons are also wrapped, so a positional target finds nothing there.
      const actions = k === renamed ? `<span><button>Edit</button>${del}</span>` : `<button>Edit</button>${del}`;
      return `<tr><td>${name}</td><td>${mail}</td><td>${role}</td><td>${actions}</td></tr>`;
    })
    .join('');
  return `<h1>Users</h1><table>${body}</table><p id="deleted">Deleted: <output id="log"></output></p>`;
}
PAGES['rows-old.html'] = rows('AGT');
PAGES['rows-reordered.html'] = rows('GAT');
PAGES['rows-renamed.html'] = rows('AGT', 'A');
PAGES['rows-gone.html'] = rows('GT');
PAGES['rows-gone-admin.html'] = rows('GJT');
// The tester's small app: a pager, and a settings dialog whose buttons say what they did. A release
// renamed the dialog's "Save" to "Apply" in its place and added "Save draft" after "Cancel";
// another turned the pager's "Next" into "›" and put an unrelated "Next" in the header.
function pager(o: { apply?: boolean; chevron?: boolean }): string {
  const did = (what: string): string => `onclick="document.getElementById('did').textContent='${what}'"`;
  const next = o.chevron ? `<button aria-label="Next page" ${did('next page')}>&rsaquo;</button>` : `<button ${did('next page')}>Next</button>`;
  const actions = o.apply
    ? `<button ${did('saved')}>Apply</button> <button ${did('cancelled')}>Cancel</button> <button ${did('saved draft')}>Save draft</button>`
    : `<button ${did('saved')}>Save</button> <button ${did('cancelled')}>Cancel</button>`;
  const rows = ['Alice', 'Bob', 'Carol'].map((n) => `<tr><td>${n}</td><td><button>Delete</button></td></tr>`).join('');
  return `<header><span>Signed in</span> <button>Open settings</button>${o.chevron ? ` <button ${did('wrong next')}>Next</button>` : ''}</header>
    <table>${rows}</table><button>Previous</button> <span>Page 1 of 3</span> ${next}<label for="t">Title</label> <input id="t">
    <div role="dialog" aria-labelledby="mt"><h2 id="mt">Settings</h2><label><input type="checkbox"> Email alerts</label><br>${actions}</div><p>Did: <output id="did"></output></p>`;
}
let pagerNow = pager({});
let rowsNow = PAGES['rows-old.html'];
// A people table and its alert settings; the release swaps the Name and Email columns and moves
// the boxes' ids to each other's labels.
const people = (swapped: boolean): string => {
  const cells = (name: string, mail: string): string => (swapped ? `<td>${mail}</td><td>${name}</td>` : `<td>${name}</td><td>${mail}</td>`);
  const rowsOf = [['Alice', 'alice@ex.test'], ['Bob', 'bob@ex.test'], ['Carol', 'carol@ex.test']].map(([n, m]) => `<tr>${cells(n!, m!)}</tr>`).join('');
  const [email, sms] = swapped ? ['c-sms', 'c-email'] : ['c-email', 'c-sms'];
  return `<main><h1>People</h1><table><thead><tr>${swapped ? '<th>Email</th><th>Name</th>' : '<th>Name</th><th>Email</th>'}</tr></thead><tbody>${rowsOf}</tbody></table>
    <fieldset><legend>Alerts</legend><label><input type="checkbox" id="${email}"> Email alerts</label><label><input type="checkbox" id="${sms}" checked> SMS alerts</label></fieldset></main>`;
};
let peopleNow = people(false);
let settingsNow = settings('Save settings', 'SAVED');
// Two tabs, one selected; a toggle button, pressed or not. The page says which tab was clicked.
const tabs = (selected: 'Profile' | 'Billing', pressed = true): string =>
  `<main><div role="tablist">${['Profile', 'Billing'].map((n) => `<button role="tab" id="tab-${n}" aria-selected="${n === selected}" onclick="o.textContent='${n}'">${n}</button>`).join('')}</div>
    <button id="bold" aria-pressed="${pressed}">Bold</button><p id="o">-</p></main>`;
let tabsNow = tabs('Profile');

/** A session of its own with a lock file, whose first click (row A's Delete) is recorded and saved. */
async function withRecordedRow(run: (own: Session, lockFile: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'aite-lock-'));
  const lockFile = join(dir, 'aite.lock.json');
  const own = await launch({ allow: [origin], timeoutMs: 3000, lockFile });
  try {
    rowsNow = PAGES['rows-old.html']!;
    await own.tab.navigate(`${origin}/rows.html`);
    await own.click({ xpath: '//tr[1]/td[4]/button[2]' });
    await own.lock!.save();
    await run(own, lockFile);
  } finally {
    await own.close();
    rowsNow = PAGES['rows-old.html']!;
    rmSync(dir, { recursive: true, force: true });
  }
}

let server: PageServer | undefined;
let origin: string;
let session: Session;

beforeAll(async () => {
  server = await servePages((path) => (path === 'rows.html' ? rowsNow : path === 'settings.html' ? settingsNow : path === 'people.html' ? peopleNow : path === 'pager.html' ? pagerNow : path === 'tabs.html' ? tabsNow : PAGES[path]));
  origin = server.origin;
  session = await launch({ allow: [origin], timeoutMs: 3000 });
});
afterAll(async () => {
  await session?.close();
  await server?.close();
});

async function remembered(page: string, target: Target): Promise<Descriptor> {
  await session.tab.navigate(`${origin}/${page}`);
  // As the lock file holds it: recorded with what repair needs from the rest of the page.
  return (await session.locator.resolve(target, { record: true })).descriptor;
}

describe('repair in real Chromium, through the extension', () => {
  it('[RS-NO-REPAIR-UNLESS-NOT-FOUND] an exact match is answered exactly, even with a descriptor', async () => {
    const old = await remembered('compose-old.html', { text: 'Send' });
    await session.tab.navigate(`${origin}/compose-mild.html`);
    const answer = await session.locator.resolve({ text: 'Send' }, { descriptor: old });
    expect(answer).toMatchObject({ via: 'exact', repaired: false });
    const ambiguous = await failure(session.locator.resolve({ css: 'button' }, { descriptor: old }));
    expect(ambiguous.reason).toBe('ambiguous');
    expect(ambiguous.detail.repair).toBeUndefined();
  });

  it('[RS-FIELDS] a surviving remembered test id finds the element (via "descriptor")', async () => {
    const old = await remembered('compose-testid-old.html', { css: '#a1' });
    await session.tab.navigate(`${origin}/compose-testid-new.html`);
    const answer = await session.locator.resolve({ css: '#a1' }, { descriptor: old });
    expect(answer).toMatchObject({ repaired: true, via: 'descriptor' });
    expect(answer.descriptor.id).toBe('b7');
  });

  it('[RS-DRIFTED] a candidate that is close but not close enough is refused as drifted, with what changed', async () => {
    // Same place, same look, but its id is gone and its text is another word: never acted on.
    const old = await remembered('compose-old.html', { css: '#send-btn' });
    await session.tab.navigate(`${origin}/compose-drift.html`);
    const error = await failure(session.locator.resolve({ css: '#send-btn' }, { descriptor: old }));
    expect(error.reason).toBe('drifted');
    expect(error.detail.score).toBeGreaterThanOrEqual(0.6);
    expect(error.detail.score).toBeLessThan(0.85);
    expect((error.detail.changes as string[]).join('\n')).toMatch(/"Send" -> "Post"/);
    // What to do: --update-lock takes only what a repair acts on; the target that names the candidate.
    expect(error.message).toContain('--update-lock does not take this one');
    expect(error.message).toContain('make the target name it ({ role: "button", name: "Post" })');
  });

  it('[RS-FIELDS] a surviving test id on a relabelled button: the remembered field alone is not trusted, the whole score decides', async () => {
    const old = await remembered('compose-testid-old.html', { css: '#a1' });
    await session.tab.navigate(`${origin}/compose-testid-drift.html`);
    const answer = await session.locator.resolve({ css: '#a1' }, { descriptor: old });
    // Below the remembered-field floor (0.60 on the plain mean), so not via "descriptor"; the
    // only button of the page, its test id kept, is then taken by the score.
    expect(answer).toMatchObject({ repaired: true, via: 'repair' });
    expect(answer.repair!.changes).toContain('text "Send" -> "Post"');
  });

  it('[RS-REPAIR] a renamed id is repaired by scoring, with readable changes', async () => {
    const old = await remembered('compose-old.html', { css: '#send-btn' });
    await session.tab.navigate(`${origin}/compose-mild.html`);
    const answer = await session.locator.resolve({ css: '#send-btn' }, { descriptor: old });
    expect(answer).toMatchObject({ repaired: true, via: 'repair' });
    expect(answer.descriptor.id).toBe('send-button');
    expect(answer.repair!.score).toBeGreaterThanOrEqual(0.85);
    expect(answer.repair!.changes.join('\n')).toMatch(/send-btn.*send-button/);
  });

  it('[RS-REPAIR-NOT-FOUND] an element that is gone is refused, with repairTried and bestScore, and a note above 2000 elements', async () => {
    const old = await remembered('compose-old.html', { css: '#send-btn' });
    await session.tab.navigate(`${origin}/compose-gone.html`);
    const error = await failure(session.locator.resolve({ css: '#send-btn' }, { descriptor: old }));
    expect(['not-found', 'drifted']).toContain(error.reason);
    const big = await remembered('big-old.html', { text: 'Continue' });
    await session.tab.navigate(`${origin}/big-new.html`);
    const gone = await failure(session.locator.resolve({ text: 'Continue' }, { descriptor: big }));
    expect(gone.reason).toBe('not-found');
    expect(gone.detail).toMatchObject({ repairTried: true });
    expect(typeof gone.detail.bestScore).toBe('number');
    expect(String(gone.detail.note)).toMatch(/2000/);
  });

  it('[RS-REPAIR-AMBIGUOUS] [RS-REPAIR-AMBIGUOUS-SCORES] two equally close candidates are refused as ambiguous, never guessed, and the message says their scores', async () => {
    const old = await remembered('twins-old.html', { text: 'Open' });
    await session.tab.navigate(`${origin}/twins-new.html`);
    const error = await failure(session.locator.resolve({ text: 'Open', exact: true }, { descriptor: old }));
    expect(error.reason).toBe('ambiguous');
    expect(error.detail.repair).toBe(true);
    const candidates = error.detail.candidates as { score: number }[];
    expect(candidates.length).toBeGreaterThanOrEqual(2);
    // Each says how it differs from the remembered element, so none is taken for it unread.
    for (const c of error.detail.candidates as Array<{ changes: string[] }>) expect(c.changes).toContain('text "Open" -> "Open it"');
    // The message says the numbers its detail carries, and why they were too close to choose.
    for (const c of candidates) expect(error.message).toContain(c.score.toFixed(2));
    expect(error.message).toMatch(/more than 0\.15/);
    const same = candidates.every((c) => c.score === candidates[0]!.score);
    expect(error.message).toMatch(same ? /score the same/ : /within 0\.15 of the best/);
    expect(error.message).not.toMatch(/equally close/);
  });

  it('[RS-REPAIR-ROLE] [RS-REPAIR-AMBIGUOUS-SCORES] a role target renamed within its action: the heading that kept the old name is no rival', async () => {
    const old = await remembered('signin-old.html', { role: 'button', name: 'Sign in' });
    await session.tab.navigate(`${origin}/signin-new.html`);
    const error = await failure(session.locator.resolve({ role: 'button', name: 'Sign in' }, { descriptor: old }));
    // "Log in" keeps too little of "Sign in" to be acted on, but it alone is proposed.
    expect(error.reason).toBe('drifted');
    expect(error.detail.candidate).toMatchObject({ tag: 'button', name: 'Log in' });
    expect(error.detail.action).toBeUndefined();
    expect(error.message).not.toMatch(/equally close|different action/);
  });

  it('[RS-ANOTHER-ACTION] [RS-CHECK-EXACT] a remembered id, or an exact css target, on a button that now resets is not taken', async () => {
    const old = await remembered('save-id.html', { text: 'Save settings' });
    await session.tab.navigate(`${origin}/reset-id.html`);
    // The id still names one button; its name says it resets: the score holds it, with the words.
    const byField = await failure(session.locator.resolve({ text: 'Save settings' }, { descriptor: old }));
    expect(byField.reason).toBe('drifted');
    expect(byField.detail.action).toEqual({ now: 'Reset', was: 'Save' });
    const exact = await failure(session.locator.resolve({ css: '#apply' }, { descriptor: old, checkExact: true }));
    expect(exact.reason).toBe('drifted');
    expect(exact.detail.exact).toBe(true);
    expect(exact.detail.action).toEqual({ now: 'Reset', was: 'Save' });
    expect(exact.message).toContain('a different action than "Save"');
  });

  it('[RS-ANOTHER-ACTION] a saved button replaced in its place by one that resets: refused as drifted with the words, never clicked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aite-lock-'));
    const own = await launch({ allow: [origin], timeoutMs: 3000, lockFile: join(dir, 'aite.lock.json') });
    try {
      settingsNow = settings('Save settings', 'SAVED');
      await own.tab.navigate(`${origin}/settings.html`);
      await own.click('Save settings');
      expect((await own.locator.read({ css: '#o' })).text).toBe('SAVED');
      await own.lock!.save();
      settingsNow = settings('Reset settings', 'WIPED');
      await own.tab.navigate(`${origin}/settings.html`);
      const error = await failure(own.click('Save settings'));
      expect(error.reason).toBe('drifted');
      expect(error.detail.candidate).toMatchObject({ tag: 'button', name: 'Reset settings' });
      expect(error.detail.action).toEqual({ now: 'Reset', was: 'Save' });
      expect(error.message).toContain('its name now says "Reset", a different action than "Save"');
      expect((await own.locator.read({ css: '#o' })).text).toBe('-');
      // Renamed within its action, the same button is repaired and clicked.
      settingsNow = settings('Store settings', 'SAVED');
      await own.tab.navigate(`${origin}/settings.html`);
      const step = await own.click('Save settings');
      expect(step.repaired).toBe(true);
      expect((await own.locator.read({ css: '#o' })).text).toBe('SAVED');
    } finally {
      await own.close();
      settingsNow = settings('Save settings', 'SAVED');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('[RS-RECORD] with record, the descriptor also remembers its twins and the neighbours beside it', async () => {
    await session.tab.navigate(`${origin}/rows-old.html`);
    const plain = await session.locator.resolve({ xpath: '//tr[1]/td[4]/button[2]' });
    expect(plain.descriptor.twins).toBeUndefined();
    expect(plain.descriptor.peers).toBeUndefined();
    const recorded = await session.locator.resolve({ xpath: '//tr[1]/td[4]/button[2]' }, { record: true });
    expect(recorded.descriptor.twins).toBe(2);
    expect(recorded.descriptor.peers).toContain('edit');
    expect(recorded.descriptor.peers).not.toContain('delete');
    expect(recorded.descriptor.twinPlaces).toHaveLength(2);
    expect(recorded.descriptor.twinPlaces!.some((p) => p.startsWith('ada lovelace'))).toBe(false);
  });

  it('[RS-REPAIR] twins: only the target row\'s "Delete" became "Remove"; it is repaired there, the twins that kept the text in their rows are never acted on', async () => {
    await withRecordedRow(async (own) => {
      rowsNow = PAGES['rows-renamed.html']!;
      await own.tab.navigate(`${origin}/rows.html`);
      const steps: StepRecord[] = [];
      own.on('step', (r) => steps.push(r));
      await own.click({ xpath: '//tr[1]/td[4]/button[2]' });
      expect((await own.locator.read({ css: '#deleted' })).text).toBe('Deleted: A');
      expect(steps.find((r) => r.name === 'click')?.repaired).toBe(true);
    });
  });

  it('[RS-CHECK-EXACT] with checkExact, a positional target that now names a twin in another row is refused; without, it is answered as v1 says', async () => {
    await session.tab.navigate(`${origin}/rows-old.html`);
    const old = (await session.locator.resolve({ xpath: '//tr[1]/td[4]/button[2]' }, { record: true })).descriptor;
    await session.tab.navigate(`${origin}/rows-reordered.html`);
    const error = await failure(session.locator.resolve({ xpath: '//tr[1]/td[4]/button[2]' }, { descriptor: old, checkExact: true }));
    expect(error.reason).toBe('drifted');
    expect(error.detail.exact).toBe(true);
    expect(error.detail.changed).toContain('context.row');
    expect(error.message).toMatch(/names? another element|not its place/);
    // The refused match is Grace's Delete; the element offered in its place is Ada's, moved to row 2.
    expect((error.detail.candidate as Descriptor).context?.row).toMatch(/^Grace Hopper/);
    expect((error.detail.better as Descriptor).xpath).toBe('/html/body/table/tbody/tr[2]/td[4]/button[2]');
    expect((error.detail.better as Descriptor).context?.row).toMatch(/^Ada Lovelace/);
    expect(error.detail.runnerUp).toBeGreaterThanOrEqual(0.85);
    expect(error.message).toMatch(/Nothing was done\. The element most like the remembered one is "Delete" in the row "Ada Lovelace[^"]*" \(score [\d.]+; changed: [^)]*\); it was not acted on either\./);
    // Ada's row removed: nothing else resembles the remembered element, and no other element is offered.
    await session.tab.navigate(`${origin}/rows-gone.html`);
    const gone = await failure(session.locator.resolve({ xpath: '//tr[1]/td[4]/button[2]' }, { descriptor: old, checkExact: true }));
    expect(gone.reason).toBe('drifted');
    expect(gone.detail.better).toBeUndefined();
    expect(gone.detail.runnerUp).toBe(0);
    expect(gone.message).toContain('Nothing was done. Nothing else on the page resembles the remembered element.');
    // Another admin's row now: her Delete is no more Ada's than Grace's is, and is not offered as it.
    await session.tab.navigate(`${origin}/rows-gone-admin.html`);
    const moved = await failure(session.locator.resolve({ xpath: '//tr[1]/td[4]/button[2]' }, { descriptor: old, checkExact: true }));
    expect(moved.reason).toBe('drifted');
    expect(moved.detail.better).toBeUndefined();
    expect(moved.message).toMatch(/The remembered row, "Ada Lovelace[^"]*", is not on the page any more/);
    expect(moved.message).not.toContain('Judy');
    const v1 = await session.locator.resolve({ xpath: '//tr[1]/td[4]/button[2]' }, { descriptor: old });
    expect(v1.via).toBe('exact');
  });

  it('[RS-CHECK-EXACT] a session with a lock file records on first success and never clicks the wrong row after a reorder', async () => {
    await withRecordedRow(async (own, lockFile) => {
      expect((await own.locator.read({ css: '#deleted' })).text).toBe('Deleted: A');
      const entry = Object.values(JSON.parse(readFileSync(lockFile, 'utf8')).entries as Record<string, { descriptor: Descriptor }>)[0]!;
      expect(entry.descriptor.twins).toBe(2);
      expect(entry.descriptor.peers).toContain('edit');
      rowsNow = PAGES['rows-reordered.html']!;
      await own.tab.navigate(`${origin}/rows.html`);
      const error = await failure(own.click({ xpath: '//tr[1]/td[4]/button[2]' }));
      expect(error.reason).toBe('drifted');
      expect(error.detail.exact).toBe(true);
      expect((await own.locator.read({ css: '#deleted' })).text).toBe('Deleted:');
    });
  });

  it('[RS-CHECK-EXACT] a check of one element is held to the lock file as an act is: a cell whose column moved, a box whose label went to its neighbour fail as drifted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aite-lock-'));
    const lockFile = join(dir, 'aite.lock.json');
    const own = await launch({ allow: [origin], timeoutMs: 3000, lockFile });
    const cell = { css: 'tbody tr:nth-child(2) td:nth-child(1)' };
    try {
      peopleNow = people(false);
      await own.tab.navigate(`${origin}/people.html`);
      await own.verify.targetText(cell, 'Bob');
      await own.verify.state({ css: '#c-email' }, 'unchecked');
      await own.lock!.save();
      // The checks alone remembered their elements, with the neighbours repair and the check need.
      const entries = Object.values(JSON.parse(readFileSync(lockFile, 'utf8')).entries as Record<string, { target: Target; descriptor: Descriptor }>);
      expect(entries.map((e) => e.target)).toEqual(expect.arrayContaining([cell, { css: '#c-email' }]));
      expect(entries.find((e) => e.target.css === cell.css)!.descriptor.peers?.length).toBeGreaterThan(0);
      peopleNow = people(true);
      await own.tab.navigate(`${origin}/people.html`);
      // "Bob" is in "bob@ex.test" (text checks ignore case): only the lock file knows it is another cell.
      const moved = await failure(own.verify.targetText(cell, 'Bob'));
      expect(moved.reason).toBe('drifted');
      expect(moved.detail.exact).toBe(true);
      expect(moved.message).toContain('now finds "bob@ex.test"');
      const relabelled = await failure(own.verify.state({ css: '#c-email' }, 'checked', { negate: true }));
      expect(relabelled.reason).toBe('drifted');
      expect(relabelled.detail.exact).toBe(true);
      expect((relabelled.detail.candidate as Descriptor).label).toMatch(/SMS alerts/);
      // The cell that kept the remembered element's place and text passes as before.
      await own.verify.targetText({ css: 'tbody tr:nth-child(2) td:nth-child(2)' }, 'Bob');
    } finally {
      await own.close();
      peopleNow = people(false);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('[RS-CHECK-EXACT] [RS-REPAIR-IN-PLACE] a renamed element in its place is trusted over a new one that shares the old text elsewhere: nothing is clicked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aite-lock-'));
    const own = await launch({ allow: [origin], timeoutMs: 3000, lockFile: join(dir, 'aite.lock.json') });
    const did = async (): Promise<string | undefined> => (await own.locator.read({ css: '#did' })).text;
    try {
      pagerNow = pager({});
      await own.tab.navigate(`${origin}/pager.html`);
      await own.click('Next');
      expect(await did()).toBe('next page');
      await own.click({ text: 'Save', exact: true, within: 'Settings' });
      expect(await did()).toBe('saved');
      await own.lock!.save();
      // The pager's "Next" is now "›" where it stood; the header's new "Next" is what the target finds.
      pagerNow = pager({ chevron: true });
      await own.tab.navigate(`${origin}/pager.html`);
      const taken = await failure(own.click('Next'));
      expect(taken.reason).toBe('drifted');
      expect(taken.detail.exact).toBe(true);
      expect((taken.detail.better as Descriptor).ariaLabel).toBe('Next page');
      expect(taken.message).toContain('"Next", which stands elsewhere, while "›" stands where the remembered element stood');
      expect(await did()).toBe('');
      // "Save" is now "Apply" in its place; the new "Save draft" after "Cancel" only holds the old text.
      pagerNow = pager({ apply: true });
      await own.tab.navigate(`${origin}/pager.html`);
      const grown = await failure(own.click({ text: 'Save', exact: true, within: 'Settings' }));
      expect(grown.reason).toBe('ambiguous');
      expect((grown.detail.candidates as { descriptor: Descriptor }[]).map((c) => c.descriptor.text).sort()).toEqual(['Apply', 'Save draft']);
      expect(await did()).toBe('');
    } finally {
      await own.close();
      pagerNow = pager({});
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('[RS-REPAIR] a role target whose button became a link is not repaired to it, and the refusal names the link and the closest button', async () => {
    const old = await remembered('role-old.html', { role: 'button', name: 'Delete' });
    await session.tab.navigate(`${origin}/role-new.html`);
    const error = await failure(session.locator.resolve({ role: 'button', name: 'Delete' }, { descriptor: old, timeoutMs: 1000 }));
    expect(error.reason).toBe('not-found');
    const other = error.detail.otherRole as { descriptor: Descriptor; score: number; changes: string[] };
    expect(other.descriptor).toMatchObject({ tag: 'a', role: 'link', text: 'Delete' });
    expect(other.score).toBeGreaterThanOrEqual(0.6);
    expect(other.changes.join('; ')).toContain('role "button" -> "link"');
    expect(error.message).toMatch(/The element most like it, "Delete" \(link\), scores [\d.]+ but has the role "link", not "button"/);
    expect((error.detail.closest as Descriptor).text).toBe('Remove files');
    expect(error.message).toMatch(/best score [\d.]+: "Remove files" \(button\), changed: /);
    expect((await session.locator.read({ css: '#o' })).text).toBe('-');
  });

  it('[ROLE-LOCK] a target that picks by a state names whichever element holds it now, not the one the lock file remembers; a repair never acts on an element out of that state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aite-lock-'));
    const lockFile = join(dir, 'aite.lock.json');
    const own = await launch({ allow: [origin], timeoutMs: 3000, lockFile });
    try {
      tabsNow = tabs('Profile');
      await own.tab.navigate(`${origin}/tabs.html`);
      await own.click({ role: 'tab', selected: true });
      expect((await own.locator.read({ css: '#o' })).text).toBe('Profile');
      await own.lock!.save();
      const saved = JSON.parse(readFileSync(lockFile, 'utf8')) as { entries: Record<string, { descriptor: Descriptor }> };
      expect(saved.entries['/tabs.html {"role":"tab","selected":true}']?.descriptor.text).toBe('Profile');
      // The page selected the other tab: the same target is that one now, and no drift.
      tabsNow = tabs('Billing');
      await own.tab.navigate(`${origin}/tabs.html`);
      await own.click({ role: 'tab', selected: true });
      expect((await own.locator.read({ css: '#o' })).text).toBe('Billing');
      await own.verify.state({ role: 'tab', selected: true }, 'selected');
    } finally {
      await own.close();
      tabsNow = tabs('Profile');
      rmSync(dir, { recursive: true, force: true });
    }
    const old = await remembered('tabs.html', { role: 'button', name: 'Bold', pressed: true });
    tabsNow = tabs('Profile', false);
    await session.tab.navigate(`${origin}/tabs.html`);
    // Its remembered id still names the button, now not pressed: not the pressed button it names.
    const error = await failure(session.locator.resolve({ role: 'button', name: 'Bold', pressed: true }, { descriptor: old, timeoutMs: 1000 }));
    expect(error.reason).toBe('not-found');
    expect(error.message).toContain('role button named "Bold" pressed');
    tabsNow = tabs('Profile');
  });

  it('[RS-REPAIR] a target in an iframe is repaired inside that iframe, never from a look-alike outside it', async () => {
    const old = await remembered('frame-old.html', { css: '#pay-btn', frame: 'pay' });
    expect(old.frame).toBe('pay');
    await session.tab.navigate(`${origin}/frame-new.html`);
    const answer = await session.locator.resolve({ css: '#pay-btn', frame: 'pay' }, { descriptor: old });
    expect(answer).toMatchObject({ repaired: true });
    expect(answer.descriptor.frame).toBe('pay');
    expect(answer.descriptor.id).toBe('pay-button');
  });
});
