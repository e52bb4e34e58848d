import type { Descriptor } from 'aite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PageHarness, type TestPage } from './support/harness.js';

const h = new PageHarness();
let t: TestPage;

beforeAll(async () => {
  await h.start();
});
// Each test gets act.html as a new document, in the one tab of the file.
beforeEach(async () => {
  if (t) await t.load('act.html');
  else t = await h.open('act.html');
});
afterAll(() => h.stop());

async function d(target: Record<string, unknown>): Promise<Descriptor> {
  return (await t.ok({ cmd: 'resolve', target, timeoutMs: 1000 } as never)).descriptor as Descriptor;
}

function act(action: string, descriptor: Descriptor, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  return t.run({ cmd: 'act', action, descriptor, timeoutMs: 1000, ...extra } as never) as Promise<Record<string, unknown>>;
}

const log = (): Promise<string[]> => t.page.evaluate(() => (window as unknown as { log: string[] }).log);
const value = (css: string): Promise<string> => t.page.$eval(css, (e) => (e as HTMLInputElement).value);

describe('act: mouse', () => {
  it('click lands exactly once, on the element under the middle, with the full sequence', async () => {
    expect(await act('click', await d({ text: 'Click me' }))).toEqual({ id: 1, ok: true });
    expect(await t.counts()).toMatchObject({ 'btn:pointerdown': 1, 'btn:mousedown': 1, 'btn:pointerup': 1, 'btn:mouseup': 1, 'btn:click': 1 });
    expect(await log()).toEqual(['click@btn-label:false:1']);
    expect(await t.page.evaluate(() => document.activeElement?.id)).toBe('btn'); // mousedown focuses
  });

  it('doubleClick: two clicks and one dblclick', async () => {
    await act('doubleClick', await d({ text: 'Double me' }));
    expect(await t.counts()).toMatchObject({ 'dbl:click': 2, 'dbl:dblclick': 1 });
  });

  it('hover: pointerover, mouseover, mouseenter, mousemove once each', async () => {
    await act('hover', await d({ text: 'Hover me' }));
    expect(await t.counts()).toMatchObject({ 'hover:pointerover': 1, 'hover:mouseover': 1, 'hover:mouseenter': 1, 'hover:mousemove': 1 });
  });

  it('refuses a covered element and clicks nothing', async () => {
    const f = await act('click', await d({ text: 'Under' }), { timeoutMs: 200 });
    expect(f).toMatchObject({ ok: false, reason: 'not-visible', detail: { coveredBy: { id: 'cover' } } });
    expect((await t.counts())['under:click']).toBeUndefined();
  });
});

