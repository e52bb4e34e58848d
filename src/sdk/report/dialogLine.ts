import type { StepReport } from './model.js';

/**
 * What a line about an answered dialog needs of it: a {@link StepReport}'s dialog, or a `DialogRecord`.
 *
 * @example
 * ```ts
 * import { describeDialog, type DialogFacts } from 'aite';
 *
 * const kept: DialogFacts = { type: 'confirm', message: 'Delete the draft?', accepted: false, by: 'policy' };
 * console.log(describeDialog(kept)); // A confirm dialog opened: "Delete the draft?"; it was dismissed (no answer was armed).
 * ```
 * @public
 */
export type DialogFacts = Pick<NonNullable<StepReport['dialogs']>[number], 'type' | 'message' | 'accepted' | 'promptText' | 'by'>;

/**
 * One sentence about a native dialog the run answered: what it said, how it was answered, and
 * whether a `dialog` step (`dialogs.next()`) armed that answer or the dialogs policy gave it. The
 * CLI's progress lines, the JUnit report and `aite mcp` all say it so.
 *
 * @example
 * ```ts
 * import { describeDialog, type Session } from 'aite';
 *
 * declare const session: Session;
 * for (const d of session.dialogs.seen) console.log(describeDialog(d));
 * // A confirm dialog opened: "Delete the draft?"; it was dismissed (no answer was armed).
 * ```
 * @public
 */
export function describeDialog(d: DialogFacts): string {
  const answered = `${d.accepted ? 'accepted' : 'dismissed'}${d.promptText !== undefined ? ` with ${JSON.stringify(d.promptText)}` : ''}`;
  return `${d.type === 'alert' ? 'An' : 'A'} ${d.type} dialog opened: ${JSON.stringify(d.message)}; it was ${answered}${d.by === 'armed' ? '' : ' (no answer was armed)'}.`;
}
