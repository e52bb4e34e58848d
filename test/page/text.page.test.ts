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

// A document's text is kept from one look to the next only while nothing it was read from can
// have changed (dom/text.ts, KeptTexts): every kind of change below must make the next look read
// the page again, and give the text a fresh read gives.
describe('[TXT-KEPT] a document\u2019s text kept between looks', () => {
  it('is taken only when nothing changed, and every change it could miss makes the next look read the page again', async () => {
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
            };
            changes[change]!();
            if (!sync) await new Promise((r) => setTimeout(r, 0));
            const next = new aiteText.TextIndex();
            const kept = next.adopt(document, roots());
            const ids = ['plain', 'bold', 'host', 'light', 'late', 'btn', 'over'];
            // The first few elements asked of a fresh index are read from their own subtree.
            return { kept, texts: ids.map((id) => next.of($(id))), fresh: ids.map((id) => new aiteText.TextIndex().of($(id))) };
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
        for (const change of ['text', 'text in a shadow root', 'a slot attribute', 'an element added', 'a shadow root attached', 'a button input\u2019s value', 'an overlay attribute']) {
          const after = await look(change, sync);
          expect(after.kept, `${change} (${sync ? 'in the same task' : 'delivered'})`).toBe(false);
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
