
import { basename, dirname, relative } from 'node:path';
import type { AiteConfig } from '../config/schema.js';
import { resolveConfig } from '../config/loadConfig.js';
import { AiteError } from '../errors/AiteError.js';
import { LockFile } from '../lock/LockFile.js';
import { DEFAULT_TIMEOUT_MS } from '../protocol/index.js';
import { launch as defaultLaunch } from '../session/launch.js';
import type { SessionPool } from '../session/SessionPool.js';
import type { LaunchOptions } from '../session/options.js';
import { isFailedRequest } from '../session/RunRecords.js';
import type { Session } from '../session/Session.js';
import type { StepResult, Warning } from '../session/types.js';
import { ConfinedPathError, writeConfined } from '../report/confined.js';
import type { Attachment, ScriptReport, ScriptRun, StepRepair, StepReport } from '../report/model.js';
import { describeStep } from './describeStep.js';
import { executeStep } from './executeStep.js';
import { hideValues, hideValuesDeep, type ScriptEnv, type UsedVariable } from './scriptEnv.js';
import { loadScript, type LoadedScript } from './parseScript.js';
import { planScript, type PlannedStep, type ScriptPlan } from './planScript.js';
import { ProfileSessions } from './ProfileSessions.js';
import { actionOf } from './schema.js';
import type { Shard } from './shard.js';
import { makeFolder } from '../system/folders.js';

/**
 * Hears about a script run as it happens (the CLI's progress lines are one).
 *
 * @example
 * ```ts
 * import { runSuite, type RunListener } from 'aite';
 *
 * const progress: RunListener = {
 *   stepStart: ({ number, title }) => process.stdout.write(`${number}. ${title} ... `),
 *   stepEnd: (step) => console.log(step.status === 'passed' ? 'ok' : `${step.reason}: ${step.message}`),
 * };
 * await runSuite(['send.aite.json'], { listener: progress });
 * ```
 * @public
 */
export interface RunListener {
  /** Every script is checked and the suite begins (`runSuite`): these scripts, of `total` before sharding. */
  suiteStart?(info: { scripts: string[]; total: number; shard?: Shard }): void;
  /** The config's web server answers (`runSuite`): started by aite, or `reused` when it already did. */
  webServerStarted?(info: { command: string; url: string; reused: boolean }): void;
  /** A script begins. */
  scriptStart?(info: { file: string; name: string; steps: number; profiles: string[] }): void;
  /** Chrome (one per profile) is starting, before the first step that needs it. */
  launchStart?(info: { file: string; profiles: string[] }): void;
  /** Chrome (one per profile) started, before the first step that needs it. */
  launched?(info: { file: string; profiles: string[]; durationMs: number; error?: string; reused?: boolean }): void;
  /** A step begins. */
  stepStart?(info: { file: string; section: 'pre' | 'steps'; number: number; action: string; title: string; profile: string }): void;
  /** A step ended: passed, failed, skipped or interrupted. */
  stepEnd?(step: StepReport, info: { file: string }): void;
  /** A script ended; its report is complete. */
  scriptEnd?(report: ScriptReport): void;
}

/**
 * Options of {@link runScript}.
 * @internal
 */
export interface RunScriptOptions {
  /** The config (see `loadConfig`); default: no file, defaults only. */
  config?: AiteConfig;
  /** Write proposed repairs into the lock file. */
  updateLock?: boolean;
  /** Told of each script and step as they run. */
  listener?: RunListener;
  /** Paths in the report are shown relative to it; default the working directory. */
  cwd?: string;
  /** Starts a session per profile; default {@link launch}. */
  launch?: (options: LaunchOptions) => Promise<Session>;
  /** Used by `http` steps; default the global fetch. */
  fetch?: typeof fetch;
  /** Sessions shared with the other scripts of a suite: taken (reset) and handed back, not launched and closed. */
  pool?: SessionPool;
  /** Where `${NAME}` values come from; default `process.env`. */
  env?: ScriptEnv;
  /** Stops the script: the step running is reported `interrupted` (its request abandoned), the rest `skipped`. */
  signal?: AbortSignal;
}