describe('act: keyboard', () => {
  it('type: per character keydown/keypress/beforeinput/input/keyup, change once at the end', async () => {
    await act('type', await d({ label: 'Name' }), { text: 'Ann' });
    expect(await value('#name')).toBe('Ann');
    expect(await t.counts()).toMatchObject({ 'name:keydown': 3, 'name:keypress': 3, 'name:beforeinput': 3, 'name:input': 3, 'name:keyup': 3, 'name:change': 1 });
    expect(await log()).toEqual(['input:insertText:A:A', 'input:insertText:n:An', 'input:insertText:n:Ann']);
    await act('type', await d({ label: 'Name' }), { text: ' Lee' });
    expect(await value('#name')).toBe('Ann Lee'); // appended at the end
  });

  it('type respects maxlength, works in a number input and a contenteditable', async () => {
    await act('type', await d({ label: 'Limited' }), { text: 'abcdef' });
    expect(await value('#limited')).toBe('abc');
    await act('type', await d({ label: 'Amount' }), { text: '12.5' });
    expect(await value('#number')).toBe('12.5');
    await act('type', await d({ css: '#editor' }), { text: 'Hi there' });
    expect(await t.page.$eval('#editor', (e) => e.textContent)).toBe('Hi there');
    expect((await t.counts())['editor:input']).toBe(8);
  });

  it('type refuses a read-only field and an element that cannot take keys', async () => {
    await t.page.evaluate(() => document.getElementById('name')!.setAttribute('readonly', ''));
    expect(await act('type', await d({ label: 'Name' }), { text: 'x' })).toMatchObject({ ok: false, reason: 'not-enabled' });
    expect(await act('type', await d({ text: 'Hover me' }), { text: 'x' })).toMatchObject({ ok: false, reason: 'unsupported' });
    expect(await t.counts()).toEqual({});
  });

  it('[ACT-FILE-INPUT] a file input is a button to ARIA, and type, fill and press into it are refused naming upload, before any key', async () => {
    const file = await d({ label: 'Resume' });
    expect(file).toMatchObject({ tag: 'input', type: 'file', role: 'button', name: 'Resume' });
    expect((await d({ role: 'button', name: 'Resume' })).id).toBe('resume');
    for (const [action, extra] of [['type', { text: 'x' }], ['fill', { text: 'x' }], ['press', { key: 'a' }]] as const) {
      expect(await act(action, file, extra), action).toMatchObject({ ok: false, reason: 'unsupported', message: expect.stringMatching(/file input.*upload\(\)/) });
    }
    // Over the pipe the same steps resolve with the input guard: refused there, nothing armed or focused.
    for (const prepare of ['click', 'fill', 'focus']) {
      const f = await t.fail({ cmd: 'resolve', target: { label: 'Resume' }, timeoutMs: 500, prepare, guard: 'input' } as never);
      expect(f, prepare).toMatchObject({ reason: 'unsupported', message: expect.stringMatching(/upload\(\)/) });
    }
    expect(await t.page.evaluate(() => document.activeElement?.id)).not.toBe('resume');
    expect(await t.counts()).toEqual({});
  });

  it('press Enter in a form field clicks its default button, which submits once', async () => {
    await act('type', await d({ label: 'Query' }), { text: 'shoes' });
    expect(await act('press', await d({ label: 'Query' }), { key: 'Enter' })).toEqual({ id: 1, ok: true });
    expect(await t.counts()).toMatchObject({ 'submit:click': 1, 'f:submit': 1 });
    expect(await log()).toContain('submit:submit');
  });

  it('press Enter in a form without a submit button submits it via requestSubmit', async () => {
    await act('press', await d({ label: 'Only' }), { key: 'Enter' });
    expect((await t.counts())['f2:submit']).toBe(1);
  });

  it('press Enter in a textarea inserts a line break; Backspace deletes', async () => {
    await act('type', await d({ label: 'Notes' }), { text: 'ab' });
    await act('press', await d({ label: 'Notes' }), { key: 'Enter' });
    await act('type', await d({ label: 'Notes' }), { text: 'cd' });
    expect(await value('#notes')).toBe('ab\ncd');
    await act('press', await d({ label: 'Notes' }), { key: 'Backspace' });
    expect(await value('#notes')).toBe('ab\nc');
  });

  it('press Tab moves focus to the next field, Shift+Tab back', async () => {
    await act('press', await d({ placeholder: 'first' }), { key: 'Tab' });
    expect(await t.page.evaluate(() => document.activeElement?.id)).toBe('b');
    await act('press', await d({ placeholder: 'second' }), { key: 'Shift+Tab' });
    expect(await t.page.evaluate(() => document.activeElement?.id)).toBe('a');
  });

  it('press refuses an unknown key name', async () => {
    const f = await act('press', await d({ placeholder: 'first' }), { key: 'Hyperspace' });
    expect(f).toMatchObject({ ok: false, reason: 'unsupported' });
    expect(f.message).toMatch(/does not know the key "Hyperspace"/);
  });
});

describe('act: check, uncheck, select, drag', () => {
  it('check clicks only when needed and verifies the state; uncheck likewise', async () => {
    await act('check', await d({ label: 'Subscribe' }));
    await act('check', await d({ label: 'Subscribe' }));
    expect(await t.counts()).toMatchObject({ 'cb:click': 1, 'cb:change': 1 });
    await act('uncheck', await d({ text: 'Subscribe' })); // by its label element
    expect(await t.counts()).toMatchObject({ 'cb:click': 2 });
    expect(await t.page.$eval('#cb', (e) => (e as HTMLInputElement).checked)).toBe(false);
  });

  it('check works on a role checkbox', async () => {
    await act('check', await d({ role: 'checkbox', name: 'Role box' }));
    expect(await t.page.$eval('#rc', (e) => e.getAttribute('aria-checked'))).toBe('true');
    expect((await t.counts())['rc:click']).toBe(1);
  });

  it('check fails as mismatch when the page refuses the change (clicked once)', async () => {
    const f = await act('check', await d({ label: 'Stubborn' }));
    expect(f).toMatchObject({ ok: false, reason: 'mismatch', detail: { expected: 'checked', found: 'unchecked' } });
    expect((await t.counts())['stubborn:click']).toBe(1);
  });

  it('uncheck of a radio is refused; check of a radio works', async () => {
    expect(await act('uncheck', await d({ label: 'Two' }))).toMatchObject({ ok: false, reason: 'unsupported' });
    await act('check', await d({ label: 'One' }));
    expect(await t.page.$eval('#r1', (e) => (e as HTMLInputElement).checked)).toBe(true);
  });

  it('select by label or value fires input and change; lists the options when none matches', async () => {
    await act('select', await d({ label: 'Colour' }), { option: 'Dark blue' });
    expect(await value('#sel')).toBe('dblue');
    await act('select', await d({ label: 'Colour' }), { option: 'r' });
    expect(await value('#sel')).toBe('r');
    expect(await t.counts()).toMatchObject({ 'sel:input': 2, 'sel:change': 2 });
    const f = await act('select', await d({ label: 'Colour' }), { option: 'Purple' });
    expect(f).toMatchObject({ ok: false, reason: 'not-found', detail: { option: 'Purple', options: [{ label: 'Red', value: 'r' }, { label: 'Dark blue', value: 'dblue' }, { label: 'Grey', value: 'Grey', disabled: true }] } });
    expect(f.message).toBe('The <select> has no option "Purple" (by label or value). Its options are: "Red" (value "r"), "Dark blue" (value "dblue"), "Grey".');
    expect(await act('select', await d({ label: 'Colour' }), { option: 'Grey' })).toMatchObject({ ok: false, reason: 'not-enabled' });
  });

  it('drag: HTML5 drag and drop with a shared DataTransfer', async () => {
    await act('drag', await d({ text: 'Drag me' }), { to: await d({ text: 'Drop here' }) });
    expect(await t.counts()).toMatchObject({ dragstart: 1, dragenter: 1, dragover: 1, drop: 1, dragend: 1 });
    expect(await log()).toContain('drop:payload');
  });

  it('drag: pointer events for a non-draggable source, released over the target', async () => {
    await act('drag', await d({ text: 'Knob' }), { to: await d({ text: 'Drop here' }) });
    const c = await t.counts();
    expect(c['knob:down']).toBe(1);
    expect(c['knob:move']).toBeGreaterThanOrEqual(1);
    expect(c['knob:up']).toBe(1);
    expect(await log()).toContain('knobup@dest');
  });
});

