import { describe, expect, it } from 'vitest';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';

// Buttons, modifiers, click counts and positions; chords in press. One Chrome for the file.
const ctx = useSession({ timeoutMs: 3000 });

describe('mouse and keys', () => {
  it('[MK-BUTTON] a right click opens the page\u2019s context menu, and its item can be clicked', async () => {
    await ctx.session.tab.navigate(ctx.page('mouse-keys.html'));
    await ctx.session.click('budget.xlsx', { button: 'right' });
    await ctx.session.verify.targetText({ label: 'Log' }, 'menu for budget.xlsx (button 2)');
    await ctx.session.click({ role: 'menuitem', name: 'Rename' });
    await ctx.session.verify.targetText({ label: 'Log' }, 'rename budget.xlsx');
  });

  it('[MK-BUTTON] a right or middle click on an honest page goes once and counts no retry', async () => {
    await ctx.session.tab.navigate(ctx.page('mouse-keys.html'));
    const retried: string[] = [];
    const onRetry = (r: { cmd: string }): void => void retried.push(r.cmd);
    ctx.session.on('retry', onRetry);
    try {
      expect((await ctx.session.click('Clicker', { button: 'right' })).retries).toBe(0);
      await ctx.session.verify.targetText({ label: 'Clicker saw' }, 'contextmenu 2, auxclick 2');
      expect((await ctx.session.click('Clicker', { button: 'middle' })).retries).toBe(0);
      await ctx.session.verify.targetText({ label: 'Clicker saw' }, 'contextmenu 2, auxclick 2, auxclick 1');
    } finally {
      ctx.session.off('retry', onRetry);
    }
    expect(retried).toEqual([]);
  });

  it('[MK-MODIFIERS, MK-COUNT] modifiers are held during the click; clickCount 2 is a double click', async () => {
    await ctx.session.click('Modifiers', { modifiers: ['Shift', 'Alt'] });
    await ctx.session.verify.targetText({ label: 'Log' }, 'click alt+shift detail 1');
    await ctx.session.click('Modifiers', { clickCount: 2 });
    await ctx.session.verify.targetText({ label: 'Log' }, 'click none detail 2 dblclick');
  });

  it('[MK-POSITION] position clicks that point of the element, from its top-left corner', async () => {
    await ctx.session.click({ role: 'img', name: 'Pad' }, { position: { x: 15, y: 70 } });
    await ctx.session.verify.targetText({ label: 'Log' }, 'pad at 15,70');
  });

  it('[MK-POSITION] position is measured inside the element\u2019s border, from its padding box: the click\u2019s offset is the position', async () => {
    await ctx.session.click('Framed', { position: { x: 7, y: 5 } });
    await ctx.session.verify.targetText({ label: 'Log' }, 'framed at 7,5');
  });

  it('[MK-CHORD, MK-FOCUS] Control+A in a field focused without clicking it selects its text (key "a", as a keyboard sends it); Backspace then clears it', async () => {
    await ctx.session.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { keysSeen: string[] }).keysSeen = seen;
      document.addEventListener('keydown', (e) => seen.push(`${e.ctrlKey ? 'ctrl ' : ''}${e.shiftKey ? 'shift ' : ''}${e.key}/${e.code}`), true);
    });
    await ctx.session.press('Control+A', { label: 'Note' });
    expect(await ctx.session.evaluate(() => (window as unknown as { keysSeen: string[] }).keysSeen)).toEqual(['ctrl Control/ControlLeft', 'ctrl a/KeyA']);
    await ctx.session.press('Backspace');
    await ctx.session.verify.value({ label: 'Note' }, '');
    await ctx.session.verify.targetText({ label: 'Note clicks' }, '0');
  });

  it('[MK-CHORD] Shift+Tab moves focus back; Meta+Enter reaches the page with its modifier', async () => {
    await ctx.session.press('Shift+Tab', { label: 'Second' });
    await ctx.session.verify.state({ label: 'First' }, 'focused');
    await ctx.session.press('Meta+Enter', { label: 'Message' });
    await ctx.session.verify.targetText({ label: 'Log' }, 'sent with meta');
  });

  it('[MK-SPACE-CHECKBOX] Space pressed in a checkbox (focused, not clicked) ticks it, and " " clears it again', async () => {
    await ctx.session.tab.navigate(ctx.page('buttons.html'));
    await ctx.session.press('Space', { label: 'Subscribe' });
    await ctx.session.verify.state({ label: 'Subscribe' }, 'checked');
    await ctx.session.press(' ', { label: 'Subscribe' });
    await ctx.session.verify.state({ label: 'Subscribe' }, 'unchecked');
  });

  it('[MK-BAD-KEY] a key name puppeteer does not know is a clear error, and nothing is sent', async () => {
    const error = await failure(ctx.session.press('Control+Foo', { label: 'Note' }));
    expect(error.reason).toBe('unsupported');
    expect(error.message).toMatch(/"Foo" in "Control\+Foo" is not a key name/);
    const typo = await failure(ctx.session.press('enter'));
    expect(typo.message).toMatch(/did you mean "Enter"/);
    const modifier = await failure(ctx.session.press('Ctrl+A'));
    expect(modifier.message).toMatch(/"Ctrl" in "Ctrl\+A" is not a modifier/);
  });
});