/**
 * Runs a step script: launches a Chrome (and bridge) for each profile its steps name, runs the
 * `pre` steps (a failure there is reason `pre-state`) and then the steps, routing each to its
 * profile's session, and answers the report of every step with its screenshots. A usage mistake
 * (unknown profile, relative URL without baseUrl, no Chrome) throws `UsageError` before anything
 * starts; a failing step never throws: it is in the report.
 * @internal
 */
export async function runScript(script: string | LoadedScript, options: RunScriptOptions = {}): Promise<ScriptRun> {
  const cwd = options.cwd ?? process.cwd();
  const config = options.config ?? resolveConfig({}, cwd);
  const loaded = typeof script === 'string' ? await loadScript(script, { cwd }) : script;
  const plan = planScript(loaded, config, { checkChrome: options.launch === undefined, env: options.env });
  if (config.lockFile) await LockFile.check(config.lockFile);
  return new ScriptRunner(plan, config, options, cwd).run();
}

/**
 * The report of a script the run was stopped before (`options.signal` aborted): every step
 * `skipped`, nothing started.
 * @internal
 */
export function notRunScript(script: LoadedScript, options: RunScriptOptions & { signal: AbortSignal }): ScriptReport {
  const cwd = options.cwd ?? process.cwd();
  const config = options.config ?? resolveConfig({}, cwd);
  const plan = planScript(script, config, { checkChrome: false });
  return new ScriptRunner(plan, config, options, cwd).notRun(options.signal);
}

class ScriptRunner {
  readonly #plan: ScriptPlan;
  readonly #config: AiteConfig;
  readonly #options: RunScriptOptions;
  readonly #file: string;
  readonly #slug: string;
  readonly #sessions: ProfileSessions;
  readonly #attachments: Attachment[] = [];
  #current: StepReport | undefined;
  #launchMs: number | undefined;
  /** The `dialog` step whose answer the next step of its profile should use. */
  #armedBy: PlannedStep | undefined;
  /** Events that came between steps go to the next one. */
  #pending: Pick<StepReport, 'warnings' | 'consoleErrors' | 'tabEvents' | 'dialogs' | 'failedRequests'> = { warnings: [], consoleErrors: [], tabEvents: [] };

