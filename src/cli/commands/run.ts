import { relative, resolve } from 'node:path';
import { exitCodeOf, loadConfig, onInterrupt, reportSafe, runSuite, UsageError, writeReport, type LaunchOptions, type RunListener, type RunReport, type Session } from 'aite';
import { colorsFor, writeLines, type Colors, type Io } from '../Io.js';
import { formatMs, ProgressReporter } from '../ProgressReporter.js';

export interface RunFlags {
  config?: string;
  report?: string;
  reporter: string[];
  updateLock?: boolean;
  lockFile?: string;
  headed?: boolean;
  chrome?: string;
  allow?: string[];
  baseUrl?: string;
  timeout?: number;
  shard?: string;
  webServer?: boolean;
  dialogs?: 'dismiss' | 'accept';
}

export const REPORTERS = ['list', 'json', 'junit'] as const;

/** The most writing the report of an interrupted run may take: a hung disk must not hold the exit. */
const INTERRUPTED_WRITE_MS = 5_000;

/** Test seams: how sessions start. */
export interface RunSeams {
  launch?: (options: LaunchOptions) => Promise<Session>;
  fetch?: typeof fetch;
  version: string;
  argv: string[];
}

/** `aite run`: checks everything first, then runs the scripts one by one. Answers the exit code. */
export async function runCommand(patterns: string[], flags: RunFlags, io: Io, seams: RunSeams): Promise<number> {
  const reporters = new Set(flags.reporter.flatMap((r) => r.split(',')).map((r) => r.trim()).filter(Boolean));
  for (const r of reporters) {
    if (!(REPORTERS as readonly string[]).includes(r)) {
      throw new UsageError('usage', `unknown reporter "${r}": use ${REPORTERS.join(', ')} (several with commas: --reporter list,junit).`);
    }
  }
  const json = reporters.has('json');
  const junit = reporters.has('junit');
  const config = await loadConfig({
    file: flags.config,
    cwd: io.cwd,
    overrides: {
      allow: flags.allow,
      baseUrl: flags.baseUrl,
      chrome: flags.chrome,
      lockFile: flags.lockFile,
      timeoutMs: flags.timeout,
      headless: flags.headed ? false : undefined,
      report: flags.report,
      junit: junit || undefined,
      dialogs: flags.dialogs,
    },
  });
  if (flags.updateLock && !config.lockFile) {
    throw new UsageError('usage', '--update-lock writes repairs into the lock file, but none is set: add "lockFile": "aite.lock.json" to aite.config.json, or pass --lock-file <path>.');
  }
  const reportDir = config.report?.dir ?? (junit ? resolve(io.cwd, 'aite-report') : undefined);

  const c = colorsFor(io.stdout, io.env);
  const progress = json ? undefined : new ProgressReporter(io, reportDir ? relative(io.cwd, reportDir) : undefined);
  const header: RunListener = {
    suiteStart: ({ scripts, total, shard }) => {
      if (json) return;
      const facts = [
        `${scripts.length} ${scripts.length === 1 ? 'script' : 'scripts'}${shard ? ` (shard ${shard.index}/${shard.total} of ${total})` : ''}`,
        config.headless ? 'headless' : 'headed',
        ...(config.file ? [`config ${relative(io.cwd, config.file) || config.file}`] : []),
        ...(flags.updateLock ? ['updating the lock file'] : []),
      ];
      writeLines(io.stdout, `${c.bold('aite')} ${c.dim(seams.version)} ${c.dim('·')} ${facts.join(c.dim(' · '))}`);
    },
    webServerStarted: ({ command, url, reused }) => {
      if (!json) writeLines(io.stdout, c.dim(reused ? `using the app already answering at ${url}` : `started \`${command}\` (${url} answers)`));
    },
  };
  // Ctrl-C (or SIGTERM, SIGHUP) stops the run, not the process: the step running is reported
  // interrupted, the report is still written, and the process then exits with the signal's code.
  const stopping = new AbortController();
  let ended!: () => void;
  const end = new Promise<void>((resolve) => (ended = resolve));
  const offInterrupt = onInterrupt((signal) => {
    progress?.stop();
    if (!json) writeLines(io.stderr, c.yellow(`\n${signal}: stopping the run and writing its report (a second one quits at once)`));
    stopping.abort(signal);
    return end;
  });
  try {
    let run: Awaited<ReturnType<typeof runSuite>>;
    try {
      run = await runSuite(patterns, {
        config,
        updateLock: flags.updateLock,
        shard: flags.shard,
        webServer: flags.webServer,
        listener: fanOut(header, progress),
        cwd: io.cwd,
        version: seams.version,
        launch: seams.launch,
        fetch: seams.fetch,
        signal: stopping.signal,
        env: io.env,
      });
    } finally {
      progress?.stop();
    }

    const { report, attachments } = run;
    // A report folder that cannot be written loses the files, not the run: the summary still
    // says how it went, then why there is no report (exit 2, a usage error, when it passed).
    let notWritten: unknown;
    const writing = reportDir
      ? writeReport(reportDir, report, attachments, { junit: junit || config.report?.junit }).catch((error: unknown) => void (notWritten = error))
      : undefined;
    const written = (report.interrupted === undefined ? await writing : await within(writing, INTERRUPTED_WRITE_MS)) ?? undefined;
    const shownDir = reportDir && !relative(io.cwd, reportDir).startsWith('..') ? relative(io.cwd, reportDir) || reportDir : reportDir;
    if (json) {
      io.stdout.write(`${JSON.stringify(reportSafe(report), null, 2)}\n`);
    } else {
      printSummary(report, io, seams, written ? relative(io.cwd, written.html) || written.html : undefined, written?.junit ? relative(io.cwd, written.junit) : undefined);
      if (writing && !written && notWritten === undefined) writeLines(io.stderr, c.red(`The report was not written to ${shownDir} within ${INTERRUPTED_WRITE_MS / 1000} s; the run ends without it.`));
    }
    if (notWritten !== undefined) {
      const why = notWritten instanceof Error ? notWritten.message.split('\n').slice(-1)[0] : String(notWritten);
      writeLines(io.stderr, c.red(`The report was not written to ${shownDir}: ${why} Name a folder you can write with --report (or "report" in aite.config.json).`));
      return Math.max(exitCodeOf(report), 2);
    }
    return exitCodeOf(report);
  } finally {
    offInterrupt();
    ended();
  }
}

