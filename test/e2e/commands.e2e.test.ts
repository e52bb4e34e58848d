import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';
import { runPage as runPageOf } from './support/runPage.js';

// Every page command through the real worker and content script, in real Chromium.
const ctx = useSession();

const runPage = (): Promise<Page> => runPageOf(ctx.session);
const win = <T>(page: Page, key: string): Promise<T> => page.evaluate((k) => (window as unknown as Record<string, T>)[k]!, key);

describe('results of tab, locator and verify', () => {
  it('[SDK-RESULT-NO-ID] navigate, verify, resolve and snapshot answer results without the protocol id', async () => {
    const loaded = await ctx.session.tab.navigate(ctx.page('buttons.html'));
    expect(loaded).toMatchObject({ ok: true, url: ctx.page('buttons.html') });
    const results: object[] = [
      loaded,
      await ctx.session.tab.reload(),
      await ctx.session.verify.value({ label: 'Email' }, ''),
      await ctx.session.verify.text('Nowhere on this page', { negate: true }),
      await ctx.session.locator.resolve({ text: 'Locked' }),
      await ctx.session.snapshot(),
    ];
    for (const result of results) expect(result).not.toHaveProperty('id');
  });
});

describe('verify, every kind', () => {
  it('[V-VALUE, V-STATE, V-COUNT, V-NEGATE] value, state, count and negate', async () => {
    await ctx.session.tab.navigate(ctx.page('buttons.html'));
    await ctx.session.verify.value({ label: 'Email' }, '');
    await ctx.session.verify.state({ text: 'Locked' }, 'disabled');
    await ctx.session.verify.state({ role: 'checkbox', name: 'Subscribe' }, 'unchecked');
    await ctx.session.verify.state({ role: 'radio', name: 'Monthly' }, 'checked');
    await ctx.session.verify.count({ text: 'Delete' }, 2);
    await ctx.session.verify.exists({ text: 'Secret' }, { negate: true });
    await ctx.session.verify.text('Nowhere on this page', { negate: true });
    const mismatch = await failure(ctx.session.verify.count({ text: 'Delete' }, 3, { timeoutMs: 200 }));
    expect(mismatch.reason).toBe('mismatch');
    expect(mismatch.detail).toMatchObject({ expected: 3, found: 2 });
  });

  it('[V-NUMBER-CHANGE, V-TEXT] numberChange after clicks, and text within a region', async () => {
    await ctx.session.tab.navigate(ctx.page('counter.html'));
    await ctx.session.click({ text: 'Increment' });
    await ctx.session.click({ text: 'Increment' });
    await ctx.session.verify.numberChange({ css: '#value' }, { from: 10, by: 2 });
    const wrong = await failure(ctx.session.verify.numberChange({ css: '#value' }, { from: 10, by: 5 }, { timeoutMs: 200 }));
    expect(wrong.reason).toBe('mismatch');
    await ctx.session.tab.navigate(ctx.page('buttons.html'));
    await ctx.session.verify.text('Save', { within: 'Billing' });
    const outside = await failure(ctx.session.verify.text('Subscribe', { within: 'Billing', timeoutMs: 200 }));
    expect(outside.detail.expected).toBe('Subscribe');
  });
});

describe('locate refusals', () => {
  it('[LOC-CHECKS] a disabled control is not-enabled, and a hidden one not-visible', async () => {
    await ctx.session.tab.navigate(ctx.page('buttons.html'));
    const locked = await ctx.session.locator.resolve({ text: 'Locked' });
    const disabled = await failure(ctx.session.locator.locate(locked.descriptor, { timeoutMs: 300 }));
    expect(disabled.reason).toBe('not-enabled');
    expect(disabled.message).toMatch(/disabled/);
    const hidden = await failure(ctx.session.locator.resolve({ text: 'Secret' }, { timeoutMs: 300 }));
    expect(hidden.reason).toBe('not-visible');
  });
});

