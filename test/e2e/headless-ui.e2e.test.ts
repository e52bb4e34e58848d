import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, type Session } from '../../src/sdk/index.js';
import { BundledPage } from '../support/BundledPage.js';
import { failure } from './support/failure.js';

// Headless UI (@headlessui/react 2, from the registry) in a settings page, driven as a person
// would and by the role filters Playwright's getByRole takes. One Chrome for the file.
let page: BundledPage;
let session: Session;
const status = { css: '#status' };

beforeAll(async () => {
  page = await BundledPage.start('react/headless.jsx', 'Headless UI');
  session = await launch({ allow: [page.origin], timeoutMs: 4000 });
}, 60_000);
afterAll(async () => {
  await session?.close();
  await page?.close();
});

describe('Headless UI (@headlessui/react)', () => {
  it('[HUI-MENU] a Menu opens in its portal; an item is clicked by role and name; a disabled item is seen as disabled and not clicked', async () => {
    await session.tab.navigate(`${page.origin}/`);
    await session.click({ role: 'button', name: 'Options', expanded: false });
    await session.verify.exists({ role: 'button', name: 'Options', expanded: true });
    await session.verify.exists({ role: 'menuitem', name: 'Delete', disabled: true });
    const refused = await failure(session.click({ role: 'menuitem', name: 'Delete' }, { timeoutMs: 1000 }));
    expect(refused.message).toMatch(/disabled/);
    await session.click({ role: 'menuitem', name: 'Duplicate' });
    await session.verify.targetText(status, 'duplicated', { exact: true });
    await session.verify.exists({ role: 'menu' }, { negate: true });
  });

  it('[HUI-LISTBOX] a Listbox option is picked; the picked one is the selected option when the list opens again; a disabled option is disabled', async () => {
    await session.click({ role: 'button', name: /Durward Reynolds/ });
    await session.verify.exists({ role: 'option', name: 'Benedict Kessler', disabled: true });
    await session.click({ role: 'option', name: 'Kenton Towne' });
    await session.verify.targetText(status, 'owner Kenton Towne', { exact: true });
    await session.click({ role: 'button', name: /Kenton Towne/ });
    await session.verify.exists({ role: 'option', name: 'Kenton Towne', selected: true });
    await session.verify.exists({ role: 'option', name: 'Durward Reynolds', selected: false });
    await session.press('Escape');
    await session.verify.exists({ role: 'listbox' }, { negate: true });
  });

  it('[HUI-COMBOBOX] typing into a Combobox filters its options; the one clicked fills the input', async () => {
    await session.type({ role: 'combobox', name: 'Assignee' }, 'ther');
    await session.verify.count({ role: 'option' }, 1);
    await session.click({ role: 'option', name: 'Therese Wunsch' });
    await session.verify.targetText(status, 'assignee Therese Wunsch', { exact: true });
    await session.verify.value({ role: 'combobox', name: 'Assignee' }, 'Therese Wunsch');
  });

  it('[HUI-SWITCH-TABS] a Switch is found by its checked state and toggled; a Tab is selected by a click and by arrow keys', async () => {
    await session.click({ role: 'switch', name: 'Email notifications', checked: false });
    await session.verify.exists({ role: 'switch', name: 'Email notifications', checked: true });
    await session.verify.targetText(status, 'notifications on', { exact: true });
    await session.click({ role: 'tab', name: 'Popular', selected: false });
    await session.verify.exists({ role: 'tab', name: 'Popular', selected: true });
    await session.verify.text('Popular posts');
    await session.press('ArrowRight');
    await session.verify.exists({ role: 'tab', name: 'Trending', selected: true });
    await session.verify.targetText(status, 'tab 2', { exact: true });
  });

  it('[HUI-DIALOG] a Disclosure opens its panel; a Dialog opens, Escape closes it, and its button acts', async () => {
    await session.click({ role: 'button', name: 'What is the refund policy?', expanded: false });
    await session.verify.text('Refunds within 30 days.');
    await session.verify.exists({ role: 'button', name: 'What is the refund policy?', expanded: true });
    await session.click('Deactivate project');
    await session.verify.exists({ role: 'dialog', name: 'Deactivate the project?' });
    await session.press('Escape');
    await session.verify.targetText(status, 'kept', { exact: true });
    await session.verify.exists({ role: 'dialog' }, { negate: true });
    await session.click('Deactivate project');
    await session.click({ role: 'button', name: 'Deactivate', exact: true });
    await session.verify.targetText(status, 'deactivated', { exact: true });
  });
});