describe('act: never on another element', () => {
  it('a stale handle is refused and nothing is clicked', async () => {
    const desc = await d({ text: 'Click me' });
    await t.page.evaluate(() => {
      const b = document.getElementById('btn')!;
      b.replaceWith(b.cloneNode(true));
    });
    const f = await act('click', desc);
    expect(f).toMatchObject({ ok: false, reason: 'not-found', detail: { stale: 'removed' } });
    expect(await t.counts()).toEqual({});
  });

  it('a handle from before a reload is refused', async () => {
    const desc = await d({ text: 'Click me' });
    await t.reload();
    const f = await act('click', desc);
    expect(f).toMatchObject({ ok: false, reason: 'not-found', detail: { stale: 'other-document' } });
    expect(await t.counts()).toEqual({});
  });

  it('lastActDispatched records an act just before its input, and not a refused one', async () => {
    const api = (): Promise<[unknown, unknown]> =>
      t.page.evaluate(() => {
        const p = (window as unknown as { __aitePage: { lastActDispatched(id: number): unknown } }).__aitePage;
        return [p.lastActDispatched(77) ?? null, p.lastActDispatched(78) ?? null] as [unknown, unknown];
      });
    expect(await api()).toEqual([null, null]);
    await t.ok({ cmd: 'act', id: 77, action: 'click', descriptor: await d({ text: 'Click me' }) } as never);
    await t.fail({ cmd: 'act', id: 78, action: 'click', descriptor: await d({ text: 'Under' }), timeoutMs: 150 } as never);
    const [done, refused] = await api();
    expect(done).toMatchObject({ id: 77, action: 'click', at: expect.any(Number) });
    expect(refused).toBeNull();
  });

  it('[DL-ACT-STATUS] actStatus answers true, false or "unknown", and fences an act that has not dispatched so it never does', async () => {
    const status = (id: number): Promise<unknown> =>
      t.page.evaluate((i) => (window as unknown as { __aitePage: { actStatus(id: number): unknown } }).__aitePage.actStatus(i), id);
    await t.ok({ cmd: 'act', id: 81, action: 'click', descriptor: await d({ text: 'Click me' }) } as never);
    expect(await status(81)).toBe(true);
    // Covered: the act waits for the cover to go. Asked meanwhile, it was received but not dispatched.
    const waiting = t.run({ cmd: 'act', id: 82, action: 'click', descriptor: await d({ text: 'Under' }), timeoutMs: 3000 } as never);
    // Evaluations run in order in the page, so the act has been received when this asks.
    expect(await status(82)).toBe(false);
    await t.page.evaluate(() => document.getElementById('cover')!.remove());
    expect(await waiting).toMatchObject({ ok: false, reason: 'internal', message: expect.stringMatching(/gave it up before its input was sent/) });
    expect((await t.counts())['under:click']).toBeUndefined();
    // Never seen here: unknown, and a late delivery is refused too.
    expect(await status(83)).toBe('unknown');
    expect(await t.run({ cmd: 'act', id: 83, action: 'click', descriptor: await d({ text: 'Under' }) } as never)).toMatchObject({ ok: false, reason: 'internal' });
    expect((await t.counts())['under:click']).toBeUndefined();
  });
});