describe('wait, every kind', () => {
  it('[W-VISIBLE, W-GONE, W-TEXT-CHANGES, W-URL] visible, gone, textChanges and url', async () => {
    await ctx.session.tab.navigate(ctx.page('buttons.html'));
    const page = await runPage();
    await page.evaluate(() => setTimeout(() => document.getElementById('reveal')!.click(), 100));
    await ctx.session.locator.wait('visible', { target: { text: 'Secret' } });
    await page.evaluate(() => setTimeout(() => (document.getElementById('secret')!.hidden = true), 100));
    await ctx.session.locator.wait('gone', { target: { text: 'Secret' } });
    // The text changes 650 ms from here: time enough, on a loaded machine, for the wait to read it first.
    await ctx.session.tab.navigate(ctx.page('textchange.html?ms=600'));
    await (await runPage()).evaluate(() => setTimeout(() => document.getElementById('start')!.click(), 50));
    const changed = await ctx.session.locator.wait('textChanges', { target: { role: 'status' } });
    expect(changed.found).toBe('Finished');
    await (await runPage()).evaluate(() => setTimeout(() => (location.hash = 'done'), 100));
    await ctx.session.locator.wait('url', { contains: '#done' });
    const late = await failure(ctx.session.locator.wait('url', { contains: '#never', timeoutMs: 200 }));
    expect(late.reason).toBe('timeout');
  });

  it('[W-NETWORK-IDLE] network idle comes from the runner, after the slow request ends', async () => {
    await ctx.session.tab.navigate(ctx.page('slow.html'));
    await ctx.session.waitForNetworkIdle({ idleMs: 200, timeoutMs: 10_000 });
    await ctx.session.verify.text('Done', { timeoutMs: 100 });
  });
});

describe('act, every action, as plain events', () => {
  it('[ACT-ACTIONS] [SELECT-HOW] doubleClick, press, check, uncheck, select by label and by value; by index, value or label alone, and lists', async () => {
    await ctx.session.tab.navigate(ctx.page('buttons.html'));
    const page = await runPage();
    const save = await ctx.session.locator.resolve({ css: '#save' });
    await ctx.session.locator.act('doubleClick', save.descriptor);
    expect(await win<number>(page, '__clicks')).toBe(2);
    const subscribe = await ctx.session.locator.resolve({ role: 'checkbox', name: 'Subscribe' });
    await ctx.session.locator.act('check', subscribe.descriptor);
    await ctx.session.verify.state({ role: 'checkbox', name: 'Subscribe' }, 'checked');
    await ctx.session.locator.act('check', subscribe.descriptor);
    await ctx.session.verify.state({ role: 'checkbox', name: 'Subscribe' }, 'checked');
    await ctx.session.locator.act('uncheck', subscribe.descriptor);
    await ctx.session.verify.state({ role: 'checkbox', name: 'Subscribe' }, 'unchecked');
    const colour = await ctx.session.locator.resolve({ label: 'Colour' });
    await ctx.session.locator.act('select', colour.descriptor, { option: 'Dark blue' });
    await ctx.session.verify.value({ label: 'Colour' }, 'navy');
    // [SELECT-HOW] Playwright's selectOption forms: by index, value or label alone, and a list for a multiple select.
    await ctx.session.select({ label: 'Colour' }, { index: 2 });
    await ctx.session.verify.value({ label: 'Colour' }, 'green');
    await ctx.session.select({ label: 'Colour' }, { value: 'navy' });
    await ctx.session.verify.value({ label: 'Colour' }, 'navy');
    const toppings = (): Promise<string[]> => page.evaluate(() => [...(document.getElementById('toppings') as HTMLSelectElement).selectedOptions].map((o) => o.value));
    await ctx.session.select({ label: 'Toppings' }, ['Cheese', { value: 'olives' }]);
    expect(await toppings()).toEqual(['Cheese', 'olives']);
    await ctx.session.select({ label: 'Toppings' }, [{ label: 'Ham' }]);
    expect(await toppings()).toEqual(['Ham']);
    await ctx.session.select({ label: 'Toppings' }, []);
    expect(await toppings()).toEqual([]);
    const several = await failure(ctx.session.select({ label: 'Colour' }, ['Red', 'Green']));
    expect(several).toMatchObject({ reason: 'unsupported', message: expect.stringMatching(/takes one option \(it is not `multiple`\); 2 were given/) });
    const beyond = await failure(ctx.session.select({ label: 'Colour' }, { index: 7 }));
    expect(beyond).toMatchObject({ reason: 'not-found', message: expect.stringMatching(/no option at index 7 \(it has 3\)\. Its options are: "Red" \(value "red"\), "Dark blue" \(value "navy"\), "Green"/) });
    await ctx.session.verify.value({ label: 'Colour' }, 'navy');
    await ctx.session.locator.act('select', colour.descriptor, { option: 'green' });
    await ctx.session.verify.value({ label: 'Colour' }, 'green');
    const missing = await failure(ctx.session.locator.act('select', colour.descriptor, { option: 'Purple' }));
    expect(missing.message).toContain('Dark blue');
    const email = await ctx.session.locator.resolve({ label: 'Email' });
    await ctx.session.locator.act('type', email.descriptor, { text: 'a' });
    await ctx.session.locator.act('press', email.descriptor, { key: 'Backspace' });
    await ctx.session.verify.value({ label: 'Email' }, '');
  });

  it('[ACT-ACTIONS] drag reorders a list', async () => {
    await ctx.session.tab.navigate(ctx.page('drag.html'));
    const alpha = await ctx.session.locator.resolve({ text: 'Alpha' });
    const gamma = await ctx.session.locator.resolve({ text: 'Gamma' });
    await ctx.session.locator.act('drag', alpha.descriptor, { to: gamma.descriptor });
    await ctx.session.verify.targetText({ css: '#order' }, 'Beta, Gamma, Alpha');
  });
});

