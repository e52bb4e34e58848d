import { relative, resolve } from 'node:path';
import { mergeReports, writeReport } from 'aite';
import { colorsFor, writeLines, type Io } from '../Io.js';

export interface MergeFlags {
  report: string;
  reporter: string[];
}

/** `aite merge-reports`: one report from the reports of several shards. */
export async function mergeReportsCommand(dirs: string[], flags: MergeFlags, io: Io): Promise<number> {
  const junit = flags.reporter.flatMap((r) => r.split(',')).includes('junit');
  const { report, attachments } = await mergeReports(
    dirs.map((d) => resolve(io.cwd, d)),
    { cwd: io.cwd },
  );
  const written = await writeReport(resolve(io.cwd, flags.report), report, attachments, { junit });
  const c = colorsFor(io.stdout, io.env);
  const t = report.totals;
  writeLines(
    io.stdout,
    `${c.green('✓')} merged ${dirs.length} reports: ${t.scripts} scripts (${t.passed} passed, ${t.failed} failed, ${t.preState} pre-state not met, ${t.errors} could not run), ${t.steps} steps`,
    `${c.dim('report:')} ${relative(io.cwd, written.html)}${written.junit ? c.dim(` · junit: ${relative(io.cwd, written.junit)}`) : ''}`,
  );
  return 0;
}
