import type { Command, Repair, Target } from '../protocol/index.js';

/**
 * A target as a script names it: a plain string is `{ text }`.
 *
 * @example
 * ```ts
 * import type { Session, TargetInput } from 'aite';
 *
 * declare const session: Session;
 * const targets: TargetInput[] = ['Send', { text: 'Send' }, { role: 'button', name: 'Send' }];
 * for (const target of targets) await session.verify.exists(target);
 * ```
 * @public
 */
export type TargetInput = string | Target;

/** @public */
export function toTarget(input: TargetInput): Target {
  return typeof input === 'string' ? { text: input } : input;
}

/**
 * Something worth knowing that did not fail the step.
 *
 * @example
 * ```ts
 * import type { Session, Warning } from 'aite';
 *
 * declare const session: Session;
 * const step = await session.click({ text: 'Send' });
 * const warnings: Warning[] = step.warnings;
 * for (const w of warnings) console.warn(`${w.code}: ${w.message}`);
 * ```
 * @public
 */
export interface Warning {
  /** `screenshot`, `outline`, `lock`, ... */
  code: string;
  message: string;
}

/**
 * What a composed step returns.
 *
 * @example
 * ```ts
 * import type { Session, StepResult } from 'aite';
 *
 * declare const session: Session;
 * const result: StepResult = await session.click({ text: 'Send' });
 * if (result.repaired) console.log('found by repair:', result.repair?.changes);
 * console.log(`${result.durationMs} ms, ${result.retries} re-send(s)`);
 * ```
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
 *
 * @example
 * ```ts
 * import type { RetryCounts, Session } from 'aite';
 *
 * declare const session: Session;
 * const counts: RetryCounts = session.retries;
 * console.log(`re-sent ${counts.total} time(s); resolve ${counts.byCommand.resolve ?? 0}`);
 * ```
 * @public
 */
export interface RetryCounts {
  total: number;
  byCommand: Partial<Record<Command, number>>;
}

/**
 * One finished step, as the Session reports it.
 *
 * @example
 * ```ts
 * import type { Session, StepRecord } from 'aite';
 *
 * declare const session: Session;
 * const slow: StepRecord[] = [];
 * session.on('step', (record) => {
 *   if (record.durationMs > 2_000) slow.push(record);
 * });
 * ```
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
