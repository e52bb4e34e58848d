import { describe, expect, it } from 'vitest';
import { bigramSim, hrefSim, iconSim, identSim, identWords, lcs, meaningfulHref, pathSim, setSim, textSim, wordSetSim, words } from '../../../src/extension/content/repair/text.js';

describe('repair text similarity', () => {
  it('splits visible text and identifiers into words', () => {
    expect(words('Send  now!')).toEqual(['send', 'now']);
    expect(identWords('sendButton-2_primary')).toEqual(['send', 'button', '2', 'primary']);
  });

  it('compares word sets, not strings: order and repetition do not matter', () => {
    expect(wordSetSim(['send', 'message'], ['message', 'send'])).toBe(1);
    expect(textSim('Send message', 'Message: send')).toBe(1);
    expect(textSim('Send', 'Send now')).toBeCloseTo(2 / 3, 5);
  });

  it('counts near-equal words (plural, one typo) at 0.8 and ignores unrelated ones', () => {
    expect(wordSetSim(['email'], ['emails'])).toBeCloseTo(0.8, 5);
    expect(wordSetSim(['cancel'], ['delete'])).toBe(0);
  });

  it('weights words by a given rarity', () => {
    const idf = (t: string): number => (t === 'ada' ? 5 : 0.1);
    expect(wordSetSim(['ada', 'edit', 'delete'], ['ada', 'edit', 'delete'], idf)).toBe(1);
    expect(wordSetSim(['ada', 'edit', 'delete'], ['alan', 'edit', 'delete'], idf)).toBeLessThan(0.1);
  });

  it('falls back to bigrams for merged or split words', () => {
    expect(bigramSim('Sign in', 'Signin')).toBe(1);
    expect(textSim('Sign in', 'Signin')).toBeGreaterThan(0.65);
    expect(textSim('Log in', 'Login')).toBeGreaterThan(0.65);
  });

  it('the same letters spaced or punctuated otherwise are nearly the same text', () => {
    expect(textSim('Bass Max', 'BassMax')).toBe(0.95);
    expect(textSim('E-mail', 'Email')).toBe(0.95);
    expect(textSim('Bass Max', 'Bass Mix')).toBeLessThan(0.95);
  });

  it('numbers are words like any other: "Address line 1" is not "Address line 2"', () => {
    expect(textSim('Address line 1', 'Address line 2')).toBeLessThan(0.7);
  });

  it('compares identifiers by their words', () => {
    expect(identSim('send-btn', 'btn-send')).toBeCloseTo(0.95, 5);
    expect(identSim('send', undefined)).toBe(0);
  });

  it('identifiers of one numbered series are two elements, not one renamed', () => {
    expect(identSim('radioPrimary1', 'radioPrimary2')).toBe(0);
    expect(identSim('item-3', 'item_13')).toBe(0);
    // A number added to a renamed id is a rename, not a sibling.
    expect(identSim('add-user', 'add-user_15y')).toBeGreaterThan(0.5);
    expect(identSim('radioPrimary1', 'radio-primary-1')).toBeGreaterThan(0.9);
  });

  it('path similarity is the LCS of tag sequences over the longer one (Healenium)', () => {
    expect(lcs(['a', 'b', 'c'], ['a', 'c'])).toBe(2);
    expect(pathSim('html/body/form/button', 'html/body/main/form/div/button')).toBeCloseTo(4 / 6, 5);
  });

  it('class lists and hrefs', () => {
    expect(setSim(['btn', 'primary'], ['primary', 'btn'])).toBe(1);
    expect(setSim(['btn'], ['link'])).toBe(0);
    expect(hrefSim('https://a.example/users/42', '/users/42')).toBe(1);
  });

  it('an href whose path names nothing is named by its host: a subdomain moved into the path is the same place, another site is not', () => {
    expect(hrefSim('http://blog.creative-tim.com', 'https://www.creative-tim.com/blog')).toBe(1);
    expect(hrefSim('http://www.creative-tim.com', 'https://creative-tim.com/')).toBe(1);
    expect(hrefSim('https://github.com', 'https://twitter.com')).toBe(0);
    expect(hrefSim('https://github.com/', 'https://github.com/orgs/acme')).toBeGreaterThan(0);
    expect(hrefSim('https://github.com/', 'https://github.com/orgs/acme')).toBeLessThanOrEqual(0.5);
    // Without a host the rest must be the same: "#/" is not a site's root, "/" is not "/about".
    expect(hrefSim('#/', 'http://todomvc.com')).toBe(0);
    expect(hrefSim('/', '/about')).toBe(0);
    expect(hrefSim('/', '/')).toBe(1);
  });

  it('placeholder hrefs are no href at all', () => {
    for (const h of ['#', ' #! ', '', 'javascript:void(0)', 'JavaScript:;']) expect(meaningfulHref(h)).toBeUndefined();
    expect(meaningfulHref('#/active')).toBe('#/active');
    expect(meaningfulHref('forgot-password.html')).toBe('forgot-password.html');
  });
});

describe('[RS-ICON] icon similarity', () => {
  it('two pictures of one set are two icons: the family they share says nothing', () => {
    expect(iconSim('social-facebook', 'social-twitter')).toBe(0);
    expect(iconSim('arrow-left', 'arrow-right')).toBe(0);
    expect(iconSim('folder', 'book-open')).toBe(0);
    // As an identifier the shared family word would count.
    expect(identSim('social-facebook', 'social-twitter')).toBeGreaterThan(0.4);
  });

  it('a variant of one picture is read as identifiers are', () => {
    expect(iconSim('twitter', 'twitter')).toBe(1);
    expect(iconSim('facebook', 'facebook-f')).toBe(identSim('facebook', 'facebook-f'));
    expect(iconSim('facebook', 'facebook-f')).toBeGreaterThan(0.5);
    expect(iconSim('folder-open', 'folder')).toBeGreaterThan(0.5);
    expect(iconSim('user caret-down', 'user')).toBeGreaterThan(0);
  });

  it('[RS-PICTURE] a picture\'s file stem is read as an icon\'s name: two badges are two pictures, a logo redrawn white is the logo', () => {
    expect(iconSim('google-play-badge', 'app-store-badge')).toBe(0);
    expect(iconSim('google-play-badge', 'google-play-badge')).toBe(1);
    expect(iconSim('logo', 'logo-white')).toBeGreaterThan(0.5);
    expect(iconSim('logo-dark', 'logo-light')).toBe(0);
  });
});
