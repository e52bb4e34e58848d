// A gone target is answered not-found, never acted on, whatever else stands where it stood: a
// candidate that shares only its place with the remembered element scores under the drifted
// threshold, with or without what `record` adds (twins, their places, peers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Descriptor } from '../../../src/sdk/protocol/descriptor.js';
import { RENAMED_AND_MOVED_AT_MOST } from '../../../src/extension/content/repair/index.js';
import { PageHarness, type TestPage } from '../support/harness.js';

const h = new PageHarness();
beforeAll(() => h.start());
afterAll(() => h.stop());

/** The file's one tab: each page is loaded into it as a new document. */
let tab: TestPage | undefined;
async function openPage(path: string): Promise<TestPage> {
  if (tab) await tab.load(path);
  else tab = await h.open(path);
  return tab;
}

async function remembered(path: string, target: Record<string, unknown>, record: boolean): Promise<Descriptor> {
  const t = await openPage(path);
  const a = await t.ok({ cmd: 'resolve', target, timeoutMs: 1000, ...(record ? { record: true } : {}) } as never);
  return (a as unknown as { descriptor: Descriptor }).descriptor;
}

async function repairedOn(path: string, target: Record<string, unknown>, descriptor: Descriptor): Promise<{ reason: string; detail: Record<string, unknown> }> {
  const t = await openPage(path);
  const f = await t.fail({ cmd: 'resolve', target, descriptor, timeoutMs: 1500 } as never);
  return f as unknown as { reason: string; detail: Record<string, unknown> };
}

describe('[RS-REPAIR-NOT-FOUND] absolute calibration: a gone target is not-found unless something really resembles it', () => {
  for (const record of [true, false]) {
    it(`a removed "Send" beside a new "Cancel" and an old "Help" link: not-found with repairTried and bestScore (${record ? 'with' : 'without'} record)`, async () => {
      const old = await remembered('send-old.html', { text: 'Send' }, record);
      expect(old.peers !== undefined).toBe(record);
      const f = await repairedOn('send-gone.html', { text: 'Send' }, old);
      expect(f.reason).toBe('not-found');
      expect(f.detail.repairTried).toBe(true);
      expect(f.detail.bestScore).toBeLessThan(0.6);
    });

    it(`a removed "All" filter, the page's only other link "TodoMVC": never acted on, not-found (${record ? 'with' : 'without'} record)`, async () => {
      const old = await remembered('todos.html', { text: 'All' }, record);
      const f = await repairedOn('todos-no-all.html', { text: 'All', exact: true }, old);
      expect(f.reason).toBe('not-found');
      expect(f.detail.repairTried).toBe(true);
      expect(f.detail.bestScore).toBeLessThan(0.6);
    });
  }
});

describe('[RS-REPAIR-NOT-FOUND] a candidate that kept its name but nothing of its place and no identifier is proposed, never acted on', () => {
  // The sidebar's search box is gone; a demo navbar far down the content has a search box of the
  // same type, placeholder and aria-label. Nothing of the sidebar's place is left around it.
  const target = { css: '.sidebar-search' };
  for (const record of [true, false]) {
    it(`a removed sidebar search box, another "Search" box far from it: drifted, the other proposed (${record ? 'with' : 'without'} record)`, async () => {
      const old = await remembered('search.html', target, record);
      expect(old.ariaLabel).toBe('Search');
      const f = await repairedOn('search.html?v=gone', target, old);
      expect(f.reason).toBe('drifted');
      const proposed = f.detail as { candidate: Descriptor; score: number };
      expect(proposed.candidate.xpath).toBe('/html/body/main/div[3]/nav/form/input');
      expect(proposed.score).toBe(RENAMED_AND_MOVED_AT_MOST);
    });

    it(`the same search box moved within its sidebar is still acted on (${record ? 'with' : 'without'} record)`, async () => {
      const old = await remembered('search.html', target, record);
      const t = await openPage('search.html?v=moved');
      const a = (await t.ok({ cmd: 'resolve', target, descriptor: old, timeoutMs: 1500 } as never)) as unknown as { repaired: boolean; descriptor: Descriptor };
      expect(a.repaired).toBe(true);
      expect(a.descriptor.xpath).toBe('/html/body/aside/input');
    });
  }
});
