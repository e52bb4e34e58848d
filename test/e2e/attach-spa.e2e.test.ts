import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../src/sdk/index.js';
import type { FixtureServer } from '../support/FixtureServer.js';
import { closeAttached, openAttached } from './support/userChrome.js';

// spa.e2e.test.ts in attach mode with chrome.debugger: the run tab's address and the step that
// moved the route, when a single-page app changes its route in one document (the history API,
// a #fragment, a popstate), in a Chrome started as a person would (no pipe); and the lock file
// of such a session. Release 2 renames route B's button.
const APP = new URL('../fixtures/pages/spa/app.html', import.meta.url);
let app: Server;
let origin: string;
let server: FixtureServer;
let chrome: ChildProcess;
let session: Session;
let profileDir: string;
let release: 1 | 2 = 1;

beforeAll(async () => {
  const page = await readFile(APP, 'utf8');
  app = createServer((req, res) => {
    if (!/^\/app\/[a-z]*$/.test(req.url ?? '')) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(release === 1 ? page : page.replace('>Save B<', '>Keep B<'));
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(app.address() as { port: number }).port}`;
  ({ server, chrome, session, profileDir } = await openAttached({
    prefix: 'aite-attach-spa-',
    allow: () => [origin],
    // In the profile folder, which the file removes at its end.
    attach: { lockFile: join(await lockFolder(), 'aite.lock.json') },
  }));
});

/** A folder for the lock file, removed with the profile folder (the session's own is made after it opens). */
async function lockFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'aite-attach-spa-lock-'));
  lockDir = dir;
  return dir;
}
let lockDir: string | undefined;

afterAll(async () => {
  if (lockDir) await rm(lockDir, { recursive: true, force: true });
  await closeAttached({ server, chrome, session, profileDir });
  await new Promise((resolve) => app?.close(resolve));
});

describe("attach mode: the run tab's address follows a single-page app's route", () => {
  it('[ATT-SPA-URL] after pushState, a #fragment, the page\u2019s history.back() and replaceState, session.tab.url is where the page is, in one document', async () => {
    await session.tab.navigate(`${origin}/app/a`);
    expect(session.tab.url).toBe(`${origin}/app/a`);
    await session.click('Go to B');
    expect(session.tab.url).toBe(`${origin}/app/b`);
    await session.verify.targetText({ css: 'h1' }, 'Route B', { timeoutMs: 1_000 });
    await session.click('More');
    expect(session.tab.url).toBe(`${origin}/app/b#more`);
    // history.back() in the page: a popstate back to /app/b.
    await session.click('Go back');
    expect(session.tab.url).toBe(`${origin}/app/b`);
    await session.click('Replace with C');
    expect(session.tab.url).toBe(`${origin}/app/c`);
    await session.verify.targetText({ css: 'h1' }, 'Route C', { timeoutMs: 1_000 });
    // A route the page changes by itself, after the step that asked for it has returned.
    const later = await session.click('Back to A later');
    expect(later.navigated).toBeUndefined();
    await expect.poll(() => session.tab.url, { timeout: 5_000 }).toBe(`${origin}/app/a`);
    await session.verify.targetText({ css: 'h1' }, 'Route A', { timeoutMs: 1_000 });
    // One document all along (the tab's first of this origin).
    await session.verify.targetText({ css: '#loads' }, '1', { timeoutMs: 1_000 });
  });

  it('[ATT-SPA-URL] session.tab.back() and forward() between routes of one document answer and keep the route they went to', async () => {
    await session.tab.navigate(`${origin}/app/a`);
    await session.click('Go to B');
    await session.click('Replace with C');
    const back = await session.tab.back({ timeoutMs: 5_000 });
    expect(back.url).toBe(`${origin}/app/a`);
    expect(session.tab.url).toBe(`${origin}/app/a`);
    await session.verify.targetText({ css: 'h1' }, 'Route A', { timeoutMs: 1_000 });
    const forward = await session.tab.forward({ timeoutMs: 5_000 });
    expect(forward.url).toBe(`${origin}/app/c`);
    expect(session.tab.url).toBe(`${origin}/app/c`);
    await session.verify.targetText({ css: 'h1' }, 'Route C', { timeoutMs: 1_000 });
  });

  it('[ATT-SPA-REPORTED] the click that moved the route says from where to where, within the document; a click that moved nothing says nothing', async () => {
    await session.tab.navigate(`${origin}/app/a`);
    const moved = await session.click('Go to B');
    expect(moved).toMatchObject({ navigated: `${origin}/app/b`, navigatedFrom: `${origin}/app/a`, sameDocument: true });
    expect(moved.warnings).toEqual([]);
    const stayed = await session.click('Save B');
    expect(stayed.navigated).toBeUndefined();
    expect(stayed.navigatedFrom).toBeUndefined();
    // The page's history.back(): a move the browser makes a moment after the click.
    await session.click('More');
    expect(await session.click('Go back')).toMatchObject({ navigated: `${origin}/app/b`, navigatedFrom: `${origin}/app/b#more`, sameDocument: true });
  });
});

describe('attach mode: the lock file', () => {
  it('[ATT-LOCK] attach({ lockFile }) remembers an element a step named under its route, finds it by repair once the page renamed it, and writes the lock file on close', async () => {
    await session.tab.navigate(`${origin}/app/a`);
    await session.click('Go to B');
    await session.click('Save B');
    expect(session.lock?.get({ text: 'Save B' }, `${origin}/app/b`)?.text).toBe('Save B');
    release = 2;
    await session.tab.navigate(`${origin}/app/b`);
    const repaired = await session.click('Save B');
    expect(repaired.repaired).toBe(true);
    await session.verify.targetText({ css: '#saved' }, 'saved on B', { timeoutMs: 1_000 });
    expect(session.lock?.proposals.map((p) => p.key)).toEqual([expect.stringContaining('/app/b')]);
    await session.close();
    const written = JSON.parse(await readFile(join(lockDir!, 'aite.lock.json'), 'utf8')) as { entries: Record<string, { page: string; target: unknown }> };
    expect(Object.values(written.entries).filter((e) => JSON.stringify(e.target).includes('Save B')).map((e) => e.page)).toEqual(['/app/b']);
  });
});
