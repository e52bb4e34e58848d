// The one page model: the descriptor the lock file records for an element and the one repair
// scores for the same element on the same unchanged page are equal field by field (a difference
// would be a false change in every repair report, and a lower score for the right element).
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extensionZod } from '../../build/extensionZodPlugin.js';
import type { Pair } from './support/pageModel.js';
import { PageHarness, REPO, type TestPage } from './support/harness.js';

const h = new PageHarness();
let model = '';

beforeAll(async () => {
  await h.start();
  model = (await build({ entryPoints: [join(REPO, 'test/page/support/pageModel.ts')], bundle: true, format: 'iife', globalName: 'aiteModel', write: false, logLevel: 'silent', plugins: [extensionZod] })).outputFiles[0]!.text;
});
afterAll(() => h.stop());

type ModelGlobal = typeof import('./support/pageModel.js');
declare const aiteModel: ModelGlobal;

/** The file's one tab: each page is loaded into it as a new document. */
let tab: TestPage | undefined;
async function openPage(path: string): Promise<TestPage> {
  if (tab) await tab.load(path);
  else tab = await h.open(path);
  return tab;
}

async function pairsOf(path: string, inFrame = false): Promise<Pair[]> {
  const t = await openPage(path);
  await t.page.addScriptTag({ content: model });
  return await t.page.evaluate((f) => (f ? aiteModel.framePairs() : aiteModel.pairs()), inFrame);
}

