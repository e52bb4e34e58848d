import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, type Session } from '../../src/sdk/index.js';
import { servePages, type PageServer } from './support/pageServer.js';
import { failure } from './support/failure.js';
import { runPage } from './support/runPage.js';

// A closed shadow root: no page script and no CDP-only tool can look into it; the extension's
// content script can (chrome.dom.openOrClosedShadowRoot). The page counts its own clicks.
function vault(button: string): string {
  return `<h1>Bank</h1><x-vault></x-vault><script>
    customElements.define('x-vault', class extends HTMLElement {
      constructor() {
        super();
        const root = this.attachShadow({ mode: 'closed' });
        root.innerHTML = '<h2>Vault</h2><p id="state">Locked</p><button id="open">${button}</button><button id="later">Show the shelf</button>';
        let opened = 0;
        root.getElementById('open').addEventListener('click', (e) => {
          opened++;
          root.getElementById('state').textContent = 'Opened ' + opened + (e.isTrusted ? ' (trusted)' : '');
        });
        root.getElementById('later').addEventListener('click', () => setTimeout(() => {
          const shelf = document.createElement('button');
          shelf.textContent = 'Secret shelf';
          root.append(shelf);
        }, 150));
      }
    });
  </script>`;
}
// A field in a closed root: the document's activeElement is the host while the field has focus.
const FIELD = `<x-c></x-c><p id="out"></p><script>
  customElements.define('x-c', class extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({ mode: 'closed' });
      root.innerHTML = '<label>ClosedField <input value="old"></label>';
      const input = root.querySelector('input');
      input.addEventListener('keydown', (e) => { if (e.key === 'Enter') document.getElementById('out').textContent = 'Entered ' + input.value; });
    }
  });
</script>`;
// A closed root that moves the focus to its other field on the first keydown.
const THIEF = `<x-t></x-t><script>
  customElements.define('x-t', class extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({ mode: 'closed' });
      root.innerHTML = '<label>PIN <input id="pin"></label><label>Message <input id="message"></label>';
      root.getElementById('pin').addEventListener('keydown', () => root.getElementById('message').focus(), { once: true });
    }
  });
</script>`;
const PAGES: Record<string, string> = { 'vault.html': vault('Open vault'), 'vault-renamed.html': vault('Open the vault'), 'field.html': FIELD, 'thief.html': THIEF };

let server: PageServer | undefined;
let origin: string;
let session: Session;

beforeAll(async () => {
  server = await servePages((path) => PAGES[path]);
  origin = server.origin;
  session = await launch({ allow: [origin], timeoutMs: 3000 });
});
afterAll(async () => {
  await session?.close();
  await server?.close();
});

describe('[SHADOW-CLOSED] closed shadow roots, through the extension', () => {
  it('a button in a closed shadow root is clicked (trusted) and its text verified; the page itself cannot see into it', async () => {
    await session.tab.navigate(`${origin}/vault.html`);
    const page = await runPage(session);
    expect(await page.evaluate(() => document.querySelector('x-vault')!.shadowRoot)).toBeNull();
    await session.click({ text: 'Open vault' });
    await session.verify.text('Opened 1 (trusted)');
    await session.verify.exists({ role: 'button', name: 'Open vault' });
    expect((await session.locator.read({ css: '#state' })).text).toBe('Opened 1 (trusted)');
  });

  it('resolve names it by a shadow xpath, which outline draws and resolve reads back', async () => {
    await session.tab.navigate(`${origin}/vault.html`);
    const found = await session.locator.resolve({ text: 'Open vault' });
    expect(found.descriptor.xpath).toBe('/html/body/x-vault/#shadow-root/button[1]');
    expect(found.descriptor.context?.heading).toBe('Vault');
    expect((await session.locator.resolve({ xpath: found.descriptor.xpath })).descriptor.text).toBe('Open vault');
    expect((await session.locator.outline([{ xpath: found.descriptor.xpath, label: 'vault' }])).drawn).toBe(1);
    await session.locator.clearOutline();
  });

  it('[SNAP-SHADOW-CLOSED] snapshot outlines the closed root where it renders, and a ref to its button clicks it', async () => {
    await session.tab.navigate(`${origin}/vault.html`);
    const text = (await session.snapshot()).text;
    expect(text).toMatch(/^- heading "Vault" \[level=2\] \[ref=e\d+\]$/m);
    const line = text.split('\n').find((l) => /^- button "Open vault" \[ref=e\d+\]$/.test(l));
    expect(line, text).toBeDefined();
    await session.click({ ref: /\[ref=(e\d+)\]/.exec(line!)![1]! });
    await session.verify.text('Opened 1 (trusted)');
  });

  it('wait sees an element that appears later inside the closed root', async () => {
    await session.tab.navigate(`${origin}/vault.html`);
    await session.click({ text: 'Show the shelf' });
    await session.locator.wait('visible', { target: { text: 'Secret shelf' } });
    await session.verify.exists({ text: 'Secret shelf' });
  });

  it('repair finds a renamed button inside the closed root from the remembered descriptor', async () => {
    await session.tab.navigate(`${origin}/vault.html`);
    const old = (await session.locator.resolve({ text: 'Open vault' }, { record: true })).descriptor;
    await session.tab.navigate(`${origin}/vault-renamed.html`);
    const answer = await session.locator.resolve({ text: 'Open vault', exact: true }, { descriptor: old });
    expect(answer).toMatchObject({ repaired: true });
    expect(answer.descriptor.text).toBe('Open the vault');
    expect(answer.descriptor.xpath).toContain('#shadow-root');
  });

  it('type, fill and press reach a field in a closed root, though the document sees only its host focused', async () => {
    await session.tab.navigate(`${origin}/field.html`);
    await session.fill({ label: 'ClosedField' }, 'abc');
    await session.verify.value({ label: 'ClosedField' }, 'abc');
    await session.type({ label: 'ClosedField' }, 'def');
    await session.verify.value({ label: 'ClosedField' }, 'abcdef');
    await session.press('Enter', { label: 'ClosedField' });
    await session.verify.text('Entered abcdef');
  });

  it('text the closed root sends to its other field is still caught, naming that field', async () => {
    await session.tab.navigate(`${origin}/thief.html`);
    const error = await failure(session.type({ label: 'PIN' }, '1234'));
    expect(error.reason).toBe('not-visible');
    expect(error.message).toMatch(/<input#message>/);
    await session.verify.value({ label: 'PIN' }, '');
    await session.verify.value({ label: 'Message' }, '');
  });
});