describe('composed steps with trusted input', () => {
  it('[TARGET-REGEX] a RegExp names an element as Playwright\u2019s getByRole({ name: /…/ }) does, in steps, checks and regions; a miss shows the pattern', async () => {
    await ctx.session.tab.navigate(ctx.page('buttons.html'));
    const page = await runPage();
    const step = await ctx.session.click({ role: 'button', name: /^save$/i, nth: 0 });
    expect(step.element).toMatchObject({ tag: 'button', id: 'save' });
    expect(await win<number>(page, '__clicks')).toBe(1);
    await ctx.session.verify.exists({ text: /subscri/i });
    await ctx.session.verify.count({ text: /^(Small|Large)$/ }, 2, { within: { role: 'group', name: /toggles/i } });
    const miss = await failure(ctx.session.click({ role: 'button', name: /^Nothing here$/ }, { timeoutMs: 300 }));
    expect(miss).toMatchObject({ reason: 'not-found' });
    expect(miss.message).toContain('role button named /^Nothing here$/');
    expect(miss.message).toContain('click {"role":"button","name":{"regex":"^Nothing here$"}}');
  });

  it('[ACT-PIPE] [CHECK-LABEL] doubleClick, hover, press, check, uncheck, select, drag and fill', async () => {
    await ctx.session.tab.navigate(ctx.page('buttons.html'));
    const page = await runPage();
    await ctx.session.doubleClick({ css: '#save' });
    expect(await win<number>(page, '__clicks')).toBe(2);
    await ctx.session.hover({ text: 'Reveal' });
    await ctx.session.check({ role: 'checkbox', name: 'Subscribe' });
    await ctx.session.uncheck({ role: 'checkbox', name: 'Subscribe' });
    await ctx.session.check({ role: 'radio', name: 'Yearly' });
    await ctx.session.verify.state({ role: 'radio', name: 'Monthly' }, 'unchecked');
    // [CHECK-LABEL] A control named by its label's text (Bootstrap's toggle buttons hide the input): the label is clicked, the control's state checked.
    const agree = await ctx.session.check('Agree to terms');
    expect(agree.element?.tag).toBe('label');
    await ctx.session.verify.state({ label: 'Agree to terms' }, 'checked');
    await ctx.session.check('Agree to terms');
    expect(await page.evaluate(() => (document.getElementById('agree') as HTMLInputElement).checked)).toBe(true);
    await ctx.session.uncheck('Agree to terms');
    await ctx.session.verify.state({ label: 'Agree to terms' }, 'unchecked');
    await ctx.session.check('Large');
    expect(await page.evaluate(() => [(document.getElementById('size-s') as HTMLInputElement).checked, (document.getElementById('size-l') as HTMLInputElement).checked])).toEqual([false, true]);
    await ctx.session.select({ label: 'Colour' }, 'Dark blue');
    await ctx.session.verify.value({ label: 'Colour' }, 'navy');
    // The wrong step for the element says which one fits; a target with a typo says which field.
    expect((await failure(ctx.session.fill({ label: 'Colour' }, 'navy'))).message).toMatch(/<select.*is not one\. To pick one of its options, use select\(\)\./);
    expect((await failure(ctx.session.fill({ role: 'checkbox', name: 'Subscribe' }, 'x'))).message).toMatch(/To tick or clear a checkbox, use check\(\) or uncheck\(\)\./);
    const typo = await failure(ctx.session.click({ lable: 'Email' } as unknown as { label: string }));
    expect(typo).toMatchObject({ reason: 'unsupported' });
    expect(typo.message).toMatch(/target\.lable: unknown field "lable"\. Did you mean "label"\?/);
    expect((await failure(ctx.session.click({ text: 'Reveal' }, { timeoutMs: -5 }))).message).toMatch(/timeoutMs: must be more than 0, got the number -5/);
    await ctx.session.type({ label: 'Email' }, 'old');
    await ctx.session.fill({ label: 'Email' }, 'new@example.com');
    await ctx.session.verify.value({ label: 'Email' }, 'new@example.com');
    await ctx.session.press('Backspace', { label: 'Email' });
    await ctx.session.verify.value({ label: 'Email' }, 'new@example.co');
    await ctx.session.tab.navigate(ctx.page('drag.html'));
    await ctx.session.drag({ text: 'Alpha' }, { text: 'Gamma' });
    await ctx.session.verify.targetText({ css: '#order' }, 'Beta, Gamma, Alpha');
  });
});

