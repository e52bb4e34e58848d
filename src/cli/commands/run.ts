import { relative, resolve } from 'node:path';
import { exitCodeOf, loadConfig, reportSafe, runSuite, UsageError, writeReport, type LaunchOptions, type RunListener, type RunReport, type Session } from 'aite';
import { colorsFor, writeLines, type Io } from '../Io.js';
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
  const stop = (): void => progress?.stop();
  process.once('SIGINT', stop);
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
      env: io.env,
    });
  } finally {
    process.off('SIGINT', stop);
    progress?.stop();
  }

  const { report, attachments } = run;
  const written = reportDir ? await writeReport(reportDir, report, attachments, { junit: junit || config.report?.junit }) : undefined;
  if (json) {
    io.stdout.write(`${JSON.stringify(reportSafe(report), null, 2)}\n`);
  } else {
    printSummary(report, io, seams, written ? relative(io.cwd, written.html) || written.html : undefined, written?.junit ? relative(io.cwd, written.junit) : undefined);
  }
  return exitCodeOf(report);
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
  ].filter(Boolean);
  const icon = report.status === 'passed' ? c.green('✓') : report.status === 'pre-state' ? c.yellow('!') : c.red('✗');
  lines.push(
    `${icon} ${parts.join(c.dim(' · '))}${c.dim(` · ${t.steps} ${t.steps === 1 ? 'step' : 'steps'} · ${t.retries} ${t.retries === 1 ? 'retry' : 'retries'}${t.repairs ? ` · ${t.repairs} repaired` : ''} · ${formatMs(report.durationMs)}`)}`,
  );
  for (const script of report.scripts.filter((s) => s.status !== 'passed')) {
    const label = script.status === 'pre-state' ? c.yellow('pre-state not met') : c.red(script.status === 'error' ? 'could not run' : 'failed');
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

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
