import { describe, expect, it } from 'vitest';
import { useSession } from './support/harness.js';

// Shoelace's web components from the registry: a button's label is the host's text shown through
// a slot inside the shadow root's <button>; a checkbox's label is a slot; a dialog draws the host's
// buttons in its footer slot; popups are `display: contents` hosts. One Chrome for the file.
const ctx = useSession({ timeoutMs: 4000 });

async function open(): Promise<void> {
  await ctx.session.tab.navigate(ctx.page('shoelace.html'));
  // The autoloader defines each component as it finds it.
  await ctx.session.verify.exists({ role: 'tab', name: 'Custom' });
  await ctx.session.verify.exists({ role: 'tablist' });
  await ctx.session.verify.exists({ role: 'tabpanel' });
  await ctx.session.verify.exists({ role: 'switch' });
  await ctx.session.verify.exists({ role: 'button', name: 'Edit' });
}

describe('web components (Shoelace)', () => {
  it('[WC-SLOTS] a button whose label is slotted text is clicked (the point hits the host); a dialog’s slotted footer button is within the dialog', async () => {
    await open();
    await ctx.session.click({ role: 'button', name: 'Edit' });
    await ctx.session.click({ role: 'menuitem', name: 'Copy' });
    await ctx.session.verify.targetText({ css: '#last' }, 'menu=copy', { exact: true });
    await ctx.session.click('Open dialog');
    await ctx.session.click({ role: 'button', name: 'Yes', within: 'Confirm' });
    await ctx.session.verify.targetText({ css: '#last' }, 'yes', { exact: true });
  });

  it('[WC-SLOTS] a checkbox and a switch named by their slotted labels, by role and name and by text', async () => {
    await open();
    const terms = await ctx.session.check({ role: 'checkbox', name: 'I accept the terms' });
    expect(terms.element).toMatchObject({ tag: 'input', role: 'checkbox', name: 'I accept the terms' });
    await ctx.session.verify.targetText({ css: '#last' }, 'terms=true', { exact: true });
    await ctx.session.check('Dark mode');
    await ctx.session.verify.targetText({ css: '#last' }, 'dark=true', { exact: true });
    await ctx.session.verify.state({ role: 'switch', name: 'Dark mode' }, 'checked');
  });

  it('[WC-SLOTS] a snapshot shows what renders through display: contents hosts and slots, with names', async () => {
    await open();
    const text = (await ctx.session.snapshot()).text;
    expect(text).toMatch(/^- checkbox "I accept the terms" \[ref=e\d+\]$/m);
    expect(text).toMatch(/^- switch "Dark mode" \[ref=e\d+\]$/m);
    expect(text).toMatch(/^- button "Edit" \[ref=e\d+\]$/m);
    expect(text).toMatch(/^- tablist \[ref=e\d+\]\n {2}- tab "General" \[selected\] \[ref=e\d+\]\n {2}- tab "Custom" \[ref=e\d+\]$/m);
    expect(text).toMatch(/^- tabpanel "General" \[ref=e\d+\]\n {2}- text: "General panel"$/m);
    // The closed dialog's content is not shown.
    expect(text).not.toContain('Are you sure?');
  });

  it('[WC-SLOTTED] light children shown through slots are read and reached where they render: page text, the item around a slotted headline, a hidden slotted panel, a host checkbox\u2019s shadow label', async () => {
    await ctx.session.tab.navigate(ctx.page('slots.html'));
    await ctx.session.verify.text('Slotted paragraph');
    // The headline lies over the menuitem it is slotted into: a click on either lands.
    await ctx.session.click({ role: 'menuitem', name: 'Copy the file' });
    await ctx.session.verify.targetText({ css: '#last' }, 'item copy', { exact: true });
    await ctx.session.evaluate(() => {
      document.getElementById('last')!.textContent = 'none';
    });
    await ctx.session.click('Copy the file');
    await ctx.session.verify.targetText({ css: '#last' }, 'item copy', { exact: true });
    // A slotted panel the page hides is hidden.
    await ctx.session.verify.exists({ text: 'Second panel' }, { negate: true });
    await ctx.session.verify.exists({ text: 'First panel' });
    // The label in the shadow root stands for the host, which is the checkbox.
    await ctx.session.check('I agree');
    await ctx.session.verify.state({ role: 'checkbox', name: 'I agree' }, 'checked');
  });
});