describe('fill', () => {
  it('[ACT-PIPE, RS-PREPARE] replaces the value with trusted text input after one resolve, in inputs, textareas and contenteditables', async () => {
    await ctx.session.tab.navigate(ctx.page('fill.html'));
    const page = await runPage();
    const sent: string[] = [];
    const request = ctx.session.bridge.request.bind(ctx.session.bridge);
    ctx.session.bridge.request = ((r: Parameters<typeof request>[0]) => {
      sent.push(`${r.cmd}${'prepare' in r && r.prepare ? `:${r.prepare}` : ''}${'guard' in r && r.guard ? `+guard:${r.guard}` : ''}${'op' in r ? `.${r.op}` : ''}`);
      return request(r);
    }) as typeof request;
    try {
      await ctx.session.fill({ label: 'Name' }, 'Grace Hopper');
      // One resolve finds the field, readies it and arms the hit-target guard; the guard's verdict
      // ends the step, or a disarm when the verdict is late ([GUARD-VERDICT]).
      expect(sent[0]).toBe('resolve:fill+guard:input');
      expect(sent.slice(1).filter((cmd) => cmd !== 'guard.disarm')).toEqual([]);
      await ctx.session.fill({ label: 'Bio' }, 'one line');
      await ctx.session.fill({ role: 'textbox', name: 'Motto' }, 'new motto');
      await ctx.session.fill({ label: 'Name' }, '');
      await ctx.session.click({ text: 'Go' });
      const click = sent.lastIndexOf('resolve:click+guard:pointer');
      expect(click).toBeGreaterThan(0);
      expect(sent.slice(click + 1).filter((cmd) => cmd !== 'guard.disarm')).toEqual([]);
    } finally {
      ctx.session.bridge.request = request;
    }
    const seen = await page.evaluate(() => ({
      name: (document.getElementById('name') as HTMLInputElement).value,
      bio: (document.getElementById('bio') as HTMLTextAreaElement).value,
      motto: document.getElementById('motto')!.textContent,
      inputs: (window as unknown as { __inputs: Array<{ id: string; trusted: boolean }> }).__inputs,
      clicks: (window as unknown as { __clicks: number }).__clicks,
    }));
    expect(seen).toMatchObject({ name: '', bio: 'one line', motto: 'new motto', clicks: 0 });
    expect(seen.inputs.map((i) => i.id)).toEqual(['name', 'bio', 'motto', 'name']);
    expect(seen.inputs.every((i) => i.trusted)).toBe(true);

    const readOnly = failure(ctx.session.fill({ label: 'Locked' }, 'x'));
    expect(await readOnly).toMatchObject({ reason: 'unsupported', message: expect.stringMatching(/fill needs a text field.*read-only/) });
    expect(await page.evaluate(() => (document.getElementById('locked') as HTMLInputElement).value)).toBe('fixed');
  });
});

