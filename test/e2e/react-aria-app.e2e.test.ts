import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, type Session } from '../../src/sdk/index.js';
import { BundledPage } from '../support/BundledPage.js';
import { failure } from './support/failure.js';

// An invoices app of react-aria-components (Links routed by its RouterProvider, a Table with
// hover-revealed row actions, a row Menu and a Modal), bundled from the registry's packages for
// this file, on a server of its own. One Chrome for the file.
let page: BundledPage;
let origin: string;
let session: Session;

beforeAll(async () => {
  page = await BundledPage.start('react/invoices.jsx', 'Invoices');
  origin = page.origin;
  session = await launch({ allow: [origin], timeoutMs: 4000 });
}, 60_000);
afterAll(async () => {
  await session?.close();
  await page?.close();
});

describe('React Aria (react-aria-components) app: routes, hovered rows, menus and dialogs', () => {
  it('[RAC-ROUTES] Links routed by RouterProvider: each click is a same-document navigation the step reports, tab.url follows, back and forward move between the routes', async () => {
    await session.tab.navigate(`${origin}/`);
    await session.verify.targetText({ css: 'h1' }, 'Home', { exact: true });
    const toList = await session.click({ role: 'link', name: 'Invoices' });
    expect(toList).toMatchObject({ navigated: `${origin}/invoices`, navigatedFrom: `${origin}/`, sameDocument: true });
    expect(session.tab.url).toBe(`${origin}/invoices`);
    // Named on the new route only.
    const toApril = await session.click({ role: 'link', name: 'Invoice April' });
    expect(toApril).toMatchObject({ navigated: `${origin}/invoices/april`, sameDocument: true });
    await session.verify.targetText({ css: 'h1' }, 'Invoice April', { exact: true });
    await session.tab.back();
    expect(session.tab.url).toBe(`${origin}/invoices`);
    await session.verify.targetText({ css: 'h1' }, 'Invoices', { exact: true });
    await session.tab.back();
    expect(session.tab.url).toBe(`${origin}/`);
    await session.verify.targetText({ css: 'h1' }, 'Home', { exact: true });
    await session.tab.forward();
    expect(session.tab.url).toBe(`${origin}/invoices`);
    // The route's details come 400 ms after its heading: the verify and the click wait for them.
    await session.click({ role: 'link', name: 'Invoice May' });
    await session.verify.text('Amount: 120 EUR');
    await session.click({ role: 'link', name: 'All invoices' });
    await session.click({ role: 'link', name: 'Invoice March' });
    await session.click({ role: 'button', name: 'Download PDF' });
    await session.verify.targetText({ role: 'status', name: 'Log' }, 'downloaded march', { exact: true });
    expect(session.tab.url).toBe(`${origin}/invoices/march`);
    // A route the app changes 300 ms after the press, once the step has returned: verify.url waits for it.
    await session.tab.navigate(`${origin}/`);
    await session.click({ role: 'button', name: 'Open latest invoice' });
    await session.verify.url(`${origin}/invoices/may`);
    expect(session.tab.url).toBe(`${origin}/invoices/may`);
    await session.verify.targetText({ css: 'h1' }, 'Invoice May', { exact: true });
    // One document all along: no route loaded a page.
    expect(await session.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
  });

  it('[RAC-HOVER-ROWS] a row action shown by a :hover rule names the row to hover; after session.hover(row) the click lands', async () => {
    await session.tab.navigate(`${origin}/invoices`);
    const hidden = await failure(session.click({ role: 'button', name: 'Archive' }, { timeoutMs: 500 }));
    expect(hidden.reason).toBe('not-visible');
    expect(hidden.message).toMatch(/It shows while the pointer is over <tr.*"Invoice March.*hover that first\./);
    await session.hover({ role: 'row', name: /April/ });
    await session.click({ role: 'button', name: 'Archive' });
    await session.verify.targetText({ role: 'status', name: 'Log' }, 'archived April', { exact: true });
  });

  it('[HOVER-HINT-STATE] a row action React Aria shows while its data-hovered says the row is hovered: the failed click names the row to hover; after session.hover(row) the click lands', async () => {
    await session.tab.navigate(`${origin}/invoices`);
    const hidden = await failure(session.click({ role: 'button', name: 'Pay' }, { timeoutMs: 500 }));
    expect(hidden.reason).toBe('not-visible');
    expect(hidden.message).toMatch(/It shows while the pointer is over <tr.*"Invoice March.*\(a \[data-hovered\] rule of the page\): hover that first\./);
    await session.hover({ role: 'row', name: /May/ });
    await session.click({ role: 'button', name: 'Pay' });
    await session.verify.targetText({ role: 'status', name: 'Log' }, 'paid May', { exact: true });
  });

  it('[RAC-MENU-DIALOG] a row Menu item in a portal opens a Modal; its content is verified, Escape closes it and it is gone', async () => {
    await session.tab.navigate(`${origin}/invoices`);
    await session.click({ role: 'button', name: 'More for April' });
    await session.click({ role: 'menuitem', name: 'Delete…' });
    await session.verify.targetText({ role: 'dialog' }, 'Delete invoice April?');
    await session.verify.text('This cannot be undone.');
    await session.press('Escape');
    await session.verify.exists({ role: 'dialog' }, { negate: true });
    await session.verify.targetText({ role: 'status', name: 'Log' }, '', { exact: true });
    // Again, and this time confirm inside the dialog.
    await session.click({ role: 'button', name: 'More for May' });
    await session.click({ role: 'menuitem', name: 'Delete…' });
    await session.click({ role: 'button', name: 'Delete' });
    await session.verify.exists({ role: 'dialog' }, { negate: true });
    await session.verify.targetText({ role: 'status', name: 'Log' }, 'deleted May', { exact: true });
  });

  it('[RAC-MENU-DIALOG] a Menu’s checkable items and a submenu that opens while its item is hovered; a Tooltip shown on hover', async () => {
    await session.tab.navigate(`${origin}/invoices`);
    await session.click({ role: 'button', name: 'View' });
    await session.verify.state({ role: 'menuitemcheckbox', name: 'Show paid' }, 'checked');
    await session.verify.state({ role: 'menuitemcheckbox', name: 'Show drafts' }, 'unchecked');
    await session.click({ role: 'menuitemcheckbox', name: 'Show drafts' });
    await session.verify.state({ role: 'menuitemcheckbox', name: 'Show drafts' }, 'checked');
    await session.hover({ role: 'menuitem', name: 'Sort by' });
    await session.click({ role: 'menuitem', name: 'Amount' });
    await session.verify.targetText({ role: 'status', name: 'Log' }, 'sorted by amount', { exact: true });
    await session.verify.exists({ role: 'menu' }, { negate: true });
    await session.verify.targetText({ role: 'status', name: 'Shown' }, 'drafts, paid', { exact: true });
    await session.hover({ role: 'button', name: 'Export' });
    await session.verify.targetText({ role: 'tooltip' }, 'Download every invoice as CSV');
  });
});
