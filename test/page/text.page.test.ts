// One element's match text, from a walk of its own subtree before its page is indexed, is the text
// the page's index gives it: describing one element must not change with whether the page was
// indexed first.
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageHarness, REPO } from './support/harness.js';

const h = new PageHarness();
let textModule = '';

beforeAll(async () => {
  await h.start();
  textModule = (
    await build({ entryPoints: [join(REPO, 'src/extension/content/dom/text.ts')], bundle: true, format: 'iife', globalName: 'aiteText', write: false, logLevel: 'silent', target: 'chrome120' })
  ).outputFiles[0]!.text;
});
afterAll(() => h.stop());

type TextGlobal = typeof import('../../src/extension/content/dom/text.js');
declare const aiteText: TextGlobal;

// Shadow roots (open and closed not needed: the index reads both through one call), slots with
// and without assigned nodes, a light child no slot takes, block spacing, button inputs, scripts,
// templates and odd whitespace.
const TRICKY = `
  <div id="a">  Hello <b>big</b>   world <p>para</p>tail </div>
  <section><h2> Title </h2><ul><li>One</li><li>Two <span>2b</span></li></ul></section>
  <form><label>Name <input type="text" value="typed"></label><input type="submit" value="Send it"><input type="button" value="  Press  "></form>
  <div id="host"><span slot="s">slotted</span><em>unslotted</em></div>
  <div id="host2">light default</div>
  <script>/* not text */ const x = 1;</script><template><p>in template</p></template>
  <p>nbsp&nbsp;&nbsp;here <br>after break</p>
  <div data-aite-overlay><span>overlay text</span></div>
`;

describe('[TXT-OWN] an element\u2019s text before its page is indexed', () => {
  it('is the indexed text for every element, shadow roots and slots included', async () => {
    const t = await h.open('targets.html');
    try {
      await t.page.evaluate((html) => {
        document.body.innerHTML = html;
        const host = document.getElementById('host')!.attachShadow({ mode: 'open' });
        host.innerHTML = '<p>before <slot name="s">fallback s</slot> after</p><slot name="none"><i>fallback kept</i></slot>';
        const host2 = document.getElementById('host2')!.attachShadow({ mode: 'open' });
        host2.innerHTML = '<div>shadow <slot></slot> end</div>';
      }, TRICKY);
      await t.page.addScriptTag({ content: textModule });
      const pairs = await t.page.evaluate(() => {
        const all: Element[] = [];
        const walk = (root: ParentNode): void => {
          for (const el of root.querySelectorAll('*')) {
            all.push(el);
            if (el.shadowRoot) walk(el.shadowRoot);
          }
        };
        walk(document);
        const indexed = new aiteText.TextIndex();
        indexed.match(document.body, 'x', false); // indexes the page
        return all.map((el) => ({ el: el.outerHTML.slice(0, 60), own: new aiteText.TextIndex().of(el), indexed: indexed.of(el) }));
      });
      expect(pairs.length).toBeGreaterThan(30);
      for (const p of pairs) expect(p.own, p.el).toBe(p.indexed);
      // The cases the walk treats apart really are in the page.
      expect(pairs.find((p) => p.el.startsWith('<em>'))!.own).toBe('unslotted');
      expect(pairs.find((p) => p.el.startsWith('<div id="host">'))!.own).toBe('before slotted after fallback kept');
    } finally {
      await t.close();
    }
  });
});

