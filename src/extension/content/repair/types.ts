// The answer of repair to the resolver. The resolver adds `id`, `matches` and a handle and sends it
// as the `resolve` answer of protocol-v1 (ok) or as a failure with `reason` and `detail`.
import type { Descriptor } from '../../../sdk/protocol/descriptor.js';
import type { Repair } from '../../../sdk/protocol/messages.js';

export interface RepairStats {
  /** Candidates on the page (before the 2000 cap). */
  candidates: number;
  /** Candidates looked at (at most 2000). */
  lookedAt: number;
  /** Candidates scored in full (at most 60). */
  scored: number;
  /** Time spent in the page, in milliseconds. */
  ms: number;
}

export type RepairOutcome =
  | {
      ok: true;
      via: 'descriptor' | 'repair';
      element: Element;
      /** The element now. */
      descriptor: Descriptor;
      repair: Repair;
      stats: RepairStats;
    }
  | {
      ok: false;
      reason: 'drifted' | 'ambiguous' | 'not-found';
      /** A sentence for a person. */
      message: string;
      detail: Record<string, unknown>;
      /** The proposed element (drifted) or the ones it could not tell apart (ambiguous), best first. */
      elements: Element[];
      stats: RepairStats;
    };
