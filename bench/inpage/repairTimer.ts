// Bundled (iife, global `aiteBenchRepair`) and evaluated in the drifted page: times the content
// script's own repair function on that page, without the bridge, worker or messaging around it.
import type { Descriptor, Target } from '../../src/sdk/protocol/index.js';
import { repair } from '../../src/extension/content/repair/index.js';

export function time(descriptor: Descriptor, target: Target): number {
  const t0 = performance.now();
  const outcome = repair(descriptor, target);
  const ms = performance.now() - t0;
  if (outcome?.kind !== 'found') throw new Error(`in-page repair: ${outcome?.kind ?? 'no outcome'}`);
  return ms;
}
