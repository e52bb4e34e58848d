import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { UsageError } from '../errors/UsageError.js';
import { issuesFromZod } from '../errors/zodIssues.js';
import { ConfinedPathError, readConfined } from './confined.js';
import { createRunReport, RunReportSchema, type Attachment, type RunReport } from './model.js';

/**
 * Joins the reports of several shards (folders holding `report.json` and their screenshots)
 * into one report. Screenshots are carried over; a name taken twice gets the shard's folder as
 * a prefix. Throws {@link UsageError} for a folder without a valid report.
 *
 * @example
 * ```ts
 * import { mergeReports, writeReport } from 'aite';
 *
 * const { report, attachments } = await mergeReports(['shard-1', 'shard-2', 'shard-3']);
 * await writeReport('all', report, attachments, { junit: true });
 * ```
 * @public
 */
export async function mergeReports(dirs: readonly string[], options: { cwd?: string } = {}): Promise<{ report: RunReport; attachments: Attachment[] }> {
  if (dirs.length === 0) throw new UsageError('usage', 'merge-reports needs at least one report folder.');
  const cwd = options.cwd ?? process.cwd();
  const reports: RunReport[] = [];
  const attachments: Attachment[] = [];
  const taken = new Set<string>();
  for (const dir of dirs) {
    const file = join(dir, 'report.json');
    const shown = relative(cwd, file) || file;
    let data: unknown;
    try {
      data = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(code === 'ENOENT' ? 'file-not-found' : 'syntax', [
        { file: shown, message: code === 'ENOENT' ? 'no report here: run `aite run --report <dir>` first.' : `not a readable report: ${(error as Error).message}.` },
      ]);
    }
    const parsed = RunReportSchema.safeParse(data, { reportInput: true });
    if (!parsed.success) throw new UsageError('invalid', issuesFromZod(parsed.error, { file: shown, base: [] }).slice(0, 5));
    const report = parsed.data;
    for (const script of report.scripts) {
      for (const step of script.steps) {
        if (!step.screenshot) continue;
        let name = step.screenshot;
        if (taken.has(name)) name = name.replace(/^screenshots\//, `screenshots/${slug(dir)}-`);
        taken.add(name);
        try {
          // The schema kept the path inside the shard's folder; no link in it is followed.
          attachments.push({ file: name, bytes: await readConfined(dir, step.screenshot) });
          step.screenshot = name;
        } catch (error) {
          const why = error instanceof ConfinedPathError ? error.message : `${step.screenshot} was missing`;
          step.warnings.push({ code: 'merge', message: `screenshot not carried over from ${dir}: ${why}` });
          delete step.screenshot;
        }
      }
    }
    reports.push(report);
  }
  const startedAt = reports.map((r) => r.startedAt).sort()[0]!;
  const end = Math.max(...reports.map((r) => Date.parse(r.startedAt) + r.durationMs));
  const merged = createRunReport(
    reports.flatMap((r) => r.scripts),
    {
      version: reports[0]!.tool.version,
      startedAt,
      durationMs: Number.isFinite(end) ? Math.max(0, end - Date.parse(startedAt)) : reports.reduce((n, r) => n + r.durationMs, 0),
      mergedFrom: dirs.map((d) => relative(cwd, d) || d),
      // One shard stopped leaves the whole run unfinished.
      ...(reports.some((r) => r.interrupted !== undefined) ? { interrupted: reports.find((r) => r.interrupted !== undefined)!.interrupted! } : {}),
    },
  );
  return { report: merged, attachments };
}

function slug(dir: string): string {
  return dir.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'shard';
}
