import { describe, expect, it } from 'vitest';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';

// Native dialogs over the pipe (FAULTS rows 43 and 44) and the input deadline. One Chrome for the file.
const ctx = useSession({ timeoutMs: 3000 });

describe('native dialogs', () => {
  it('[DLG-POLICY, DLG-STEP, DLG-SEEN] [FAULT-43] an alert from a click is answered by the policy: the click returns, the step lists it, the run goes on', async () => {
    await ctx.session.tab.navigate(ctx.page('dialogs.html'));
    const started = performance.now();
    const step = await ctx.session.click({ role: 'button', name: 'Alert' });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(step.dialogs).toEqual([expect.objectContaining({ type: 'alert', message: 'Saved', accepted: false, by: 'policy', tab: ctx.session.tab.current })]);
    await ctx.session.verify.targetText({ label: 'Out' }, 'after alert');
    expect(ctx.session.dialogs.seen.at(-1)).toMatchObject({ type: 'alert', url: ctx.page('dialogs.html') });
  });

  it('[DLG-NEXT] [FAULT-43] a confirm accepted by dialogs.next(), then one dismissed by the policy', async () => {
    ctx.session.dialogs.next({ accept: true });
    const accepted = await ctx.session.click('Confirm');
    expect(accepted.dialogs).toEqual([expect.objectContaining({ type: 'confirm', message: 'Delete the file?', accepted: true, by: 'armed' })]);
    await ctx.session.verify.targetText({ label: 'Out' }, 'confirmed');
    const dismissed = await ctx.session.click('Confirm');
    expect(dismissed.dialogs).toEqual([expect.objectContaining({ type: 'confirm', accepted: false, by: 'policy' })]);
    await ctx.session.verify.targetText({ label: 'Out' }, 'cancelled');
    expect(ctx.session.dialogs.armed).toBe(0);
  });

  it('[DLG-NEXT] [FAULT-43] a prompt answered with promptText', async () => {
    ctx.session.dialogs.next({ accept: true, promptText: 'Zephyr' });
    const step = await ctx.session.click('Prompt');
    expect(step.dialogs).toEqual([expect.objectContaining({ type: 'prompt', message: 'Your name?', defaultPrompt: 'anon', accepted: true, promptText: 'Zephyr' })]);
    await ctx.session.verify.targetText({ label: 'Out' }, 'name: Zephyr');
  });

  it('[DLG-LOAD] [FAULT-43] an alert while the page loads does not hold the navigate', async () => {
    const before = ctx.session.dialogs.seen.length;
    await ctx.session.tab.navigate(ctx.page('dialogs.html?welcome=1'));
    await ctx.session.verify.targetText({ label: 'Out' }, 'welcomed');
    expect(ctx.session.dialogs.seen.slice(before)).toEqual([expect.objectContaining({ type: 'alert', message: 'Welcome', url: ctx.page('dialogs.html?welcome=1') })]);
  });

  it('[DLG-LOAD, DLG-NEXT] [FAULT-43] a tab the page opens is watched from the start: its alert on load is answered by the armed answer', async () => {
    await ctx.session.tab.navigate(ctx.page('dialogs.html'));
    const before = ctx.session.dialogs.seen.length;
    ctx.session.dialogs.next({ accept: true });
    await ctx.session.click('Open welcome tab');
    await ctx.session.tab.switchTo({ new: true });
    await ctx.session.verify.targetText({ label: 'Out' }, 'welcomed');
    expect(ctx.session.dialogs.seen.slice(before)).toEqual([expect.objectContaining({ type: 'alert', message: 'Welcome', accepted: true, by: 'armed' })]);
    await ctx.session.tab.close();
  });

  it('[DLG-VERIFY] [FAULT-43] a dialog that opens while a verify waits is answered, and the verify passes', async () => {
    await ctx.session.tab.navigate(ctx.page('dialogs.html'));
    const before = ctx.session.dialogs.seen.length;
    await ctx.session.click('Alert later');
    // The content script is held while the alert is open; answered at once, the verify goes on.
    await ctx.session.verify.targetText({ label: 'Out' }, 'after later', { timeoutMs: 3000 });
    expect(ctx.session.dialogs.seen.slice(before)).toEqual([expect.objectContaining({ type: 'alert', message: 'Later' })]);
  });

  it('[DLG-BEFOREUNLOAD] [FAULT-44] a beforeunload on navigate, accepted by dialogs.next(): the navigate completes', async () => {
    await ctx.session.tab.navigate(ctx.page('dialogs.html'));
    await ctx.session.click('Guard unsaved changes');
    await ctx.session.verify.targetText({ label: 'Out' }, 'guarded');
    ctx.session.dialogs.next({ accept: true });
    const before = ctx.session.dialogs.seen.length;
    await ctx.session.click('Leave');
    await ctx.session.verify.url('counter.html');
    expect(ctx.session.dialogs.seen.slice(before)).toEqual([expect.objectContaining({ type: 'beforeunload', accepted: true })]);
  });

  it('[DLG-BEFOREUNLOAD] [FAULT-44] a beforeunload dismissed by the policy keeps the page, and the run goes on', async () => {
    await ctx.session.tab.navigate(ctx.page('dialogs.html'));
    await ctx.session.click('Guard unsaved changes');
    const step = await ctx.session.click('Leave');
    expect(step.dialogs).toEqual([expect.objectContaining({ type: 'beforeunload', accepted: false })]);
    await ctx.session.verify.url('dialogs.html');
    await ctx.session.verify.targetText({ label: 'Out' }, 'guarded');
    // A navigate away from it fails as soon as the dialog is dismissed, not at its timeout, and says why.
    const started = performance.now();
    const error = await failure(ctx.session.tab.navigate(ctx.page('counter.html'), { timeoutMs: 20_000 }));
    expect(performance.now() - started).toBeLessThan(5000);
    expect(error.reason).toBe('navigation');
    expect(error.detail).toMatchObject({ cancelled: true, tab: ctx.session.tab.current });
    expect(error.message).toMatch(/^Stopped loading .*counter\.html: a beforeunload dialog kept the page\. The page's beforeunload dialog was dismissed .*dialogs\.next\(\{ accept: true \}\)/);
    await ctx.session.verify.url('dialogs.html');
    // So does a reload, and the run goes on with the next request at once.
    const reloading = performance.now();
    const reload = await failure(ctx.session.tab.reload({ timeoutMs: 20_000 }));
    expect(performance.now() - reloading).toBeLessThan(5000);
    expect(reload.reason).toBe('navigation');
    expect(reload.detail).toMatchObject({ cancelled: true });
    await ctx.session.verify.targetText({ label: 'Out' }, 'guarded');
    ctx.session.dialogs.next({ accept: true });
    await ctx.session.tab.navigate(ctx.page('counter.html'));
    await ctx.session.verify.text('Increment');
  });

  it('[STEP-DEADLINE] a page whose script holds its main thread fails the click within its timeout, saying so; never sent again', async () => {
    await ctx.session.tab.navigate(ctx.page('dialogs.html?busyMs=5000'));
    const started = performance.now();
    const error = await failure(ctx.session.click('Busy', { timeoutMs: 1500 }));
    const took = performance.now() - started;
    expect(error.reason).toBe('timeout');
    expect(error.message).toMatch(/main thread is busy/);
    expect(error.message).toMatch(/not sent again/);
    expect(took).toBeLessThan(1500 + 1500);
    // Once the script lets go, the page was clicked exactly once.
    await ctx.session.verify.targetText({ label: 'Clicks' }, '1', { timeoutMs: 8000 });
  });

  it('[DLG-SEEN] a dialog a same-origin frame opens is listed with the frame\'s address and the tab of its page', async () => {
    await ctx.session.tab.navigate(ctx.page('frame.html'));
    const before = ctx.session.dialogs.seen.length;
    await ctx.session.evaluate(`void document.getElementById('inner').contentWindow.eval("setTimeout(() => alert('from the frame'), 0)")`);
    await expect.poll(() => ctx.session.dialogs.seen.length, { timeout: 5_000 }).toBe(before + 1);
    expect(ctx.session.dialogs.seen.at(-1)).toMatchObject({ type: 'alert', message: 'from the frame', url: ctx.page('frame-inner.html'), tab: ctx.session.tab.current });
  });
});
