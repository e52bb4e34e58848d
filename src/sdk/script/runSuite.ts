import type { AiteConfig } from '../config/schema.js';
import { resolveConfig } from '../config/loadConfig.js';
import { startWebServer, type WebServer } from '../config/startWebServer.js';
import { UsageError, type UsageIssue } from '../errors/UsageError.js';
import { packageVersion } from '../launch/packageRoot.js';
import { createRunReport, type Attachment, type RunReport, type ScriptReport } from '../report/model.js';
import type { LaunchOptions } from '../session/options.js';
import type { Session } from '../session/Session.js';
import { findScripts } from './findScripts.js';
import { loadScript, type LoadedScript } from './parseScript.js';
import { LockFile } from '../lock/LockFile.js';
import { planScript } from './planScript.js';
import { interruptionOf, notRunScript, runScript, untilAborted, isInterrupted, type RunListener } from './runScript.js';
import { SessionPool } from '../session/SessionPool.js';
import { parseShard, selectShard } from './shard.js';

/**
 * Options of {@link runSuite}.
 *
 * @example
 * ```ts
 * import { loadConfig, runSuite, type RunSuiteOptions } from 'aite';
 *
 * const options: RunSuiteOptions = { config: await loadConfig({ overrides: { headless: true } }), shard: '1/2' };
 * const { report } = await runSuite(['scripts/'], options);
 * ```
 * @public
 */
export interface RunSuiteOptions {
  /** The config (see `loadConfig`); default: no file, defaults only. */
  config?: AiteConfig;
  /** Write proposed repairs into the lock file (the config must name one). */
  updateLock?: boolean;
  /** Only this slice of the scripts, `i/n` (`2/3`), for one of several CI machines. */
  shard?: string;
  /** Start the config's `webServer` before the scripts and stop it after. Default true. */
  webServer?: boolean;
  /** Told of the suite, each script and each step as they run. */
  listener?: RunListener;
  /** Script paths and paths in the report are relative to it; default the working directory. */
  cwd?: string;
  /** The tool version the report names; default aite's own. */
  version?: string;
  /** Starts a session per profile; default {@link launch}. */
  launch?: (options: LaunchOptions) => Promise<Session>;
  /** Used by `http` steps; default the global fetch. */
  fetch?: typeof fetch;
  /** Where a script's `${NAME}` values come from; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Stops the run when it aborts (`aite run` aborts it on Ctrl-C, with the signal's name as the
   * reason): the step running is reported `interrupted` and its request abandoned (never sent
   * again), the steps and scripts after it `skipped`, every Chrome is closed, and the report is
   * answered as usual, its `status` `interrupted` and its `interrupted` the abort's reason (a
   * string reason as it is, an `Error`'s message).
   */
  signal?: AbortSignal;
}

/**
 * What {@link runSuite} answers: the run report, and the screenshots it names, to write with
 * `writeReport`.
 *
 * @example
 * ```ts
 * import { exitCodeOf, runSuite, writeReport, type SuiteRun } from 'aite';
 *
 * const run: SuiteRun = await runSuite(['send.aite.json']);
 * await writeReport('aite-report', run.report, run.attachments);
 * process.exitCode = exitCodeOf(run.report);
 * ```
 * @public
 */
export interface SuiteRun {
  report: RunReport;
  attachments: Attachment[];
}

/**
 * Runs step scripts as `aite run` does: finds them (a folder stands for the `*.aite.json` and
 * `*.aite.yaml` files under it), takes the shard's slice, checks every script against the
 * config before any Chrome starts (all mistakes at once, as one `UsageError`), starts the
 * config's web server, runs the scripts one by one, and answers the report with its
 * screenshots. A failing step never throws: it is in the report.
 *
 * @example
 * ```ts
 * import { exitCodeOf, loadConfig, runSuite, writeReport } from 'aite';
 *
 * const { report, attachments } = await runSuite(['send.aite.json', 'scripts/'], { config: await loadConfig() });
 * await writeReport('aite-report', report, attachments);
 * console.log(report.totals);
 * process.exitCode = exitCodeOf(report);
 * ```
 * @public
 */
export async function runSuite(files: readonly string[], options: RunSuiteOptions = {}): Promise<SuiteRun> {
  const cwd = options.cwd ?? process.cwd();
  const config = options.config ?? resolveConfig({}, cwd);
  if (options.updateLock && !config.lockFile) {
    throw new UsageError('usage', '--update-lock writes repairs into the lock file, but none is set: add "lockFile": "aite.lock.json" to aite.config.json, or pass --lock-file <path>.');
  }
  const shard = options.shard === undefined ? undefined : parseShard(options.shard);
  const all = await findScripts(files, cwd);
  const scripts = shard ? selectShard(all, shard) : all;
  const loaded = await checkAll(scripts, config, cwd, { checkChrome: options.launch === undefined, env: options.env });
  options.listener?.suiteStart?.({ scripts, total: all.length, ...(shard ? { shard } : {}) });

  let server: WebServer | undefined;
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const reports: ScriptReport[] = [];
  const attachments: Attachment[] = [];
  // One Chrome per profile for the whole suite: each next script gets it reset, not relaunched.
  const pool = new SessionPool({ lingerMs: Infinity, ...(options.launch ? { launch: options.launch } : {}) });
  const signal = options.signal;
  try {
    if (config.webServer && options.webServer !== false && !signal?.aborted) {
      const starting = startWebServer(config.webServer);
      try {
        server = await untilAborted(starting, signal);
        options.listener?.webServerStarted?.({ command: config.webServer.command, url: server.url, reused: server.reused });
      } catch (error) {
        if (!isInterrupted(error)) throw error;
        // Stopped while it starts: the server is stopped once it answers (or fails).
        void starting.then((late) => late.close(), () => undefined);
      }
    }
    for (const script of loaded) {
      if (signal?.aborted) {
        reports.push(notRunScript(script, { config, cwd, signal }));
        continue;
      }
      const run = await runScript(script, { config, updateLock: options.updateLock, listener: options.listener, cwd, launch: options.launch, fetch: options.fetch, pool, signal, env: options.env });
      reports.push(run.report);
      attachments.push(...run.attachments);
    }
  } finally {
    await pool.closeAll();
    await server?.close();
  }
  const report = createRunReport(reports, {
    version: options.version ?? packageVersion(),
    startedAt,
    durationMs: Math.round(performance.now() - started),
    ...(signal?.aborted ? { interrupted: interruptionOf(signal) } : {}),
    ...(shard ? { shard } : {}),
  });
  return { report, attachments };
}

/** Loads and plans every script, so every mistake a user can make is found before any Chrome starts. */
async function checkAll(files: string[], config: AiteConfig, cwd: string, plan: Parameters<typeof planScript>[2]): Promise<LoadedScript[]> {
  const loaded: LoadedScript[] = [];
  const issues: UsageIssue[] = [];
  let code: UsageError['code'] | undefined;
  const collect = (error: unknown): void => {
    if (!(error instanceof UsageError)) throw error;
    issues.push(...error.issues);
    code ??= error.code;
  };
  for (const file of files) await loadScript(file, { cwd }).then((script) => void loaded.push(script), collect);
  for (const script of loaded) {
    try {
      planScript(script, config, plan);
    } catch (error) {
      collect(error);
    }
  }
  // The lock file is a file of its own: a corrupt one is said as the lock file, not as a launch failure.
  if (config.lockFile) await LockFile.check(config.lockFile).catch(collect);
  if (code) throw new UsageError(code, issues);
  return loaded;
}
