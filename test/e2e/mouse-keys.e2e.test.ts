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

  it('[MK-HOVER-POSITION] hover and doubleClick go to their position, with modifiers held and the button given, not to the middle', async () => {
    await ctx.session.hover({ role: 'img', name: 'Pad' }, { position: { x: 30, y: 40 } });
    await ctx.session.verify.targetText({ label: 'Log' }, 'pad hover at 30,40', { exact: true });
    await ctx.session.hover({ role: 'img', name: 'Pad' }, { position: { x: 12, y: 9 }, modifiers: ['Shift'] });
    await ctx.session.verify.targetText({ label: 'Log' }, 'pad hover at 12,9 shift', { exact: true });
    await ctx.session.doubleClick({ role: 'img', name: 'Pad' }, { position: { x: 150, y: 20 }, modifiers: ['Alt'] });
    await ctx.session.verify.targetText({ label: 'Log' }, 'pad dblclick 0 at 150,20 alt', { exact: true });
  });

  it('[MK-DELAY] click with delay holds the button down that long (a long press), counted in the step\u2019s time; without it the press is short', async () => {
    await ctx.session.click('Hold to delete');
    await ctx.session.verify.targetText({ label: 'Log' }, 'released too soon');
    const held = await ctx.session.click('Hold to delete', { delay: 900 });
    await ctx.session.verify.targetText({ label: 'Log' }, 'deleted');
    expect(held.durationMs).toBeGreaterThanOrEqual(900);
    // Held longer than the step's own time: the hold is added to it, never cut short.
    await ctx.session.click('Hold to delete', { delay: 1200, timeoutMs: 1000 });
    await ctx.session.verify.targetText({ label: 'Log' }, 'deleted');
    const tooLong = await failure(ctx.session.click('Hold to delete', { delay: 60_000 }));
    expect(tooLong.reason).toBe('unsupported');
    expect(tooLong.message).toMatch(/^click: delay: must be at most 10000, got the number 60000\. Nothing was sent\./);
  });

  it('[STEP-OPTIONS-STRICT] an option a step does not take is refused at once, named, with the one meant or what to do instead; nothing is sent', async () => {
    await ctx.session.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { pointerSeen: string[] }).pointerSeen = seen;
      for (const type of ['pointermove', 'pointerdown', 'click', 'keydown']) document.addEventListener(type, (e) => seen.push(e.type), true);
    });
    const started = performance.now();
    const cases: [() => Promise<unknown>, RegExp][] = [
      [() => ctx.session.click({ text: 'Nope' }, { timeout: 300 } as never), /^click: unknown option "timeout"\. aite calls it "timeoutMs" \(milliseconds\)\. Nothing was sent\./],
      [() => ctx.session.click('Framed', { force: true } as never), /^click: unknown option "force"\. aite has no force: .*Make the element reachable first/],
      [() => ctx.session.hover('Framed', { timeout: 300 } as never), /^hover: unknown option "timeout"\. aite calls it "timeoutMs"/],
      [() => ctx.session.hover('Framed', { button: 'right' } as never), /^hover: unknown option "button"\./],
      [() => ctx.session.press('a', { label: 'Note' }, { delay: 100 } as never), /^press: unknown option "delay"\. Only click takes delay/],
      [() => ctx.session.type({ label: 'Note' }, 'x', { delay: 50 } as never), /^type: unknown option "delay"\./],
      [() => ctx.session.doubleClick('Framed', { clickCount: 3 } as never), /^doubleClick: unknown option "clickCount"\./],
      [() => ctx.session.fill({ label: 'Note' }, 'x', { timeotMs: 5 } as never), /^fill: unknown option "timeotMs"\. Did you mean "timeoutMs"\?/],
    ];
    for (const [call, message] of cases) {
      const error = await failure(call());
      expect(error.reason).toBe('unsupported');
      expect(error.message).toMatch(message);
    }
    // Refused before any wait: not the 3 s the missing "Nope" would have taken.
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(await ctx.session.evaluate(() => (window as unknown as { pointerSeen: string[] }).pointerSeen)).toEqual([]);
  });

  it('[CALL-OPTIONS-STRICT] a check, a navigation and a scroll given another tool\u2019s option are refused at once, and the page is left as it was', async () => {
    await ctx.session.tab.navigate(ctx.page('mouse-keys.html'));
    const before = (await ctx.session.tab.list()).find((t) => t.id === ctx.session.tab.current)!.url;
    const started = performance.now();
    const check = await failure(ctx.session.verify.text('Never on this page', { timeout: 300 } as never));
    expect(check.reason).toBe('unsupported');
    expect(check.message).toMatch(/^verify\.text: unknown option "timeout"\. aite calls it "timeoutMs" \(milliseconds\)\. Nothing was sent\. Options of verify\.text: negate, timeoutMs, within\./);
    const navigation = await failure(ctx.session.tab.navigate(ctx.page('counter.html'), { waitUntil: 'networkidle' } as never));
    expect(navigation.message).toMatch(/^tab\.navigate: unknown option "waitUntil"\./);
    const scrolled = await failure(ctx.session.scroll(undefined, { delta: 500 } as never));
    expect(scrolled.message).toMatch(/^scroll: unknown option "delta"\. Did you mean "deltaY"\? Nothing was sent\. Options of scroll: deltaY, until, maxSteps, timeoutMs\./);
    // Refused before any wait (the check would have waited its 3 s), and no page was loaded or moved.
    expect(performance.now() - started).toBeLessThan(2_000);
    expect((await ctx.session.tab.list()).find((t) => t.id === ctx.session.tab.current)!.url).toBe(before);
    expect(await ctx.session.evaluate(() => scrollY)).toBe(0);
  });

  it('[STEP-ARGS] a wrong button, modifier or clickCount is refused before anything is sent, naming the field', async () => {
    await ctx.session.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { pointerSeen: string[] }).pointerSeen = seen;
      for (const type of ['pointermove', 'pointerdown', 'click']) document.addEventListener(type, (e) => seen.push(e.type), true);
    });
    const wrong: [Parameters<typeof ctx.session.click>[1], RegExp][] = [
      [{ button: 'middle-ish' as 'left' }, /^click: button: must be one of "left", "right", "middle", got the text "middle-ish"\. Nothing was sent\./],
      [{ modifiers: ['Ctrl' as 'Control'] }, /^click: modifiers\[0\]: must be one of "Alt", "Control", "ControlOrMeta", "Meta", "Shift", got the text "Ctrl"\. Nothing was sent\./],
      [{ clickCount: 0 }, /^click: clickCount: must be at least 1, got the number 0\. Nothing was sent\./],
    ];
    for (const [options, message] of wrong) {
      const error = await failure(ctx.session.click('Framed', options));
      expect(error.reason).toBe('unsupported');
      expect(error.message).toMatch(message);
    }
    expect(await ctx.session.evaluate(() => (window as unknown as { pointerSeen: string[] }).pointerSeen)).toEqual([]);
  });

  it('[MK-POSITION] a position off the element that meets another element there says so; the page gets no press or click', async () => {
    const error = await failure(ctx.session.click('Framed', { position: { x: 9999, y: 5 } }));
    expect(error.reason).toBe('not-visible');
    expect(error.message).toMatch(/^click did not reach its target: position \{ x: 9999, y: 5 \} lies outside the <button> "Framed" \(\d+ × \d+ px; a position counts in CSS pixels from the top-left corner of its padding box\), and <html>.* is there; aite stopped the event before the page saw it\./);
    expect(error.detail).toMatchObject({ position: { x: 9999, y: 5 }, coveredBy: { element: expect.stringMatching(/^<html>/) } });
    const seen = await ctx.session.evaluate(() => (window as unknown as { pointerSeen: string[] }).pointerSeen);
    expect(seen.filter((type) => type !== 'pointermove')).toEqual([]);
  });

  it('[STEP-ARGS] type and fill without text are refused before anything is sent', async () => {
    await ctx.session.fill({ label: 'Note' }, 'kept');
    const none = await failure(ctx.session.type({ label: 'Note' }, undefined as unknown as string));
    expect(none.message).toMatch(/^type needs the text to send as a string; it was given nothing\. Nothing was sent\./);
    const number = await failure(ctx.session.fill({ label: 'Note' }, 5 as unknown as string));
    expect(number.reason).toBe('unsupported');
    expect(number.message).toMatch(/^fill needs the text to send as a string; it was given the number 5\./);
    await ctx.session.verify.value({ label: 'Note' }, 'kept');
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

  it('[TYPE-FOCUSED] type into a field that has the focus goes where its selection is, without a click: Control+A then type replaces; End then type adds', async () => {
    await ctx.session.tab.navigate(ctx.page('mouse-keys.html'));
    await ctx.session.press('Control+A', { label: 'Note' });
    await ctx.session.type({ label: 'Note' }, 'new');
    await ctx.session.verify.value({ label: 'Note' }, 'new');
    await ctx.session.verify.targetText({ label: 'Note clicks' }, '0');
    await ctx.session.press('Home', { label: 'Note' });
    await ctx.session.press('End', { label: 'Note' });
    await ctx.session.type({ label: 'Note' }, ' end');
    await ctx.session.verify.value({ label: 'Note' }, 'new end');
    await ctx.session.verify.targetText({ label: 'Note clicks' }, '0');
    // A field without the focus is clicked first, as a person does.
    await ctx.session.type({ label: 'First' }, 'one');
    await ctx.session.verify.value({ label: 'First' }, 'one');
    await ctx.session.type({ label: 'Note' }, '!');
    await ctx.session.verify.targetText({ label: 'Note clicks' }, '1');
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
    expect(modifier.message).toMatch(/"Ctrl" in "Ctrl\+A" is not a modifier \(did you mean "Control"\?\)/);
    // Other tools' names for keys are answered with aite's.
    expect((await failure(ctx.session.press('Esc'))).message).toMatch(/did you mean "Escape"/);
    expect((await failure(ctx.session.press('Return'))).message).toMatch(/did you mean "Enter"/);
    expect((await failure(ctx.session.press('Control+Del'))).message).toMatch(/did you mean "Delete"/);
  });

  it('[MK-MAIN-KEYS] / - * + are pressed and typed on the main keys, as a US keyboard (and Playwright) sends them, not the keypad\'s', async () => {
    await ctx.session.tab.navigate(ctx.page('mouse-keys.html'));
    await ctx.session.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { keysSeen: string[] }).keysSeen = seen;
      document.addEventListener('keydown', (e) => e.key !== 'Shift' && e.key !== 'Control' && seen.push(`${e.ctrlKey ? 'ctrl ' : ''}${e.key}/${e.code}/${e.keyCode}`), true);
    });
    await ctx.session.press('/');
    await ctx.session.press('Control+-');
    await ctx.session.press('Shift+/');
    expect(await ctx.session.evaluate(() => (window as unknown as { keysSeen: string[] }).keysSeen.splice(0))).toEqual(['//Slash/191', 'ctrl -/Minus/189', '?/Slash/191']);
    await ctx.session.fill({ label: 'Note' }, '');
    await ctx.session.type({ label: 'Note' }, '1/2-3*4+5');
    await ctx.session.verify.value({ label: 'Note' }, '1/2-3*4+5');
    const typed = await ctx.session.evaluate(() => (window as unknown as { keysSeen: string[] }).keysSeen);
    expect(typed.filter((k) => /^[/*+-]\//.test(k))).toEqual(['//Slash/191', '-/Minus/189', '*/Digit8/56', '+/Equal/187']);
  });
  it('[HOVER-HINT] a row action shown only while the row is hovered: a click says to hover the row first, and after that hover it lands', async () => {
    await ctx.session.tab.navigate(ctx.page('hover-actions.html'));
    const hidden = await failure(ctx.session.click({ role: 'button', name: 'Archive' }, { timeoutMs: 500 }));
    expect(hidden.reason).toBe('not-visible');
    expect(hidden.message).toMatch(/It shows while the pointer is over <li\.row> "Invoice March.*\(a :hover rule of the page\): hover that first\./);
    await ctx.session.hover({ text: 'Invoice April' });
    await ctx.session.click({ role: 'button', name: 'Archive' });
    await ctx.session.verify.targetText({ label: 'Log' }, 'archived Invoice April');
    // A hidden element no :hover rule shows keeps the usual advice.
    await ctx.session.evaluate(() => document.styleSheets[0]!.insertRule('#log { display: none }'));
    const plain = await failure(ctx.session.click({ label: 'Log' }, { timeoutMs: 300 }));
    expect(plain.message).toContain('Make it visible first');
    expect(plain.message).not.toContain(':hover');
  });
});
