import type { Command, Repair, Target } from '../protocol/index.js';

/**
 * A target as a script names it: a plain string is `{ text }`.
 * @public
 */
export type TargetInput = string | Target;

/** @public */
export function toTarget(input: TargetInput): Target {
  return typeof input === 'string' ? { text: input } : input;
}

/**
 * Something worth knowing that did not fail the step.
 * @public
 */
export interface Warning {
  /** `screenshot`, `outline`, `lock`, ... */
  code: string;
  message: string;
}

/**
 * What a composed step returns.
 * @public
 */
export interface StepResult {
  ok: true;
  /** Re-sends counted during this step (navigation and reconnect). */
  retries: number;
  /** True when the element was found by repair rather than by the exact target. */
  repaired?: boolean;
  repair?: Repair;
  warnings: Warning[];
  durationMs: number;
}

/**
 * Re-sends counted over the session, in total and by command.
 * @public
 */
export interface RetryCounts {
  total: number;
  byCommand: Partial<Record<Command, number>>;
}

/**
 * One finished step, as the Session reports it.
 * @public
 */
export interface StepRecord {
  name: string;
  target?: Target;
  ok: boolean;
  reason?: string;
  retries: number;
  durationMs: number;
  warnings: Warning[];
  repaired?: boolean;
}
