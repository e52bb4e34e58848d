import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportSafe, writeReport } from 'aite';
import { runCli } from '../../../src/cli/program.js';
import type { Io } from '../../../src/cli/Io.js';
import { failingRun } from '../report/sampleReport.js';
import { fakeLauncher, stepFailure } from '../script/fakeSession.js';
import { Capture } from '../../support/Capture.js';
import { tempDirs } from '../../support/tempDirs.js';

const tempDir = tempDirs();

// Bad files a careless user or an attacker hands aite: each is refused with a sentence and exit 2
// before any Chrome starts (the fake launcher proves nothing launched), never a crash or a hang.

const CONFIG = { allow: ['http://127.0.0.1:4173'], baseUrl: 'http://127.0.0.1:4173/' };

async function project(files: Record<string, unknown>): Promise<string> {
  const dir = await tempDir('aite-hostile-');
  for (const [name, content] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

async function run(files: Record<string, unknown>, args: string[] = [], behaviour?: Parameters<typeof fakeLauncher>[0]) {
  const dir = await project({ 'aite.config.json': CONFIG, ...files });
  const fake = fakeLauncher(behaviour);
  const stdout = new Capture();
  const stderr = new Capture();
  const io: Io = { stdout, stderr, env: {}, cwd: dir };
  const code = await runCli(['run', ...args], io, { launch: fake.launch });
  return { code, stdout: stdout.text, stderr: stderr.text, launched: fake.launched.length, dir };
}

function aliasBomb(): string {
  let yaml = 'a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n';
  let previous = 'a';
  for (let i = 0; i < 9; i++) {
    yaml += `b${i}: &b${i} [${Array(9).fill(`*${previous}`).join(', ')}]\n`;
    previous = `b${i}`;
  }
  return `${yaml}steps:\n  - navigate: /\n`;
}

describe('[FILE-LIMITS] bad files are script errors (exit 2) before Chrome starts', () => {
  it('a YAML alias bomb is a script error naming the aliases, not an internal ReferenceError', async () => {
    const r = await run({ 'bomb.aite.yaml': aliasBomb() }, ['bomb.aite.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error bomb\.aite\.yaml: this YAML uses its aliases \(\*name\) too many times/);
    expect(r.stderr).not.toMatch(/ReferenceError|internal error|\n\s+at /);
    expect(r.launched).toBe(0);
  });

  it('an http step nested 100,000 deep is a script error, not a stack overflow', async () => {
    const deep = `{ "steps": [ { "http": { "url": "/api", "json": ${'['.repeat(100_000)}${']'.repeat(100_000)} } } ] }`;
    const r = await run({ 'http.json': deep }, ['http.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error http\.json: objects and lists nest more than 64 levels deep/);
    expect(r.stderr).not.toMatch(/RangeError/);
  });

  it('a YAML script nested deep in blocks is refused too', async () => {
    const lines = ['steps:', '  - http:', '      url: /api', '      json:'];
    for (let i = 0; i < 80; i++) lines.push(`${' '.repeat(8 + 2 * i)}k${i}:`);
    lines.push(`${' '.repeat(8 + 160)}v`);
    const r = await run({ 'deep.aite.yaml': lines.join('\n') }, ['deep.aite.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/nest more than 64 levels deep/);
  });

  it('a 50 MB name is refused by the size of its file: no 2 GB process, no 250 MB report', async () => {
    const dir = await project({ 'aite.config.json': CONFIG });
    await writeFile(join(dir, 'big.aite.json'), `{ "name": "${'n'.repeat(50 * 1024 * 1024)}", "steps": [ { "navigate": "/" } ] }`);
    const fake = fakeLauncher();
    const stderr = new Capture();
    const before = process.memoryUsage().rss;
    const code = await runCli(['run', 'big.aite.json'], { stdout: new Capture(), stderr, env: {}, cwd: dir }, { launch: fake.launch });
    expect(code).toBe(2);
    expect(stderr.text).toMatch(/big\.aite\.json: not read as a script: it is 50\.0 MB; at most 4\.0 MB is read/);
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
    expect(fake.launched).toHaveLength(0);
  });

  it('a name longer than 1000 characters is a field error', async () => {
    const r = await run({ 's.aite.json': { name: 'n'.repeat(5000), steps: [{ navigate: '/' }] } }, ['s.aite.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/field "name": .*1000/);
  });

  it('a config over 1 MB, and a script that is not a regular file, are refused', async () => {
    const big = await run({ 's.aite.json': { steps: [{ navigate: '/' }] }, 'aite.config.json': { ...CONFIG, pad: 'x'.repeat(2 * 1024 * 1024) } }, ['s.aite.json']);
    expect(big.code).toBe(2);
    expect(big.stderr).toMatch(/aite\.config\.json: not read as a config: it is 2\.0 MB; at most 1\.0 MB/);
    const device = await run({}, ['/dev/zero']);
    expect(device.code).toBe(2);
    expect(device.stderr).toMatch(/not a regular file/);
  });

  describe('the lock file is checked as a file of its own, worded as the lock file', () => {
    const script = { 's.aite.json': { steps: [{ navigate: '/' }, { click: 'Send' }] } };
    const entry = (descriptor: Record<string, unknown>) => ({
      version: 1,
      entries: { '/ {"text":"Send"}': { target: { text: 'Send' }, page: '/', descriptor: { v: 1, tag: 'button', xpath: '/html/body/button', ...descriptor } } },
    });

    it('a corrupt lock file is a lock-file error, not "Could not start Chrome"', async () => {
      const r = await run({ ...script, 'aite.lock.json': '{ "version": 1, "entries": {' }, ['s.aite.json', '--lock-file', 'aite.lock.json']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/aite\.lock\.json: this lock file is not valid JSON .*Fix it or delete it/);
      expect(r.stderr).not.toMatch(/Could not start Chrome/);
      expect(r.launched).toBe(0);
    });

    it('a descriptor with a 100,000-deep array is refused (depth), before any click', async () => {
      const text = JSON.stringify(entry({ classes: ['x'] })).replace('["x"]', `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
      const r = await run({ ...script, 'aite.lock.json': text }, ['s.aite.json', '--lock-file', 'aite.lock.json']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/this lock file nests more than 64 levels deep/);
      expect(r.launched).toBe(0);
    });

    it('the descriptor schema is strict: an unknown field, or an entry over 64 KB, is refused', async () => {
      const unknown = await run({ ...script, 'aite.lock.json': entry({ payload: [[['deep']]] }) }, ['s.aite.json', '--lock-file', 'aite.lock.json']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/this lock file is not a valid aite lock file: entries\..*descriptor: .*payload/i);
      const huge = await run({ ...script, 'aite.lock.json': entry({ text: 't'.repeat(100_000) }) }, ['s.aite.json', '--lock-file', 'aite.lock.json']);
      expect(huge.code).toBe(2);
      expect(huge.stderr).toMatch(/an entry is at most 64 KB/);
    });
  });

  it('long strings in a report are cut, with a note of how much', async () => {
    const dir = await tempDir('aite-hostile-');
    const report = failingRun();
    report.scripts[0]!.steps.at(-1)!.message = 'm'.repeat(5 * 1024 * 1024);
    await writeReport(dir, report);
    const written = await readFile(join(dir, 'report.json'), 'utf8');
    expect(written.length).toBeLessThan(100_000);
    expect(written).toMatch(/m{100}… \(5232880 more characters not shown\)/);
  });
});

describe('[SEC-REDACT] a password in a URL reaches no output', () => {
  const secretUrl = 'http://ana:s3cret-pass@127.0.0.1:4173/wallet';

  it('report.json, index.html, junit.xml, the terminal and --reporter json mask the userinfo', async () => {
    const files = { 's.aite.json': { steps: [{ navigate: secretUrl }, { click: 'Send' }] } };
    const failing = () => ({ click: () => Promise.reject(stepFailure('not-found', `No element shows "Send" on ${secretUrl}.`, { url: secretUrl }, new Uint8Array([1]))) });
    const r = await run(files, ['s.aite.json', '--report', 'out', '--reporter', 'list,junit'], failing);
    expect(r.code).toBe(1);
    const outputs = {
      terminal: r.stdout + r.stderr,
      json: await readFile(join(r.dir, 'out', 'report.json'), 'utf8'),
      html: await readFile(join(r.dir, 'out', 'index.html'), 'utf8'),
      junit: await readFile(join(r.dir, 'out', 'junit.xml'), 'utf8'),
    };
    for (const [where, text] of Object.entries(outputs)) {
      expect(text, where).not.toContain('s3cret-pass');
      expect(text, where).toContain('http://***@127.0.0.1:4173/wallet');
    }
    const json = await run(files, ['s.aite.json', '--reporter', 'json'], failing);
    expect(json.stdout).not.toContain('s3cret-pass');
    expect(JSON.parse(json.stdout).scripts[0].steps[0].title).toBe('navigate http://***@127.0.0.1:4173/wallet');
  });

  it('reportSafe masks every string of a value, keys too, and leaves URLs without userinfo alone', () => {
    const safe = reportSafe({ [`${secretUrl}`]: [`go to ${secretUrl} and https://tok3n@example.test/x`, 'http://127.0.0.1:4173/ plain', 'mail ana@example.test'] });
    expect(safe).toEqual({ 'http://***@127.0.0.1:4173/wallet': ['go to http://***@127.0.0.1:4173/wallet and https://***@example.test/x', 'http://127.0.0.1:4173/ plain', 'mail ana@example.test'] });
  });
});
