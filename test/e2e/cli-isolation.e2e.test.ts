import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunReport } from '../../src/sdk/index.js';
import { runCli } from '../../src/cli/program.js';
// @ts-expect-error -- a CommonJS fixture shared with the runner files, without types
import isolation from './fixtures/isolation/storagePage.cjs';
import { Capture } from '../support/Capture.js';

const { storagePage, FRESH } = isolation as { storagePage(): Promise<{ origin: string; url: string }>; FRESH: string };

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aite-cli-isolation-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

it('[ISO-CLI] aite run resets the Chrome of a profile between its scripts instead of relaunching it', async () => {
  const page = await storagePage();
  await writeFile(join(dir, 'aite.config.json'), JSON.stringify({ allow: [page.origin], baseUrl: page.url }));
  // Each script finds the origin fresh, then leaves a cookie, storage and a tab behind.
  const script = (name: string) => ({ name, steps: [{ navigate: '/' }, { verify: { kind: 'text', value: FRESH } }, { click: 'another tab' }] });
  await writeFile(join(dir, 'a.aite.json'), JSON.stringify(script('first')));
  await writeFile(join(dir, 'b.aite.json'), JSON.stringify(script('second')));
  const stdout = new Capture();
  const code = await runCli(['run', 'a.aite.json', 'b.aite.json', '--report', 'report'], { stdout, stderr: new Capture(), env: { NO_COLOR: '1' }, cwd: dir });
  expect(code, stdout.text).toBe(0);
  const report = JSON.parse(await readFile(join(dir, 'report/report.json'), 'utf8')) as RunReport;
  expect(report.scripts.map((s) => s.steps.map((step) => step.status))).toEqual([
    ['passed', 'passed', 'passed'],
    ['passed', 'passed', 'passed'],
  ]);
  expect(report.scripts[0]!.chromeReused).toBeUndefined();
  expect(report.scripts[1]!.chromeReused).toBe(true);
  expect(stdout.text).toMatch(/started Chrome for profile default/);
  expect(stdout.text).toMatch(/reset the last script’s Chrome for profile default/);
});
