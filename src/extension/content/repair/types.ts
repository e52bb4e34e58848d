import type { Descriptor, Repair } from '../../../sdk/protocol/index.js';
import type { AnotherAction } from './actions.js';

/** What repair measured, for the benchmark and the report (never on the wire by itself). */
export interface RepairStats {
  /** Candidate elements on the page (before the 2000 cap). */
  candidates: number;
  /** Candidates looked at (at most 2000). */
  lookedAt: number;
  /** Candidates scored in full (at most 60). */
  scored: number;
  /** Time spent in the page, in milliseconds. */
  ms: number;
}

/**
 * What the repair step concluded, mapped by `resolve` onto the protocol's repair answers
 * (protocol-v1 "resolve may carry descriptor"):
 * - `found`: ok answer, `repaired: true`, with `via` and the `repair` object. The element is
 *   returned (not a descriptor) so resolve describes it and gives it a handle like any match.
 * - `drifted`: failure `drifted`, a candidate between 0.60 and 0.85 that is never acted on;
 *   `action` when its name says another action than the remembered one's (actions.ts).
 * - `ambiguous`: failure `ambiguous` with `repair: true` (two candidates within 0.15), each with
 *   what changed against the remembered element (`changes`).
 * - `not-found`: the plain not-found plus `repairTried: true`, `bestScore` and `note`
 *   (when the page had more than 2000 candidate elements).
 * `elements` (the proposed element, or the ones that could not be told apart, best first) and
 * `stats` are for outlines and the benchmark; resolve may ignore them.
 */
export type RepairOutcome<E = Element> = (
  | { kind: 'found'; element: E; via: 'descriptor' | 'repair'; repair: Repair }
  | {
      kind: 'drifted';
      candidate: Descriptor;
      score: number;
      runnerUp: number;
      old: Descriptor;
      changed: string[];
      changes: string[];
      action?: AnotherAction;
    }
  | { kind: 'ambiguous'; candidates: { descriptor: Descriptor; score: number; changes: string[] }[]; old: Descriptor }
  | {
      kind: 'not-found';
      bestScore: number;
      note?: string;
      /** The best candidate, too far from the remembered element to propose: named, never acted on. */
      closest?: { descriptor: Descriptor; changes: string[] };
      /**
       * For a role target: the element most like the remembered one among all roles, when it has
       * another role and scores at least the drifted threshold (a button that became a link).
       */
      otherRole?: { descriptor: Descriptor; score: number; changes: string[] };
    }
) & { elements?: E[]; stats?: RepairStats };
