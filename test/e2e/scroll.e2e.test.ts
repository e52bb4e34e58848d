import { describe, expect, it } from 'vitest';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';

const ctx = useSession();

describe('session.scroll()', () => {
  it('[SCROLL-UNTIL] scrolls a 1,000-row virtual list until row 750 exists, answers it, and it is then clicked', async () => {
    await ctx.session.tab.navigate(ctx.page('virtual-list.html'));
    // Not in the DOM before scrolling: only the rows in view are.
    await ctx.session.verify.exists({ text: 'Row 750', exact: true }, { negate: true, timeoutMs: 500 });
    const result = await ctx.session.scroll({ role: 'listitem', nth: 0 }, { until: { text: 'Row 750', exact: true } });
    expect(result.ok).toBe(true);
    expect(result.descriptor?.text).toBe('Row 750');
    expect(result.steps).toBeGreaterThan(10);
    expect(result.scrolled).toBeGreaterThan(20_000);
    // It only scrolled: nothing was clicked.
    await ctx.session.verify.targetText({ css: '#picked' }, 'none');
    const rendered = Number((await ctx.session.locator.read({ css: '#rendered' })).text);
    expect(rendered).toBeLessThan(25);
    await ctx.session.click({ text: 'Row 750', exact: true });
    await ctx.session.verify.targetText({ css: '#picked' }, 'Row 750');
  });

  it('[SCROLL-DELTA] scrolls by deltaY, up and down, the container under the middle of the viewport when none is named', async () => {
    const up = await ctx.session.scroll({ css: '#list' }, { deltaY: -600 });
    expect(up.scrolled).toBe(-600);
    await ctx.session.verify.exists({ text: 'Row 730', exact: true });
    const top = await ctx.session.scroll({ css: '#list' }, { until: { text: 'Row 1', exact: true }, deltaY: -3_000 });
    expect(top.descriptor?.text).toBe('Row 1');
    const page = await ctx.session.scroll(undefined, { deltaY: 100 });
    expect(page.steps).toBe(1);
  });

  it('[SCROLL-BOUNDED] a row that is not in the list fails not-found at its end; maxSteps bounds the search', async () => {
    const missing = await failure(ctx.session.scroll({ css: '#list' }, { until: { text: 'Row 1001', exact: true } }));
    expect(missing.reason).toBe('not-found');
    expect(missing.message).toMatch(/reached its end/);
    await ctx.session.scroll({ css: '#list' }, { until: { text: 'Row 1', exact: true }, deltaY: -30_000 });
    const bounded = await failure(ctx.session.scroll({ css: '#list' }, { until: { text: 'Row 900', exact: true }, maxSteps: 3 }));
    expect(bounded.reason).toBe('not-found');
    expect(bounded.message).toMatch(/maxSteps \(3\) reached/);
    expect(bounded.detail.steps).toBe(3);
  });

  it('[SCROLL-UNTIL] an infinite list that loads more at its end is given the time to, and one that has ended fails not-found', async () => {
    await ctx.session.tab.navigate(ctx.page('infinite-list.html'));
    const found = await ctx.session.scroll({ css: '#feed' }, { until: { text: 'Item 85', exact: true } });
    expect(found.descriptor?.text).toBe('Item 85');
    const missing = await failure(ctx.session.scroll({ css: '#feed' }, { until: { text: 'Item 101', exact: true } }));
    expect(missing.reason).toBe('not-found');
    expect(missing.message).toMatch(/reached its end/);
  });

  it('[SCROLL-WHEEL] where nothing can scroll, a carousel that moves only on wheel events gets trusted wheel input over it, and until steps it to a slide', async () => {
    await ctx.session.tab.navigate(ctx.page('carousel.html'));
    const one = await ctx.session.scroll({ css: '#carousel' }, { deltaY: 100 });
    expect(one).toMatchObject({ by: 'wheel', steps: 1, scrolled: 0 });
    await ctx.session.verify.targetText({ css: '#carousel' }, 'Slide 2');
    const seven = await ctx.session.scroll({ css: '#carousel' }, { until: { text: 'Slide 7', exact: true } });
    expect(seven).toMatchObject({ by: 'wheel', steps: 5 });
    expect(seven.descriptor?.text).toBe('Slide 7');
    // Every one of them trusted input, one event per step.
    await ctx.session.verify.targetText({ css: '#trusted' }, '6');
    await ctx.session.verify.targetText({ css: '#wheels' }, '6');
    const back = await ctx.session.scroll({ css: '#carousel' }, { until: { text: 'Slide 5', exact: true }, deltaY: -100 });
    expect(back.steps).toBe(2);
    const bounded = await failure(ctx.session.scroll({ css: '#carousel' }, { until: { text: 'Slide 40', exact: true }, maxSteps: 3 }));
    expect(bounded.reason).toBe('not-found');
    expect(bounded.message).toMatch(/after 3 wheel step\(s\).*maxSteps \(3\) reached/);
    // A list that can scroll is still scrolled as a container, exactly.
    await ctx.session.tab.navigate(ctx.page('virtual-list.html'));
    expect(await ctx.session.scroll({ css: '#list' }, { deltaY: 300 })).toMatchObject({ by: 'container', scrolled: 300 });
  });
  it('[SCROLL-SIDEWAYS] a board that scrolls only sideways is scrolled across until its column 150 exists; a wide table\u2019s sideways wrapper on a page that scrolls down leaves the page to scroll down', async () => {
    await ctx.session.tab.navigate(ctx.page('board.html'));
    await ctx.session.verify.exists({ text: 'Column 150', exact: true }, { negate: true, timeoutMs: 500 });
    const across = await ctx.session.scroll({ css: '#board' }, { until: { text: 'Column 150', exact: true } });
    expect(across).toMatchObject({ ok: true, by: 'container', descriptor: { text: 'Column 150' } });
    expect(across.scrolled).toBeGreaterThan(20_000);
    expect(await ctx.session.evaluate(() => [Math.round(window.scrollY), document.getElementById('board')!.scrollLeft > 20_000])).toEqual([0, true]);
    await ctx.session.click({ text: 'Column 150', exact: true });
    await ctx.session.verify.targetText({ css: '#opened' }, 'Column 150');
    // A cell of the wide table names a box that scrolls sideways; the page is what scrolls down to "Page end".
    const down = await ctx.session.scroll({ text: 'Cell 1' }, { until: 'Page end' });
    expect(down).toMatchObject({ ok: true, descriptor: { text: 'Page end' } });
    expect(await ctx.session.evaluate(() => [window.scrollY > 500, document.querySelector('.wide')!.scrollLeft])).toEqual([true, 0]);
  });
  it('[SCROLL-INSIDE] a grid named as the target that does not scroll itself has its body scrolled, the largest box in it that scrolls down, not wheel input', async () => {
    await ctx.session.tab.navigate(ctx.page('virtual-grid.html'));
    await ctx.session.verify.exists({ text: 'Model 150', exact: true }, { negate: true, timeoutMs: 500 });
    // 30 steps of 100 px of wheel would not reach it (4,500 px down); steps of the body's height do.
    const found = await ctx.session.scroll({ css: '[role=treegrid]' }, { until: { text: 'Model 150', exact: true }, maxSteps: 30 });
    expect(found).toMatchObject({ ok: true, by: 'container', descriptor: { text: 'Model 150' } });
    expect(found.scrolled).toBeGreaterThan(4_000);
    expect(await ctx.session.evaluate(() => [document.getElementById('body')!.scrollTop > 4_000, document.getElementById('notes')!.scrollTop])).toEqual([true, 0]);
    const back = await ctx.session.scroll({ role: 'treegrid', name: 'Cars' }, { deltaY: -200 });
    expect(back).toMatchObject({ by: 'container', scrolled: -200 });
  });

  it('[SCROLL-TURN] a search from partway down that reaches the end turns back and finds a row above where it began, within maxSteps both ways', async () => {
    // 200 rows of 30 px: 6,000 px, walked end to end.
    await ctx.session.tab.navigate(ctx.page('virtual-list.html?rows=200'));
    const scrollTo = (top: number) => ctx.session.evaluate((px) => { document.getElementById('list')!.scrollTop = px; }, top);
    await scrollTo(4_500);
    await ctx.session.verify.exists({ text: 'Row 155', exact: true });
    const up = await ctx.session.scroll({ css: '#list' }, { until: { text: 'Row 50', exact: true } });
    expect(up).toMatchObject({ ok: true, turned: true, descriptor: { text: 'Row 50' } });
    expect(up.scrolled).toBeLessThan(-2_500);
    await ctx.session.click({ text: 'Row 50', exact: true });
    await ctx.session.verify.targetText({ css: '#picked' }, 'Row 50');
    // Not in the list at all: both ends are reached, and the failure says so. (The list draws its
    // rows on its scroll event, a frame after scrollTop is set: wait for them, or the rows of the
    // top still in the page would be found.)
    await scrollTo(4_500);
    await ctx.session.verify.exists({ text: 'Row 155', exact: true });
    const missing = await failure(ctx.session.scroll({ css: '#list' }, { until: { text: 'Row 201', exact: true } }));
    expect(missing.reason).toBe('not-found');
    expect(missing.message).toMatch(/reached both its ends/);
    expect(missing.detail).toMatchObject({ end: true, turned: true });
    // maxSteps counts the steps back too: one down to the end, four back up.
    await scrollTo(5_500);
    await ctx.session.verify.exists({ text: 'Row 190', exact: true });
    const bounded = await failure(ctx.session.scroll({ css: '#list' }, { until: { text: 'Row 2', exact: true }, maxSteps: 5 }));
    expect(bounded.reason).toBe('not-found');
    expect(bounded.message).toMatch(/maxSteps \(5\) reached/);
    expect(bounded.detail).toMatchObject({ steps: 5, turned: true });
  });

  it('[SCROLL-STEP] a search steps by 90% of what the list shows, and a deltaY longer than that is cut to it (with a warning), so no row is stepped over', async () => {
    await ctx.session.tab.navigate(ctx.page('virtual-list.html'));
    // 29,700 px down in steps of 270 px (90% of 300): 110 steps, not the 124 of 240 px.
    const last = await ctx.session.scroll({ css: '#list' }, { until: { text: 'Row 1000', exact: true } });
    expect(last.steps).toBeLessThanOrEqual(111);
    // Steps of 2,400 px up a 300 px list that renders about 17 rows would show Rows 108\u2013124, then 188\u2013204: never Row 151.
    const skipped = await ctx.session.scroll({ css: '#list' }, { until: { text: 'Row 151', exact: true }, deltaY: -2_400 });
    expect(skipped).toMatchObject({ ok: true, descriptor: { text: 'Row 151' } });
    expect(skipped.warnings.map((w) => w.message).join('\n')).toMatch(/deltaY -2400 is more than .* shows: each step was 300 px/);
  });
  it('[SCROLL-UNTIL] with no target, on a page that fits its window, a search scrolls the list that can, though it is not under the middle of the viewport', async () => {
    await ctx.session.tab.navigate(ctx.page('virtual-list.html'));
    // A short panel in the top corner, nowhere near the middle of the viewport.
    await ctx.session.evaluate(() => {
      document.getElementById('list')!.style.height = '150px';
      const middle = document.elementFromPoint(innerWidth / 2, innerHeight / 2);
      if (middle?.closest('#list')) throw new Error('the list is under the middle of the viewport');
    });
    const found = await ctx.session.scroll(undefined, { until: { text: 'Row 150', exact: true } });
    expect(found).toMatchObject({ ok: true, by: 'container' });
    expect(found.descriptor?.text).toBe('Row 150');
    // Scrolling alone (no search) still leaves a page that cannot scroll to wheel input at the middle.
    expect(await ctx.session.scroll()).toMatchObject({ by: 'wheel', scrolled: 0 });
  });
});
