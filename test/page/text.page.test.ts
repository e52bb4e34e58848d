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
