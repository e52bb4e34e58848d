import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';
import { runPage } from './support/runPage.js';

// A hostile page on an allowed origin (FAULTS row 49): it swaps what is under the pointer, or
// moves the focus, between resolve and input. Input lands only on the element resolved; a step
// never reports ok for input that went elsewhere.
const ctx = useSession();

const counts = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __saves: number; __deletes: number };
    const value = (id: string) => (document.getElementById(id) as HTMLInputElement).value;
    return { saves: w.__saves, deletes: w.__deletes, pin: value('pin'), message: value('message') };
  });

describe('[HIT-TARGET] input reaches only the element resolved', () => {
  it('[FAULT-49] row 49: an overlay shown on the first mousemove over the button gets no click: stopped, tried again (counted), then not-visible naming it', async () => {
    await ctx.session.tab.navigate(ctx.page('hijack.html'));
    const page = await runPage(ctx.session);
    const retriesBefore = ctx.session.retries.byCommand.act ?? 0;
    const error = await failure(ctx.session.click({ text: 'Save settings' }, { timeoutMs: 1_000 }));
    expect(error.reason).toBe('not-visible');
    expect(error.message).toContain('Delete everything');
    expect(await counts(page)).toMatchObject({ saves: 0, deletes: 0 });
    expect((ctx.session.retries.byCommand.act ?? 0) - retriesBefore).toBe(1);
    // What covered it is outlined in the failure's picture.
    expect((error.detail as { coveredBy?: { xpath?: string } }).coveredBy?.xpath).toBeTruthy();
  });

  it('[FAULT-49] row 49: a page that moves the focus on the first keydown gets none of type("1234") in the other field; the step fails naming it', async () => {
    await ctx.session.tab.navigate(ctx.page('hijack.html?overlay=0'));
    const page = await runPage(ctx.session);
    const error = await failure(ctx.session.type({ label: 'PIN' }, '1234'));
    expect(error.reason).toBe('not-visible');
    expect(error.message).toMatch(/<input#message>/);
    expect(await counts(page)).toMatchObject({ pin: '', message: '' });
  });

  it('[FAULT-49] row 49: fill into a field that gives the focus away fails naming what took it, never ok', async () => {
    await ctx.session.tab.navigate(ctx.page('hijack.html?overlay=0'));
    const error = await failure(ctx.session.fill({ label: 'PIN' }, '1234'));
    expect(error.reason).toBe('not-visible');
    expect(error.message).toMatch(/<input#message>/);
    expect(await counts(await runPage(ctx.session))).toMatchObject({ pin: '' });
  });

  it('on an honest page the same steps act once', async () => {
    await ctx.session.tab.navigate(ctx.page('hijack.html?overlay=0&steal=0'));
    const page = await runPage(ctx.session);
    expect((await ctx.session.click({ text: 'Save settings' })).retries).toBe(0);
    await ctx.session.type({ label: 'PIN' }, '12345678901234567890');
    await ctx.session.fill({ label: 'Message' }, 'hello');
    await ctx.session.press('Enter', { label: 'Message' });
    // Tab moves the focus by design: its keyup lands on the next field, which is not input gone elsewhere.
    await ctx.session.press('Tab', { label: 'PIN' });
    expect(await counts(page)).toEqual({ saves: 1, deletes: 0, pin: '12345678901234567890', message: 'hello' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('message');
  });
});
