import type { Descriptor } from 'aite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageHarness, type TestPage } from './support/harness.js';

const h = new PageHarness();
let t: TestPage;

beforeAll(async () => {
  await h.start();
  t = await h.open('targets.html');
});
afterAll(() => h.stop());

type Resolved = { descriptor: Descriptor; matches: number; repaired: boolean; via: string };

async function resolved(target: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Resolved> {
  return (await t.ok({ cmd: 'resolve', target, timeoutMs: 1000, ...extra } as never)) as unknown as Resolved;
}

describe('resolve: target kinds', () => {
  it('text: whole text first (case ignored), promoted from the span to its button', async () => {
    const a = await resolved({ text: 'send' });
    expect(a).toMatchObject({ id: 1, ok: true, matches: 1, repaired: false, via: 'exact' });
    expect(a.descriptor).toMatchObject({ v: 1, tag: 'button', id: 'send', text: 'Send', role: 'button', name: 'Send' });
    expect(a.descriptor.handle).toMatch(/^[0-9a-f]{12}:\d+$/);
  });

  it('text: a part of the text when no whole match exists; the deepest element wins', async () => {
    expect((await resolved({ text: 'Ann' })).descriptor).toMatchObject({ tag: 'b' });
    expect((await resolved({ text: 'welcome back' })).descriptor).toMatchObject({ tag: 'p', id: 'welcome' });
    expect((await resolved({ text: 'lots of space' })).descriptor).toMatchObject({ id: 'spaced' });
  });

  it('text with exact: whole and case-sensitive', async () => {
    expect((await resolved({ text: 'Case Sensitive', exact: true })).descriptor.id).toBe('case');
    const f = await t.fail({ cmd: 'resolve', target: { text: 'case sensitive', exact: true }, timeoutMs: 200 });
    expect(f.reason).toBe('not-found');
    const part = await t.fail({ cmd: 'resolve', target: { text: 'Case', exact: true }, timeoutMs: 200 });
    expect(part.reason).toBe('not-found');
  });

  it('text matches a submit input by its value', async () => {
    expect((await resolved({ text: 'Submit order' })).descriptor).toMatchObject({ tag: 'input', id: 'submit-input', type: 'submit' });
  });

  it('role and name (implicit roles, name from content, whole name preferred)', async () => {
    expect((await resolved({ role: 'button', name: 'Send' })).descriptor.id).toBe('send');
    expect((await resolved({ role: 'link', name: 'shop' })).descriptor.href).toBe('/shop');
    expect((await resolved({ role: 'checkbox', name: 'I accept the terms' })).descriptor.id).toBe('terms');
    expect((await resolved({ role: 'checkbox', name: 'Fancy box' })).descriptor.id).toBe('fancy');
    expect((await resolved({ role: 'navigation' })).descriptor.tag).toBe('nav');
    expect((await resolved({ role: 'combobox', name: 'Colour' })).descriptor.id).toBe('colour');
    expect((await resolved({ name: 'Phone number' })).descriptor.id).toBe('phone');
  });

  it('[TARGET-REGEX] a pattern ({ regex, flags }) in text, name, label or placeholder: any match counts, tested on the folded text; the text still belongs to its innermost element and its control', async () => {
    expect((await resolved({ text: { regex: '^sEnD$', flags: 'i' } })).descriptor).toMatchObject({ tag: 'button', id: 'send' });
    expect((await resolved({ role: 'button', name: { regex: '^Se.d$' } })).descriptor.id).toBe('send');
    expect((await resolved({ label: { regex: 'e-?mail', flags: 'i' } })).descriptor.id).toBe('email');
    expect((await resolved({ placeholder: { regex: '^Jane' } })).descriptor.id).toBe('fullname');
    expect((await resolved({ label: { regex: '^Passphrase \\*$' } })).descriptor.id).toBe('pass');
    // exact does not narrow a pattern; a pattern that matches two is ambiguous, one that matches none not-found, named as written.
    expect((await resolved({ label: { regex: 'passphrase', flags: 'i' }, exact: true, nth: 1 })).descriptor.id).toBe('pass2');
    expect((await t.fail({ cmd: 'resolve', target: { label: { regex: 'passphrase', flags: 'i' } }, timeoutMs: 200 })).reason).toBe('ambiguous');
    const none = await t.fail({ cmd: 'resolve', target: { role: 'button', name: { regex: '^Zzz', flags: 'i' } }, timeoutMs: 200 });
    expect(none.reason).toBe('not-found');
    expect(none.message).toContain('role button named /^Zzz/i');
  });

  it('[TARGET-MARKS] a field\u2019s marks after its words (a required star, a hidden "(required)", a colon) do not make its label a part match', async () => {
    expect((await resolved({ label: 'Passphrase' })).descriptor.id).toBe('pass');
    expect((await resolved({ label: 'confirm passphrase' })).descriptor.id).toBe('pass2');
    expect((await resolved({ label: 'Organisation' })).descriptor.id).toBe('org');
    expect((await resolved({ label: 'Parent organisation' })).descriptor.id).toBe('org2');
    expect((await resolved({ role: 'textbox', name: 'Organisation' })).descriptor.id).toBe('org');
    // exact stays exact; words that only start a label are still a part of it.
    expect((await t.fail({ cmd: 'resolve', target: { label: 'Passphrase', exact: true }, timeoutMs: 200 })).reason).toBe('not-found');
    expect((await t.fail({ cmd: 'resolve', target: { label: 'organ' }, timeoutMs: 200 })).reason).toBe('ambiguous');
  });

  it('label: <label for>, wrapping label, aria-label, aria-labelledby', async () => {
    expect((await resolved({ label: 'Email address' })).descriptor.id).toBe('email');
    expect((await resolved({ label: 'full name' })).descriptor.id).toBe('fullname');
    expect((await resolved({ label: 'Phone number' })).descriptor.id).toBe('phone');
    expect((await resolved({ label: 'City' })).descriptor.id).toBe('city');
    expect((await resolved({ label: 'Colour' })).descriptor.id).toBe('colour');
  });

  it('label inside a shadow root, and a label added since the last look', async () => {
    await t.page.evaluate(() => {
      const host = document.createElement('div');
      host.id = 'label-host';
      document.body.append(host);
      host.attachShadow({ mode: 'open' }).innerHTML =
        '<label for="sh-for">Shadow for</label><input id="sh-for"><label>Shadow wrap <input id="sh-wrap"></label><input id="sh-aria" aria-label="Shadow aria"><span id="sh-name">Shadow named</span><input id="sh-by" aria-labelledby="sh-name">';
    });
    try {
      for (const [label, id] of [['Shadow for', 'sh-for'], ['shadow wrap', 'sh-wrap'], ['Shadow aria', 'sh-aria'], ['Shadow named', 'sh-by']]) {
        expect((await resolved({ label })).descriptor.id, label).toBe(id);
      }
      await t.page.evaluate(() => {
        document.getElementById('label-host')!.shadowRoot!.getElementById('sh-aria')!.setAttribute('aria-label', 'Renamed aria');
        document.getElementById('label-host')!.insertAdjacentHTML('afterend', '<label for="late-field">Late label</label><input id="late-field">');
      });
      expect((await resolved({ label: 'Renamed aria' })).descriptor.id).toBe('sh-aria');
      expect((await resolved({ label: 'Late label' })).descriptor.id).toBe('late-field');
    } finally {
      await t.page.evaluate(() => {
        document.getElementById('label-host')!.remove();
        document.querySelector('label[for="late-field"]')!.remove();
        document.getElementById('late-field')!.remove();
      });
    }
  });

  it('placeholder, testid, css, xpath', async () => {
    expect((await resolved({ placeholder: 'you@example.com' })).descriptor.id).toBe('email');
    expect((await resolved({ placeholder: 'jane' })).descriptor.id).toBe('fullname');
    expect((await resolved({ testid: 'notes-field' })).descriptor.id).toBe('notes');
    expect((await resolved({ css: '#list .item:nth-child(2)' })).descriptor.text).toBe('Banana');
    expect((await resolved({ xpath: '//li[text()="Cherry"]' })).descriptor.text).toBe('Cherry');
  });

  it('keys narrow each other', async () => {
    expect((await resolved({ css: '.item', text: 'banana' })).descriptor.text).toBe('Banana');
    expect((await resolved({ testid: 'card', text: 'two' })).descriptor.text).toBe('Card two');
    const f = await t.fail({ cmd: 'resolve', target: { css: '.item', text: 'Durian' }, timeoutMs: 200 });
    expect(f.reason).toBe('not-found');
  });

  it('css, testid and text reach into open shadow roots; xpath of a shadow element uses #shadow-root', async () => {
    const byCss = await resolved({ css: '#shadow-btn' });
    expect(byCss.descriptor).toMatchObject({ tag: 'button', text: 'Shadow action', testid: 'shadow-btn' });
    expect(byCss.descriptor.xpath).toBe('/html/body/div[4]/#shadow-root/div/button'); // the 4th div of body is the host
    expect(byCss.descriptor.path).toBe('html/body/div/#shadow-root/div/button');
    expect(byCss.descriptor.context?.heading).toBe('Shadow heading');
    expect((await resolved({ text: 'Shadow action' })).descriptor.xpath).toBe(byCss.descriptor.xpath);
    expect((await resolved({ testid: 'shadow-btn' })).descriptor.xpath).toBe(byCss.descriptor.xpath);
    expect((await resolved({ role: 'button', name: 'shadow action' })).descriptor.xpath).toBe(byCss.descriptor.xpath);
    expect((await resolved({ xpath: byCss.descriptor.xpath })).descriptor.handle).toBe(byCss.descriptor.handle);
    // Slotted light-DOM text counts as the host's text, and is itself findable.
    expect((await resolved({ text: 'Slotted text' })).descriptor.id).toBe('slotted');
  });

  it('frame: a same-origin iframe by name, id or css; the descriptor remembers the frame', async () => {
    for (const frame of ['innerframe', 'inner', 'iframe[src="frame.html"]']) {
      const a = await resolved({ text: 'Frame button', frame });
      expect(a.descriptor).toMatchObject({ tag: 'button', id: 'frame-btn', frame, xpath: '/html/body/button' });
    }
    // Without `frame` the iframe is not searched.
    expect((await t.fail({ cmd: 'resolve', target: { text: 'Frame button' }, timeoutMs: 200 })).reason).toBe('not-found');
    const noFrame = await t.fail({ cmd: 'resolve', target: { text: 'x', frame: 'nope' }, timeoutMs: 200 });
    expect(noFrame.reason).toBe('not-found');
    expect(noFrame.message).toMatch(/No iframe has the name, id, title or css "nope"/);
  });

  it('within a region: a dialog by its label, a form by its heading, a nested target', async () => {
    const all = await t.fail({ cmd: 'resolve', target: { text: 'Confirm' }, timeoutMs: 300 });
    expect(all.reason).toBe('ambiguous');
    expect((await resolved({ text: 'Confirm', within: 'Review send' })).descriptor.context?.region).toBe('Review send');
    expect((await resolved({ text: 'Confirm', within: 'other form' })).descriptor.xpath).toContain('form');
    expect((await resolved({ text: 'Confirm', within: { css: '#review' } })).descriptor.context?.region).toBe('Review send');
    expect((await resolved({ role: 'link', within: 'Main menu', nth: 1 })).descriptor.text).toBe('Shop');
    const missing = await t.fail({ cmd: 'resolve', target: { text: 'Confirm', within: 'No such dialog' }, timeoutMs: 200 });
    expect(missing.reason).toBe('not-found');
    expect(missing.message).toMatch(/No visible dialog, section, form, fieldset or landmark is named "No such dialog".*no list item, table or grid row, or card says it/);
    const ambiguousWithin = await t.fail({ cmd: 'resolve', target: { text: 'Confirm', within: { css: '.card' } }, timeoutMs: 300 });
    expect(ambiguousWithin.reason).toBe('ambiguous');
  });

  it('nth picks among the visible matches and still reports their count', async () => {
    const a = await resolved({ css: '.item', nth: 2 });
    expect(a).toMatchObject({ matches: 3 });
    expect(a.descriptor.text).toBe('Cherry');
    const cards = await resolved({ testid: 'card', nth: 1 });
    expect(cards.matches).toBe(2); // the hidden third card does not count
    const tooFew = await t.fail({ cmd: 'resolve', target: { css: '.item', nth: 5 }, timeoutMs: 200 });
    expect(tooFew).toMatchObject({ reason: 'not-found', detail: { matches: 3 } });
    expect(tooFew.message).toMatch(/matches only 3 visible elements/);
  });
});

describe('resolve: failures', () => {
  it('ambiguous lists at most 10 candidates with descriptors, once the DOM is quiet', async () => {
    const f = await t.fail({ cmd: 'resolve', target: { css: '.item' }, timeoutMs: 2000 });
    expect(f.reason).toBe('ambiguous');
    const detail = f.detail as { target: unknown; matches: number; candidates: { descriptor: Descriptor }[] };
    expect(detail.target).toEqual({ css: '.item' });
    expect(detail.matches).toBe(3);
    expect(detail.candidates.map((c) => c.descriptor.text)).toEqual(['Apple', 'Banana', 'Cherry']);
    expect(f.message).toMatch(/matches 3 visible elements: <li.item> "Apple", <li.item> "Banana", <li.item> "Cherry"/);
    const many = await t.page.evaluate(() => {
      const ul = document.createElement('ul');
      ul.id = 'many';
      for (let i = 0; i < 15; i++) ul.insertAdjacentHTML('beforeend', `<li class="many">Row ${i}</li>`);
      document.body.append(ul);
    });
    void many;
    const f15 = await t.fail({ cmd: 'resolve', target: { css: '.many' }, timeoutMs: 2000 });
    expect((f15.detail as { candidates: unknown[]; matches: number }).candidates).toHaveLength(10);
    expect((f15.detail as { matches: number }).matches).toBe(15);
    // The message names 3 of the 15 and counts the rest, not the rest of the 10 candidates.
    expect(f15.message).toMatch(/matches 15 visible elements: <li\.many> "Row 0", <li\.many> "Row 1", <li\.many> "Row 2" and 12 more\./);
    await t.page.evaluate(() => document.getElementById('many')?.remove());
  });

  it('ambiguous matches that read alike are told apart by where they stand: a row, a region, else the heading they are under', async () => {
    await t.page.evaluate(() => {
      const box = document.createElement('div');
      box.id = 'alike';
      box.innerHTML =
        '<section aria-label="Basket"><button class="alike">Drop</button></section>' +
        '<table><tr><td>Pear</td><td><button class="alike">Drop</button></td></tr></table>' +
        '<button class="alike">Drop</button>';
      document.body.append(box);
    });
    const f = await t.fail({ cmd: 'resolve', target: { css: '.alike' }, timeoutMs: 1000 });
    expect(f.reason).toBe('ambiguous');
    expect(f.message).toMatch(/matches 3 visible elements: <button\.alike> "Drop" in "Basket", <button\.alike> "Drop" in row "Pear Drop", <button\.alike> "Drop" under "Other form"\./);
    // Two alike in one region: where they are tells nothing, so they are listed as they read.
    await t.page.evaluate(() => {
      document.querySelector('#alike table')?.remove();
      document.querySelector('#alike > button')?.remove();
      document.querySelector('#alike section')?.insertAdjacentHTML('beforeend', '<button class="alike">Drop</button>');
    });
    const same = await t.fail({ cmd: 'resolve', target: { css: '.alike' }, timeoutMs: 1000 });
    expect(same.message).toMatch(/matches 2 visible elements: <button\.alike> "Drop", <button\.alike> "Drop"\. Add/);
    await t.page.evaluate(() => document.getElementById('alike')?.remove());
  });

  it('not-visible when only hidden elements match: display none, visibility hidden, closed details', async () => {
    for (const [text, why] of [
      ['Secret', /display: none/],
      ['Ghost', /visibility: hidden/],
      ['Tucked away', /closed <details>/],
    ] as const) {
      const f = await t.fail({ cmd: 'resolve', target: { text }, timeoutMs: 200 });
      expect(f.reason).toBe('not-visible');
      expect(f.message).toMatch(why);
      expect(f.detail).toMatchObject({ target: { text }, matches: 0, hidden: 1 });
      // The message counts as the detail does: no visible element, one hidden.
      expect(f.message).toMatch(/ matches 1 hidden element and no visible one: /);
    }
  });

  it('not-found names the target and says what to do', async () => {
    const f = await t.fail({ cmd: 'resolve', target: { role: 'button', name: 'Nope' }, timeoutMs: 150 });
    expect(f).toMatchObject({ id: 1, ok: false, reason: 'not-found', detail: { target: { role: 'button', name: 'Nope' } } });
    expect(f.message).toBe('No element matches role button named "Nope" (waited 150 ms). Check the target against the page, or raise timeoutMs if it appears later.');
  });

  it('[LABEL-CONTROL] a label that names a control and the popup its widget labels too names the control; an aria-hidden native element gives way to the widget\u2019s own; two fields stay ambiguous', async () => {
    const page = await h.open('labelled.html');
    const id = async (target: Record<string, unknown>): Promise<string | undefined> => ((await page.ok({ cmd: 'resolve', target, timeoutMs: 500 } as never)) as unknown as Resolved).descriptor.id;
    expect(await id({ label: 'Country' })).toBe('country');
    expect(await id({ label: 'Framework' })).toBe('framework-trigger');
    const twice = await page.fail({ cmd: 'resolve', target: { label: 'Twice' }, timeoutMs: 300 });
    expect(twice.reason).toBe('ambiguous');
    // A role says which one was meant.
    expect(await id({ label: 'Country', role: 'listbox' })).toBe('country-list');
    // A host that carries its inner input's placeholder gives way to the input.
    expect(await id({ placeholder: 'City' })).toBe('control');
    await page.close();
  });

  it('[CHECK-LABEL] a checkbox whose input is hidden and whose label draws it is reached through its label, which answers its state', async () => {
    const page = await h.open('labelled.html');
    const found = (await page.ok({ cmd: 'resolve', target: { label: 'Notifications' }, prepare: 'click', timeoutMs: 500 } as never)) as unknown as Resolved & { point: { kind?: string; checked?: boolean } };
    expect(found.descriptor).toMatchObject({ tag: 'label', id: 'notify-label' });
    expect(found.point).toMatchObject({ kind: 'checkbox', checked: false });
    await page.ok({ cmd: 'verify', kind: 'state', target: { role: 'checkbox', name: 'Notifications' }, state: 'unchecked', timeoutMs: 500 } as never);
    await page.close();
  });

  it('[ROLE-NEAR] a not-found by role names an element of a near role that matches the rest (a link for a button, a cell for a gridcell)', async () => {
    const f = await t.fail({ cmd: 'resolve', target: { role: 'button', name: 'shop' }, timeoutMs: 150 });
    expect(f).toMatchObject({ reason: 'not-found', detail: { nearRole: 'link' } });
    expect(f.message).toMatch(/^No element matches role button named "shop" \(waited 150 ms\), but <a> "Shop" has role link and matches the rest: use role "link" if it is the one\.$/);
    const none = await t.fail({ cmd: 'resolve', target: { role: 'link', name: 'Nope at all' }, timeoutMs: 150 });
    expect(none.detail).not.toHaveProperty('nearRole');
  });

  it('bad css and xpath are refused at once as unsupported', async () => {
    const css = await t.fail({ cmd: 'resolve', target: { css: 'div[' }, timeoutMs: 3000 });
    expect(css.reason).toBe('unsupported');
    expect(css.message).toMatch(/not valid CSS/);
    const xp = await t.fail({ cmd: 'resolve', target: { xpath: '//div[' }, timeoutMs: 3000 });
    expect(xp.reason).toBe('unsupported');
  });
});

describe('resolve: waiting', () => {
  it('waits for an element that appears later (re-checked on DOM changes)', async () => {
    await t.page.evaluate(() => {
      setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<button id="late">Late button</button>'), 300);
    });
    const start = Date.now();
    const a = await resolved({ text: 'Late button' }, { timeoutMs: 3000 });
    expect(a.descriptor.id).toBe('late');
    expect(Date.now() - start).toBeLessThan(1500);
  });

  it('waits for ambiguity to resolve while the DOM keeps changing', async () => {
    await t.page.evaluate(() => {
      document.body.insertAdjacentHTML('beforeend', '<div class="dup">Twin</div><div class="dup" id="twin2">Twin</div>');
      setTimeout(() => document.getElementById('twin2')?.remove(), 50);
    });
    const a = await resolved({ css: '.dup' }, { timeoutMs: 2000 });
    expect(a.matches).toBe(1);
  });

  it('sees content added to a shadow root (not a document mutation)', async () => {
    await t.page.evaluate(() => {
      setTimeout(() => {
        document.getElementById('host')!.shadowRoot!.querySelector('.shadow-wrap')!.insertAdjacentHTML('beforeend', '<b id="shadow-late">Shadow late</b>');
      }, 200);
    });
    expect((await resolved({ text: 'Shadow late' }, { timeoutMs: 3000 })).descriptor.id).toBe('shadow-late');
  });
});

describe('resolve: descriptor', () => {
  it('records what repair needs: label, context heading/region/row, path, xpath, rect', async () => {
    const email = (await resolved({ label: 'Email address' })).descriptor;
    expect(email).toMatchObject({
      tag: 'input',
      role: 'textbox',
      name: 'Email address',
      id: 'email',
      nameAttr: 'email',
      type: 'email',
      placeholder: 'you@example.com',
      label: 'Email address',
      context: { heading: 'Forms', region: 'Forms' },
      path: 'html/body/section/input',
    });
    expect(email.xpath).toBe('/html/body/section[2]/input[1]'); // indexed: the section holds several inputs
    expect(email.rect).toMatchObject({ x: expect.any(Number), y: expect.any(Number) });
    expect(email.rect!.width).toBeGreaterThan(0);
    expect(email.text).toBeUndefined(); // a control's value is not its text

    // Nearest text on the same row labels an unlabelled input.
    expect((await resolved({ css: '#promo' })).descriptor.label).toBe('Promo code');
    // A checkbox in a table: the column header is its label, the row's text its context.
    const alice = (await resolved({ css: '#alice-active' })).descriptor;
    expect(alice).toMatchObject({ label: 'Active', context: { row: 'Alice' } });
    // Text after a checkbox labels it when there is no <label>.
    expect((await resolved({ css: '#terms' })).descriptor.label).toBe('I accept the terms');
    // A link's text and href.
    expect((await resolved({ text: 'Home' })).descriptor).toMatchObject({ tag: 'a', href: '/home', text: 'Home', context: { region: 'Main menu' } });
  });

  it('text is cut to 200 characters', async () => {
    await t.page.evaluate(() => document.body.insertAdjacentHTML('beforeend', `<p id="long">${'word '.repeat(100)}</p>`));
    const d = (await resolved({ css: '#long' })).descriptor;
    expect(d.text!.length).toBe(200);
  });

  it('an element gets the same handle each time; a reload gives another document id', async () => {
    const a = (await resolved({ css: '#send' })).descriptor.handle!;
    const b = (await resolved({ text: 'Send' })).descriptor.handle!;
    expect(a).toBe(b);
    const other = await h.open('targets.html');
    const c = (await other.ok({ cmd: 'resolve', target: { css: '#send' } })).descriptor as Descriptor;
    expect(c.handle!.split(':')[0]).not.toBe(a.split(':')[0]);
    await other.close();
  });
});

describe('resolve: repair hook', () => {
  it('with a descriptor and nothing found, the repair module is asked once the DOM settled', async () => {
    // A remembered button whose text changed: repair (by score) or the plain not-found; either
    // way resolve answers without waiting for the whole timeout once the DOM is settled.
    await t.page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<section aria-label="Payment"><button id="pay-now" data-testid="pay">Pay now</button></section>'));
    const old = (await resolved({ text: 'Pay now' })).descriptor;
    await t.page.evaluate(() => {
      const b = document.getElementById('pay-now')!;
      b.textContent = 'Pay immediately';
    });
    const start = Date.now();
    const a = await t.run({ cmd: 'resolve', target: { text: 'Pay now', exact: true }, descriptor: { ...old, handle: undefined }, timeoutMs: 4000 } as never);
    expect(Date.now() - start).toBeLessThan(3000);
    if (a.ok) {
      expect(a).toMatchObject({ repaired: true, via: 'descriptor', matches: 1 });
      expect((a.descriptor as Descriptor).id).toBe('pay-now');
      expect((a.descriptor as Descriptor).handle).toBeDefined();
    } else {
      expect(['not-found', 'drifted', 'ambiguous']).toContain(a.reason);
    }
  });

  it('never repairs a hidden match', async () => {
    const f = await t.fail({ cmd: 'resolve', target: { text: 'Secret' }, descriptor: { v: 1, tag: 'button', xpath: '/html/body/button', text: 'Secret', id: 'send' }, timeoutMs: 300 } as never);
    expect(f.reason).toBe('not-visible');
  });
});

describe('resolve: speed', () => {
  it('resolves each target uniquely on a 2000-element page (speed is measured by npm run bench)', async () => {
    const p = await h.open('big.html');
    const count = await p.page.evaluate(() => document.querySelectorAll('*').length);
    expect(count).toBeGreaterThanOrEqual(2000);
    for (let i = 0; i < 15; i++) {
      const answer = (await p.ok({ cmd: 'resolve', target: { text: `Item ${1000 + i}` } })) as { descriptor: { text?: string }; matches: number };
      expect(answer.matches).toBe(1);
      expect(answer.descriptor.text).toBe(`Item ${1000 + i}`);
    }
  });
});

describe('handlePageRequest', () => {
  it('a bug becomes internal with its message; an unknown command is unsupported', async () => {
    const bug = await t.fail({ cmd: 'resolve', target: null } as never);
    expect(bug).toMatchObject({ id: 1, ok: false, reason: 'internal' });
    expect(bug.message).toMatch(/^The page script failed on resolve: .+\. This is a bug in aite's content script/);
    const unknown = await t.fail({ cmd: 'tabs' } as never);
    expect(unknown).toMatchObject({ reason: 'unsupported' });
    expect(unknown.message).toMatch(/does not handle the command "tabs"/);
  });
});

describe('resolve: a hidden match a hover would show', () => {
  it('[HOVER-HINT-STATE] a rule on a library\u2019s hover attribute, with or without a value, names the element to hover as a :hover rule does; a rule on another attribute does not', async () => {
    const page = await h.open('targets.html');
    await page.page.evaluate(() => {
      document.body.insertAdjacentHTML(
        'beforeend',
        `<style>
          .hui, .valued, .other { display: none }
          .card[data-hover] .hui { display: inline }
          .card[data-hovered="true"] .valued { display: inline }
          .card[data-open] .other { display: inline }
        </style>
        <ul><li class="card">Card one <button class="hui">Pin</button> <button class="valued">Star</button> <button class="other">Drop</button></li></ul>`,
      );
    });
    const message = async (name: string): Promise<string> => (await page.fail({ cmd: 'resolve', target: { role: 'button', name }, timeoutMs: 200 })).message;
    expect(await message('Pin')).toMatch(/It shows while the pointer is over <li\.card> "Card one.*\(a \[data-hover\] rule of the page\): hover that first\./);
    expect(await message('Star')).toMatch(/It shows while the pointer is over <li\.card> "Card one.*\(a \[data-hovered\] rule of the page\): hover that first\./);
    const other = await message('Drop');
    expect(other).not.toMatch(/hover/);
    expect(other).toContain('Make it visible first');
  });
  it('[HOVER-HINT-NESTED] a :hover rule written with CSS nesting, inside @media, or with the hovered element inside :is()/:where() (Tailwind 4\u2019s group-hover form) names the element to hover too', async () => {
    const page = await h.open('targets.html');
    await page.page.evaluate(() => {
      document.body.insertAdjacentHTML(
        'beforeend',
        `<style>
          .nrow { .nact { visibility: hidden } &:hover .nact { visibility: visible } }
          .gh { visibility: hidden; &:is(:where(.grp):hover *) { @media (hover: hover) { visibility: visible } } }
          .pact { display: none }
          :is(.prow:hover) .pact { display: inline }
          .self { display: none; &:is(:where(.self):hover) { display: inline } }
          .flat { display: none }
          @media (hover: hover) { .flat:is(:where(.frow):hover *) { display: inline } }
        </style>
        <ul>
          <li class="nrow">Nested row <button class="nact">Nested</button></li>
          <li class="grp">Group row <span><button class="gh">Grouped</button></span></li>
          <li class="prow">Plain row <button class="pact">Wrapped</button></li>
          <li>Self row <button class="self">Itself</button></li>
          <li class="frow">Flat row <button class="flat">Flattened</button></li>
        </ul>`,
      );
    });
    const message = async (name: string): Promise<string> => (await page.fail({ cmd: 'resolve', target: { role: 'button', name }, timeoutMs: 200 })).message;
    expect(await message('Nested')).toMatch(/It shows while the pointer is over <li\.nrow> "Nested row.*\(a :hover rule of the page\): hover that first\./);
    expect(await message('Grouped')).toMatch(/It shows while the pointer is over <li\.grp> "Group row.*\(a :hover rule of the page\): hover that first\./);
    expect(await message('Wrapped')).toMatch(/It shows while the pointer is over <li\.prow> "Plain row.*\(a :hover rule of the page\): hover that first\./);
    // As Tailwind 4 prints it minified: flattened into @media (hover: hover).
    expect(await message('Flattened')).toMatch(/It shows while the pointer is over <li\.frow> "Flat row.*hover that first\./);
    // Shown while hovered itself: nothing to hover first.
    expect(await message('Itself')).toContain('Make it visible first');
  });
});
