// In-page half of the page-model tests, bundled (iife, global `aiteModel`): for every element
// repair could name, the descriptor recorded for the lock file (`resolve` with `record`) and the
// one repair is handed for the same element on the same page.
import { describe } from '../../../src/extension/content/dom/describe.js';
import { walkElements } from '../../../src/extension/content/dom/query.js';
import { isEnabled } from '../../../src/extension/content/dom/state.js';
import { isRendered } from '../../../src/extension/content/dom/visibility.js';
import { isCandidate, pageCandidates } from '../../../src/extension/content/repairPage.js';
import type { Descriptor } from '../../../src/sdk/protocol/descriptor.js';

/** Fields only a recorded descriptor has: a look at the rest of the page for the lock file. */
const RECORD_ONLY = ['twins', 'twinPlaces', 'twinIndex', 'peers'] as const;

export interface Pair {
  xpath: string;
  recorded: Descriptor;
  /** What repair was handed for the same element, or null when it was not among the candidates. */
  live: Descriptor | null;
}

export function pairs(doc: Document = document): Pair[] {
  const out: Pair[] = [];
  const els: Element[] = [];
  walkElements(doc, (el) => {
    // Repair only ever proposes what could be acted on: visible and enabled.
    if (isCandidate(el) && isRendered(el) && isEnabled(el)) els.push(el);
  });
  for (const el of els) {
    const recorded = describe(el, { record: true });
    const live = pageCandidates(recorded, doc).candidates.find((c) => c.ref === el)?.descriptor ?? null;
    const bare = { ...recorded };
    for (const f of RECORD_ONLY) delete bare[f];
    out.push({ xpath: recorded.xpath, recorded: bare, live });
  }
  return out;
}

/** The same for the elements of the page's first iframe. */
export function framePairs(): Pair[] {
  const doc = document.querySelector('iframe')?.contentDocument;
  return doc ? pairs(doc) : [];
}