// A document's text is kept from one look to the next and brought up to date from the changes a
// MutationObserver saw (dom/text.ts, KeptTexts): after every kind of change below the next look
// must give the text a fresh read gives; what no observer hears (a shadow root attached, a slot
// assigned by hand) must make it read the page again.
describe('[TXT-KEPT] a document\u2019s text kept between looks', () => {
  it('is taken up to date after each change it hears, and read again after the changes no observer hears', async () => {
    const t = await h.open('targets.html');
    try {
      await t.page.addScriptTag({ content: textModule });
      const look = (change: string, sync: boolean) =>
        t.page.evaluate(
          async (change, sync) => {
            const roots = (): ShadowRoot[] => {
              const found: ShadowRoot[] = [];
              const walk = (root: ParentNode): void => {
                for (const el of root.querySelectorAll('*')) {
                  if (el.shadowRoot) {
                    found.push(el.shadowRoot);
                    walk(el.shadowRoot);
                  }
                }
              };
              walk(document);
              return found;
            };
            // A look that reads the page, and keeps its text.
            new aiteText.TextIndex().match(document.body, 'x', false);
            const $ = (id: string) => document.getElementById(id)!;
            const changes: Record<string, () => void> = {
              none: () => undefined,
              text: () => ($('bold').firstChild as Text).replaceData(0, 4, 'words'),
              'text in a shadow root': () => (($('host').shadowRoot!.getElementById('inside')!.firstChild as Text).data = 'now in shadow '),
              'a slot attribute': () => $('light').setAttribute('slot', 'b'),
              'an element added': () => $('plain').append(' more'),
              'a shadow root attached': () => ($('late').attachShadow({ mode: 'open' }).innerHTML = '<em>shadow now</em>'),
              'a button input\u2019s value': () => (($('btn') as HTMLInputElement).value = 'Pressed'),
              'an overlay attribute': () => $('over').setAttribute('data-aite-overlay', ''),
              'a slot\u2019s name': () => $('host').shadowRoot!.querySelector('slot[name="b"]')!.setAttribute('name', 'a'),
            };
            changes[change]!();
            if (!sync) await new Promise((r) => setTimeout(r, 0));
            const next = new aiteText.TextIndex();
            const kept = next.adopt(document, roots());
            const $$ = (id: string) => document.getElementById(id) ?? document.getElementById('host')!.shadowRoot!.getElementById(id)!;
            const ids = ['plain', 'bold', 'host', 'inside', 'light', 'late', 'btn', 'over'];
            // The first few elements asked of a fresh index are read from their own subtree.
            return { kept, texts: ids.map((id) => next.of($$(id))), fresh: ids.map((id) => new aiteText.TextIndex().of($$(id))) };
          },
          change,
          sync,
        );
      const setUp = () =>
        t.page.evaluate(() => {
        document.body.innerHTML = `
          <p id="plain">plain <b id="bold">text</b></p>
          <div id="host"><span slot="a" id="light">light</span></div>
          <div id="late">late light</div>
          <input type="button" id="btn" value="Press">
          <div id="over"><span>overlay soon</span></div>
          <div id="manual"><span id="m1">first</span><span id="m2">second</span></div>`;
        const shadow = document.getElementById('host')!.attachShadow({ mode: 'open' });
        shadow.innerHTML = '<p id="inside">in shadow <slot name="a"></slot> <slot name="b"></slot></p>';
      });
      for (const sync of [true, false]) {
        await setUp();
        const same = await look('none', sync);
        expect(same.kept, 'nothing changed').toBe(true);
        expect(same.texts).toEqual(same.fresh);
        for (const change of ['text', 'text in a shadow root', 'a slot attribute', 'a slot\u2019s name', 'an element added', 'a shadow root attached', 'a button input\u2019s value', 'an overlay attribute']) {
          const after = await look(change, sync);
          expect(after.kept, `${change} (${sync ? 'in the same task' : 'delivered'})`).toBe(change !== 'a shadow root attached');
          expect(after.texts, change).toEqual(after.fresh);
        }
      }
      // Text read through a slot the page assigns by hand changes with no mutation: never kept.
      const manual = await t.page.evaluate(() => {
        const host = document.getElementById('manual')!;
        const shadow = host.attachShadow({ mode: 'open', slotAssignment: 'manual' });
        shadow.innerHTML = '<slot></slot>';
        const slot = shadow.querySelector('slot')!;
        slot.assign(document.getElementById('m1')!);
        new aiteText.TextIndex().match(document.body, 'x', false);
        slot.assign(document.getElementById('m2')!);
        const roots = [document.getElementById('host')!.shadowRoot!, document.getElementById('late')!.shadowRoot!, shadow];
        const next = new aiteText.TextIndex();
        return { kept: next.adopt(document, roots), text: next.of(host), fresh: new aiteText.TextIndex().of(host) };
      });
      expect(manual).toEqual({ kept: false, text: 'second', fresh: 'second' });
    } finally {
      await t.close();
    }
  });
});

