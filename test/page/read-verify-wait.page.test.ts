import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageHarness, type TestPage } from './support/harness.js';

const h = new PageHarness();
let t: TestPage;

beforeAll(async () => {
  await h.start();
  t = await h.open('verify.html');
});
afterAll(() => h.stop());

describe('read', () => {
  it('reads visible text, an input value, a textarea and a select label', async () => {
    expect(await t.ok({ cmd: 'read', target: { css: '#balance' } })).toEqual({ id: 1, ok: true, text: '1,234.5 MALLBUCKS' });
    expect((await t.ok({ cmd: 'read', target: { label: 'Amount' } })).text).toBe('42');
    expect((await t.ok({ cmd: 'read', target: { css: '#note' } })).text).toBe('hello\nworld');
    expect((await t.ok({ cmd: 'read', target: { label: 'Colour' } })).text).toBe('Dark blue');
    expect((await t.ok({ cmd: 'read', target: { css: '#host' } })).text).toBe('Shadow says hi');
  });

  it('reads an element that is there but not shown when nothing visible matches: an empty output, a display: none item', async () => {
    expect(await t.ok({ cmd: 'read', target: { css: '#lastrun' }, timeoutMs: 1000 })).toEqual({ id: 1, ok: true, text: '' });
    expect((await t.ok({ cmd: 'read', target: { text: 'Hidden entry' }, timeoutMs: 1000 })).text).toBe('Hidden entry');
    // A visible match wins over hidden ones, and several hidden ones with no visible one name none.
    expect((await t.ok({ cmd: 'read', target: { css: '.item', nth: 1 } })).text).toBe('Sent 2');
    expect((await t.fail({ cmd: 'read', target: { css: '#lastrun, .item[style]' }, timeoutMs: 200 })).reason).toBe('not-visible');
  });

  it('fails like resolve: not-found, ambiguous', async () => {
    expect((await t.fail({ cmd: 'read', target: { css: '#nope' }, timeoutMs: 100 })).reason).toBe('not-found');
    expect((await t.fail({ cmd: 'read', target: { css: '.item' }, timeoutMs: 1000 })).reason).toBe('ambiguous');
  });
});

