import { readdir, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import {
  createRunReport,
  exitCodeOf,
  loadConfig,
  loadScript,
  LockFile,
  parseShard,
  planScript,
  runScript,
  selectShard,
  startWebServer,
  UsageError,
  reportSafe,
  writeReport,
  type Attachment,
  type LaunchOptions,
  type LoadedScript,
  type RunReport,
  type ScriptReport,
  type Session,
  type UsageIssue,
  type WebServer,
} from 'aite';
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
    },
  });
  if (flags.updateLock && !config.lockFile) {
    throw new UsageError('usage', '--update-lock writes repairs into the lock file, but none is set: add "lockFile": "aite.lock.json" to aite.config.json, or pass --lock-file <path>.');
  }
  const reportDir = config.report?.dir ?? (junit ? resolve(io.cwd, 'aite-report') : undefined);

  const shard = flags.shard ? parseShard(flags.shard) : undefined;
  const all = await expandScripts(patterns, io.cwd);
  const files = shard ? selectShard(all, shard) : all;

  // Every mistake a user can make is found before any Chrome starts.
  const loaded: LoadedScript[] = [];
  const issues: UsageIssue[] = [];
  let code: UsageError['code'] | undefined;
  for (const file of files) {
    try {
      loaded.push(await loadScript(file, { cwd: io.cwd }));
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      issues.push(...error.issues);
      code ??= error.code;
    }
  }
  for (const script of loaded) {
    try {
      planScript(script, config, { checkChrome: seams.launch === undefined });
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      issues.push(...error.issues);
      code ??= error.code;
    }
  }
  if (config.lockFile) {
    try {
      await LockFile.check(config.lockFile);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      issues.push(...error.issues);
      code ??= error.code;
    }
  }
  if (code) throw new UsageError(code, issues);

  const c = colorsFor(io.stdout, io.env);
  const progress = json ? undefined : new ProgressReporter(io, reportDir ? relative(io.cwd, reportDir) : undefined);
  if (!json) {
    const facts = [
      `${files.length} ${files.length === 1 ? 'script' : 'scripts'}${shard ? ` (shard ${shard.index}/${shard.total} of ${all.length})` : ''}`,
      config.headless ? 'headless' : 'headed',
      ...(config.file ? [`config ${relative(io.cwd, config.file) || config.file}`] : []),
      ...(flags.updateLock ? ['updating the lock file'] : []),
    ];
    writeLines(io.stdout, `${c.bold('aite')} ${c.dim(seams.version)} ${c.dim('·')} ${facts.join(c.dim(' · '))}`);
  }

  let server: WebServer | undefined;
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const scripts: ScriptReport[] = [];
  const attachments: Attachment[] = [];
  const stop = (): void => progress?.stop();
  process.once('SIGINT', stop);
  try {
    if (config.webServer && flags.webServer !== false) {
      server = await startWebServer(config.webServer);
      if (!json) writeLines(io.stdout, c.dim(server.reused ? `using the app already answering at ${server.url}` : `started \`${config.webServer.command}\` (${server.url} answers)`));
    }
    for (const script of loaded) {
      const run = await runScript(script, {
        config,
        updateLock: flags.updateLock,
        listener: progress,
        cwd: io.cwd,
        launch: seams.launch,
        fetch: seams.fetch,
      });
      scripts.push(run.report);
      attachments.push(...run.attachments);
    }
  } finally {
    process.off('SIGINT', stop);
    progress?.stop();
    await server?.close();
  }

  const report = createRunReport(scripts, {
    version: seams.version,
    startedAt,
    durationMs: Math.round(performance.now() - started),
    ...(shard ? { shard } : {}),
  });
  const written = reportDir ? await writeReport(reportDir, report, attachments, { junit: junit || config.report?.junit }) : undefined;
  if (json) {
    io.stdout.write(`${JSON.stringify(reportSafe(report), null, 2)}\n`);
  } else {
    printSummary(report, io, seams, written ? relative(io.cwd, written.html) || written.html : undefined, written?.junit ? relative(io.cwd, written.junit) : undefined);
  }
  return exitCodeOf(report);
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
    `${icon} ${parts.join(c.dim(' · '))}${c.dim(` · ${t.steps} steps · ${t.retries} ${t.retries === 1 ? 'retry' : 'retries'}${t.repairs ? ` · ${t.repairs} repaired` : ''} · ${formatMs(report.durationMs)}`)}`,
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

const SCRIPT_FILE = /\.aite\.(json|ya?ml)$/i;

/** Files as given; a folder stands for the *.aite.json / *.aite.yaml files under it. */
async function expandScripts(patterns: string[], cwd: string): Promise<string[]> {
  const out: string[] = [];
  for (const pattern of patterns) {
    const path = resolve(cwd, pattern);
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory()) {
      const found = (await walk(path)).filter((f) => SCRIPT_FILE.test(f)).map((f) => relative(cwd, f) || f).sort();
      if (found.length === 0) {
        throw new UsageError('file-not-found', [{ file: pattern, message: 'this folder holds no step scripts (files named *.aite.json, *.aite.yaml or *.aite.yml).' }]);
      }
      out.push(...found);
    } else {
      out.push(pattern);
    }
  }
  return [...new Set(out)];
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries
      .filter((e) => e.name !== 'node_modules' && !e.name.startsWith('.'))
      .map((e) => (e.isDirectory() ? walk(join(dir, e.name)) : Promise.resolve([join(dir, e.name)]))),
  );
  return nested.flat();
}
