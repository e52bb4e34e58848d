import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, type Session } from '../../src/sdk/index.js';
import { BundledPage } from '../support/BundledPage.js';

// React Aria's ComboBox and Select, bundled from the registry's packages for this file, on a
// server of its own. One Chrome for the file.
let page: BundledPage;
let origin: string;
let session: Session;

beforeAll(async () => {
  page = await BundledPage.start('react/combobox.jsx', 'React Aria');
  origin = page.origin;
  session = await launch({ allow: [origin], timeoutMs: 4000 });
}, 60_000);
afterAll(async () => {
  await session?.close();
  await page?.close();
});

describe('React Aria (react-aria-components): popovers that close when the page scrolls', () => {
  it('[SCROLL-IF-NEEDED] a ComboBox option and a Select option in view are clicked where they are: the list stays open and the choice lands', async () => {
    await session.tab.navigate(`${origin}/`);
    await session.type({ role: 'combobox', name: 'City' }, 'Ber');
    await session.click({ role: 'option', name: 'Bern' });
    await session.verify.targetText({ css: '#city' }, 'Bern', { exact: true });
    await session.click({ role: 'button', name: /Animal/ });
    await session.click({ role: 'option', name: 'Kangaroo' });
    await session.verify.targetText({ css: '#animal' }, 'Kangaroo', { exact: true });
    // Nothing on the way was scrolled: everything was in the window.
    expect(await session.evaluate(() => scrollY)).toBe(0);
  });
});
