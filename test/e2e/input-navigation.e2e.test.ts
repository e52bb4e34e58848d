import { describe, expect, it } from 'vitest';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';

const ctx = useSession();

/** The urls the browser's pages show now, as puppeteer heard their commits (nothing waits for a load). */
async function shown(): Promise<string[]> {
  return (await ctx.session.browser!.pages()).map((page) => page.url());
}

describe('composed input that navigates returns once the new document committed', () => {
  it('[INPUT-NAV-COMMIT] a click on a link, then back(), lands on the page the link was on, every time', async () => {
    for (let i = 0; i < 5; i++) {
      await ctx.session.tab.navigate(ctx.page('files.html'));
      await ctx.session.tab.navigate(ctx.page('click-nav.html'));
      await ctx.session.click('Go on');
      const back = await ctx.session.tab.back();
      expect(back.url).toBe(ctx.page('click-nav.html'));
      await ctx.session.verify.title('Click and go');
    }
  });

  it('[INPUT-NAV-COMMIT] a click on a link to a page that answers late returns with the new url committed', async () => {
    await ctx.session.tab.navigate(ctx.page('click-nav.html'));
    const result = await ctx.session.click('Go slowly');
    expect(await shown()).toContain(ctx.page('status/200?ms=500'));
    expect(result.navigated).toBe(ctx.page('status/200?ms=500'));
    expect(result.warnings).toEqual([]);
    expect(result.durationMs).toBeGreaterThanOrEqual(400);
    await ctx.session.verify.title('Status 200');
  });

  it('[TYPE-LEAVE] type into a page that reloads at the third key fails navigation, saying how much was sent, never ok', async () => {
    await ctx.session.tab.navigate(ctx.page('type-reload.html'));
    const error = await failure(ctx.session.type({ label: 'Card number' }, '4242424242424242'));
    expect(error.reason).toBe('navigation');
    expect(error.message).toMatch(/of 16 characters/);
    expect(error.detail).toMatchObject({ of: 16 });
    expect(error.detail.typed as number).toBeLessThan(16);
    await ctx.session.verify.title('Reloaded');
    expect((await ctx.session.locator.read({ label: 'Card number' })).text).toBe('');
  });

  it('[TYPE-LEAVE] text ending in Enter that submits the form passes: only the last key may navigate', async () => {
    await ctx.session.tab.navigate(ctx.page('click-nav.html'));
    const result = await ctx.session.type({ label: 'Query' }, 'rust\n');
    expect(result.navigated).toBe(ctx.page('status/202?ms=500&q=rust'));
  });

  it('[INPUT-NAV-COMMIT] Enter that submits a form returns with the new url committed', async () => {
    await ctx.session.tab.navigate(ctx.page('click-nav.html'));
    const result = await ctx.session.press('Enter', { label: 'Query' });
    expect(await shown()).toContain(ctx.page('status/202?ms=500&q='));
    expect(result.navigated).toBe(ctx.page('status/202?ms=500&q='));
    expect(result.warnings).toEqual([]);
    await ctx.session.verify.title('Status 202');
  });

  it('[INPUT-NAV-COMMIT] Enter in a field of a form with a submit button submits it (the click Enter makes on the button is the key\u2019s own)', async () => {
    await ctx.session.tab.navigate(ctx.page('click-nav.html'));
    await ctx.session.fill({ label: 'Search' }, 'mugs');
    const result = await ctx.session.press('Enter', { label: 'Search' });
    expect(result.retries).toBe(0);
    expect(result.navigated).toBe(ctx.page('status/203?ms=100&s=mugs'));
  });

  it('[INPUT-NAV-COMMIT] a check right after a click that submitted a form goes to the new page once, never re-sent', async () => {
    // The worker may hear of the commit after the runner: a request it posts to the replaced
    // document never arrived there, and goes on to the new one as a first delivery.
    for (let i = 0; i < 8; i++) {
      await ctx.session.tab.navigate(ctx.page('click-nav.html'));
      await ctx.session.fill({ label: 'Search' }, `cups${i}`);
      const click = await ctx.session.click('Find');
      expect(click.navigated).toBe(ctx.page(`status/203?ms=100&s=cups${i}`));
      const before = ctx.session.retries.total;
      await ctx.session.verify.url(`s=cups${i}`);
      await ctx.session.verify.title('Status 203');
      expect(ctx.session.retries.total - before).toBe(0);
    }
  });

  it('[INPUT-NAV-COMMIT] a click whose handler submits a form by script (the navigation starts a task later) returns with the new url committed, and back() lands on the page clicked', async () => {
    for (let i = 0; i < 5; i++) {
      await ctx.session.tab.navigate(ctx.page('script-submit.html'));
      const result = await ctx.session.click('Send by script');
      expect(result.navigated).toBe(ctx.page('status/201?ms=100&by=script'));
      expect(await shown()).toContain(ctx.page('status/201?ms=100&by=script'));
      const back = await ctx.session.tab.back();
      expect(back.url).toBe(ctx.page('script-submit.html'));
    }
  });

  it('[INPUT-NAV-COMMIT] a select whose change handler sets location returns with the new url committed', async () => {
    await ctx.session.tab.navigate(ctx.page('click-nav.html'));
    const result = await ctx.session.select({ label: 'Go to' }, 'Slow page');
    expect(await shown()).toContain(ctx.page('status/200?ms=500'));
    expect(result.navigated).toBe(ctx.page('status/200?ms=500'));
    const back = await ctx.session.tab.back();
    expect(back.url).toBe(ctx.page('click-nav.html'));
  });

  it('[INPUT-NAV-NONE] a click that starts no navigation returns without waiting for one', async () => {
    await ctx.session.tab.navigate(ctx.page('click-nav.html'));
    const result = await ctx.session.click('Count');
    expect(result.warnings).toEqual([]);
    // The result says what the step acted on (a page's handle is not part of it).
    expect(result.element).toMatchObject({ tag: 'button', text: 'Count', id: 'count' });
    expect(result.element).not.toHaveProperty('handle');
    expect(result.navigated).toBeUndefined();
    await ctx.session.verify.targetText({ css: '#counted' }, '1', { timeoutMs: 1_000 });
    expect(await shown()).toContain(ctx.page('click-nav.html'));
  });

  it('[INPUT-NAV-NONE] a target=_blank link does not wait for the new tab in the old one', async () => {
    await ctx.session.tab.navigate(ctx.page('click-nav.html'));
    const tab = ctx.session.tab.current;
    // The new tab's page answers after 2 s: a click that waited for it would take that long.
    const result = await ctx.session.click('Open elsewhere');
    expect(result.durationMs).toBeLessThan(1_500);
    expect(result.warnings).toEqual([]);
    expect(ctx.session.tab.current).toBe(tab);
    await ctx.session.verify.title('Click and go');
    const opened = (await ctx.session.tab.list()).filter((t) => t.id !== tab);
    for (const other of opened) await ctx.session.tab.close(other.id);
  });

  it('[INPUT-NAV-NONE] a link to a place in the same document returns promptly', async () => {
    await ctx.session.tab.navigate(ctx.page('click-nav.html'));
    const result = await ctx.session.click('Jump below');
    expect(result.warnings).toEqual([]);
    expect(result.durationMs).toBeLessThan(1_500);
    expect(await shown()).toContain(ctx.page('click-nav.html#below'));
  });

  it('[INPUT-NAV-DEADLINE] a navigation that has not committed by the step\u2019s deadline is a warning, and the click is not sent again', async () => {
    await ctx.session.tab.navigate(ctx.page('click-nav.html'));
    const result = await ctx.session.click('Go very slowly', { timeoutMs: 1_000 });
    expect(result.retries).toBe(0);
    expect(result.warnings.map((w) => w.code)).toEqual(['navigation']);
    expect(result.warnings[0]!.message).toMatch(/status\/200\?ms=3000.*had not committed/);
    await ctx.session.verify.title('Status 200', { timeoutMs: 5_000 });
  });

  it('[HIST-TOP-LOAD] back() and reload() right after the page added a cross-site frame do not wait for that frame', async () => {
    for (const frame of ['Add a cross-site frame', 'Add a same-site frame']) {
      await ctx.session.tab.navigate(ctx.page('click-nav.html'));
      await ctx.session.tab.navigate(ctx.page('add-frame.html'));
      await ctx.session.click(frame);
      let started = Date.now();
      await ctx.session.tab.reload({ timeoutMs: 10_000 });
      expect(Date.now() - started).toBeLessThan(3_000);
      await ctx.session.click(frame);
      started = Date.now();
      const back = await ctx.session.tab.back({ timeoutMs: 10_000 });
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(back.url).toBe(ctx.page('click-nav.html'));
      await ctx.session.verify.title('Click and go');
    }
  });
});
