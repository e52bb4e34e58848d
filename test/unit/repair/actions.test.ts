import { describe, expect, it } from 'vitest';
import type { Descriptor } from '../../../src/sdk/protocol/descriptor.js';
import { ACTIONS, AGAIN, actionsSaid, anotherAction, anotherActionReason, isTextField, saysAgain } from '../../../src/extension/content/repair/actions.js';
import { ACT_AT, DRIFTED_AT, RENAMED_AND_MOVED_AT_MOST, checkExactMatch, rankCandidates, verdict } from '../../../src/extension/content/repair/index.js';

const button = (name: string, more: Partial<Descriptor> = {}): Descriptor => ({
  v: 1,
  tag: 'button',
  role: 'button',
  name,
  text: name,
  type: 'button',
  context: { heading: 'Settings' },
  near: 'Settings Theme Light',
  path: 'html/body/main/button',
  xpath: '/html[1]/body[1]/main[1]/button[1]',
  rect: { x: 8, y: 120, width: 110, height: 21 },
  page: { width: 1280, height: 900 },
  ...more,
});

describe('[RS-ANOTHER-ACTION] what an action element\u2019s name says it does', () => {
  it('reads words and two-word phrases, as written', () => {
    expect(actionsSaid('Reset settings').map((s) => [s.action, s.words])).toEqual([['reset', 'Reset']]);
    expect(actionsSaid('LOG OUT now').map((s) => [s.action, s.words])).toEqual([['sign out', 'LOG OUT']]);
    expect(actionsSaid('Sign in')[0]!.action).toBe(actionsSaid('Log in')[0]!.action);
    expect(actionsSaid('Settings')).toEqual([]);
    // One word, one action: the vocabulary names each word once.
    const all = ACTIONS.flatMap((a) => a.says);
    expect(new Set(all).size).toBe(all.length);
  });

  it('a name that gains another action is another element; renames of one action are not', () => {
    const save = button('Save settings');
    expect(anotherAction(save, button('Reset settings'))).toEqual({ now: 'Reset', was: 'Save', wasAction: true });
    expect(anotherAction(save, button('Delete settings'))?.now).toBe('Delete');
    expect(anotherAction(button('Add item'), button('Remove item'))?.now).toBe('Remove');
    expect(anotherAction(button('Enable sync'), button('Disable sync'))?.now).toBe('Disable');
    expect(anotherAction(button('Subscribe'), button('Unsubscribe'))?.now).toBe('Unsubscribe');
    expect(anotherAction(button('Accept'), button('Decline'))?.now).toBe('Decline');
    expect(anotherAction(button('Open'), button('Close'))?.now).toBe('Close');
    expect(anotherAction(button('Buy now'), button('Cancel now'))?.now).toBe('Cancel');
    // A destructive action the remembered name never said, though it said no action of its own.
    expect(anotherAction(button('Settings'), button('Clear settings'))).toEqual({ now: 'Clear', was: 'Settings', wasAction: false });
    // Renames within one action, and names that say no listed action, stay repairable.
    expect(anotherAction(button('Sign in'), button('Log in'))).toBeUndefined();
    expect(anotherAction(button('Submit'), button('Send'))).toBeUndefined();
    expect(anotherAction(button('Sign up!'), button('Submit'))).toBeUndefined();
    expect(anotherAction(button('Submit'), button('Reset'))?.now).toBe('Reset');
    expect(anotherAction(button('Send Message'), button('Submit'))).toBeUndefined();
    expect(anotherAction(button('SUBSCRIBE'), button('NOTIFY ME!'))).toBeUndefined();
    expect(anotherAction(button('Delete'), button('Remove'))).toBeUndefined();
    expect(anotherAction(button('Clear completed'), button('Remove completed'))).toBeUndefined();
    expect(anotherAction(button('Add to cart'), button('Add to bag'))).toBeUndefined();
    expect(anotherAction(button('Sign Up!'), button('Choose plan'))).toBeUndefined();
    // A heading's text is what it is, not what it does.
    expect(anotherAction({ ...button('Settings'), tag: 'h1', role: 'heading' }, { ...button('Reset settings'), tag: 'h1', role: 'heading' })).toBeUndefined();
  });

  it('a replacement that says another action is proposed at most, with the words, never acted on', () => {
    const save = button('Save settings');
    const reset = button('Reset settings');
    const theme = { ...button('Theme Light'), tag: 'label', role: '', type: undefined, xpath: '/html[1]/body[1]/main[1]/label[1]', path: 'html/body/main/label' };
    const ranked = rankCandidates(save, [reset, theme].map((descriptor) => ({ ref: descriptor.xpath, descriptor })));
    expect(ranked[0]!.descriptor).toBe(reset);
    expect(ranked[0]!.score).toBeLessThanOrEqual(RENAMED_AND_MOVED_AT_MOST);
    expect(ranked[0]!.score).toBeGreaterThanOrEqual(DRIFTED_AT);
    const v = verdict(save, ranked);
    expect(v.kind).toBe('drifted');
    expect(v.kind === 'drifted' && v.action).toEqual({ now: 'Reset', was: 'Save', wasAction: true });
    // The same page with the button renamed within its action is acted on.
    const stored = rankCandidates(save, [button('Store settings'), theme].map((descriptor) => ({ ref: descriptor.xpath, descriptor })));
    expect(stored[0]!.score).toBeGreaterThanOrEqual(ACT_AT);
    expect(verdict(save, stored).kind).toBe('found');
  });
});

