import type { Descriptor, OutlineItem } from '../protocol/index.js';
import type { Input } from './Input.js';
import type { StepContext } from './StepContext.js';

/** What a failure says about the page, as an AiteError (or a runner's copy of one) carries it. */
export interface FailureFacts {
  reason?: string;
  detail?: Record<string, unknown>;
}

/**
 * The picture of a failure: outlines what it is about (candidates, the element, what covers
 * it), takes the screenshot, and clears the boxes again. Problems with the outline are warnings
 * on `step`; without a picture the answer is undefined. The one place a failure is pictured.
 */
export async function failurePicture(step: StepContext, input: Input, failure: FailureFacts): Promise<Uint8Array | undefined> {
  // With the extension gone, only a page already known can be pictured, and nothing outlined.
  const lost = failure.reason === 'connection-lost';
  const items = lost ? [] : outlineItems(failure);
  let drawn = false;
  if (items.length > 0) {
    try {
      await step.locator.outline(items);
      drawn = true;
    } catch (e) {
      step.warn({ code: 'outline', message: `Could not draw the outline: ${firstLine(e)}` });
    }
  }
  const png = await input.screenshot(step, { cachedOnly: lost });
  if (drawn) {
    try {
      const cleared = await step.locator.clearOutline();
      if (cleared.remaining) step.warn({ code: 'outline', message: `${cleared.remaining} outline box(es) remained on the page.` });
    } catch (e) {
      step.warn({ code: 'outline', message: `Could not clear the outline: ${firstLine(e)}` });
    }
  }
  return png;
}

/** Outline boxes for what a failure is about, at most ten. */
export function outlineItems(failure: FailureFacts): OutlineItem[] {
  const detail = (failure.detail ?? {}) as {
    candidates?: Array<{ descriptor?: Descriptor; score?: number }>;
    candidate?: Descriptor;
    score?: number;
    exact?: boolean;
    better?: Descriptor;
    runnerUp?: number;
    element?: Descriptor;
    coveredBy?: { xpath?: string };
    frame?: unknown;
  };
  // The outline is drawn in the top page: xpaths read in an iframe's document would box something else there.
  if (detail.frame !== undefined) return [];
  const items: OutlineItem[] = [];
  // A drifted exact match is the element the target finds now, refused: never labelled a match.
  if (detail.better?.xpath) items.push({ xpath: detail.better.xpath, tone: 'candidate', label: `most like the remembered ${detail.runnerUp ?? ''}`.trim() });
  if (detail.candidate?.xpath) items.push({ xpath: detail.candidate.xpath, tone: 'candidate', label: detail.exact ? `refused ${detail.score ?? ''}`.trim() : `possible match ${detail.score ?? ''}`.trim() });
  for (const [i, c] of (Array.isArray(detail.candidates) ? detail.candidates : []).entries()) {
    if (c.descriptor?.xpath) items.push({ xpath: c.descriptor.xpath, tone: 'candidate', label: `match ${i + 1}${c.score ? ` (${c.score})` : ''}` });
  }
  if (detail.element?.xpath) items.push({ xpath: detail.element.xpath, tone: 'wanted', label: failure.reason ?? 'failed' });
  if (detail.coveredBy?.xpath) items.push({ xpath: detail.coveredBy.xpath, tone: 'cover', label: 'covering element' });
  return items.slice(0, 10);
}

function firstLine(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}
