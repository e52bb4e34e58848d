
import { resolve } from 'node:path';
import { UsageError } from '../errors/UsageError.js';
import { ConfinedPathError, writeConfined } from './confined.js';
import type { Attachment, RunReport } from './model.js';
import { reportSafe } from './redact.js';
import { renderHtml } from './renderHtml.js';
import { renderJunit } from './renderJunit.js';
import { makeFolder } from '../system/folders.js';

/**
 * The files a report was written to.
 *
 * @example
 * ```ts
 * import { writeReport, type RunReport, type WrittenReport } from 'aite';
 *
 * declare const report: RunReport;
 * const written: WrittenReport = await writeReport('aite-report', report);
 * console.log(written.json, written.html, written.junit ?? 'no junit.xml', written.screenshots.length);
 * ```
 * @public
 */
export interface WrittenReport {
  /** The report folder, absolute. */
  dir: string;
  /** report.json. */
  json: string;
  /** index.html: open it in a browser. */
  html: string;
  /** junit.xml, when asked for. */
  junit?: string;
  /** Every screenshot written. */
  screenshots: string[];
}

/**
 * Writes `report.json`, `index.html` (self-contained) and the screenshots into `dir`, and
 * `junit.xml` with `junit: true`. Every file stays inside `dir`: an attachment whose `file` is
 * absolute or climbs out with `..` is refused ({@link UsageError}), and no symbolic link inside
 * `dir` is followed (a planted link is refused, never written through). What is written is
 * redacted: the user and password of a URL are masked (`https://***@host/`), and a string longer
 * than 10,000 characters is cut with a note.
 *
 * @example
 * ```ts
 * import { runSuite, writeReport } from 'aite';
 *
 * const run = await runSuite(['send.aite.json']);
 * const written = await writeReport('aite-report', run.report, run.attachments, { junit: true });
 * console.log(`open ${written.html}`);
 * ```
 * @public
 */
export async function writeReport(
  dir: string,
  report: RunReport,
  attachments: readonly Attachment[] = [],
  options: { junit?: boolean } = {},
): Promise<WrittenReport> {
  await makeFolder(dir).catch((error: unknown) => {
    throw new UsageError('invalid', [{ file: resolve(dir), message: `not written: ${error instanceof Error ? error.message : String(error)}.` }], { cause: error });
  });
  const write = (file: string, bytes: Uint8Array | string): Promise<string> =>
    writeConfined(dir, file, bytes).catch((error: unknown) => {
      if (error instanceof ConfinedPathError) throw new UsageError('invalid', [{ file: resolve(dir), message: `not written: ${error.message}.` }], { cause: error });
      throw error;
    });
  const screenshots: string[] = [];
  for (const attachment of attachments) screenshots.push(await write(attachment.file, attachment.bytes));
  // What is written is redacted and bounded (secrets in URLs masked, long strings cut).
  const safe = reportSafe(report);
  const json = await write('report.json', `${JSON.stringify(safe, null, 2)}\n`);
  const html = await write('index.html', renderHtml(safe, new Map(attachments.map((a) => [a.file, a.bytes]))));
  const junit = options.junit ? await write('junit.xml', renderJunit(safe)) : undefined;
  return { dir, json, html, junit, screenshots };
}
