import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageHarness, type TestPage } from './support/harness.js';

const h = new PageHarness();
let t: TestPage;

beforeAll(async () => {
  await h.start();
  t = await h.open('role-filters.html');
});
afterAll(() => h.stop());

/** The id of the one element a target names. */
async function idOf(target: Record<string, unknown>): Promise<string | undefined> {
  const a = (await t.ok({ cmd: 'resolve', target, timeoutMs: 1000 } as never)) as unknown as { descriptor: { id?: string } };
  return a.descriptor.id;
}

async function reasonOf(target: Record<string, unknown>): Promise<string> {
  return (await t.fail({ cmd: 'resolve', target, timeoutMs: 200 } as never)).reason;
}

describe('a role target filtered as getByRole filters', () => {
  it('[ROLE-LEVEL] level picks the heading of that level among headings of the same name: its tag, else aria-level (the tag wins)', async () => {
    expect(await reasonOf({ role: 'heading', name: 'Settings' })).toBe('ambiguous');
    expect(await idOf({ role: 'heading', name: 'Settings', level: 1 })).toBe('h1');
    expect(await idOf({ role: 'heading', name: 'Settings', level: 2 })).toBe('h2');
    expect(await idOf({ role: 'heading', name: 'Settings', level: 3 })).toBe('h3');
    expect(await idOf({ role: 'heading', name: 'Settings', level: 4 })).toBe('h4');
    const none = await t.fail({ cmd: 'resolve', target: { role: 'heading', name: 'Settings', level: 5 }, timeoutMs: 200 } as never);
    expect(none.reason).toBe('not-found');
    expect(none.message).toContain('role heading named "Settings" level 5');
  });

  it('[ROLE-LEVEL] level on list items, rows and tree items too, by aria-level, beyond 6 (as Playwright takes it)', async () => {
    expect(await idOf({ role: 'treeitem', name: 'lib', level: 2 })).toBe('tree-lib');
    expect(await idOf({ role: 'treeitem', name: 'deep', level: 7 })).toBe('tree-deep');
    expect(await reasonOf({ role: 'treeitem', name: 'lib', exact: true, level: 1 })).toBe('not-found');
    expect(await idOf({ role: 'listitem', level: 2 })).toBe('item-2');
    expect(await idOf({ role: 'listitem', level: 1 })).toBe('item-1');
  });

  it('[ROLE-STATES] checked on an option or a tree item reads its aria-checked', async () => {
    expect(await idOf({ role: 'option', name: 'Cheese', checked: true })).toBe('top-on');
    expect(await idOf({ role: 'option', name: 'Cheese', checked: false })).toBe('top-off');
    expect(await idOf({ role: 'treeitem', name: 'docs', checked: 'mixed' })).toBe('tree-docs');
    expect(await idOf({ role: 'treeitem', name: 'lib', checked: true })).toBe('tree-lib');
  });

  it('[ROLE-STATES] disabled stops at an explicit aria-disabled="false" on the way up', async () => {
    expect(await idOf({ role: 'button', name: 'Undo', disabled: true })).toBe('undo-locked');
    expect(await idOf({ role: 'button', name: 'Undo', disabled: false })).toBe('undo-island');
  });

  it('[ROLE-STATES] checked: true, false or "mixed" (a native indeterminate box, aria-checked="mixed")', async () => {
    expect(await idOf({ role: 'checkbox', name: 'Notify', checked: true })).toBe('box-on');
    expect(await idOf({ role: 'checkbox', name: 'Notify', checked: false })).toBe('box-off');
    expect(await idOf({ role: 'checkbox', name: 'Notify', checked: 'mixed' })).toBe('box-mixed');
    expect(await idOf({ role: 'checkbox', name: 'Select all', checked: 'mixed' })).toBe('aria-mixed');
    expect(await idOf({ role: 'checkbox', name: 'Select all', checked: true })).toBe('aria-on');
    expect(await reasonOf({ role: 'checkbox', name: 'Select all', checked: false })).toBe('not-found');
  });

  it('[ROLE-STATES] pressed, expanded (an element without aria-expanded is neither) and selected (a tab, an option)', async () => {
    expect(await idOf({ role: 'button', name: 'Bold', pressed: true })).toBe('bold-on');
    expect(await idOf({ role: 'button', name: 'Bold', pressed: false })).toBe('bold-off');
    expect(await idOf({ role: 'button', name: 'More', expanded: true })).toBe('more-open');
    expect(await idOf({ role: 'button', name: 'More', expanded: false })).toBe('more-shut');
    expect(await idOf({ role: 'tab', name: 'Profile', selected: true })).toBe('tab-a');
    expect(await idOf({ role: 'tab', name: 'Profile', selected: false })).toBe('tab-b');
    expect(await idOf({ role: 'option', name: 'Size', selected: true })).toBe('opt-m');
    expect(await idOf({ role: 'option', name: 'Size', selected: false })).toBe('opt-s');
  });

  it('[ROLE-STATES] disabled: natively, by aria-disabled on it or an ancestor, by a disabled fieldset; disabled: false is the enabled one', async () => {
    expect(await idOf({ role: 'button', name: 'Save', disabled: false })).toBe('save-enabled');
    const disabled = ['save-native', 'save-aria', 'save-aria-parent', 'save-fieldset'];
    for (const [nth, id] of disabled.entries()) expect(await idOf({ role: 'button', name: 'Save', disabled: true, nth })).toBe(id);
    expect(await reasonOf({ role: 'button', name: 'Save', disabled: true, nth: disabled.length })).toBe('not-found');
  });

  it('[ROLE-STATES] a filter the page comes to hold is waited for', async () => {
    expect(await reasonOf({ role: 'button', name: 'Bold', pressed: true, nth: 1 })).toBe('not-found');
    const pending = t.ok({ cmd: 'resolve', target: { role: 'button', name: 'Bold', pressed: true, nth: 1 }, timeoutMs: 2000 } as never);
    await t.page.evaluate(() => document.getElementById('bold-off')!.setAttribute('aria-pressed', 'true'));
    expect(((await pending) as unknown as { descriptor: { id: string } }).descriptor.id).toBe('bold-off');
    await t.page.evaluate(() => document.getElementById('bold-off')!.setAttribute('aria-pressed', 'false'));
  });
});

describe('the snapshot reads the same levels and states', () => {
  it('[ROLE-LEVEL] [ROLE-STATES] a snapshot line shows the level and state the filters match on', async () => {
    const { text } = (await t.ok({ cmd: 'snapshot' } as never)) as unknown as { text: string };
    const line = (ref: string): string => text.split('\n').find((l) => l.includes(ref)) ?? '';
    // Each heading's level as `level` picks it: the tag over aria-level (the h4 that says aria-level="2").
    expect(text.match(/heading "Settings" \[level=\d\]/g)).toEqual(['heading "Settings" [level=1]', 'heading "Settings" [level=2]', 'heading "Settings" [level=3]', 'heading "Settings" [level=4]']);
    expect(text.match(/checkbox "Notify"[^\n]*?(?= \[ref)/g)).toEqual(['checkbox "Notify" [checked]', 'checkbox "Notify"', 'checkbox "Notify" [mixed]']);
    expect(line('checkbox "Select all" [mixed]')).not.toBe('');
  });
});
