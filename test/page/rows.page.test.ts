import type { Descriptor } from 'aite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageHarness, type TestPage } from './support/harness.js';

// `within: "<text>"` names a list item, table or grid row, or card by the text in it, when no
// dialog, section, form or landmark has that name.
const h = new PageHarness();
let t: TestPage;

beforeAll(async () => {
  await h.start();
  t = await h.open('rows.html');
});
afterAll(() => h.stop());

async function resolved(target: Record<string, unknown>): Promise<Descriptor> {
  return ((await t.ok({ cmd: 'resolve', target, timeoutMs: 1000 } as never)) as unknown as { descriptor: Descriptor }).descriptor;
}

describe('within a row or card named by its text', () => {
  it('[RG-ROW] the checkbox in the list item that says Buy milk; the button in the table row of Bob; in a grid row', async () => {
    expect((await resolved({ role: 'checkbox', within: 'Buy milk' })).id).toBe('milk');
    expect((await resolved({ role: 'checkbox', within: 'Bob' })).id).toBe('bob');
    expect((await resolved({ role: 'button', name: 'Edit', within: 'Alice' })).xpath).toBe('/html/body/table/tbody/tr[1]/td[3]/button');
    expect((await resolved({ text: 'Refund', within: 'Order 1002' })).xpath).toBe('/html/body/div[1]/div[2]/span[2]/button');
    // A nested list: the innermost item that says it, not the list around it.
    expect((await resolved({ role: 'button', within: 'Eggs' })).text).toBe('Delete');
    expect((await resolved({ role: 'button', name: 'Delete list', within: 'Groceries' })).text).toBe('Delete list');
  });

  it('[RG-ROW] where what says the text whole is in no row (a hidden <select>\u2019s <option>), the row that says it among more is the one', async () => {
    const remove = await resolved({ text: '×', within: 'Peru' });
    expect(remove.xpath).toBe('/html/body/ul[2]/li[1]/span');
    expect((await resolved({ text: '×', within: 'Chile' })).xpath).toBe('/html/body/ul[2]/li[2]/span');
  });

  it('[RG-CARD] the button of the card that says Red mug (a class ending in card; its parts are not cards)', async () => {
    const d = await resolved({ role: 'button', name: 'Add to cart', within: 'Red mug' });
    expect(d.xpath).toBe('/html/body/div[3]/button');
    const blue = await resolved({ text: '€9' });
    expect(blue.tag).toBe('span');
    expect((await resolved({ role: 'heading', within: '€11' })).text).toBe('Red mug');
  });

  it('[RG-AMBIGUOUS] two rows that say it are refused as ambiguous, never a guess; a named region still wins', async () => {
    const twice = await t.fail({ cmd: 'resolve', target: { role: 'checkbox', within: 'Walk dog' }, timeoutMs: 300 });
    expect(twice.reason).toBe('ambiguous');
    expect(twice.message).toMatch(/2 rows or cards say "Walk dog"/);
    const none = await t.fail({ cmd: 'resolve', target: { role: 'checkbox', within: 'Feed cat' }, timeoutMs: 200 });
    expect(none.reason).toBe('not-found');
    expect(none.message).toMatch(/no list item, table or grid row, or card says it/);
    // "Buy bread" is also a section's name: the section is the region, its Delete the one found.
    expect((await resolved({ role: 'button', within: 'Buy bread' })).xpath).toBe('/html/body/section/button');
    // Read, verify and count narrow to the row the same way.
    await t.ok({ cmd: 'verify', kind: 'count', target: { role: 'button', within: 'Groceries' }, value: 2, timeoutMs: 500 } as never);
    await t.ok({ cmd: 'verify', kind: 'state', target: { role: 'checkbox', within: 'Alice' }, state: 'unchecked', timeoutMs: 500 } as never);
  });
});
