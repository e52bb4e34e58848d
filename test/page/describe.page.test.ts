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
  for (const [path, inFrame] of [['targets.html', false], ['locate.html', false], ['act.html', false], ['verify.html', false], ['todos.html', false], ['targets.html', true]] as const) {
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
});