describe('[RS-ONE-MODEL] one page model for resolve, record and repair', () => {
  for (const [path, inFrame] of [['targets.html', false], ['locate.html', false], ['act.html', false], ['verify.html', false], ['todos.html', false], ['icons.html', false], ['scripts.html', false], ['targets.html', true]] as const) {
    it(`every element of ${path}${inFrame ? ' (its iframe)' : ''}: recorded and live descriptors are identical, field by field`, async () => {
      const all = await pairsOf(path, inFrame);
      expect(all.length).toBeGreaterThan(inFrame ? 1 : 10);
      for (const p of all) {
        expect(p.live, `${p.xpath} is among repair's candidates for its own descriptor`).not.toBeNull();
        for (const field of new Set([...Object.keys(p.recorded), ...Object.keys(p.live!)])) {
          expect((p.live as Record<string, unknown>)[field], `${p.xpath} ${field}`).toEqual((p.recorded as Record<string, unknown>)[field]);
        }
      }
    });
  }

  it('the TodoMVC page: a filter link keeps its named region, a field without a label stays without one, inside a shadow root too', async () => {
    const all = await pairsOf('todos.html');
    const active = all.find((p) => p.recorded.text === 'Active')!;
    expect(active.recorded.context?.region).toBe('todos');
    expect(active.live?.context?.region).toBe('todos');
    const input = all.find((p) => p.recorded.placeholder === 'What needs to be done?')!;
    expect(input.live?.label).toBe(input.recorded.label);
    const inner = all.find((p) => p.recorded.text === 'Open card')!;
    expect(inner.recorded.xpath).toContain('#shadow-root');
    expect(inner.live?.context?.heading).toBe('Card');
  });

  it('[RS-ICON] an icon is known by its name, and a ligature word is not text a person reads', async () => {
    const all = await pairsOf('icons.html');
    const by = (href: string): Pair => all.find((p) => p.recorded.tag === 'a' && p.recorded.href === href && p.recorded.xpath.includes('nav'))!;
    // Material Icons draw "person" as a glyph: the link reads "User Profile" and shows the icon "person".
    expect(by('profile.html').recorded).toMatchObject({ text: 'User Profile', name: 'User Profile', icon: 'person' });
    expect(by('dashboard.html').recorded).toMatchObject({ text: 'Dashboard', icon: 'dashboard' });
    // An aria-label is the name as written; only the content loses the ligature word.
    expect(by('tables.html').recorded).toMatchObject({ text: 'Table List', name: 'Tables', icon: 'content_paste' });
    const social = all.filter((p) => p.recorded.tag === 'a' && p.recorded.href === '#').map((p) => p.recorded.icon);
    // Font Awesome's modifiers (fa-fw, fa-stack-1x) are how an icon is drawn, not which one.
    expect(social).toEqual(['twitter', 'facebook-f', 'circle linkedin-in']);
    // An icon alone is all an icon-only button says: its word stays its text.
    const close = all.find((p) => p.recorded.tag === 'button' && p.recorded.classes?.includes('close'))!;
    expect(close.recorded).toMatchObject({ text: 'close', icon: 'close' });
    expect(all.find((p) => p.recorded.text === 'Save')!.recorded.icon).toBeUndefined();
  });

  it('[RS-PICTURE] an element that says nothing is known by the one picture it shows', async () => {
    const all = await pairsOf('icons.html');
    const by = (cls: string): Pair['recorded'] => all.find((p) => p.recorded.classes?.includes(cls))!.recorded;
    // A store badge: the file's stem, without directories, query and extension; an alt of "..." says nothing.
    expect(by('store')).toMatchObject({ tag: 'a', href: '#!', icon: 'google-play-badge' });
    expect(all.filter((p) => p.recorded.tag === 'a' && p.recorded.classes?.includes('store')).map((p) => p.recorded.icon)).toEqual(['google-play-badge', 'app-store-badge']);
    // A build's content hash and a resolution suffix are not part of the picture's name.
    expect(by('brand').icon).toBe('logo');
    expect(by('find')).toMatchObject({ tag: 'input', type: 'image', icon: 'search' });
    // A sprite icon is named by its symbol.
    expect(by('sprite')).toMatchObject({ tag: 'button', icon: 'icon-share' });
    // The image itself is the same picture: a link and its image stay one candidate.
    expect(all.find((p) => p.recorded.tag === 'img' && p.recorded.xpath.includes('div[2]/a[1]'))?.recorded.icon).toBe('google-play-badge');
    // A data: URL names no picture, an element that says something is known by what it says, two images are no one picture.
    expect(by('inline').icon).toBeUndefined();
    expect(by('named')).toMatchObject({ text: 'App Store', name: 'App Store' });
    expect(by('named').icon).toBeUndefined();
    expect(by('pair').icon).toBeUndefined();
  });

  it('[NAME-GENERATED] a control with no text is named by what its stylesheet draws before and after it; an icon font\u2019s glyph names nothing', async () => {
    const all = await pairsOf('icons.html');
    const by = (cls: string): Pair['recorded'] => all.find((p) => p.recorded.classes?.includes(cls))!.recorded;
    expect(by('drawn-heading')).toMatchObject({ role: 'button', name: 'Heading "1" big' });
    expect(by('drawn-glyph').name).toBeUndefined();
  });

  it('[RS-UNSEEN] a screen-reader-only label is not text a person sees, but stays in the name', async () => {
    const all = await pairsOf('icons.html');
    const home = all.find((p) => p.recorded.href === 'home.html')!;
    expect(home.recorded).toMatchObject({ text: 'Home', name: 'Home (current)' });
    // A hidden label alone is all a toggler says.
    const toggler = all.find((p) => p.recorded.tag === 'button' && p.recorded.classes?.includes('toggler'))!;
    expect(toggler.recorded.text).toBe('Toggle navigation');
  });

  it('[RS-NOT-TEXT] no text of a descriptor, recorded or live, holds what a script, style, template or noscript element contains', async () => {
    const all = await pairsOf('scripts.html');
    const save = all.find((p) => p.recorded.text === 'Save settings')!;
    // The card's text, without the inline script next to the button (its API key reached lock files).
    expect(save.recorded.near).toBe('Settings Save settings');
    expect(all.find((p) => p.recorded.tag === 'input')!.recorded.label).toBe('Email');
    expect(all.length).toBeGreaterThan(4);
    for (const p of all) {
      expect(JSON.stringify(p.recorded), p.xpath).not.toMatch(/SECRET/);
      expect(JSON.stringify(p.live), p.xpath).not.toMatch(/SECRET/);
    }
  });
});

