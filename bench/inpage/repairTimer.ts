// Bundled (iife, global `aiteBenchRepair`) and evaluated in the drifted page: times the content
// script's own repair function on that page, without the bridge, worker or messaging around it.
// `repairByScore` is repair without the remembered-field step, so every candidate of the page is scored.
import type { Descriptor } from '../../src/sdk/protocol/index.js';
import { DescribeCache } from '../../src/extension/content/dom/describe.js';
import { repair, repairByScore } from '../../src/extension/content/repairPage.js';

export function time(descriptor: Descriptor): { ms: number; scoreOnlyMs: number; scoreOnly: string } {
  let t0 = performance.now();
  const outcome = repair(descriptor);
  const ms = performance.now() - t0;
  if (outcome?.kind !== 'found') throw new Error(`in-page repair: ${outcome?.kind ?? 'no outcome'}`);
  t0 = performance.now();
  const scored = repairByScore(descriptor, document, new DescribeCache());
  const scoreOnlyMs = performance.now() - t0;
  return { ms, scoreOnlyMs, scoreOnly: scored.kind };
}
