import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, type RunReport, type Session } from '../../src/sdk/index.js';
import { runCli } from '../../src/cli/program.js';
import { Capture } from '../support/Capture.js';

// A single-page app: every /app/ route is one document, whose route changes with the history API
// and #fragments, never with a load. Release 2 renames route B's button.
const APP = new URL('../fixtures/pages/spa/app.html', import.meta.url);
let release: 1 | 2 = 1;
let server: Server;
let origin: string;
let session: Session;
let dir: string;

beforeAll(async () => {
  const page = await readFile(APP, 'utf8');
  server = createServer((req, res) => {
    if (!/^\/app\/[a-z]*$/.test(req.url ?? '')) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(release === 1 ? page : page.replace('>Save B<', '>Save B now<'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  session = await launch({ allow: [origin] });
  dir = await mkdtemp(join(tmpdir(), 'aite-spa-'));
  await writeFile(join(dir, 'aite.config.json'), JSON.stringify({ allow: [origin], baseUrl: `${origin}/`, lockFile: 'aite.lock.json' }));
  await writeFile(
    join(dir, 'through-a.aite.json'),
    JSON.stringify({
      name: 'save B, reached from A',
      steps: [{ navigate: 'app/a' }, { click: 'Go to B' }, { click: { text: 'Save B', exact: true } }, { verify: { kind: 'text', value: 'saved on B' } }],
    }),
  );
  await writeFile(
    join(dir, 'straight-to-b.aite.json'),
    JSON.stringify({ name: 'save B, opened at once', steps: [{ navigate: 'app/b' }, { click: { text: 'Save B', exact: true } }, { verify: { kind: 'text', value: 'saved on B' } }] }),
  );
});
afterAll(async () => {
  await session?.close();
  await new Promise((resolve) => server?.close(resolve));
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function aite(...args: string[]): Promise<{ code: number; stdout: string }> {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await runCli(['run', ...args], { stdout, stderr, env: { NO_COLOR: '1' }, cwd: dir });
  return { code, stdout: stdout.text + stderr.text };
}

describe("the run tab's address follows a single-page app's route", () => {
  it('[SPA-URL] after pushState, a #fragment, the page\u2019s history.back() and replaceState, session.tab.url is where the page is, in one document', async () => {
    await session.tab.navigate(`${origin}/app/a`);
    expect(session.tab.url).toBe(`${origin}/app/a`);
    await session.click('Go to B');
    expect(session.tab.url).toBe(`${origin}/app/b`);
    await session.verify.targetText({ css: 'h1' }, 'Route B', { timeoutMs: 1_000 });
    await session.click('More');
    expect(session.tab.url).toBe(`${origin}/app/b#more`);
    // history.back() in the page: a popstate back to /app/b.
    await session.click('Go back');
    expect(session.tab.url).toBe(`${origin}/app/b`);
    await session.click('Replace with C');
    expect(session.tab.url).toBe(`${origin}/app/c`);
    await session.verify.targetText({ css: 'h1' }, 'Route C', { timeoutMs: 1_000 });
    // A route the page changes by itself, after the step that asked for it has returned.
    const later = await session.click('Back to A later');
    expect(later.navigated).toBeUndefined();
    await expect.poll(() => session.tab.url, { timeout: 5_000 }).toBe(`${origin}/app/a`);
    await session.verify.targetText({ css: 'h1' }, 'Route A', { timeoutMs: 1_000 });
    await session.verify.targetText({ css: '#loads' }, '1', { timeoutMs: 1_000 });
  });

  it('[SPA-URL-ORDER] after a burst of clicks that each push a route, session.tab.url is the last route, and stays it: a late event for an earlier route does not take it back', async () => {
    // Read at once and for a while after: the extension's events for the routes may come after
    // the clicks' own steps heard each move.
    const shown = async (): Promise<Array<string | undefined>> => {
      const seen = new Set<string | undefined>([session.tab.url]);
      for (const until = Date.now() + 300; Date.now() < until; ) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen.add(session.tab.url);
      }
      return [...seen];
    };
    for (let burst = 0; burst < 3; burst++) {
      await session.tab.navigate(`${origin}/app/a`);
      for (let n = 1; n <= 5; n++) await session.click({ text: `Route ${n}`, exact: true });
      expect(await shown()).toEqual([`${origin}/app/r5`]);
      // One click whose handler pushes all five: the extension tells of five moves, the step heard the last.
      await session.tab.navigate(`${origin}/app/a`);
      await session.click('Routes 1 to 5');
      expect(await shown()).toEqual([`${origin}/app/r5`]);
    }
  });

  it('[SPA-URL] session.tab.back() and forward() between routes of one document answer and keep the route they went to', async () => {
    await session.tab.navigate(`${origin}/app/a`);
    await session.click('Go to B');
    await session.click('Replace with C');
    // The history is /app/a, then /app/c (B, replaced by C): one document's entries.
    const back = await session.tab.back({ timeoutMs: 5_000 });
    expect(back.url).toBe(`${origin}/app/a`);
    expect(session.tab.url).toBe(`${origin}/app/a`);
    await session.verify.targetText({ css: 'h1' }, 'Route A', { timeoutMs: 1_000 });
    const forward = await session.tab.forward({ timeoutMs: 5_000 });
    expect(forward.url).toBe(`${origin}/app/c`);
    expect(session.tab.url).toBe(`${origin}/app/c`);
    await session.verify.targetText({ css: 'h1' }, 'Route C', { timeoutMs: 1_000 });
  });

  it('[SPA-REPORTED] the click that moved the route says from where to where, within the document; a click that moved nothing says nothing', async () => {
    await session.tab.navigate(`${origin}/app/a`);
    const moved = await session.click('Go to B');
    expect(moved).toMatchObject({ navigated: `${origin}/app/b`, navigatedFrom: `${origin}/app/a`, sameDocument: true });
    expect(moved.warnings).toEqual([]);
    const stayed = await session.click('Save B');
    expect(stayed.navigated).toBeUndefined();
    expect(stayed.navigatedFrom).toBeUndefined();
    // The page's history.back(): a move the browser makes a moment after the click.
    await session.click('More');
    expect((await session.click('Go back')).navigated).toBe(`${origin}/app/b`);
  });
});

describe('an SPA route in the CLI run: lock file and report', () => {
  it('[SPA-LOCK-KEY, SPA-REPORTED] an element named on route B is locked under /app/b, found there by a run that opens /app/b at once; the report says the click moved the route', async () => {
    const first = await aite('through-a.aite.json', '--reporter', 'json', '--report', 'report');
    expect(first.code, first.stdout).toBe(0);
    const lock = JSON.parse(await readFile(join(dir, 'aite.lock.json'), 'utf8')) as { entries: Record<string, { page: string; target: unknown }> };
    const saveB = Object.values(lock.entries).filter((entry) => JSON.stringify(entry.target).includes('Save B'));
    expect(saveB.map((entry) => entry.page)).toEqual(['/app/b']);
    const report = JSON.parse(await readFile(join(dir, 'report/report.json'), 'utf8')) as RunReport;
    const steps = report.scripts[0]!.steps;
    expect(steps[1]!.navigated).toEqual({ from: `${origin}/app/a`, to: `${origin}/app/b`, sameDocument: true });
    expect(steps[2]!.navigated).toBeUndefined();
    // The extension heard the route change too, as it hears a load.
    expect(steps.flatMap((step) => step.tabEvents)).toContainEqual(expect.objectContaining({ kind: 'navigated', url: `${origin}/app/b`, sameDocument: true }));

    // Release 2 renames the button: only the entry the first run wrote under /app/b finds it.
    release = 2;
    const straight = await aite('straight-to-b.aite.json');
    expect(straight.code, straight.stdout).toBe(0);
    expect(straight.stdout).toMatch(/1 repair proposed/);
  }, 120_000);
});
