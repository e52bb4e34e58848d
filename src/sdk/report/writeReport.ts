import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Attachment, RunReport } from './model.js';
import { renderHtml } from './renderHtml.js';
import { renderJunit } from './renderJunit.js';

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
 * `junit.xml` with `junit: true`.
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
  await mkdir(dir, { recursive: true });
  const screenshots: string[] = [];
  for (const attachment of attachments) {
    const path = join(dir, attachment.file);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, attachment.bytes);
    screenshots.push(path);
  }
  const json = join(dir, 'report.json');
  await writeFile(json, `${JSON.stringify(report, null, 2)}\n`);
  const html = join(dir, 'index.html');
  await writeFile(html, renderHtml(report, new Map(attachments.map((a) => [a.file, a.bytes]))));
  let junit: string | undefined;
  if (options.junit) {
    junit = join(dir, 'junit.xml');
    await writeFile(junit, renderJunit(report));
  }
  return { dir, json, html, junit, screenshots };
}
