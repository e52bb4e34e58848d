import { describe, expect, it } from 'vitest';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';
import { refOf } from './support/refOf.js';

const ctx = useSession();

describe('session.snapshot()', () => {
  it('[SNAP-RANGE] an ARIA slider\u2019s line shows its value (aria-valuetext, else aria-valuenow), and follows it', async () => {
    await ctx.session.tab.navigate(ctx.page('slider.html'));
    expect((await ctx.session.snapshot()).text).toMatch(/- slider "Volume" \[ref=e\d+\]: "50"/);
    await ctx.session.drag({ role: 'slider', name: 'Volume' }, { testid: 'track' }, { targetPosition: { x: 300, y: 5 } });
    expect((await ctx.session.snapshot()).text).toMatch(/- slider "Volume" \[ref=e\d+\]: "100"/);
  });

  it('[NAME-GENERATED] a control named only by its stylesheet\u2019s content (Quill\u2019s pickers, from the registry) is named so: found by role and name, and shown so', async () => {
    await ctx.session.tab.navigate(ctx.page('quill.html'));
    await ctx.session.click({ role: 'button', name: 'Normal' });
    const snap = await ctx.session.snapshot();
    expect(snap.text).toMatch(/- button "Heading 1"/);
    await ctx.session.click({ role: 'button', name: 'Heading 1' });
    expect(await ctx.session.evaluate(() => document.querySelector('.ql-editor')!.innerHTML)).toBe('<h1>Hello</h1>');
  });

  it('[SNAP-OUTLINE] [SNAP-ICON] outlines a form with its roles, names, states and values, an open shadow root and a same-origin iframe', async () => {
    await ctx.session.tab.navigate(ctx.page('snapshot-form.html'));
    await ctx.session.verify.exists({ label: 'Card number', frame: 'billing' });
    const snap = await ctx.session.snapshot();
    const text = snap.text;
    expect(snap.title).toBe('Snapshot form');
    expect(snap.truncated).toBe(false);
    expect(text).toMatch(/^- heading "Sign up" \[level=1\] \[ref=e\d+\]$/m);
    expect(text).toMatch(/^- form "Sign up" \[ref=e\d+\]$/m);
    expect(text).not.toMatch(/label|text: "Email"/);
    expect(text).toMatch(/^ {2}- textbox "Email" \[required\] \[ref=e\d+\]: "ana@example.com"$/m);
    // A password's value is never shown.
    expect(text).toMatch(/^ {2}- textbox "Password" \[ref=e\d+\]: \(a password, not shown\)$/m);
    expect(text).not.toContain('hunter2');
    expect(text).toMatch(/^ {2}- checkbox "Newsletter" \[checked\] \[ref=e\d+\]$/m);
    expect(text).toMatch(/^ {2}- combobox "Plan.*" \[ref=e\d+\]: "Pro"$/m);
    expect(text).toMatch(/^ {2}- button "Create account" \[disabled\] \[ref=e\d+\]$/m);
    // The shadow tree is outlined where it renders.
    expect(text).toMatch(/^- group "Picker" \[ref=e\d+\]\n {2}- button "Pick Pro" \[ref=e\d+\]$/m);
    // The iframe's document is nested under its line.
    expect(text).toMatch(/^- iframe "Billing" \[ref=e\d+\]\n {2}- textbox "Card number" \[ref=e\d+\]$/m);
    expect(text).toContain('- text: "Not paid"');
    expect(text).not.toContain('Hidden text');
    // [SNAP-ICON] Controls that say nothing are told apart by the icon they show.
    expect(text).toMatch(/^- toolbar "Card tools" \[ref=e\d+\]\n {2}- button \[icon="dash-lg"\] \[ref=e\d+\]\n {2}- button \[icon="x-lg"\] \[ref=e\d+\]$/m);
    expect(snap.refs).toBe(text.match(/\[ref=e\d+\]/g)!.length);
    expect(snap.lines).toBe(text.split('\n').length);
  });

  it('[SNAP-REF] a ref is a target: a button in a shadow root and a field and a button in an iframe, by ref', async () => {
    const first = (await ctx.session.snapshot()).text;
    const pick = refOf(first, /button "Pick Pro"/);
    await ctx.session.click({ ref: pick });
    await ctx.session.verify.targetText({ css: '#shadow-count' }, '1');
    // The same element keeps its ref in the next snapshot.
    const second = (await ctx.session.snapshot()).text;
    expect(refOf(second, /button "Pick Pro"/)).toBe(pick);
    await ctx.session.type({ ref: refOf(second, /textbox "Card number"/) }, '4242');
    await ctx.session.click({ ref: refOf(second, /button "Pay"/) });
    await ctx.session.verify.targetText({ css: '#paid', frame: 'billing' }, 'Paid');
    await ctx.session.verify.value({ label: 'Card number', frame: 'billing' }, '4242');
    expect((await ctx.session.snapshot()).text).toMatch(/textbox "Card number" \[focused\] \[ref=e\d+\]: "4242"|textbox "Card number" \[ref=e\d+\]: "4242"/);
  });

  it('[SNAP-REF-STALE] a ref from before a reload fails at once as not-found, saying to take a new snapshot', async () => {
    const text = (await ctx.session.snapshot()).text;
    const pick = refOf(text, /button "Pick Pro"/);
    await ctx.session.tab.navigate(ctx.page('snapshot-form.html'));
    const started = Date.now();
    const error = await failure(ctx.session.click({ ref: pick }, { timeoutMs: 4_000 }));
    expect(error.reason).toBe('not-found');
    expect(error.message).toMatch(/Take a new snapshot/);
    expect(Date.now() - started).toBeLessThan(3_000);
    const bad = await failure(ctx.session.click({ ref: 'e1', text: 'Pick Pro' } as never));
    expect(bad.message).toMatch(/names its element alone/);
  });

  it('[SNAP-BOUNDED] a big page is cut at maxLines, and the last line says how much was left out', async () => {
    await ctx.session.tab.navigate(ctx.page('big.html'));
    const snap = await ctx.session.snapshot({ maxLines: 50 });
    expect(snap.truncated).toBe(true);
    const lines = snap.text.split('\n');
    expect(lines).toHaveLength(51);
    expect(lines[50]).toMatch(/^- … \d+ more line\(s\) not shown \(the snapshot stops at 50 lines/);
  });
});
