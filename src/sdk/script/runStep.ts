import type { Session } from '../session/Session.js';
import { executeStep, type StepOutcome } from './executeStep.js';
import { STEP_SCHEMAS, type ScriptStep, type StepAction } from './schema.js';

/**
 * Runs one script step in `session`, exactly as `aite run` runs it (a navigate's URL must be
 * absolute). For tools built on the script format, such as `aite mcp`: each of their actions is a
 * script step, so a step kind added to scripts is one place to add it to them too.
 * @internal
 */
export function runStep(session: Session, step: ScriptStep, options: { timeoutMs?: number } = {}): Promise<StepOutcome> {
  // A tool's step is run as given: `${NAME}` is a script file's, not an agent's.
  const planned = { section: 'steps', number: 1, step, run: step, profile: session.profile, browser: true, ...('navigate' in step ? { url: step.navigate } : {}) } as const;
  return executeStep(planned, () => session, { defaultTimeoutMs: options.timeoutMs ?? 5_000 });
}

/**
 * The zod schema of one step kind, by its action key: what tools built on the script format
 * derive their inputs from (`stepSchema('verify').shape.verify` is the verify kinds).
 * @internal
 */
export function stepSchema<A extends StepAction>(action: A): (typeof STEP_SCHEMAS)[A] {
  return STEP_SCHEMAS[action];
}

export type { StepOutcome };
