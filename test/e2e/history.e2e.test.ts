import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, type Session } from '../../src/sdk/index.js';
import { failure } from './support/failure.js';

// Its own server: the fixture server sends `cache-control: no-store`, which keeps pages out of
// the back/forward cache, and these tests go back into it.
const PAGES = new URL('../fixtures/pages/history/', import.meta.url);
let server: Server;
let origin: string;
let session: Session;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/moved') return void res.writeHead(302, { location: '/page1.html' }).end();
    if (req.url === '/gone.html') return void res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<title>Gone</title><h1>Not here</h1>');
    const name = /^\/(page[1-3]\.html)$/.exec(req.url ?? '')?.[1];
    if (!name) return void res.writeHead(404).end('not found');
    void readFile(new URL(name, PAGES)).then((body) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  session = await launch({ allow: [origin] });
});
afterAll(async () => {
  await session?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('session.tab.back(), forward(), reload()', () => {
  it('[HIST-BACK-FORWARD, HIST-BFCACHE] goes back and forward across three pages, waiting for each, a back/forward-cache restore included', async () => {
    await session.tab.navigate(`${origin}/page1.html`);
    await session.click('Next');
    await session.verify.title('History 2');
    await session.click('Next');
    await session.verify.title('History 3');

    const back = await session.tab.back();
    expect(back.url).toBe(`${origin}/page2.html`);
    // [NAV-STATUS] nothing was fetched for a restore, so no status is said.
    expect(back.status).toBeUndefined();
    expect(back.tab).toBe(session.tab.current);
    await session.verify.targetText({ css: 'h1' }, 'Page 2', { timeoutMs: 1_000 });
    // Restored from the back/forward cache, not loaded again: the page says so, and did not count a load.
    await session.verify.targetText({ css: '#restored' }, 'yes', { timeoutMs: 1_000 });
    await session.verify.targetText({ css: '#loads' }, '1', { timeoutMs: 1_000 });

    expect((await session.tab.back()).url).toBe(`${origin}/page1.html`);
    await session.verify.targetText({ css: 'h1' }, 'Page 1', { timeoutMs: 1_000 });
    expect((await session.tab.forward()).url).toBe(`${origin}/page2.html`);
    await session.verify.targetText({ css: 'h1' }, 'Page 2', { timeoutMs: 1_000 });
    // Steps after a history move act on the page it landed on.
    await session.click('Next');
    await session.verify.title('History 3');
  });

  it('[HIST-RELOAD] reload loads the page again, as the page counts', async () => {
    await session.verify.targetText({ css: '#loads' }, '2');
    const reloaded = await session.tab.reload();
    expect(reloaded.url).toBe(`${origin}/page3.html`);
    expect(reloaded.status).toBe(200);
    await session.verify.targetText({ css: '#loads' }, '3', { timeoutMs: 1_000 });
    await session.tab.reload();
    await session.verify.targetText({ css: '#loads' }, '4', { timeoutMs: 1_000 });
  });

  it('[HIST-NOTHING] forward with nothing ahead fails unsupported, saying so', async () => {
    const error = await failure(session.tab.forward());
    expect(error.reason).toBe('unsupported');
    expect(error.message).toMatch(/Cannot go forward/);
    await session.verify.title('History 3');
  });
});

describe('what a navigation landed on', () => {
  it('[NAV-STATUS] navigate answers the HTTP status of the document it landed on, as Playwright\u2019s goto answers its response: 200, a 404 page, the end of a redirect', async () => {
    const ok = await session.tab.navigate(`${origin}/page1.html`);
    expect(ok).toMatchObject({ url: `${origin}/page1.html`, status: 200 });
    const gone = await session.tab.navigate(`${origin}/gone.html`);
    expect(gone).toMatchObject({ url: `${origin}/gone.html`, status: 404 });
    await session.verify.title('Gone');
    const moved = await session.tab.navigate(`${origin}/moved`);
    expect(moved).toMatchObject({ url: `${origin}/page1.html`, status: 200 });
  });
});