// A register form's fields as AdminLTE 3.2 and 4.0 describe them (the release pair of the corpus,
// batch 5): 4.0 dropped "Retype password".
const field = (name: string, y: number, more: Partial<Descriptor> = {}): Descriptor => ({
  v: 1,
  tag: 'input',
  role: 'textbox',
  name,
  placeholder: name,
  type: name.toLowerCase().includes('password') ? 'password' : 'text',
  cls: ['form-control'],
  near: 'I agree to the terms Register',
  path: 'html/body/div/div/div/form/div/input',
  xpath: `/html[1]/body[1]/div[1]/div[2]/div[1]/form[1]/div[${Math.round(y / 54)}]/input[1]`,
  rect: { x: 480, y, width: 296, height: 38 },
  page: { width: 1280, height: 900 },
  ...more,
});

describe('[RS-ANOTHER-FIELD] a field that repeats another field\u2019s value is another field', () => {
  it('reads the words that say so, in text fields only', () => {
    expect(saysAgain('Retype password')).toBe('Retype');
    expect(saysAgain('Password confirmation')).toBe('confirmation');
    expect(saysAgain('Re-enter your email')).toBe('Re-enter');
    expect(saysAgain('Password')).toBeUndefined();
    expect(new Set(AGAIN).size).toBe(AGAIN.length);
    expect(isTextField(field('Password', 400))).toBe(true);
    expect(isTextField({ ...field('Remember me', 400), type: 'checkbox', role: 'checkbox' })).toBe(false);
    expect(isTextField({ ...field('Note', 400), tag: 'textarea', role: 'textbox', type: undefined })).toBe(true);
  });

  it('a removed "Retype password" is never repaired to "Password", nor "Email" to "Confirm email"; both or neither saying it is no concern of the rule', () => {
    const retype = field('Retype password', 455);
    const now = [field('Full name', 313), field('Email', 367), field('Password', 421)];
    const ranked = rankCandidates(retype, now.map((descriptor) => ({ ref: descriptor.xpath, descriptor })));
    expect(ranked[0]!.descriptor.name).toBe('Password');
    expect(ranked[0]!.score).toBeLessThanOrEqual(RENAMED_AND_MOVED_AT_MOST);
    const v = verdict(retype, ranked);
    expect(v.kind).not.toBe('found');
    expect(v.kind === 'drifted' && v.action?.again).toEqual({ words: 'Retype', remembered: true });
    expect(anotherActionReason(anotherAction(retype, field('Password', 421))!)).toMatch(/"Password" does not say "Retype" as the remembered "Retype password" did/);
    // The other way round: the field that repeats is not the one it repeats.
    const email = field('Email', 367);
    const confirm = anotherAction(email, field('Confirm email', 421));
    expect(confirm?.again).toEqual({ words: 'Confirm', remembered: false });
    expect(anotherActionReason(confirm!)).toMatch(/"Confirm email" says "Confirm": it repeats another field/);
    // An exact target that now finds the field the remembered one repeated (a substring of its
    // placeholder, say) is refused as another action is.
    const password = now[2]!;
    expect(checkExactMatch(retype, { ref: password, descriptor: password, key: 'password', place: '' }, () => [])).toMatchObject({ ok: false, why: 'action' });
    expect(checkExactMatch(retype, { ref: retype, descriptor: retype, key: 'retype password', place: '' }, () => []).ok).toBe(true);
    // Both or neither saying it: no concern of this rule.
    expect(anotherAction(retype, field('Confirm password', 455))).toBeUndefined();
    expect(anotherAction(field('Password', 421), field('Your password', 421))).toBeUndefined();
  });
});

describe('[RS-REPAIR-ROLE] a target that names a role', () => {
  it('takes no element of another role as a candidate or a rival', () => {
    const signIn = { ...button('Sign in'), type: 'submit', context: { heading: 'Sign in' }, near: 'Sign in Username' };
    const logIn = { ...signIn, name: 'Log in', text: 'Log in' };
    const h1: Descriptor = { v: 1, tag: 'h1', role: 'heading', name: 'Sign in', text: 'Sign in', path: 'html/body/main/h1', xpath: '/html[1]/body[1]/main[1]/h1[1]', rect: { x: 8, y: 21, width: 600, height: 37 }, page: { width: 1280, height: 900 } };
    const cands = [logIn, h1].map((descriptor) => ({ ref: descriptor.xpath, descriptor }));
    const any = rankCandidates(signIn, cands);
    expect(any.map((r) => r.descriptor.tag)).toEqual(['button', 'h1']);
    const buttons = rankCandidates(signIn, cands, { role: 'button' });
    expect(buttons.map((r) => r.descriptor.tag)).toEqual(['button']);
  });
});
