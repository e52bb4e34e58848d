import { describe, expect, it } from 'vitest';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';

// FAULTS row 34: an element re-rendered in place before input is resolved again (counted), never after input.
const ctx = useSession({ timeoutMs: 4000 });

describe('re-rendered elements', () => {
  it('[RR-RESOLVE-AGAIN] [FAULT-34] a button re-rendered every 100 ms: each click lands once, or fails saying the page re-drew it between press and release; ten land', async () => {
    await ctx.session.tab.navigate(ctx.page('rerender.html?mode=every'));
    const before = ctx.session.retries.total;
    let stepRetries = 0;
    let landed = 0;
    // A re-render can fall between a press and its release (rarely: the browser sends them back to
    // back); that click reaches nothing, and it must say so instead of reporting ok. So must a
    // click stopped twice (re-rendered before the press, and again before the one re-send).
    for (let tries = 0; landed < 10 && tries < 20; tries++) {
      try {
        stepRetries += (await ctx.session.click({ role: 'button', name: 'Save' })).retries;
        landed += 1;
      } catch (error) {
        expect(error).toMatchObject({ reason: 'not-visible', message: expect.stringMatching(/drew a new copy of it .* before the release|would have received the .* instead/) });
        stepRetries += (error as { retries: number }).retries;
      }
    }
    expect(landed).toBe(10);
    await ctx.session.verify.targetText({ label: 'Saved' }, '10');
    // Whatever re-resolves (and clicks the hit-target guard stopped and sent again) there were
    // are counted, on the steps and the session alike.
    expect(ctx.session.retries.total - before).toBe(stepRetries);
  });

  it('[RR-PRESS] [FAULT-34] a button the page re-draws on its press fails saying so, and is not clicked again', async () => {
    await ctx.session.tab.navigate(ctx.page('rerender.html?mode=press'));
    const error = await failure(ctx.session.click({ role: 'button', name: 'Save' }));
    expect(error.reason).toBe('not-visible');
    expect(error.message).toMatch(/the press reached it, but the page drew a new copy of it \(<button> "Save"\) before the release/);
    expect(error.detail).toMatchObject({ pressed: true });
    // One press, one re-render: nothing was sent a second time.
    expect(await ctx.session.evaluate(() => [document.body.dataset.renders, document.getElementById('saved')!.textContent])).toEqual(['2', '0']);
  });

  it('[RR-PRESS] a tag removed on its press (Choices.js from the registry): the next tag moving into its place is no copy of it, and the click is done once', async () => {
    await ctx.session.tab.navigate(ctx.page('choices.html'));
    const values = (): Promise<string[]> => ctx.session.evaluate(() => (window as unknown as { colors: { getValue(v: true): string[] } }).colors.getValue(true));
    await ctx.session.click({ role: 'button', name: 'Remove item: Red' });
    expect(await values()).toEqual(['green', 'blue']);
    await ctx.session.click({ role: 'button', name: 'Remove item: Blue' });
    expect(await values()).toEqual(['green']);
  });

  it('[RR-PRESS] [FAULT-34] a button the page takes out and puts back between press and release gets no click: the step fails saying so, and is not clicked again', async () => {
    await ctx.session.tab.navigate(ctx.page('rerender.html?mode=keep'));
    const error = await failure(ctx.session.click({ role: 'button', name: 'Save' }));
    expect(error.reason).toBe('not-visible');
    expect(error.message).toMatch(/the press and the release reached <button> "Save", but the page took it out and put it back in between .* so the browser sent no click/);
    expect(error.detail).toMatchObject({ pressed: true, takenOut: '<button> "Save"' });
    // The same button, put back once, and never clicked: nothing was sent a second time.
    expect(await ctx.session.evaluate(() => [document.body.dataset.renders, document.getElementById('saved')!.textContent])).toEqual(['2', '0']);
  });

  it('[RR-RESOLVE-AGAIN, RR-COUNTED] [FAULT-34] a button replaced while aite waits for it to stop moving is resolved again, counted, and clicked once', async () => {
    await ctx.session.tab.navigate(ctx.page('rerender.html?mode=once'));
    const before = ctx.session.retries.byCommand.resolve ?? 0;
    const step = await ctx.session.click({ role: 'button', name: 'Save' });
    expect(step.retries).toBe(1);
    expect((ctx.session.retries.byCommand.resolve ?? 0) - before).toBe(1);
    await ctx.session.verify.targetText({ label: 'Saved' }, '1');
  });

  it('[RR-COUNTED] [FAULT-34] a button removed for good fails not-found within the timeout; the call log shows the resolve again, the error counts it', async () => {
    await ctx.session.tab.navigate(ctx.page('rerender.html?mode=gone'));
    const before = ctx.session.retries.total;
    const started = performance.now();
    const error = await failure(ctx.session.click({ role: 'button', name: 'Save' }, { timeoutMs: 2000 }));
    expect(error.reason).toBe('not-found');
    expect(error.callLog.join('\n')).toMatch(/re-rendered before input was sent .*resolving it again/);
    // The failed step's error carries every re-send of the step, not only its last request's.
    expect(error.retries).toBeGreaterThanOrEqual(1);
    expect(error.retries).toBe(ctx.session.retries.total - before);
    expect(performance.now() - started).toBeLessThan(2000 * 2 + 1500);
  });

  it('[RR-COUNTED] [FAULT-34] a button re-drawn on every frame fails timeout within the step, saying how often it was found again; nothing is clicked', async () => {
    await ctx.session.tab.navigate(ctx.page('rerender.html?mode=frame'));
    const before = ctx.session.retries.byCommand.resolve ?? 0;
    const started = performance.now();
    const error = await failure(ctx.session.click({ role: 'button', name: 'Save' }, { timeoutMs: 1500 }));
    expect(error.reason).toBe('timeout');
    expect(error.message).toMatch(/^click sent no input in \d+ ms: the page re-drew its element \d+ times, each time between aite finding it and the input going out/);
    expect(error.detail.reRendered).toBeGreaterThan(1);
    expect(error.retries).toBe((ctx.session.retries.byCommand.resolve ?? 0) - before);
    expect(error.retries).toBe((error.detail.reRendered as number) - 1);
    expect(performance.now() - started).toBeLessThan(1500 * 2 + 1500);
    expect(await ctx.session.evaluate(() => document.getElementById('saved')!.textContent)).toBe('0');
  });
});

describe('[FRESH-CONTENT] pointer input waits until an element has been on the page for a moment', () => {
  it('a button the page just inserted and wires up as it settles (as htmx does) takes every click', async () => {
    await ctx.session.tab.navigate(ctx.page('fresh.html'));
    for (let i = 1; i <= 5; i++) {
      await ctx.session.click('Load job');
      await ctx.session.click('Retry job');
      await ctx.session.verify.text(`Retries: ${i}`, { timeoutMs: 1000 });
    }
    expect(await ctx.session.evaluate(() => (window as unknown as { unwired: number }).unwired)).toBe(0);
  });
});
