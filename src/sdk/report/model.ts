import { z } from 'zod';
import { ConfinedPathSchema } from './confined.js';

// The report model: what report.json holds, and what the HTML and JUnit writers read. It is a
// schema so `merge-reports` checks what it joins instead of trusting it.

const WarningSchema = z.object({ code: z.string(), message: z.string() });

const RepairDiffSchema = z.object({ field: z.string(), before: z.string(), after: z.string() });

const StepRepairSchema = z.object({
  score: z.number(),
  runnerUp: z.number(),
  changed: z.array(z.string()),
  changes: z.array(z.string()),
  /** Each changed field, before and after. */
  diff: z.array(RepairDiffSchema),
  /** The element as remembered. */
  old: z.record(z.string(), z.unknown()).optional(),
  /** `written` with --update-lock; `proposed` otherwise. */
  lock: z.enum(['written', 'proposed']),
});

const TabEventSchema = z.object({
  kind: z.enum(['tab-opened', 'tab-closed', 'navigated']),
  tab: z.number(),
  url: z.string().optional(),
  /** A `navigated` that loaded no document: a single-page app's route change (history API, #fragment). */
  sameDocument: z.literal(true).optional(),
  profile: z.string(),
});

/** Where the step's input took the run's tab (see StepResult.navigated). */
const StepNavigationSchema = z.object({
  /** The run tab's address when the step began, when known. */
  from: z.string().optional(),
  to: z.string(),
  /** The address changed within the document: no page loaded (a single-page app's route change). */
  sameDocument: z.literal(true).optional(),
});

/** A page error of the step: uncaught, a rejection, console.error/warn, a failed resource load. */
const ConsoleErrorSchema = z.object({
  kind: z.enum(['error', 'rejection', 'console-error', 'console-warning', 'resource']).optional(),
  text: z.string(),
  url: z.string().optional(),
  source: z.string().optional(),
  tab: z.number().optional(),
  profile: z.string(),
});

/** A request of the step that failed (no answer, or an HTTP error status). */
const FailedRequestSchema = z.object({
  url: z.string(),
  method: z.string(),
  status: z.number().optional(),
  type: z.string(),
  ms: z.number().optional(),
  failed: z.string().optional(),
  profile: z.string(),
});

/** A native dialog the run answered during the step. */
const StepDialogSchema = z.object({
  type: z.enum(['alert', 'confirm', 'prompt', 'beforeunload']),
  message: z.string(),
  defaultPrompt: z.string().optional(),
  accepted: z.boolean(),
  promptText: z.string().optional(),
  url: z.string(),
  tab: z.number().optional(),
  by: z.enum(['armed', 'policy']),
  profile: z.string(),
});

/** `skipped`: not run (an earlier step failed, or the run was interrupted); `interrupted`: running when the run was stopped. */
export const STEP_STATUSES = ['passed', 'failed', 'skipped', 'interrupted'] as const;

const StepReportSchema = z.object({
  /** `pre` or `steps`. */
  section: z.enum(['pre', 'steps']),
  /** 1-based within its section. */
  number: z.number().int().positive(),
  /** The action key: click, verify, ... */
  action: z.string(),
  /** What the script called it, or a description. */
  title: z.string(),
  profile: z.string(),
  status: z.enum(STEP_STATUSES),
  /** Why it failed: a protocol reason (pre-state for a failed pre step). */
  reason: z.string().optional(),
  /** The reason of the underlying failure when `reason` is pre-state. */
  cause: z.string().optional(),
  message: z.string().optional(),
  detail: z.record(z.string(), z.unknown()).optional(),
  callLog: z.array(z.string()).optional(),
  retries: z.number().int().nonnegative(),
  /** Which commands the retries re-sent, and how often each (absent when none was). */
  retried: z.record(z.string(), z.number().int().positive()).optional(),
  repaired: z.boolean().optional(),
  repair: StepRepairSchema.optional(),
  warnings: z.array(WarningSchema),
  consoleErrors: z.array(ConsoleErrorSchema),
  tabEvents: z.array(TabEventSchema),
  /** Requests of the step that failed (over the pipe). */
  failedRequests: z.array(FailedRequestSchema).optional(),
  /** Native dialogs answered during the step (absent when none opened). */
  dialogs: z.array(StepDialogSchema).optional(),
  /** Where the step's input took the run's tab, from and to (absent when it went nowhere). */
  navigated: StepNavigationSchema.optional(),
  /** Milliseconds since the script started. */
  startMs: z.number().nonnegative(),
  durationMs: z.number().nonnegative(),
  /** A screenshot file, relative to the report dir and inside it (no `..`, not absolute). */
  screenshot: ConfinedPathSchema.optional(),
  /** The step's line in the script file. */
  line: z.number().int().positive().optional(),
});