describe('outline', () => {
  it('[OL-DRAW, OL-OVERLAY, OL-REPLACE, OL-CLEAR] draws our own boxes, replaces them, and clears them', async () => {
    await ctx.session.tab.navigate(ctx.page('buttons.html'));
    const page = await runPage();
    const save = await ctx.session.locator.resolve({ css: '#save' });
    const items = Array.from({ length: 12 }, (_, i) => ({ xpath: save.descriptor.xpath, label: `${'x'.repeat(100)}${i}`, tone: i === 0 ? 'wanted' : 'candidate' }));
    expect((await ctx.session.locator.outline(items)).drawn).toBe(10);
    const boxes = await page.evaluate(() =>
      [...document.querySelectorAll('[data-aite-overlay]')].map((d) => ({
        parent: d.parentElement === document.documentElement,
        pointer: (d as HTMLElement).style.pointerEvents,
        text: d.textContent ?? '',
      })),
    );
    expect(boxes).toHaveLength(10);
    expect(boxes.every((b) => b.parent && b.pointer === 'none' && b.text.length <= 80)).toBe(true);
    await ctx.session.locator.outline([{ xpath: save.descriptor.xpath, label: 'again' }]);
    expect(await page.evaluate(() => document.querySelectorAll('[data-aite-overlay]').length)).toBe(1);
    expect(await ctx.session.locator.clearOutline()).toMatchObject({ removed: 1, remaining: 0 });
    expect(await page.evaluate(() => document.querySelectorAll('[data-aite-overlay]').length)).toBe(0);
  });

  it('[OL-EXPIRE] the page removes boxes nobody cleared after 15 s', async () => {
    await ctx.session.tab.navigate(ctx.page('counter.html'));
    const page = await runPage();
    const value = await ctx.session.locator.resolve({ css: '#value' });
    await ctx.session.locator.outline([{ xpath: value.descriptor.xpath, label: 'left alone' }]);
    expect(await page.evaluate(() => document.querySelectorAll('[data-aite-overlay]').length)).toBe(1);
    // Virtual time: the page's 15 s pass at once, without the test waiting for them.
    const cdp = await page.createCDPSession();
    await new Promise<void>((resolve) => {
      cdp.once('Emulation.virtualTimeBudgetExpired', () => resolve());
      void cdp.send('Emulation.setVirtualTimePolicy', { policy: 'advance', budget: 16_000 });
    });
    await cdp.send('Emulation.setVirtualTimePolicy', { policy: 'advance' }).catch(() => undefined);
    await cdp.detach();
    expect(await page.evaluate(() => document.querySelectorAll('[data-aite-overlay]').length)).toBe(0);
  });

  it('[OL-RUNNER] a failed step is photographed with the candidates outlined, and the boxes are cleared after', async () => {
    await ctx.session.tab.navigate(ctx.page('buttons.html'));
    const page = await runPage();
    const error = await failure(ctx.session.click({ text: 'Delete' }));
    expect(error.reason).toBe('ambiguous');
    expect(error.screenshot?.length).toBeGreaterThan(1000);
    expect(await page.evaluate(() => document.querySelectorAll('[data-aite-overlay]').length)).toBe(0);
  });
});

describe('every Session call is a step', () => {
  it('[STEP-PICTURE, OL-RUNNER] a failed verify from the SDK carries its call log and the picture, candidates outlined and cleared after', async () => {
    await ctx.session.tab.navigate(ctx.page('buttons.html'));
    const page = await runPage();
    await page.evaluate(() => {
      const w = window as unknown as { boxes: number };
      w.boxes = 0;
      new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) if (n instanceof Element && n.matches('[data-aite-overlay]')) w.boxes += 1;
      }).observe(document.documentElement, { childList: true, subtree: true });
    });
    const error = await failure(ctx.session.verify.targetText({ text: 'Delete' }, 'Remove', { timeoutMs: 300 }));
    expect(error.reason).toBe('ambiguous');
    expect(error.callLog[0]).toBe('verify {"text":"Delete"}');
    expect(error.callLog[1]).toMatch(/^ {2}verify \{"kind":"targetText"/);
    expect(error.message).toContain('Call log:');
    expect(Buffer.from(error.screenshot!).subarray(1, 4).toString()).toBe('PNG');
    expect(await win<number>(page, 'boxes')).toBe(2);
    expect(await page.evaluate(() => document.querySelectorAll('[data-aite-overlay]').length)).toBe(0);
    const mismatch = await failure(ctx.session.verify.text('Nowhere on this page', { timeoutMs: 200 }));
    expect(mismatch.callLog[0]).toBe('verify');
    expect(mismatch.screenshot?.length).toBeGreaterThan(1000);
  });
});

describe('screenshots', () => {
  it('[SS-REFUSE, SS-WARNING] refuses, with a warning, when two tabs show the same page', async () => {
    await ctx.session.tab.navigate(ctx.page('popup.html'));
    await ctx.session.click({ text: 'Open payment' });
    await ctx.session.click({ text: 'Open payment' });
    await ctx.session.tab.switchTo({ new: true });
    const warnings: string[] = [];
    ctx.session.on('warning', (w) => warnings.push(w.message));
    expect(await ctx.session.screenshot()).toBeUndefined();
    expect(warnings.join('\n')).toMatch(/cannot tell which/);
  });
});
