// The one page model: the descriptor the lock file records for an element and the one repair
// scores for the same element on the same unchanged page are equal field by field (a difference
// would be a false change in every repair report, and a lower score for the right element).
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pair } from './support/pageModel.js';
import { PageHarness, REPO } from './support/harness.js';

const h = new PageHarness();
let model = '';

beforeAll(async () => {
  await h.start();
  model = (await build({ entryPoints: [join(REPO, 'test/page/support/pageModel.ts')], bundle: true, format: 'iife', globalName: 'aiteModel', write: false, logLevel: 'silent' })).outputFiles[0]!.text;
});
afterAll(() => h.stop());

type ModelGlobal = typeof import('./support/pageModel.js');
declare const aiteModel: ModelGlobal;

async function pairsOf(path: string, inFrame = false): Promise<Pair[]> {
  const t = await h.open(path);
  try {
    await t.page.addScriptTag({ content: model });
    return await t.page.evaluate((f) => (f ? aiteModel.framePairs() : aiteModel.pairs()), inFrame);
  } finally {
    await t.close();
  }
}

describe('[RS-ONE-MODEL] one page model for resolve, record and repair', () => {
  for (const [path, inFrame] of [['targets.html', false], ['locate.html', false], ['act.html', false], ['verify.html', false], ['todos.html', false], ['icons.html', false], ['targets.html', true]] as const) {
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

  it('[RS-UNSEEN] a screen-reader-only label is not text a person sees, but stays in the name', async () => {
    const all = await pairsOf('icons.html');
    const home = all.find((p) => p.recorded.href === 'home.html')!;
    expect(home.recorded).toMatchObject({ text: 'Home', name: 'Home (current)' });
    // A hidden label alone is all a toggler says.
    const toggler = all.find((p) => p.recorded.tag === 'button' && p.recorded.classes?.includes('toggler'))!;
    expect(toggler.recorded.text).toBe('Toggle navigation');
  });
});