export const SCRIPT_STATUSES = ['passed', 'failed', 'pre-state', 'error', 'interrupted', 'skipped'] as const;

const ScriptReportSchema = z.object({
  /** The script file, relative to the working directory of the run. */
  file: z.string(),
  name: z.string(),
  /**
   * passed; failed (a step failed); pre-state (a pre step failed); error (could not run);
   * interrupted (running when the run was stopped); skipped (not begun when the run was stopped).
   */
  status: z.enum(SCRIPT_STATUSES),
  /** The failure in one sentence, when not passed. */
  error: z.object({ reason: z.string().optional(), message: z.string() }).optional(),
  /** Warnings of the script as a whole (closing Chrome, ...). */
  warnings: z.array(WarningSchema).optional(),
  profiles: z.array(z.string()),
  /** How long starting Chrome (every profile at once) took, when it was started. */
  launchMs: z.number().nonnegative().optional(),
  /** The Chrome was the previous script's, reset (`launchMs` is then the reset's time), not a new launch. */
  chromeReused: z.boolean().optional(),
  startedAt: z.string(),
  durationMs: z.number().nonnegative(),
  retries: z.number().int().nonnegative(),
  steps: z.array(StepReportSchema),
});

export const RunReportSchema = z.object({
  /** Format version of report.json. */
  version: z.literal(1),
  tool: z.object({ name: z.literal('aite'), version: z.string() }),
  startedAt: z.string(),
  durationMs: z.number().nonnegative(),
  /** A script's status, or `interrupted` when the run was stopped before its end. */
  status: z.enum(SCRIPT_STATUSES),
  /** What stopped the run before its end: the signal (`SIGINT`, `SIGTERM`, `SIGHUP`) or the abort's reason. */
  interrupted: z.string().optional(),
  shard: z.object({ index: z.number().int().positive(), total: z.number().int().positive() }).optional(),
  /** Reports joined by merge-reports, by their folder. */
  mergedFrom: z.array(z.string()).optional(),
  totals: z.object({
    scripts: z.number().int(),
    passed: z.number().int(),
    failed: z.number().int(),
    preState: z.number().int(),
    errors: z.number().int(),
    /** Scripts running when the run was stopped (absent in reports of runs that ended before this was counted). */
    interrupted: z.number().int().optional(),
    /** Scripts not begun when the run was stopped. */
    skipped: z.number().int().optional(),
    steps: z.number().int(),
    retries: z.number().int(),
    repairs: z.number().int(),
  }),
  scripts: z.array(ScriptReportSchema),
});

/**
 * One step in the report.
 *
 * @example
 * ```ts
 * import { runSuite, type StepReport } from 'aite';
 *
 * const { report } = await runSuite(['send.aite.json']);
 * const failed: StepReport | undefined = report.scripts[0]?.steps.find((step) => step.status === 'failed');
 * if (failed) console.error(`step ${failed.number} (${failed.title}): ${failed.reason}, screenshot ${failed.screenshot}`);
 * ```
 * @public
 */
export type StepReport = z.infer<typeof StepReportSchema>;
/**
 * One script in the report.
 *
 * @example
 * ```ts
 * import { runSuite, type ScriptReport } from 'aite';
 *
 * const { report } = await runSuite(['send.aite.json', 'login.aite.json']);
 * const failed: ScriptReport[] = report.scripts.filter((script) => script.status !== 'passed');
 * for (const script of failed) console.error(`${script.file}: ${script.error?.message}`);
 * ```
 * @public
 */
export type ScriptReport = z.infer<typeof ScriptReportSchema>;
/**
 * A whole run: what report.json holds.
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * import type { RunReport } from 'aite';
 *
 * const report = JSON.parse(await readFile('aite-report/report.json', 'utf8')) as RunReport;
 * console.log(`${report.totals.passed}/${report.totals.scripts} passed in ${report.durationMs} ms`);
 * ```
 * @public
 */
export type RunReport = z.infer<typeof RunReportSchema>;
/**
 * How a script ended.
 *
 * @example
 * ```ts
 * import { runSuite, type ScriptStatus } from 'aite';
 *
 * const exitCode: Record<ScriptStatus, number> = { passed: 0, failed: 1, error: 1, 'pre-state': 3, interrupted: 1, skipped: 1 };
 * const { report } = await runSuite(['send.aite.json']);
 * process.exitCode = exitCode[report.status];
 * ```
 * @public
 */
