import { describe, expect, it } from 'vitest';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';

// FAULTS row 34: an element re-rendered in place before input is resolved again (counted), never after input.
const ctx = useSession({ timeoutMs: 4000 });

describe('re-rendered elements', () => {
  it('[RR-RESOLVE-AGAIN] [FAULT-34] a button re-rendered every 100 ms, clicked ten times, lands exactly ten times', async () => {
    await ctx.session.tab.navigate(ctx.page('rerender.html?mode=every'));
    const before = ctx.session.retries.total;
    let stepRetries = 0;
    for (let i = 0; i < 10; i++) stepRetries += (await ctx.session.click({ role: 'button', name: 'Save' })).retries;
    await ctx.session.verify.targetText({ label: 'Saved' }, '10');
    // Whatever re-resolves (and clicks the hit-target guard stopped and sent again) there were
    // are counted, on the steps and the session alike.
    expect(ctx.session.retries.total - before).toBe(stepRetries);
  });

  it('[RR-RESOLVE-AGAIN, RR-COUNTED] [FAULT-34] a button replaced while aite waits for it to stop moving is resolved again, counted, and clicked once', async () => {
    await ctx.session.tab.navigate(ctx.page('rerender.html?mode=once'));
    const before = ctx.session.retries.byCommand.resolve ?? 0;
    const step = await ctx.session.click({ role: 'button', name: 'Save' });
    expect(step.retries).toBe(1);
    expect((ctx.session.retries.byCommand.resolve ?? 0) - before).toBe(1);
    await ctx.session.verify.targetText({ label: 'Saved' }, '1');
  });

  it('[RR-COUNTED] [FAULT-34] a button removed for good fails not-found within the timeout; the call log shows the resolve again', async () => {
    await ctx.session.tab.navigate(ctx.page('rerender.html?mode=gone'));
    const started = performance.now();
    const error = await failure(ctx.session.click({ role: 'button', name: 'Save' }, { timeoutMs: 2000 }));
    expect(error.reason).toBe('not-found');
    expect(error.callLog.join('\n')).toMatch(/re-rendered before input was sent .*resolving it again/);
    expect(performance.now() - started).toBeLessThan(2000 * 2 + 1500);
  });
});