// Kept text is patched: only the elements a change touched are read again, and every span after
// them moves (dom/text.ts, DocText.reread). Random changes of every kind the text depends on, in
// batches heard in the same task or delivered, with patches piling up from one look to the next;
// after each batch every element's text and matches must be what a fresh read gives, and most
// looks must have been patched, not read afresh (else this would test nothing).
describe('[TXT-PATCHED] kept text brought up to date from what changed', () => {
  it('gives every element the text of a fresh read after any sequence of changes', async () => {
    const t = await h.open('targets.html');
    try {
      await t.page.evaluate((html) => {
        document.body.innerHTML = `${html}<ul id="rows">${Array.from({ length: 40 }, (_, i) => `<li><button>Row ${i}</button> <span>x${i}</span></li>`).join('')}</ul>`;
        const host = document.getElementById('host')!.attachShadow({ mode: 'open' });
        host.innerHTML = '<p>before <slot name="s">fallback s</slot> after</p><slot name="none"><i>fallback kept</i></slot><div id="deep"><b>deep</b> text</div>';
        const host2 = document.getElementById('host2')!.attachShadow({ mode: 'open' });
        host2.innerHTML = '<div>shadow <slot></slot> end</div>';
      }, TRICKY);
      await t.page.addScriptTag({ content: textModule });
      const result = await t.page.evaluate(async () => {
        let seed = 21;
        const rand = (n: number): number => {
          seed = (seed * 1103515245 + 12345) % 2147483648;
          return Math.floor((seed / 2147483648) * n);
        };
        const pick = <T,>(xs: readonly T[]): T => xs[rand(xs.length)]!;
        const trees = (): ParentNode[] => {
          const out: ParentNode[] = [document];
          for (let i = 0; i < out.length; i++) for (const el of out[i]!.querySelectorAll('*')) if (el.shadowRoot) out.push(el.shadowRoot);
          return out;
        };
        const elements = (): Element[] => trees().flatMap((root) => [...root.querySelectorAll('*')]);
        const inBody = (): Element[] => elements().filter((el) => (el !== document.body && document.body.contains(el)) || (el.getRootNode() as ShadowRoot).host !== undefined);
        const texts = (): Text[] => {
          const out: Text[] = [];
          for (const root of trees()) {
            const walker = document.createTreeWalker(root as Node, NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode()) out.push(n as Text);
          }
          return out;
        };
        const WORDS = ['', ' ', 'a', 'Row', ' spaced ', 'x1', 'tail ', '  lead', 'Send', '\u00a0nb\u00a0', 'Row 1'];
        const TAGS = ['span', 'b', 'p', 'div', 'li', 'button', 'section', 'br'];
        const changes: Record<string, () => void> = {
          'text data': () => (pick(texts()).data = pick(WORDS)),
          'text appended': () => pick(inBody()).append(pick(WORDS)),
          'element added': () => {
            const el = document.createElement(pick(TAGS));
            if (el.localName !== 'br') el.textContent = pick(WORDS);
            const parent = pick(inBody());
            parent.insertBefore(el, rand(2) ? parent.firstChild : null);
          },
          'button input added': () => {
            const input = document.createElement('input');
            input.type = pick(['button', 'text', 'submit']);
            input.value = pick(WORDS);
            pick(inBody()).append(input);
          },
          'element removed': () => pick(inBody()).remove(),
          'element moved': () => {
            const el = pick(inBody());
            const to = pick(inBody());
            if (!el.contains(to)) to.append(el);
          },
          // The place it goes to is read again before the place it left.
          'element moved where text changed': () => {
            const el = pick(inBody());
            const to = pick(inBody());
            if (el.contains(to)) return;
            to.append(pick(WORDS));
            to.append(el);
          },
          'host added': () => {
            const host = document.createElement(pick(['div', 'x-card']));
            host.attachShadow({ mode: 'open' }).innerHTML = `<b>${pick(WORDS)}</b><slot></slot><i>shadow new</i>`;
            host.textContent = pick(WORDS);
            pick(inBody()).append(host);
          },
          'inner html': () => (pick(inBody()).innerHTML = `<span>${pick(WORDS)}</span>${pick(WORDS)}<p>${pick(WORDS)}</p>`),
          'button value': () => {
            const inputs = elements().filter((el) => el.localName === 'input') as HTMLInputElement[];
            if (inputs.length > 0) pick(inputs).value = pick(WORDS);
          },
          'input type': () => {
            const inputs = elements().filter((el) => el.localName === 'input') as HTMLInputElement[];
            if (inputs.length > 0) pick(inputs).type = pick(['button', 'text', 'reset']);
          },
          'slot attribute': () => {
            const light = [...document.querySelectorAll('#host > *, #host2 > *')];
            if (light.length > 0) pick(light).setAttribute('slot', pick(['s', 'none', 'other']));
          },
          'slot name': () => {
            const slots = elements().filter((el) => el.localName === 'slot');
            if (slots.length > 0) pick(slots).setAttribute('name', pick(['s', 'none', '']));
          },
          'slot added': () => {
            const shadow = pick([document.getElementById('host')?.shadowRoot, document.getElementById('host2')?.shadowRoot].filter((r) => r) as ShadowRoot[]);
            if (!shadow) return;
            const slot = document.createElement('slot');
            if (rand(2)) slot.name = 's';
            slot.textContent = 'fallback new';
            shadow.insertBefore(slot, shadow.firstChild);
          },
          'overlay attribute': () => {
            const el = pick(inBody());
            if (el.hasAttribute('data-aite-overlay')) el.removeAttribute('data-aite-overlay');
            else el.setAttribute('data-aite-overlay', '');
          },
          'class only': () => pick(inBody()).setAttribute('class', pick(['a', 'b'])),
        };
        const kinds = Object.keys(changes);
        const roots = (): ShadowRoot[] => trees().slice(1) as ShadowRoot[];
        const mismatches: string[] = [];
        let patched = 0;
        let looks = 0;
        // The first look reads the page and keeps its text.
        new aiteText.TextIndex().match(document.body, 'x', false);
        for (let round = 0; round < 250 && mismatches.length === 0; round++) {
          const done: string[] = [];
          for (let i = 0, n = 1 + rand(3); i < n; i++) {
            const kind = pick(kinds);
            try {
              changes[kind]!();
              done.push(kind);
            } catch {
              // A change the DOM refuses (a node into itself) changes nothing.
            }
          }
          if (rand(2)) await new Promise((r) => setTimeout(r, 0));
          const next = new aiteText.TextIndex();
          looks++;
          if (next.adopt(document, roots())) patched++;
          else next.match(document.body, 'x', false); // reads the page afresh, and keeps it
          const word = pick(WORDS.filter((w) => w.trim() !== ''));
          for (const el of elements()) {
            // A new index per element: its own walk, never the kept text.
            const fresh = new aiteText.TextIndex().of(el);
            const got = next.of(el);
            const match = next.match(el, word, false);
            const want = aiteText.matchText(fresh, word, false);
            if (got !== fresh || match !== want) {
              mismatches.push(`round ${round} after ${done.join(', ')}: ${el.outerHTML.slice(0, 80)} reads ${JSON.stringify(got)} (${match}), fresh ${JSON.stringify(fresh)} (${want}) for ${JSON.stringify(word)}`);
              break;
            }
          }
        }
        return { mismatches, patched, looks };
      });
      expect(result.mismatches).toEqual([]);
      expect(result.looks).toBe(250);
      // Most looks are patched: only an attached shadow root or a hand-assigned slot forces a read.
      expect(result.patched).toBeGreaterThan(result.looks / 2);
    } finally {
      await t.close();
    }
  });
});

