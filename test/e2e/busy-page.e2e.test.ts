import { describe, expect, it } from 'vitest';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';

// A page whose main thread is busy (a long-running script) holds no step past its timeout and a
// small slack (the bridge's 1 s grace, the input's 250 ms look at the page), and the error says
// the page did not respond. One Chrome for the file.
const ctx = useSession({ timeoutMs: 3000 });
/** A loose bound against a hang (each step here would otherwise take its timeout and 10 s more). */
const SLACK_MS = 3000;

async function timed<T>(work: Promise<T>): Promise<{ value: T; tookMs: number }> {
  const started = performance.now();
  const value = await work;
  return { value, tookMs: performance.now() - started };
}

/** Waits until the page is free again and shows what its script left (a check, not a sleep). */
async function pageFree(): Promise<void> {
  await ctx.session.verify.text('done', { timeoutMs: 15_000 });
}

describe('a page whose main thread is busy', () => {
  it('[BUSY-CLICK, STEP-DEADLINE] a click whose handler holds the page fails within its timeout, its outcome unknown, and was clicked exactly once', async () => {
    await ctx.session.tab.navigate(ctx.page('busy.html?busyMs=6000'));
    const { value: error, tookMs } = await timed(failure(ctx.session.click('Crunch', { timeoutMs: 1500 })));
    expect(error.reason).toBe('timeout');
    expect(error.detail.dispatched).toBe('unknown');
    expect(error.message).toMatch(/^click was sent, but the page did not confirm it within \d+ ms: the page\u2019s main thread is busy/);
    expect(error.message).toMatch(/outcome is unknown: the page may still run it once it is free\. It is not sent again/);
    expect(error.message).not.toMatch(/did not take it/);
    expect(tookMs).toBeLessThan(1500 + SLACK_MS);
    await pageFree();
    await ctx.session.verify.targetText({ css: '#clicks' }, '1');
  });

  it('[BUSY-CLICK, BUSY-STEP-BUDGET] a click on a page already busy fails within its timeout, saying the page did not respond and no input was sent', async () => {
    await ctx.session.tab.navigate(ctx.page('busy.html'));
    await ctx.session.evaluate('crunchLater(5000)');
    const { value: error, tookMs } = await timed(failure(ctx.session.click('Crunch', { timeoutMs: 1500 })));
    expect(error.reason).toBe('timeout');
    expect(error.detail).toMatchObject({ answered: false, dispatched: false });
    expect(error.message).toMatch(/the page did not respond, most likely because its main thread was busy/);
    expect(error.message).toMatch(/click sent no input: nothing reached the page/);
    expect(tookMs).toBeLessThan(1500 + SLACK_MS);
    await pageFree();
    await ctx.session.verify.targetText({ css: '#clicks' }, '0');
  });

  it('[BUSY-VERIFY] a verify on a busy page fails within its timeout, saying the page did not respond', async () => {
    await ctx.session.tab.navigate(ctx.page('busy.html'));
    await ctx.session.evaluate('crunchLater(6000)');
    const { value: error, tookMs } = await timed(failure(ctx.session.verify.text('done', { timeoutMs: 1500 })));
    expect(error.reason).toBe('timeout');
    expect(error.detail.answered).toBe(false);
    expect(error.message).toMatch(/^verify got no answer within 2500 ms \(its timeout and 1000 ms more\): the page did not respond, most likely because its main thread was busy/);
    expect(tookMs).toBeLessThan(1500 + SLACK_MS);
    await pageFree();
  });

  it('[BUSY-VERIFY] a verify that passes only after its timeout (the page answered late) fails', async () => {
    await ctx.session.tab.navigate(ctx.page('busy.html'));
    await ctx.session.evaluate('crunchLater(1600)');
    const { value: error, tookMs } = await timed(failure(ctx.session.verify.text('done', { timeoutMs: 1000 })));
    expect(error.reason).toBe('timeout');
    expect(error.detail.answered).toBe('late');
    expect(error.message).toMatch(/^verify had no answer within its 1000 ms: the page answered only after \d+ ms, most likely because its main thread was busy/);
    expect(tookMs).toBeLessThan(1000 + SLACK_MS);
    // The page shows it now: the same check in time passes.
    await ctx.session.verify.text('done', { timeoutMs: 1000 });
  });
});
