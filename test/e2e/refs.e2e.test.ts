import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, type Session } from '../../src/sdk/index.js';
import { failure } from './support/failure.js';
import { servePages, type PageServer } from './support/pageServer.js';
import { refOf } from './support/refOf.js';

// Two pages built alike, so that numbered per document a ref of one would name an element of the
// other: A's "Remove" and B's "Email" would get the same number. servePages sends no no-store header, so going back from B
// restores A from the back/forward cache, which A shows on the page.
const PAGES: Record<string, string> = {
  'a.html': `<a href="/b.html">To B</a><button id="remove">Remove</button><p id="item">Item 1</p><p id="shown">fresh</p>
    <script>
      document.getElementById('remove').addEventListener('click', () => document.getElementById('item').remove());
      addEventListener('pageshow', (e) => { if (e.persisted) document.getElementById('shown').textContent = 'restored from the back/forward cache'; });
    </script>`,
  'b.html': `<a href="/a.html">To A</a><input aria-label="Email">`,
  // A list the page draws anew on "Redraw": the old buttons leave the page, new ones alike take their place.
  'list.html': `<ul id="list"></ul><button id="redraw">Redraw</button><p id="clicked">0</p>
    <script>
      let clicked = 0;
      const draw = () => {
        document.getElementById('list').innerHTML = '<li><button class="item">Item A</button></li>';
        document.querySelector('.item').addEventListener('click', () => { document.getElementById('clicked').textContent = String(++clicked); });
      };
      draw();
      document.getElementById('redraw').addEventListener('click', draw);
    </script>`,
};

let server: PageServer | undefined;
let session: Session;

beforeAll(async () => {
  server = await servePages((path) => PAGES[path]);
  session = await launch({ allow: [server.origin], timeoutMs: 5000 });
});
afterAll(async () => {
  await session?.close();
  await server?.close();
});

describe('refs end with their document', () => {
  it('[SNAP-REF-BFCACHE] after going back to a page the back/forward cache restored, a ref from the last snapshot fails at once as not-found and acts on nothing', async () => {
    await session.tab.navigate(`${server!.origin}/a.html`);
    const remove = refOf((await session.snapshot()).text, /button "Remove"/);
    await session.click({ text: 'To B' });
    await session.verify.exists({ label: 'Email' });
    const email = refOf((await session.snapshot()).text, /textbox "Email"/);
    // Built alike, the two documents would number these two elements alike: a run numbers on.
    expect(email).not.toBe(remove);
    await session.tab.back();
    await session.verify.text('restored from the back/forward cache');

    for (const ref of [email, remove]) {
      const started = Date.now();
      const error = await failure(session.click({ ref }));
      expect(error.reason, ref).toBe('not-found');
      expect(error.message).toMatch(/Take a new snapshot/);
      expect(Date.now() - started).toBeLessThan(3_000);
    }
    await session.verify.exists({ css: '#item' });
    // A new snapshot here hands out refs again, none of them an ended one.
    const again = refOf((await session.snapshot()).text, /button "Remove"/);
    expect([remove, email]).not.toContain(again);
    await session.click({ ref: again });
    await session.verify.exists({ css: '#item' }, { negate: true });
  });

  it('[SNAP-REF-REMOVED] a ref whose element the page re-drew fails at once as not-found, with a short message, and clicks nothing', async () => {
    await session.tab.navigate(`${server!.origin}/list.html`);
    const item = refOf((await session.snapshot()).text, /button "Item A"/);
    await session.click({ text: 'Redraw' });

    const started = Date.now();
    const error = await failure(session.click({ ref: item }, { timeoutMs: 5_000 }));
    expect(error.reason).toBe('not-found');
    expect(error.message).toMatch(/Take a new snapshot/);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error.message.length).toBeLessThan(5_000);
    await session.verify.targetText({ css: '#clicked' }, '0');
  });
});