describe('verify', () => {
  it('targetText and value look at an element that is there but not shown when nothing visible matches', async () => {
    expect((await t.ok({ cmd: 'verify', kind: 'targetText', target: { css: '#lastrun' }, value: '', timeoutMs: 1000 })).ok).toBe(true);
    const f = await t.fail({ cmd: 'verify', kind: 'targetText', target: { css: '#lastrun' }, value: 'Done', timeoutMs: 150 });
    expect(f).toMatchObject({ reason: 'mismatch', detail: { found: '' } });
  });

  it('exists (and negated), within a region', async () => {
    expect(await t.ok({ cmd: 'verify', kind: 'exists', target: { text: 'Confirm' } })).toEqual({ id: 1, ok: true, found: 1 });
    expect((await t.ok({ cmd: 'verify', kind: 'exists', target: { text: 'Confirm' }, within: 'Review send' })).found).toBe(1);
    expect((await t.ok({ cmd: 'verify', kind: 'exists', target: { text: 'Nope' }, negate: true, timeoutMs: 200 })).found).toBe(0);
    const f = await t.fail({ cmd: 'verify', kind: 'exists', target: { text: 'Confirm' }, within: 'History', timeoutMs: 150 });
    expect(f).toMatchObject({ reason: 'mismatch', detail: { expected: 'exists', found: 0 } });
    expect(f.message).toBe('Expected text "Confirm" within "History" to exist (visible), but found 0 (waited 150 ms).');
  });

  it('text: the page or a region shows the value (case and spacing ignored)', async () => {
    expect(await t.ok({ cmd: 'verify', kind: 'text', value: '1 MALLBUCKS', within: 'Review send' })).toEqual({ id: 1, ok: true, found: '1 MALLBUCKS' });
    expect((await t.ok({ cmd: 'verify', kind: 'text', value: 'amount: 1 mallbucks', within: 'Review send' })).found).toBe('Amount: 1 MALLBUCKS');
    expect((await t.ok({ cmd: 'verify', kind: 'text', value: 'Shadow says hi' })).found).toBe('Shadow says hi');
    // Hidden text is not shown text.
    expect((await t.ok({ cmd: 'verify', kind: 'text', value: 'Hidden entry', negate: true, timeoutMs: 100 })).found).toEqual(expect.stringContaining('Wallet'));
    const f = await t.fail({ cmd: 'verify', kind: 'text', value: '2 MALLBUCKS', within: 'Review send', timeoutMs: 150 });
    expect(f).toMatchObject({ reason: 'mismatch', detail: { expected: '2 MALLBUCKS', found: 'Review Amount: 1 MALLBUCKS Confirm' } });
    expect(f.message).toBe('Expected the page within "Review send" to contain "2 MALLBUCKS", but found "Review Amount: 1 MALLBUCKS Confirm" (waited 150 ms).');
    const neg = await t.fail({ cmd: 'verify', kind: 'text', value: 'Wallet', negate: true, timeoutMs: 100 });
    expect(neg).toMatchObject({ reason: 'mismatch', detail: { negate: true, expected: 'Wallet', found: 'Wallet' } });
    const region = await t.fail({ cmd: 'verify', kind: 'text', value: 'x', within: 'No region', timeoutMs: 100 });
    expect(region.reason).toBe('not-found');
  });

  it('text: found is cut to 300 characters', async () => {
    const f = await t.fail({ cmd: 'verify', kind: 'text', value: 'not on the page at all', timeoutMs: 100 });
    expect((f.detail as { found: string }).found.length).toBeLessThanOrEqual(300);
  });

  it('text on a long page: found is the text around the closest match, not the top of the page', async () => {
    await t.page.evaluate(() => {
      const p = document.createElement('p');
      p.id = 'long';
      p.textContent = `${'Lorem ipsum dolor sit amet. '.repeat(80)} Total due: 17 MALLBUCKS. ${'Sed do eiusmod tempor. '.repeat(20)}`;
      document.body.append(p);
    });
    try {
      const f = await t.fail({ cmd: 'verify', kind: 'text', value: 'Total due: 18 MALLBUCKS', timeoutMs: 100 });
      const found = (f.detail as { found: string }).found;
      expect(found).toContain('Total due: 17 MALLBUCKS');
      expect(found.length).toBeLessThanOrEqual(300);
      expect(found.startsWith('…')).toBe(true);
      const target = await t.fail({ cmd: 'verify', kind: 'targetText', target: { css: '#long' }, value: 'Total due: 18', timeoutMs: 100 });
      expect((target.detail as { found: string }).found).toContain('Total due: 17');
    } finally {
      await t.page.evaluate(() => document.getElementById('long')!.remove());
    }
  });

  it('text waits for the page to show it', async () => {
    await t.page.evaluate(() => setTimeout(() => (document.getElementById('status')!.textContent = 'Sent!'), 200));
    expect((await t.ok({ cmd: 'verify', kind: 'text', value: 'sent!', timeoutMs: 3000 })).found).toBe('Sent!');
    await t.page.evaluate(() => (document.getElementById('status')!.textContent = 'Idle'));
  });

  it('targetText: the element text contains the value; within; negate; mismatch', async () => {
    expect((await t.ok({ cmd: 'verify', kind: 'targetText', target: { css: '#balance' }, value: '1,234.5' })).found).toBe('1,234.5 MALLBUCKS');
    expect((await t.ok({ cmd: 'verify', kind: 'targetText', target: { role: 'listitem', nth: 2 }, value: 'got', within: 'History' })).found).toBe('Got 5');
    expect((await t.ok({ cmd: 'verify', kind: 'targetText', target: { css: '#balance' }, value: 'EUR', negate: true, timeoutMs: 100 })).ok).toBe(true);
    const f = await t.fail({ cmd: 'verify', kind: 'targetText', target: { css: '#balance' }, value: 'EUR', timeoutMs: 100 });
    expect(f).toMatchObject({ reason: 'mismatch', detail: { expected: 'EUR', found: '1,234.5 MALLBUCKS' } });
    const amb = await t.fail({ cmd: 'verify', kind: 'targetText', target: { css: '.item' }, value: 'Sent', timeoutMs: 1000 });
    expect(amb.reason).toBe('ambiguous');
    expect((await t.fail({ cmd: 'verify', kind: 'targetText', target: { css: '#nope' }, value: 'x', timeoutMs: 100 })).reason).toBe('not-found');
  });

  it('targetText with exact: the whole text, case kept, spacing folded (as toHaveText)', async () => {
    expect((await t.ok({ cmd: 'verify', kind: 'targetText', target: { css: '#balance' }, value: ' 1,234.5   MALLBUCKS', exact: true })).found).toBe('1,234.5 MALLBUCKS');
    const part = await t.fail({ cmd: 'verify', kind: 'targetText', target: { css: '#balance' }, value: '1,234.5', exact: true, timeoutMs: 100 });
    expect(part).toMatchObject({ reason: 'mismatch', detail: { expected: '1,234.5', found: '1,234.5 MALLBUCKS' } });
    expect(part.message).toMatch(/to be exactly "1,234\.5"/);
    expect((await t.fail({ cmd: 'verify', kind: 'targetText', target: { css: '#balance' }, value: '1,234.5 mallbucks', exact: true, timeoutMs: 100 })).reason).toBe('mismatch');
    expect((await t.ok({ cmd: 'verify', kind: 'targetText', target: { css: '#balance' }, value: '1,234.5', exact: true, negate: true, timeoutMs: 100 })).ok).toBe(true);
  });

  it('value: equals, a select by value or label; mismatch shows the value', async () => {
    expect((await t.ok({ cmd: 'verify', kind: 'value', target: { label: 'Amount' }, value: '42' })).found).toBe('42');
    expect((await t.ok({ cmd: 'verify', kind: 'value', target: { label: 'Colour' }, value: 'dblue' })).found).toBe('dblue');
    expect((await t.ok({ cmd: 'verify', kind: 'value', target: { label: 'Colour' }, value: 'Dark blue' })).found).toBe('dblue');
    expect((await t.ok({ cmd: 'verify', kind: 'value', target: { label: 'Amount' }, value: '4', negate: true, timeoutMs: 100 })).ok).toBe(true);
    const f = await t.fail({ cmd: 'verify', kind: 'value', target: { label: 'Amount' }, value: '43', timeoutMs: 100 });
    expect(f).toMatchObject({ reason: 'mismatch', detail: { expected: '43', found: '42' } });
    expect(f.message).toBe('Expected the value of label "Amount" to be "43", but found "42" (waited 100 ms).');
  });

  it('[V-VALUE-ARIA] value of a widget drawn with ARIA: a slider by its number or its spoken text, a progress bar, a combobox by its shown text', async () => {
    expect((await t.ok({ cmd: 'verify', kind: 'value', target: { role: 'slider', name: 'Volume' }, value: '40' })).found).toBe('40');
    expect((await t.ok({ cmd: 'verify', kind: 'value', target: { role: 'slider', name: 'Volume' }, value: '40 percent' })).found).toBe('40');
    expect((await t.ok({ cmd: 'verify', kind: 'value', target: { role: 'progressbar' }, value: '75' })).found).toBe('75');
    expect((await t.ok({ cmd: 'verify', kind: 'value', target: { role: 'combobox', name: 'Fruit' }, value: 'Apple' })).found).toBe('Apple');
    const f = await t.fail({ cmd: 'verify', kind: 'value', target: { role: 'slider', name: 'Volume' }, value: '41', timeoutMs: 100 });
    expect(f).toMatchObject({ reason: 'mismatch', detail: { expected: '41', found: '40' } });
    // An element with no value to compare still says so.
    const none = await t.fail({ cmd: 'verify', kind: 'value', target: { css: '#balance' }, value: 'x', timeoutMs: 100 });
    expect(none.message).toContain('not a form control');
  });

  it('[V-STATE-INVALID] state: checked/unchecked (native, role, by label), enabled/disabled, visible/hidden, focused, editable, valid/invalid', async () => {
    const ok = (target: Record<string, unknown>, state: string, negate?: boolean): Promise<unknown> =>
      t.ok({ cmd: 'verify', kind: 'state', target, state, ...(negate ? { negate } : {}), timeoutMs: 200 } as never).then((a) => a.found);
    expect(await ok({ css: '#agree' }, 'unchecked')).toBe('unchecked');
    expect(await ok({ text: 'Agree' }, 'unchecked')).toBe('unchecked'); // the label's checkbox
    expect(await ok({ role: 'checkbox', name: 'Fancy' }, 'checked')).toBe('checked');
    expect(await ok({ css: '#agree' }, 'checked', true)).toBe('unchecked');
    expect(await ok({ text: 'Go' }, 'disabled')).toBe('disabled');
    expect(await ok({ label: 'Amount' }, 'enabled')).toBe('enabled');
    expect(await ok({ text: 'Saved' }, 'hidden')).toBe('hidden');
    expect(await ok({ text: 'No such thing' }, 'hidden')).toBe('hidden');
    expect(await ok({ css: '#balance' }, 'visible')).toBe('visible');
    expect(await ok({ label: 'Amount' }, 'editable')).toBe('editable');
    expect(await ok({ css: '#ro' }, 'editable', true)).toBe('not editable');
    await t.page.focus('#focusme');
    expect(await ok({ placeholder: 'Focus me' }, 'focused')).toBe('focused');
    // As a snapshot's [invalid]: aria-invalid, or a native field the person changed that fails.
    expect(await ok({ css: '#wrong' }, 'invalid')).toBe('invalid');
    expect(await ok({ css: '#mail' }, 'valid')).toBe('valid'); // required and empty, but untouched
    await t.page.type('#mail', 'not an address');
    await t.page.focus('#focusme');
    expect(await ok({ css: '#mail' }, 'invalid')).toBe('invalid');
    expect(await ok({ label: 'Amount' }, 'invalid', true)).toBe('valid');
    const f = await t.fail({ cmd: 'verify', kind: 'state', target: { css: '#agree' }, state: 'checked', timeoutMs: 100 });
    expect(f).toMatchObject({ reason: 'mismatch', detail: { expected: 'checked', found: 'unchecked' } });
    const notBox = await t.fail({ cmd: 'verify', kind: 'state', target: { css: '#balance' }, state: 'checked', timeoutMs: 100 });
    expect(notBox.detail).toMatchObject({ found: 'not checkable' });
  });

  it('[V-STATE-ARIA] state: selected, expanded, collapsed and pressed, with negate, as the snapshot shows them', async () => {
    const ok = (target: Record<string, unknown>, state: string, negate?: boolean): Promise<unknown> =>
      t.ok({ cmd: 'verify', kind: 'state', target, state, ...(negate ? { negate } : {}), timeoutMs: 200 } as never).then((a) => a.found);
    expect(await ok({ role: 'tab', name: 'Grid view' }, 'selected')).toBe('selected');
    expect(await ok({ role: 'tab', name: 'List view' }, 'selected', true)).toBe('not selected');
    expect(await ok({ role: 'option', name: 'Large' }, 'selected')).toBe('selected'); // a native option
    expect(await ok({ label: 'Shade' }, 'collapsed')).toBe('collapsed');
    expect(await ok({ label: 'Shade' }, 'expanded', true)).toBe('collapsed');
    expect(await ok({ label: 'Menu toggle' }, 'expanded')).toBe('expanded');
    expect(await ok({ role: 'button', name: 'Bold' }, 'pressed')).toBe('pressed');
    expect(await ok({ role: 'button', name: 'Italic' }, 'pressed', true)).toBe('not pressed');
    const f = await t.fail({ cmd: 'verify', kind: 'state', target: { role: 'tab', name: 'List view' }, state: 'selected', timeoutMs: 100 });
    expect(f).toMatchObject({ reason: 'mismatch', detail: { expected: 'selected', found: 'not selected' } });
    // An element that neither expands nor collapses is neither, and says why.
    const neither = await t.fail({ cmd: 'verify', kind: 'state', target: { role: 'button', name: 'Bold' }, state: 'collapsed', timeoutMs: 100 });
    expect(neither.detail).toMatchObject({ found: expect.stringContaining('no aria-expanded') });
    // The snapshot reads the same states from the same reader.
    const { text } = (await t.ok({ cmd: 'snapshot' } as never)) as unknown as { text: string };
    expect(text).toMatch(/tab "Grid view" \[selected\]/);
    expect(text).toMatch(/combobox "Shade" \[collapsed\]/);
    expect(text).toMatch(/button "Menu toggle" \[expanded\]/);
    expect(text).toMatch(/button "Bold" \[pressed\]/);
    expect(text).not.toMatch(/button "Italic" \[pressed\]/);
  });

  it('state waits for the change', async () => {
    await t.page.evaluate(() => setTimeout(() => ((document.getElementById('agree') as HTMLInputElement).checked = true), 150));
    // A property change is no DOM mutation: the poll sees it.
    expect((await t.ok({ cmd: 'verify', kind: 'state', target: { css: '#agree' }, state: 'checked', timeoutMs: 3000 })).found).toBe('checked');
    await t.page.evaluate(() => ((document.getElementById('agree') as HTMLInputElement).checked = false));
  });

  it('count: visible matches, within; negate; mismatch', async () => {
    expect((await t.ok({ cmd: 'verify', kind: 'count', target: { css: '.item' }, value: 3 })).found).toBe(3);
    expect((await t.ok({ cmd: 'verify', kind: 'count', target: { role: 'button' }, value: 1, within: 'Review send' })).found).toBe(1);
    expect((await t.ok({ cmd: 'verify', kind: 'count', target: { css: '.item' }, value: 4, negate: true, timeoutMs: 100 })).found).toBe(3);
    const f = await t.fail({ cmd: 'verify', kind: 'count', target: { css: '.item' }, value: 4, timeoutMs: 100 });
    expect(f).toMatchObject({ reason: 'mismatch', detail: { expected: 4, found: 3 } });
  });

  it('url and title contain the value', async () => {
    const url = t.page.url();
    expect((await t.ok({ cmd: 'verify', kind: 'url', value: '/verify.html' })).found).toBe(url);
    expect((await t.ok({ cmd: 'verify', kind: 'url', value: '/other', negate: true, timeoutMs: 100 })).found).toBe(url);
    expect((await t.fail({ cmd: 'verify', kind: 'url', value: '/VERIFY.html', timeoutMs: 100 })).detail).toMatchObject({ expected: '/VERIFY.html', found: url });
    expect((await t.ok({ cmd: 'verify', kind: 'title', value: 'mallbucks' })).found).toBe('Verify page – MallBucks');
    const f = await t.fail({ cmd: 'verify', kind: 'title', value: 'Checkout', timeoutMs: 100 });
    expect(f).toMatchObject({ reason: 'mismatch', detail: { expected: 'Checkout', found: 'Verify page – MallBucks' } });
  });

  it('numberChange: the first number of the text equals from + by', async () => {
    expect((await t.ok({ cmd: 'verify', kind: 'numberChange', target: { css: '#balance' }, from: 1235.5, by: -1 })).found).toBe(1234.5);
    expect((await t.ok({ cmd: 'verify', kind: 'numberChange', target: { css: '#debt' }, from: 0, by: -3 })).found).toBe(-3);
    expect((await t.ok({ cmd: 'verify', kind: 'numberChange', target: { css: '#balance' }, from: 1, by: 1, negate: true, timeoutMs: 100 })).found).toBe(1234.5);
    const f = await t.fail({ cmd: 'verify', kind: 'numberChange', target: { css: '#balance' }, from: 1000, by: 1, timeoutMs: 100 });
    expect(f).toMatchObject({ reason: 'mismatch', detail: { expected: 1001, found: 1234.5 } });
    expect(f.message).toBe('Expected the number in css "#balance" to be 1001 (1000 + 1), but found 1234.5 (waited 100 ms).');
    const noNumber = await t.fail({ cmd: 'verify', kind: 'numberChange', target: { text: 'Wallet' }, from: 1, by: 1, timeoutMs: 100 });
    expect(noNumber.detail).toMatchObject({ found: 'Wallet' });
  });
});

