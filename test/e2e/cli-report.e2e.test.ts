import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChrome, type RunReport } from '../../src/sdk/index.js';
import { runCli } from '../../src/cli/program.js';
import { startFixtureServer, type FixtureServer } from '../support/FixtureServer.js';
import { Capture } from '../support/Capture.js';

let server: FixtureServer;
let dir: string;
let viewer: Browser;
let run: { code: number; stdout: string };

// One failing run (an ambiguous click on buttons.html), then its HTML report opened in a plain
// Chromium, as a person would open it: what shows, and whether the screenshot has the outlines.
beforeAll(async () => {
  server = await startFixtureServer();
  dir = await mkdtemp(join(tmpdir(), 'aite-cli-report-'));
  await writeFile(join(dir, 'aite.config.json'), JSON.stringify({ allow: [server.origin], baseUrl: server.url }));
  await writeFile(
    join(dir, 'delete.aite.json'),
    JSON.stringify({
      name: 'delete a file',
      steps: [
        { navigate: 'buttons.html' },
        { click: { text: 'Save', within: 'Actions' }, name: 'save the draft' },
        { click: { text: 'Delete' } },
        { verify: { kind: 'text', value: 'Deleted' } },
      ],
    }),
  );
  const stdout = new Capture();
  const code = await runCli(['run', 'delete.aite.json', '--report', 'report', '--reporter', 'list,junit'], {
    stdout,
    stderr: new Capture(),
    env: { NO_COLOR: '1' },
    cwd: dir,
  });
  run = { code, stdout: stdout.text };
  viewer = await puppeteer.launch({ executablePath: findChrome(), args: ['--no-sandbox', '--headless=new'] });
}, 120_000);

afterAll(async () => {
  await viewer?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the report of a failing run', () => {
  it('exits 1 and names the ambiguous step on the terminal', async () => {
    expect(run.code, run.stdout).toBe(1);
    expect(run.stdout).toMatch(/✗ +3 click "Delete" .*ambiguous/);
    expect(run.stdout).toContain('screenshot: report/screenshots/delete-step-3-failed.png');
    const report = JSON.parse(await readFile(join(dir, 'report/report.json'), 'utf8')) as RunReport;
    expect(report.scripts[0]!.steps.map((s) => s.status)).toEqual(['passed', 'passed', 'failed', 'skipped']);
    expect(await readFile(join(dir, 'report/junit.xml'), 'utf8')).toContain('<failure type="ambiguous"');
  });

  it('shows, in Chromium, a summary, the timeline and the failure with its outlined screenshot', async () => {
    const page = await viewer.newPage();
    await page.setViewport({ width: 1200, height: 900 });
    // Offline: a report must not need the network.
    await page.setRequestInterception(true);
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith('file:') && !request.url().startsWith('data:')) outside.push(request.url());
      void (request.url().startsWith('file:') || request.url().startsWith('data:') ? request.continue() : request.abort());
    });
    await page.goto(pathToFileURL(join(dir, 'report/index.html')).href, { waitUntil: 'load' });
    // Screenshots load lazily, as a person scrolls to them.
    await page.evaluate(() => document.querySelector('.step-failed .shot img')?.scrollIntoView());
    await page.waitForFunction(() => {
      const img = document.querySelector('.step-failed .shot img') as HTMLImageElement | null;
      return !img || (img.complete && img.naturalWidth > 0);
    });
    const seen = await page.evaluate(() => {
      const text = (selector: string) => (document.querySelector(selector) as HTMLElement | null)?.innerText ?? null;
      const img = document.querySelector('.step-failed .shot img') as HTMLImageElement | null;
      const rect = img?.getBoundingClientRect();
      return {
        title: document.title,
        verdict: text('.verdict'),
        verdictLine: text('.verdict-line'),
        steps: [...document.querySelectorAll('.timeline > li')].map((li) => (li as HTMLElement).className),
        failedTitle: text('.step-failed .title'),
        failedMessage: text('.step-failed .failure-message'),
        candidates: [...document.querySelectorAll('.step-failed .candidates li')].length,
        img: img && { complete: img.complete, width: img.naturalWidth, shown: rect!.width > 300 && rect!.height > 150 },
        stats: text('.stats'),
      };
    });
    expect(outside).toEqual([]);
    expect(seen.title).toBe('aite report — Failed');
    expect(seen.verdict).toContain('Failed');
    expect(seen.verdictLine).toContain('delete a file · Step 3: click "Delete"');
    expect(seen.stats).toMatch(/0\/1\s+script passed/);
    expect(seen.steps).toEqual(['step step-passed', 'step step-passed', 'step step-failed', 'step step-skipped']);
    expect(seen.failedTitle).toBe('click "Delete"');
    expect(seen.failedMessage).toMatch(/^ambiguous /);
    expect(seen.candidates).toBe(2);
    expect(seen.img).toEqual({ complete: true, width: 1280, shown: true });

    // The screenshot holds the pink outline boxes the extension drew around both candidates.
    const outlined = await page.evaluate(() => {
      const img = document.querySelector('.step-failed .shot img') as HTMLImageElement;
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(img, 0, 0);
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      let pink = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (Math.abs(data[i]! - 0xe9) < 24 && Math.abs(data[i + 1]! - 0x1e) < 24 && Math.abs(data[i + 2]! - 0x63) < 24) pink++;
      }
      return pink;
    });
    expect(outlined).toBeGreaterThan(200);
    await page.screenshot({ path: join(dir, 'report-view.png'), fullPage: true });
    await page.close();
  });
});
