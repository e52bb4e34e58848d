import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/sdk/index.js';
import { runCli } from '../../src/cli/program.js';
import { Capture } from '../support/Capture.js';

// A TodoMVC-like app: its filter links sit in an unnamed <footer> inside the section the "todos"
// heading names, and its new-todo field has no <label>. The next release renames the filter and
// rewords the placeholder; the script's targets no longer match, and repair finds both.
function todos(release: 1 | 2): string {
  const active = release === 1 ? 'Active' : 'Active todos';
  const placeholder = release === 1 ? 'What needs to be done?' : 'What needs to be done today?';
  return `<section class="todoapp"><header class="header"><h1>todos</h1>
    <input class="new-todo" placeholder="${placeholder}" oninput="document.getElementById('typed').textContent = this.value"></header>
    <section class="main"><ul class="todo-list"><li><input class="toggle" type="checkbox"><label>Buy milk</label></li></ul></section>
    <footer class="footer"><span class="todo-count"><strong>1</strong> item left</span>
      <ul class="filters"><li><a href="#/">All</a></li><li><a href="#/active" onclick="document.getElementById('shown').textContent = 'active shown'">${active}</a></li><li><a href="#/completed">Completed</a></li></ul>
      <button class="clear-completed">Clear completed</button></footer></section>
    <p id="shown"></p><p id="typed"></p>
    <footer class="info"><p>Part of <a href="http://todomvc.com">TodoMVC</a></p></footer>`;
}

let server: Server;
let dir: string;
let release: 1 | 2 = 1;

async function aite(...args: string[]): Promise<{ code: number; stdout: string; json: string }> {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await runCli(['run', 'todo.aite.json', ...args], { stdout, stderr, env: { NO_COLOR: '1' }, cwd: dir });
  return { code, stdout: stdout.text + stderr.text, json: stdout.text };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    res.writeHead(req.url === '/todos.html' ? 200 : 404, { 'content-type': 'text/html' }).end(`<!doctype html><title>todos</title><body>${todos(release)}</body>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  dir = await mkdtemp(join(tmpdir(), 'aite-converge-'));
  await writeFile(join(dir, 'aite.config.json'), JSON.stringify({ allow: [origin], baseUrl: `${origin}/`, lockFile: 'aite.lock.json' }));
  await writeFile(
    join(dir, 'todo.aite.json'),
    JSON.stringify({
      name: 'filter and add',
      steps: [
        { navigate: 'todos.html' },
        { click: { text: 'Active', exact: true } },
        { verify: { kind: 'text', value: 'active shown' } },
        { fill: { placeholder: 'What needs to be done?' }, text: 'Walk the dog' },
        { verify: { kind: 'text', value: 'Walk the dog' } },
      ],
    }),
  );
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('[LOCK-CONVERGE] repairs converge: written once, then nothing is proposed', () => {
  it('records, proposes, writes with --update-lock, and the next run on the same page proposes nothing', async () => {
    const first = await aite();
    expect(first.code, first.stdout).toBe(0);
    expect(first.stdout).not.toMatch(/repair/);

    release = 2;
    const proposed = await aite();
    expect(proposed.code, proposed.stdout).toBe(0);
    expect(proposed.stdout).toMatch(/2 repairs proposed, not written to the lock file/);
    // The one page model: no false differences between what was recorded and what is live.
    expect(proposed.stdout).not.toMatch(/context\.region|label/);

    const written = await aite('--update-lock');
    expect(written.code, written.stdout).toBe(0);
    expect(written.stdout).toMatch(/2 repairs written to the lock file/);
    const lock = await readFile(join(dir, 'aite.lock.json'), 'utf8');

    const again = await aite('--reporter', 'json');
    expect(again.code, again.stdout).toBe(0);
    const report = JSON.parse(again.json) as RunReport;
    const steps = report.scripts[0]!.steps;
    expect(steps.filter((s) => s.repair !== undefined)).toEqual([]);
    expect(report.totals.repairs).toBe(0);
    // Each stale target says so instead: the lock file found the element as it remembers it.
    expect(steps.flatMap((s) => s.warnings.map((w) => w.code)).filter((c) => c === 'lock')).toHaveLength(2);
    expect(await readFile(join(dir, 'aite.lock.json'), 'utf8')).toBe(lock);

    const quiet = await aite();
    expect(quiet.stdout).not.toMatch(/proposed|written/);
  }, 120_000);
});