// The heading is found by walking back from the element, or, far from any heading, from the
// tree's list of headings (dom/describe.ts): both must give what the list alone gives.
describe('[RS-HEADING] a descriptor\u2019s nearest heading', () => {
  it('is the nearest rendered, non-empty heading before the element, near it or far, in a shadow tree or before its host', async () => {
    const t = await openPage('targets.html');
    const bundle = (
      await build({
        stdin: {
          contents: "export { describe } from './src/extension/content/dom/describe.ts'; export { TextIndex, cut } from './src/extension/content/dom/text.ts'; export { isRendered } from './src/extension/content/dom/visibility.ts';",
          resolveDir: REPO,
          loader: 'ts',
        },
        bundle: true,
        format: 'iife',
        globalName: 'aiteHeading',
        write: false,
        logLevel: 'silent',
      })
    ).outputFiles[0]!.text;
    await t.page.evaluate(() => {
      const rows = (n: number, tag = 'li'): string => Array.from({ length: n }, (_, i) => `<${tag}><span>row ${i}</span></${tag}>`).join('');
      document.body.innerHTML = `
        <h1>Top</h1><p>first</p>
        <section><h2>  </h2><div role="heading">Role heading</div><ul>${rows(80)}</ul></section>
        <h2 hidden>Hidden heading</h2><ul>${rows(150)}</ul>
        <h3>Holder <button>inside a heading</button></h3>
        <div id="host"></div><p>after host</p><div id="bare"></div><ol>${rows(120)}</ol>`;
      const shadow = document.getElementById('host')!.attachShadow({ mode: 'open' });
      shadow.innerHTML = `<p>before any shadow heading</p><h4>Shadow heading</h4><ul>${rows(130)}</ul>`;
      document.getElementById('bare')!.attachShadow({ mode: 'open' }).innerHTML = `<ul>${rows(110)}</ul>`;
    });
    await t.page.addScriptTag({ content: bundle });
    const result = await t.page.evaluate(() => {
      const g = (globalThis as unknown as { aiteHeading: { describe: (el: Element) => { context?: { heading?: string } }; TextIndex: new () => { of(el: Element): string }; cut: (s: string, n: number) => string; isRendered: (el: Element) => boolean } }).aiteHeading;
      // The plain rule over every heading of the tree, nearest first.
      const expected = (el: Element): string | undefined => {
        for (let node = el; ; ) {
          const root = node.getRootNode() as Document | ShadowRoot;
          const hs = [...root.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]')].reverse();
          for (const hd of hs) {
            if (hd === node || hd.contains(node) || !(hd.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING) || !g.isRendered(hd)) continue;
            const text = new g.TextIndex().of(hd);
            if (text) return g.cut(text, 200);
          }
          if (!(root as ShadowRoot).host) return undefined;
          node = (root as ShadowRoot).host;
        }
      };
      const all: Element[] = [...document.body.querySelectorAll('*')];
      for (const id of ['host', 'bare']) all.push(...document.getElementById(id)!.shadowRoot!.querySelectorAll('*'));
      const wrong = all
        .map((el) => ({ el: el.outerHTML.slice(0, 40), got: g.describe(el).context?.heading, want: expected(el) }))
        .filter((r) => r.got !== r.want);
      const headingOf = (el: Element) => g.describe(el).context?.heading;
      const last = (sel: string, root: ParentNode = document) => [...root.querySelectorAll(sel)].at(-1)!;
      return {
        wrong,
        count: all.length,
        near: headingOf(document.querySelector('section li span')!),
        farAfterHidden: headingOf(last('body > ul li span')),
        inHeading: headingOf(document.querySelector('h3 button')!),
        shadowFar: headingOf(last('li span', document.getElementById('host')!.shadowRoot!)),
        shadowFirst: headingOf(document.getElementById('host')!.shadowRoot!.querySelector('p')!),
        bareFar: headingOf(last('li span', document.getElementById('bare')!.shadowRoot!)),
      };
    });
    expect(result.count).toBeGreaterThan(1000);
    expect(result.wrong).toEqual([]);
    // The cases the rule is about are on the page: near, far past a hidden one, held by one,
    // inside a shadow tree (far from its heading, and before any, so before its host).
    expect(result).toMatchObject({ near: 'Role heading', farAfterHidden: 'Role heading', inHeading: 'Role heading', shadowFar: 'Shadow heading', shadowFirst: 'Holder inside a heading', bareFar: 'Holder inside a heading' });
  });
});