  constructor(plan: ScriptPlan, config: AiteConfig, options: RunScriptOptions, cwd: string) {
    this.#plan = plan;
    this.#config = config;
    this.#options = options;
    this.#file = relative(cwd, plan.loaded.path) || plan.loaded.file;
    this.#slug = slugify(this.#file.replace(/\.(aite\.)?(json|ya?ml)$/i, ''));
    this.#sessions = new ProfileSessions(options.launch ?? defaultLaunch, {
      event: (profile, event) => {
        const into = this.#current ?? this.#pending;
        // The session turns the extension's console events into page errors (see pageError), its dialogs into the step's dialogs.
        if (event.kind === 'tab-opened' || event.kind === 'tab-closed' || event.kind === 'navigated') {
          into.tabEvents.push({ kind: event.kind, tab: event.tab, ...('url' in event ? { url: event.url } : {}), ...('sameDocument' in event && event.sameDocument ? { sameDocument: true } : {}), profile });
        }
      },
      pageError: (profile, error) => {
        // The text read when the report is written: the line that says how many of a step's
        // page errors were left out keeps counting after it was heard (see RunRecords).
        (this.#current ?? this.#pending).consoleErrors.push({
          ...error,
          profile,
          get text() {
            return error.text;
          },
        });
      },
      request: (profile, entry) => {
        if (!isFailedRequest(entry)) return;
        const into = this.#current ?? this.#pending;
        (into.failedRequests ??= []).push({ ...entry, profile });
      },
      dialog: (profile, dialog) => {
        const into = this.#current ?? this.#pending;
        (into.dialogs ??= []).push({ ...dialog, profile });
      },
      warning: (_profile, warning) => {
        const into = this.#current ?? this.#pending;
        if (!into.warnings.includes(warning)) into.warnings.push(warning);
      },
    }, options.pool);
  }

  async run(): Promise<ScriptRun> {
    const started = performance.now();
    const startedAt = new Date().toISOString();
    const { loaded, steps } = this.#plan;
    const name = loaded.script.name ?? basename(loaded.file);
    const listener = this.#options.listener;
    listener?.scriptStart?.({ file: this.#file, name, steps: steps.length, profiles: this.#plan.profiles.map((p) => p.name) });

    const reports: StepReport[] = [];
    let status: ScriptReport['status'] = 'passed';
    let error: ScriptReport['error'];
    const warnings: Warning[] = [];
    const signal = this.#options.signal;
    try {
      for (const planned of steps) {
        if (status === 'passed' && signal?.aborted) {
          status = 'interrupted';
          error = { message: `${interruptedText(signal)} before ${planned.section === 'pre' ? 'pre step' : 'step'} ${planned.number} (${hideValues(titleOf(planned), this.#plan.used)})` };
        }
        if (status !== 'passed') {
          reports.push(hideInStep(this.#skipped(planned, performance.now() - started, status === 'interrupted' ? `not run: ${interruptedText(signal!)}` : undefined), this.#plan.used));
          listener?.stepEnd?.(reports.at(-1)!, { file: this.#file });
          continue;
        }
        const ran = await this.#runStep(planned, performance.now() - started);
        const { launchFailed } = ran;
        // What the environment gave the script is said as its ${NAME} again, wherever it shows:
        // the step's own values, and the page echoing them (a user name in a descriptor's near text).
        const report = hideInStep(ran.report, this.#plan.used);
        reports.push(report);
        listener?.stepEnd?.(report, { file: this.#file });
        if (report.status === 'interrupted') {
          status = 'interrupted';
          error = { message: `${interruptedText(signal!)} during ${planned.section === 'pre' ? 'pre step' : 'step'} ${planned.number} (${report.title})` };
        } else if (report.status === 'failed') {
          status = launchFailed ? 'error' : planned.section === 'pre' ? 'pre-state' : 'failed';
          error = { reason: report.reason, message: `${planned.section === 'pre' ? 'pre step' : 'step'} ${planned.number} (${report.title}): ${report.message ?? 'failed'}` };
        }
      }
    } finally {
      const closeErrors = status === 'interrupted' ? await this.#sessions.abandon() : await this.#sessions.closeAll();
      for (const e of closeErrors) warnings.push({ code: 'close', message: e.message });
    }
    const report: ScriptReport = {
      file: this.#file,
      name,
      status,
      ...(error ? { error } : {}),
      ...(warnings.length > 0 ? { warnings } : {}),
      profiles: this.#plan.profiles.map((p) => p.name),
      ...(this.#launchMs !== undefined ? { launchMs: this.#launchMs } : {}),
      ...(this.#sessions.reused ? { chromeReused: true } : {}),
      startedAt,
      durationMs: Math.round(performance.now() - started),
      retries: reports.reduce((n, s) => n + s.retries, 0),
      steps: reports,
    };
    listener?.scriptEnd?.(report);
    return { report, attachments: this.#attachments };
  }

  async #runStep(planned: PlannedStep, startMs: number): Promise<{ report: StepReport; launchFailed: boolean }> {
    const report: StepReport = {
      ...this.#base(planned, startMs),
      status: 'passed',
      retries: 0,
      warnings: this.#pending.warnings,
      consoleErrors: this.#pending.consoleErrors,
      tabEvents: this.#pending.tabEvents,
      ...(this.#pending.failedRequests ? { failedRequests: this.#pending.failedRequests } : {}),
      ...(this.#pending.dialogs ? { dialogs: this.#pending.dialogs } : {}),
      durationMs: 0,
    };
    this.#pending = { warnings: [], consoleErrors: [], tabEvents: [] };
    this.#current = report;
    let t0 = performance.now();
    let launchFailed = false;
    try {
      if (planned.browser && !this.#sessions.started) {
        launchFailed = true;
        const profiles = this.#plan.profiles.map((p) => p.name);
        this.#options.listener?.launchStart?.({ file: this.#file, profiles });
        try {
          // The lock file's folder may not exist yet (a fresh checkout, an ignored out/ folder).
          if (this.#config.lockFile) await makeFolder(dirname(this.#config.lockFile));
          await untilAborted(this.#sessions.start(this.#plan.profiles.map((p) => ({ name: p.name, options: this.#launchOptions(p) }))), this.#options.signal);
        } catch (error) {
          this.#options.listener?.launched?.({ file: this.#file, profiles, durationMs: Math.round(performance.now() - t0), error: String(error) });
          throw error;
        }
        this.#launchMs = Math.round(performance.now() - t0);
        this.#options.listener?.launched?.({ file: this.#file, profiles, durationMs: this.#launchMs, ...(this.#sessions.reused ? { reused: true } : {}) });
        launchFailed = false;
        // The step's own time starts now; the launch is reported on its own.
        t0 = performance.now();
        report.startMs += this.#launchMs;
      }
      this.#stepStart(planned);
      const retriesBefore = this.#sessions.retries();
      const byCommandBefore = this.#sessions.retriesByCommand();
      try {
        const outcome = await untilAborted(
          executeStep(planned, planned.browser ? () => this.#sessions.get(planned.profile) : undefined, {
            defaultTimeoutMs: this.#plan.timeoutMs ?? DEFAULT_TIMEOUT_MS,
            scriptDir: dirname(this.#plan.loaded.path),
            cwd: this.#options.cwd ?? process.cwd(),
            fetch: this.#options.fetch,
          }),
          this.#options.signal,
        );
        if (outcome.result) this.#adoptResult(report, outcome.result);
        if (outcome.png) await this.#saveScreenshot(report, planned, outcome.png);
        this.#checkArmed(planned, report);
      } finally {
        report.retries = this.#sessions.retries() - retriesBefore;
        const retried = Object.entries(this.#sessions.retriesByCommand())
          .map(([command, n]) => [command, n - (byCommandBefore[command] ?? 0)] as const)
          .filter(([, n]) => n > 0);
        if (retried.length > 0) report.retried = Object.fromEntries(retried);
      }
    } catch (caught) {
      if (launchFailed) this.#stepStart(planned);
      if (caught instanceof Interrupted) {
        // Not a failure of the app: the step was stopped, and nothing of it is sent again.
        report.status = 'interrupted';
        report.message = interruptedText(this.#options.signal!);
        return { report, launchFailed: false };
      }
      const error =
        caught instanceof AiteError
          ? caught
          : new AiteError('internal', caught instanceof Error ? caught.message : String(caught), { cause: caught });
      report.status = 'failed';
      const message = error.message.split('\nCall log:\n')[0]!;
      if (planned.section === 'pre' && !launchFailed) {
        report.reason = 'pre-state';
        report.cause = error.reason;
        report.message = `Pre-state not met: ${message}`;
      } else {
        report.reason = error.reason;
        report.message = message;
      }
      if (Object.keys(error.detail).length > 0) report.detail = jsonSafe(error.detail) as Record<string, unknown>;
      if (error.callLog.length > 0) report.callLog = [...error.callLog];
      if (error.retries && report.retries === 0) {
        report.retries = error.retries;
        if (error.command) report.retried = { [error.command]: error.retries };
      }
      // Every Session call pictures its own failure (outlined); the runner only files it.
      if (error.screenshot) await this.#saveScreenshot(report, planned, error.screenshot, 'failed');
    } finally {
      report.durationMs = Math.round(performance.now() - t0);
      this.#current = undefined;
    }
    return { report, launchFailed };
  }

  /**
   * A `dialog` step arms an answer for the dialog of the step after it. When that step opened
   * none, the step says so: the answer stays armed (as `dialogs.next()` does) and would answer
   * whatever dialog opens next, such as a confirm of another delete after a redesign removed this one.
   */
  #checkArmed(planned: PlannedStep, report: StepReport): void {
    if ('dialog' in planned.run) {
      this.#armedBy = planned;
      return;
    }
    const by = this.#armedBy;
    if (!by || by.profile !== planned.profile) return;
    this.#armedBy = undefined;
    const left = this.#sessions.get(planned.profile).dialogs.armedAnswers.armed.length;
    if (left === 0) return;
    report.warnings.push({
      code: 'dialog',
      message: `The dialog answer armed by step ${by.number} was not used: no dialog opened during this step. It stays armed and will answer the next dialog that opens; if the page no longer asks here, remove the dialog step.`,
    });
  }

  #stepStart(planned: PlannedStep): void {
    this.#options.listener?.stepStart?.({
      file: this.#file,
      section: planned.section,
      number: planned.number,
      action: actionOf(planned.step),
      title: hideValues(titleOf(planned), this.#plan.used),
      profile: planned.profile,
    });
  }

  #base(planned: PlannedStep, startMs: number): Pick<StepReport, 'section' | 'number' | 'action' | 'title' | 'profile' | 'startMs' | 'line'> {
    return {
      section: planned.section,
      number: planned.number,
      action: actionOf(planned.step),
      title: titleOf(planned),
      profile: planned.profile,
      startMs: Math.round(startMs),
      ...(planned.line ? { line: planned.line } : {}),
    };
  }

  #skipped(planned: PlannedStep, startMs: number, message?: string): StepReport {
    return { ...this.#base(planned, startMs), status: 'skipped', ...(message ? { message } : {}), retries: 0, warnings: [], consoleErrors: [], tabEvents: [], durationMs: 0 };
  }

  /** The report of a script the run was stopped before: every step not run. */
  notRun(signal: AbortSignal): ScriptReport {
    const { loaded, steps } = this.#plan;
    const message = `not run: ${interruptedText(signal)}`;
    return {
      file: this.#file,
      name: loaded.script.name ?? basename(loaded.file),
      status: 'skipped',
      error: { message: `${interruptedText(signal)} before this script began` },
      profiles: this.#plan.profiles.map((p) => p.name),
      startedAt: new Date().toISOString(),
      durationMs: 0,
      retries: 0,
      steps: steps.map((planned) => this.#skipped(planned, 0, message)),
    };
  }

  #launchOptions(profile: ScriptPlan['profiles'][number]): LaunchOptions {
    return {
      allow: profile.allow,
      profile: profile.name,
      ...(profile.chrome ? { chrome: profile.chrome } : {}),
      ...(profile.userDataDir ? { userDataDir: profile.userDataDir } : {}),
      headless: this.#config.headless,
      ...(this.#config.lockFile ? { lockFile: this.#config.lockFile } : {}),
      updateLock: this.#options.updateLock ?? false,
      ...(this.#plan.timeoutMs ? { timeoutMs: this.#plan.timeoutMs } : {}),
      ...(this.#config.dialogs ? { dialogs: this.#config.dialogs } : {}),
      ...(this.#config.permissions ? { permissions: this.#config.permissions } : {}),
    };
  }

  #adoptResult(report: StepReport, result: StepResult): void {
    for (const warning of result.warnings) if (!report.warnings.includes(warning)) report.warnings.push(warning);
    if (result.repaired) report.repaired = true;
    if (result.repair) {
      report.repaired = true;
      report.repair = toStepRepair(result.repair, this.#options.updateLock ?? false);
    }
    if (result.navigated !== undefined) {
      report.navigated = { ...(result.navigatedFrom !== undefined ? { from: result.navigatedFrom } : {}), to: result.navigated, ...(result.sameDocument ? { sameDocument: true } : {}) };
    }
  }

  async #saveScreenshot(report: StepReport, planned: PlannedStep, png: Uint8Array, suffix?: string): Promise<void> {
    const step = planned.run;
    const named = 'screenshot' in step && typeof step.screenshot === 'string' ? step.screenshot : typeof (step as { screenshot?: { name?: string } }).screenshot === 'object' ? (step as { screenshot: { name?: string } }).screenshot.name : undefined;
    const base = `${this.#slug}-${planned.section === 'pre' ? 'pre' : 'step'}-${planned.number}${named ? `-${slugify(named.replace(/\.png$/i, ''))}` : ''}${suffix ? `-${suffix}` : ''}`;
    const file = `screenshots/${base}.png`;
    this.#attachments.push({ file, bytes: png });
    report.screenshot = file;
    const path = 'screenshot' in step && typeof step.screenshot === 'object' && step.screenshot !== null && 'path' in step.screenshot ? step.screenshot.path : undefined;
    // A failure's picture goes into the report only; the step's own path is for its own picture.
    if (!path || suffix) return;
    await writeConfined(this.#options.cwd ?? process.cwd(), path, png).catch((error: unknown) => {
      if (!(error instanceof ConfinedPathError)) throw error;
      throw new AiteError('unsupported', `The screenshot was not written to ${path}: ${error.message.slice(path.length + 2)}.`, { cause: error, detail: { path } });
    });
  }
}

/**
 * `report` with the values of `used` said as `${NAME}` in every string; a page error's text is
 * read when the report is written (see RunRecords), so it is hidden when read.
 */
function hideInStep(report: StepReport, used: readonly UsedVariable[]): StepReport {
  if (used.length === 0) return report;
  const { consoleErrors, ...rest } = report;
  const hidden = hideValuesDeep(rest, used) as Omit<StepReport, 'consoleErrors'>;
  return {
    ...hidden,
    consoleErrors: consoleErrors.map((e) => {
      const { text: _text, ...fields } = e;
      return Object.defineProperty(hideValuesDeep(fields, used), 'text', { get: () => hideValues(e.text, used), enumerable: true }) as typeof e;
    }),
  };
}

/** What a stopped run's steps and scripts say: `interrupted by SIGINT`. */
function interruptedText(signal: AbortSignal): string {
  const why = reasonOf(signal);
  return why ? `interrupted by ${why}` : 'interrupted';
}

/** What the run was stopped by, as the report's `interrupted` names it. */
export function interruptionOf(signal: AbortSignal): string {
  return reasonOf(signal) ?? 'abort';
}

/** An abort's reason in words: a string (a signal's name) as it is, an `Error`'s message; none for a bare `abort()`. */
function reasonOf(signal: AbortSignal): string | undefined {
  const reason: unknown = signal.reason;
  if (typeof reason === 'string') return reason;
  return reason instanceof Error && reason.name !== 'AbortError' ? reason.message : undefined;
}

/** Thrown by {@link untilAborted}: the work was left running, its outcome no longer wanted. */
class Interrupted extends Error {}

/**
 * `work`, or {@link Interrupted} as soon as `signal` aborts. The work is abandoned, not undone:
 * closing its session ends what it still waits for, and its late failure is nobody's.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  work.catch(() => undefined);
  if (signal.aborted) return Promise.reject(new Interrupted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Interrupted());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Whether `error` is {@link untilAborted}'s. */
export function isInterrupted(error: unknown): boolean {
  return error instanceof Interrupted;
}

/** The step's description, with a relative URL shown in full. */
function titleOf(planned: PlannedStep): string {
  if (!planned.step.name && 'navigate' in planned.step && planned.url) return `navigate ${planned.url}`;
  return describeStep(planned.step);
}

function toStepRepair(repair: NonNullable<StepResult['repair']>, updateLock: boolean): StepRepair {
  return {
    score: repair.score,
    runnerUp: repair.runnerUp,
    changed: repair.changed,
    changes: repair.changes,
    diff: repair.changes.map(parseChange),
    old: jsonSafe(repair.old) as Record<string, unknown>,
    lock: updateLock ? 'written' : 'proposed',
  };
}

/** `text "Send" -> "Send money"` as field, before, after. */
export function parseChange(change: string): { field: string; before: string; after: string } {
  const match = /^(\S+) (.*) -> (.*)$/s.exec(change);
  if (!match) return { field: change, before: '', after: '' };
  return { field: match[1]!, before: match[2]!, after: match[3]! };
}

function slugify(text: string): string {
  return text.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'script';
}

/** A copy that JSON can hold: no bytes, no cycles, no functions. */
function jsonSafe(value: unknown, seen = new WeakSet<object>()): unknown {
  if (value === null || typeof value !== 'object') return typeof value === 'function' || typeof value === 'bigint' ? String(value) : value;
  if (value instanceof Uint8Array) return `(${value.byteLength} bytes)`;
  if (seen.has(value)) return '(circular)';
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => jsonSafe(v, seen));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonSafe(v, seen)]));
}

export type { Warning };
