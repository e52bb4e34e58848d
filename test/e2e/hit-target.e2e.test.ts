import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';
import { runPage } from './support/runPage.js';

// A hostile page on an allowed origin (FAULTS row 49): it swaps what is under the pointer, or
// moves the focus, between resolve and input. Input lands only on the element resolved; a step
// never reports ok for input that went elsewhere.
const ctx = useSession();
const upload = fileURLToPath(new URL('../fixtures/upload/receipt.txt', import.meta.url));
const retries = (): number => ctx.session.retries.byCommand.act ?? 0;

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

  it('[HIT-KEY-STROKE] press Enter in an inline editor that removes its field on Enter passes: the rest of the key stroke follows the focus to the body', async () => {
    await ctx.session.tab.navigate(ctx.page('inline-edit.html'));
    const page = await runPage(ctx.session);
    await ctx.session.fill({ label: 'Edit todo' }, 'Walk the cat');
    await ctx.session.press('Enter', { label: 'Edit todo' });
    expect(await page.evaluate(() => [(window as unknown as { __commits: number }).__commits, document.getElementById('view')!.textContent])).toEqual([1, 'Walk the cat']);
  });

  it('[HIT-PRESS-SWALLOWED] a page that stops every press at the window\u2019s capture phase is still clicked once, and the step passes', async () => {
    await ctx.session.tab.navigate(ctx.page('capture-press.html'));
    const page = await runPage(ctx.session);
    const step = await ctx.session.click('Order');
    expect(step.retries).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __orders: number }).__orders)).toBe(1);
  });

  it('[HIT-REDISPATCH] a page that stops every trusted press, release and click at the window\u2019s capture phase before aite armed, and sends its own copies, is clicked once, and the step passes without a retry', async () => {
    await ctx.session.tab.navigate(ctx.page('redispatch.html'));
    const page = await runPage(ctx.session);
    for (let n = 1; n <= 3; n++) {
      const step = await ctx.session.click('Order');
      expect(step.retries).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { __orders: number }).__orders)).toBe(n);
    }
    // The page's listener did run: the trusted events were stopped and copied, as on the real pages.
    expect(await page.evaluate(() => (window as unknown as { __stopped: number }).__stopped)).toBeGreaterThanOrEqual(9);
  });

  it('[HIT-REDISPATCH] the same page in a same-origin frame, the guard armed on the frame\u2019s window from the top document, is clicked once without a retry', async () => {
    await ctx.session.tab.navigate(ctx.page('redispatch-frame.html'));
    const page = await runPage(ctx.session);
    const step = await ctx.session.click({ text: 'Order', frame: 'shop' });
    expect(step.retries).toBe(0);
    const frame = page.frames().find((f) => f.url().endsWith('/redispatch.html'))!;
    expect(await frame.evaluate(() => (window as unknown as { __orders: number }).__orders)).toBe(1);
  });

  it('[CHECK-LEFT] check on an item a filtered view drops once checked fails saying the click reached it and it then left, naming it', async () => {
    await ctx.session.tab.navigate(ctx.page('active-todos.html'));
    const page = await runPage(ctx.session);
    const error = await failure(ctx.session.check({ role: 'checkbox', name: 'Toggle Buy milk' }, { timeoutMs: 1_000 }));
    expect(error.reason).toBe('not-found');
    expect(error.message).toMatch(/clicked the <input> "Toggle Buy milk" \(the click reached it\), but the page then took it out/);
    expect(error.message.split('\n')[0]).not.toMatch(/\/html\/body/);
    expect(await page.evaluate(() => (window as unknown as { __todos: { done: boolean }[] }).__todos[0]!.done)).toBe(true);
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

const board = (page: Page) => page.evaluate(() => {
  const w = window as unknown as { __shredded: number; __archived: number };
  return { shredded: w.__shredded, archived: w.__archived };
});

describe('[HIT-DRAG] a drag presses only its source and releases only over its target', () => {
  it('[FAULT-49] row 49: an overlay shown on the first mousemove over the source gets no press: stopped, tried again (counted), then not-visible naming it', async () => {
    await ctx.session.tab.navigate(ctx.page('hijack-drag.html?trap=source'));
    const page = await runPage(ctx.session);
    const before = retries();
    const error = await failure(ctx.session.drag({ css: '#card' }, { css: '#zone' }, { timeoutMs: 1_000 }));
    expect(error.reason).toBe('not-visible');
    expect(error.message).toContain('Shred');
    expect(retries() - before).toBe(1);
    expect(await board(page)).toEqual({ shredded: 0, archived: 0 });
  });

  for (const html5 of [false, true]) {
    const how = html5 ? 'an HTML5 drag\'s drop' : 'the release';
    it(`[FAULT-49] row 49: an overlay shown on the first move over the target gets no ${html5 ? 'drop' : 'release'}: ${how} is stopped, not-visible naming it, not tried again`, async () => {
      await ctx.session.tab.navigate(ctx.page(`hijack-drag.html?trap=target${html5 ? '&html5=1' : ''}`));
      const page = await runPage(ctx.session);
      const before = retries();
      const error = await failure(ctx.session.drag({ css: '#card' }, { css: '#zone' }, { timeoutMs: 1_000 }));
      expect(error.reason).toBe('not-visible');
      expect(error.message).toMatch(/Shred.*instead of the drop target.*nothing was dropped/);
      expect((error.detail as { coveredBy?: { xpath?: string } }).coveredBy?.xpath).toBe('/html/body/div[3]');
      expect(retries() - before).toBe(0);
      expect(await board(page)).toEqual({ shredded: 0, archived: 0 });
    });
  }

  it('on an honest board both kinds of drag drop once, with no retry', async () => {
    for (const html5 of [false, true]) {
      await ctx.session.tab.navigate(ctx.page(`hijack-drag.html${html5 ? '?html5=1' : ''}`));
      const page = await runPage(ctx.session);
      expect((await ctx.session.drag({ css: '#card' }, { css: '#zone' })).retries).toBe(0);
      expect(await board(page)).toEqual({ shredded: 0, archived: 1 });
    }
  });
});

describe('[HIT-TARGET] the clicks of upload and check are guarded too', () => {
  const hijacked = (page: Page) => page.evaluate(() => {
    const w = window as unknown as { __published: string; __optouts: number };
    return { published: w.__published, optouts: w.__optouts, attached: document.getElementById('attached')!.textContent, consent: (document.getElementById('consent') as HTMLInputElement).checked };
  });

  it('[FAULT-49] row 49: upload through a chooser button: an overlay that opens a chooser of its own gets no click and no file', async () => {
    await ctx.session.tab.navigate(ctx.page('hijack.html'));
    const page = await runPage(ctx.session);
    const before = retries();
    const error = await failure(ctx.session.upload('Attach file', upload, { timeoutMs: 1_000 }));
    expect(error.reason).toBe('not-visible');
    expect(error.message).toContain('Publish to everyone');
    expect(retries() - before).toBe(1);
    expect(await hijacked(page)).toMatchObject({ published: 'none', attached: 'none' });
  });

  it('[FAULT-49] row 49: check: an overlay shown on the first mousemove over the checkbox gets no click', async () => {
    await ctx.session.tab.navigate(ctx.page('hijack.html'));
    const page = await runPage(ctx.session);
    const error = await failure(ctx.session.check({ label: 'Keep my data private' }, { timeoutMs: 1_000 }));
    expect(error.reason).toBe('not-visible');
    expect(error.message).toContain('Share my data');
    expect(await hijacked(page)).toMatchObject({ optouts: 0, consent: false });
  });

  it('[FAULT-49] row 49: select sends no pointer or key input for a page to answer: a select that would show an overlay on any of them is chosen, the overlay never shown', async () => {
    await ctx.session.tab.navigate(ctx.page('hijack.html'));
    const page = await runPage(ctx.session);
    await ctx.session.select({ label: 'Plan' }, 'Team');
    expect(await page.evaluate(() => ({ plan: (document.getElementById('plan') as HTMLSelectElement).value, trap: getComputedStyle(document.getElementById('trap')!).display }))).toEqual({ plan: 'Team', trap: 'none' });
  });

  it('on an honest page the chooser button takes the file and the box is checked', async () => {
    await ctx.session.tab.navigate(ctx.page('hijack.html?overlay=0'));
    const page = await runPage(ctx.session);
    await ctx.session.upload('Attach file', upload);
    await ctx.session.check({ label: 'Keep my data private' });
    expect(await hijacked(page)).toMatchObject({ published: 'none', attached: 'receipt.txt', optouts: 0, consent: true });
  });
});

describe('[HIT-THROUGH] an element that takes no pointer events is clicked through to what holds it', () => {
  it('a select input under pointer-events: none (as Vuetify\'s) opens its list with one click; a pick is read back', async () => {
    await ctx.session.tab.navigate(ctx.page('click-through.html'));
    const page = await runPage(ctx.session);
    const clicked = await ctx.session.click({ label: 'Fruit' }, { timeoutMs: 2_000 });
    expect(clicked.retries).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { opens: number }).opens)).toBe(1);
    await ctx.session.click({ role: 'option', name: 'Cherry' });
    await ctx.session.verify.value({ label: 'Fruit' }, 'Cherry');
    // A hover and a double click reach the holder the same way.
    await ctx.session.hover({ label: 'Fruit' });
    await ctx.session.click({ label: 'Fruit' }, { clickCount: 2 });
    expect(await page.evaluate(() => (window as unknown as { opens: number }).opens)).toBe(3);
  });

  it('one covered by an element that does not hold it is still refused, naming the cover, and the cover gets no click', async () => {
    await ctx.session.tab.navigate(ctx.page('click-through.html'));
    const page = await runPage(ctx.session);
    const error = await failure(ctx.session.click({ text: 'Ghost' }, { timeoutMs: 500 }));
    expect(error.reason).toBe('not-visible');
    expect(error.message).toContain('covered by <div#cover.cover>');
    expect(await page.evaluate(() => (window as unknown as { coverClicks: number }).coverClicks)).toBe(0);
  });
});