/** What `work` answers, or undefined once `ms` have passed. */
async function within<T>(work: Promise<T> | undefined, ms: number): Promise<T | undefined> {
  if (!work) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

const EVENTS = ['suiteStart', 'webServerStarted', 'scriptStart', 'launchStart', 'launched', 'stepStart', 'stepEnd', 'scriptEnd'] as const satisfies ReadonlyArray<keyof RunListener>;

/** One listener that tells each of `listeners`, in order. */
function fanOut(...listeners: Array<RunListener | undefined>): RunListener {
  const all = listeners.filter((l): l is RunListener => l !== undefined);
  return Object.fromEntries(
    EVENTS.map((event) => [event, (...args: unknown[]) => all.forEach((l) => (l[event] as ((...a: unknown[]) => void) | undefined)?.apply(l, args))]),
  ) as RunListener;
}

function printSummary(report: RunReport, io: Io, seams: RunSeams, html: string | undefined, junit: string | undefined): void {
  const c = colorsFor(io.stdout, io.env);
  const t = report.totals;
  const lines: string[] = [''];
  const parts = [
    t.passed ? c.green(`${t.passed} passed`) : undefined,
    t.failed ? c.red(`${t.failed} failed`) : undefined,
    t.preState ? c.yellow(`${t.preState} pre-state not met`) : undefined,
    t.errors ? c.red(`${t.errors} could not run`) : undefined,
    t.interrupted ? c.yellow(`${t.interrupted} interrupted`) : undefined,
    t.skipped ? c.dim(`${t.skipped} not run`) : undefined,
  ].filter(Boolean);
  const icon = report.status === 'passed' ? c.green('✓') : report.status === 'pre-state' || report.status === 'interrupted' ? c.yellow('!') : c.red('✗');
  if (report.interrupted !== undefined) parts.unshift(c.yellow(`interrupted by ${report.interrupted}`));
  lines.push(
    `${icon} ${parts.join(c.dim(' · '))}${c.dim(` · ${t.steps} ${t.steps === 1 ? 'step' : 'steps'} · ${t.retries} ${t.retries === 1 ? 'retry' : 'retries'}${t.repairs ? ` · ${t.repairs} repaired` : ''} · ${formatMs(report.durationMs)}`)}`,
  );
  for (const script of report.scripts.filter((s) => s.status !== 'passed')) {
    const label = SCRIPT_LABEL[script.status](c);
    lines.push(`  ${label} ${script.file}: ${script.error?.message.split('\n')[0] ?? ''}`);
  }
  if (report.status === 'pre-state') {
    lines.push(c.yellow('  The app was not in the state the script expects before its first step: this is not an app failure. Reset the app, or fix the pre steps.'));
  }
  const proposed = report.scripts.flatMap((s) => s.steps.filter((step) => step.repair?.lock === 'proposed').map((step) => ({ s, step })));
  if (proposed.length > 0) {
    lines.push('', c.magenta(`${proposed.length} ${proposed.length === 1 ? 'repair' : 'repairs'} proposed, not written to the lock file:`));
    for (const { s, step } of proposed) {
      lines.push(`  ${s.file} step ${step.number} ${step.title} ${c.dim(`(score ${step.repair!.score.toFixed(2)})`)}`);
      for (const d of step.repair!.diff) lines.push(`      ${c.dim(d.field)} ${c.red(d.before)} ${c.dim('→')} ${c.green(d.after)}`);
    }
    lines.push(`Accept them with: ${c.bold(`aite ${[...seams.argv.map(quote), '--update-lock'].join(' ')}`)}`);
  }
  const written = report.scripts.flatMap((s) => s.steps.filter((step) => step.repair?.lock === 'written'));
  if (written.length > 0) lines.push(c.magenta(`${written.length} ${written.length === 1 ? 'repair' : 'repairs'} written to the lock file.`));
  if (html) lines.push(`${c.dim('report:')} ${html}${junit ? c.dim(` · junit: ${junit}`) : ''}`);
  writeLines(io.stdout, ...lines);
}

const SCRIPT_LABEL: Record<RunReport['status'], (c: Colors) => string> = {
  passed: (c) => c.green('passed'),
  failed: (c) => c.red('failed'),
  error: (c) => c.red('could not run'),
  'pre-state': (c) => c.yellow('pre-state not met'),
  interrupted: (c) => c.yellow('interrupted'),
  skipped: (c) => c.dim('not run'),
};

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