export type ScriptStatus = ScriptReport['status'];
/**
 * A repair as the report shows it.
 *
 * @example
 * ```ts
 * import { runSuite, type StepRepair } from 'aite';
 *
 * const { report } = await runSuite(['send.aite.json']);
 * const repairs: StepRepair[] = report.scripts.flatMap((script) => script.steps.flatMap((step) => (step.repair ? [step.repair] : [])));
 * for (const repair of repairs) console.log(repair.lock, repair.diff.map((d) => `${d.field}: ${d.before} -> ${d.after}`));
 * ```
 * @public
 */
export type StepRepair = z.infer<typeof StepRepairSchema>;

/**
 * A file the report refers to (a screenshot), with its bytes, until it is written.
 *
 * @example
 * ```ts
 * import { runSuite, type Attachment } from 'aite';
 *
 * const run = await runSuite(['send.aite.json']);
 * const pictures: Attachment[] = run.attachments; // the screenshots the report names
 * ```
 * @public
 */
export interface Attachment {
  /** Relative to the report dir, e.g. `screenshots/send-step-4.png`. */
  file: string;
  /** The PNG. */
  bytes: Uint8Array;
}

/**
 * A script's report and its screenshots, as `runScript` returns them.
 * @internal
 */
export interface ScriptRun {
  /** What happened, step by step. */
  report: ScriptReport;
  /** The screenshots the report names. */
  attachments: Attachment[];
}

/**
 * The run's status from its scripts': an interruption (a script running or not begun when the run
 * was stopped) beats an error beats a failure beats an unmet pre-state.
 */
export function overallStatus(scripts: readonly ScriptReport[]): ScriptStatus {
  const statuses = new Set(scripts.map((s) => s.status));
  if (statuses.has('skipped')) return 'interrupted';
  for (const status of ['interrupted', 'error', 'failed', 'pre-state'] as const) if (statuses.has(status)) return status;
  return 'passed';
}

/**
 * Builds the run report from its scripts' reports.
 * @internal
 */
export function createRunReport(
  scripts: ScriptReport[],
  meta: { version: string; startedAt: string; durationMs: number; interrupted?: string; shard?: { index: number; total: number }; mergedFrom?: string[] },
): RunReport {
  const count = (status: ScriptStatus): number => scripts.filter((s) => s.status === status).length;
  return {
    version: 1,
    tool: { name: 'aite', version: meta.version },
    startedAt: meta.startedAt,
    durationMs: meta.durationMs,
    // A run stopped between two scripts (or before the first) is interrupted all the same.
    status: meta.interrupted !== undefined ? 'interrupted' : overallStatus(scripts),
    ...(meta.interrupted !== undefined ? { interrupted: meta.interrupted } : {}),
    ...(meta.shard ? { shard: meta.shard } : {}),
    ...(meta.mergedFrom ? { mergedFrom: meta.mergedFrom } : {}),
    totals: {
      scripts: scripts.length,
      passed: count('passed'),
      failed: count('failed'),
      preState: count('pre-state'),
      errors: count('error'),
      interrupted: count('interrupted'),
      skipped: count('skipped'),
      steps: scripts.reduce((n, s) => n + s.steps.length, 0),
      retries: scripts.reduce((n, s) => n + s.retries, 0),
      repairs: scripts.reduce((n, s) => n + s.steps.filter((step) => step.repair).length, 0),
    },
    scripts,
  };
}

/**
 * The exit code of a run: 0 all passed, 1 a step failed (or a script could not run, or the run
 * was interrupted), 3 a pre-state check was not met (and nothing else failed). Usage mistakes (2)
 * never reach a report. (`aite run` stopped by a signal exits with the shell's code for it, 130
 * for SIGINT, whatever its report says.)
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * import { exitCodeOf, type RunReport } from 'aite';
 *
 * const report = JSON.parse(await readFile('aite-report/report.json', 'utf8')) as RunReport;
 * process.exitCode = exitCodeOf(report); // 0 passed, 1 failed, 3 a pre-state was not met
 * ```
 * @public
 */
export function exitCodeOf(report: Pick<RunReport, 'scripts'>): 0 | 1 | 3 {
  const statuses = new Set(report.scripts.map((s) => s.status));
  if (['failed', 'error', 'interrupted', 'skipped'].some((status) => statuses.has(status as ScriptStatus))) return 1;
  if (statuses.has('pre-state')) return 3;
  return 0;
}