describe('wait', () => {
  it('visible: until a match shows; timeout otherwise', async () => {
    await t.page.evaluate(() => setTimeout(() => (document.getElementById('toast')!.style.display = ''), 150));
    expect(await t.ok({ cmd: 'wait', kind: 'visible', target: { text: 'Saved' }, timeoutMs: 3000 })).toEqual({ id: 1, ok: true, found: 1 });
    const f = await t.fail({ cmd: 'wait', kind: 'visible', target: { text: 'Never' }, timeoutMs: 150 });
    expect(f).toMatchObject({ reason: 'timeout', detail: { expected: 'text "Never" to be visible', found: 0 } });
    expect(f.message).toBe('Waited 150 ms for text "Never" to be visible; it did not happen (last seen: 0 visible). Raise timeoutMs if the page is slow.');
  });

  it('gone: until no match is visible', async () => {
    await t.page.evaluate(() => setTimeout(() => document.getElementById('toast')!.remove(), 150));
    expect((await t.ok({ cmd: 'wait', kind: 'gone', target: { text: 'Saved' }, timeoutMs: 3000 })).found).toBe(0);
    expect((await t.fail({ cmd: 'wait', kind: 'gone', target: { text: 'Wallet' }, timeoutMs: 100 })).reason).toBe('timeout');
  });

  it('textChanges: until the text differs from when the wait started', async () => {
    await t.page.evaluate(() => setTimeout(() => (document.getElementById('status')!.textContent = 'Busy'), 150));
    expect((await t.ok({ cmd: 'wait', kind: 'textChanges', target: { css: '#status' }, timeoutMs: 3000 })).found).toBe('Busy');
    const f = await t.fail({ cmd: 'wait', kind: 'textChanges', target: { css: '#status' }, timeoutMs: 150 });
    expect(f).toMatchObject({ reason: 'timeout', detail: { found: 'Busy' } });
    expect((await t.fail({ cmd: 'wait', kind: 'textChanges', target: { css: '#nope' }, timeoutMs: 100 })).reason).toBe('not-found');
    // An empty output has no box: its text changing from "" is waited for too.
    await t.page.evaluate(() => setTimeout(() => (document.getElementById('lastrun')!.textContent = 'Done'), 150));
    expect((await t.ok({ cmd: 'wait', kind: 'textChanges', target: { css: '#lastrun' }, timeoutMs: 3000 })).found).toBe('Done');
  });

  it('url: until location.href contains the string (history changes are no DOM mutation)', async () => {
    await t.page.evaluate(() => setTimeout(() => history.pushState(null, '', '/verify.html#done'), 150));
    expect((await t.ok({ cmd: 'wait', kind: 'url', contains: '#done', timeoutMs: 3000 })).found).toMatch(/verify\.html#done$/);
    expect((await t.fail({ cmd: 'wait', kind: 'url', contains: '/elsewhere', timeoutMs: 100 })).reason).toBe('timeout');
  });
});

describe('an element shown through a zero-size box', () => {
  let shown: TestPage;
  beforeAll(async () => {
    shown = await h.open('overflow-shown.html');
  });

  it('[VIS-SHOWN-THROUGH] a dialog wrapper of zero size whose content is fixed (Headless UI\u2019s Dialog) is visible; one that clips its content, or shows nothing, is not', async () => {
    expect((await shown.ok({ cmd: 'verify', kind: 'exists', target: { role: 'dialog', name: 'Delete the file?' }, timeoutMs: 500 } as never)).ok).toBe(true);
    expect((await shown.ok({ cmd: 'verify', kind: 'state', target: { css: '#modal' }, state: 'visible', timeoutMs: 500 } as never)).ok).toBe(true);
    for (const css of ['#clipped', '#clip-path', '#empty']) {
      expect((await shown.ok({ cmd: 'verify', kind: 'state', target: { css }, state: 'hidden', timeoutMs: 500 } as never)).ok, css).toBe(true);
    }
    const none = await shown.fail({ cmd: 'verify', kind: 'exists', target: { role: 'dialog', name: 'Clipped' }, timeoutMs: 200 } as never);
    expect(none.message).toMatch(/found 0|zero size|not visible|hidden/);
  });
});