// The elements that can host a shadow root are kept between looks at the page's visible text
// (dom/hosts.ts): a root attached since, with no DOM change, must still be read through.
describe('[TXT-VISIBLE-HOSTS] the page\u2019s visible text and the shadow roots in it', () => {
  it('reads through every shadow root, attached since the last look or added with its host', async () => {
    const t = await h.open('targets.html');
    try {
      await t.page.evaluate(() => {
        document.body.innerHTML = `<div id="a">alpha light</div><div id="b">beta light<span>in b</span></div><x-box id="x">x light</x-box><ul>${Array.from({ length: 300 }, (_, i) => `<li>row ${i}</li>`).join('')}</ul>`;
        document.getElementById('a')!.attachShadow({ mode: 'open' }).innerHTML = '<p>alpha shadow</p>';
      });
      await t.page.addScriptTag({ content: textModule });
      const seen = await t.page.evaluate(() => {
        const look = (): string => aiteText.visibleText(document.body);
        const $ = (id: string) => document.getElementById(id)!;
        const out: Record<string, string> = {};
        out.first = look();
        out.again = look();
        // No DOM change: attaching a root is no mutation.
        $('b').attachShadow({ mode: 'open' }).innerHTML = '<p>beta shadow <span id="inner">inner light</span></p>';
        out.attached = look();
        $('b').shadowRoot!.getElementById('inner')!.attachShadow({ mode: 'open' }).innerHTML = '<em>gamma nested</em>';
        out.nested = look();
        $('x').attachShadow({ mode: 'open' }).innerHTML = '<b>custom shadow</b>';
        out.custom = look();
        const added = document.createElement('section');
        added.attachShadow({ mode: 'open' }).innerHTML = '<p>delta added</p>';
        document.body.prepend(added);
        out.added = look();
        $('a').remove();
        out.removed = look();
        const late = document.createElement('div');
        $('b').shadowRoot!.append(late);
        out.inRoot = look();
        late.attachShadow({ mode: 'open' }).innerHTML = 'epsilon late';
        out.lateInRoot = look();
        return out;
      });
      expect(seen.first).toContain('alpha shadow');
      expect(seen.first).toContain('beta light');
      expect(seen.again).toBe(seen.first);
      expect(seen.attached).toContain('beta shadow');
      expect(seen.attached).not.toContain('beta light');
      expect(seen.nested).toContain('gamma nested');
      expect(seen.nested).not.toContain('inner light');
      expect(seen.custom).toContain('custom shadow');
      expect(seen.custom).not.toContain('x light');
      expect(seen.added).toContain('delta added');
      expect(seen.removed).not.toContain('alpha');
      expect(seen.lateInRoot).toContain('epsilon late');
      expect(seen.lateInRoot).toContain('gamma nested');
    } finally {
      await t.close();
    }
  });
});
