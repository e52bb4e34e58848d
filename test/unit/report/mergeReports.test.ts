import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeOf, mergeReports, writeReport, UsageError } from 'aite';
import { createRunReport } from '../../../src/sdk/report/model.js';
import { failingRun, scriptReport } from './sampleReport.js';
import { tempDirs } from '../../support/tempDirs.js';

const tempDir = tempDirs();

describe('writeReport and mergeReports', () => {
  it('writes report.json, index.html, junit.xml and the screenshots', async () => {
    const dir = join(await tempDir('aite-report-'), 'out');
    const png = new Uint8Array([1, 2, 3]);
    const written = await writeReport(dir, failingRun(), [{ file: 'screenshots/send-step-3-failed.png', bytes: png }], { junit: true });
    expect(JSON.parse(await readFile(written.json, 'utf8'))).toEqual(failingRun());
    expect(await readFile(join(dir, 'screenshots/send-step-3-failed.png'))).toEqual(Buffer.from(png));
    expect(await readFile(written.html, 'utf8')).toContain('data:image/png;base64,AQID');
    expect(await readFile(written.junit!, 'utf8')).toContain('<testsuites');
  });

  it('joins shard reports, carries screenshots over, and recounts the totals', async () => {
    const root = await tempDir('aite-merge-');
    const a = join(root, 'shard-1');
    const b = join(root, 'shard-2');
    await writeReport(a, failingRun(), [{ file: 'screenshots/send-step-3-failed.png', bytes: new Uint8Array([1]) }]);
    const passing = createRunReport([scriptReport({ file: 'other.aite.json', name: 'other' })], { version: '0.1.0', startedAt: '2026-01-01T10:00:05.000Z', durationMs: 1000, shard: { index: 2, total: 2 } });
    await writeReport(b, passing);
    const { report, attachments } = await mergeReports([a, b], { cwd: root });
    expect(report.totals).toMatchObject({ scripts: 2, passed: 1, failed: 1, steps: 5 });
    expect(report.status).toBe('failed');
    expect(report.durationMs).toBe(6000);
    expect(report.mergedFrom).toEqual(['shard-1', 'shard-2']);
    expect(attachments.map((x) => x.file)).toEqual(['screenshots/send-step-3-failed.png']);
    expect(exitCodeOf(report)).toBe(1);
  });

  it('says which folder has no report', async () => {
    const root = await tempDir('aite-merge-');
    await mkdir(join(root, 'empty'));
    await writeFile(join(root, 'bad.json'), '{}');
    await expect(mergeReports([join(root, 'empty')], { cwd: root })).rejects.toThrow(UsageError);
    await expect(mergeReports([join(root, 'empty')], { cwd: root })).rejects.toThrow(/empty\/report\.json: no report here/);
  });
});
