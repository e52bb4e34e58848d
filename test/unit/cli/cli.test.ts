import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport, StagedExtension, StageExtensionOptions } from 'aite';
import { runCli, type CliSeams } from '../../../src/cli/program.js';
import type { Io } from '../../../src/cli/Io.js';
import { fakeLauncher, stepFailure } from '../script/fakeSession.js';
import { Capture } from '../../support/Capture.js';
import { tempDirs } from '../../support/tempDirs.js';

const tempDir = tempDirs();

const api = setupServer(http.get('http://127.0.0.1:4173/api/balance', () => HttpResponse.json({ balance: 4 })));
beforeAll(() => api.listen({ onUnhandledRequest: 'bypass' }));
afterAll(() => api.close());

async function project(files: Record<string, unknown>): Promise<string> {
  const dir = await tempDir('aite-cli-');
  for (const [name, content] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

async function cli(args: string[], cwd: string, seams: CliSeams = {}, env: NodeJS.ProcessEnv = {}, tty = false) {
  const stdout = new Capture(tty);
  const stderr = new Capture(tty);
  const io: Io = { stdout, stderr, env: { ...env }, cwd };
  const code = await runCli(args, io, seams);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const CONFIG = { allow: ['http://127.0.0.1:4173'], baseUrl: 'http://127.0.0.1:4173/', profiles: { sender: {}, receiver: {} } };
const SEND = { name: 'send', steps: [{ navigate: '/' }, { click: { text: 'Send' } }, { verify: { kind: 'text', value: '4 MALLBUCKS' } }] };

describe('aite (CLI)', () => {
  it('--help names the commands and the exit codes; --version prints the version', async () => {
    const help = await cli(['--help'], tmpdir());
    expect(help.code).toBe(0);
    for (const word of ['run', 'launch', 'doctor', 'merge-reports', 'Exit codes: 0 all passed']) expect(help.stdout).toContain(word);
    // The guide it points at is a file the package ships (package.json "files").
    const docs = /^Docs: (.+)$/m.exec(help.stdout)?.[1];
    expect(docs && existsSync(docs), help.stdout).toBe(true);
    const files = (JSON.parse(await readFile(join(__dirname, '../../../package.json'), 'utf8')) as { files: string[] }).files;
    expect(files).toContain(relative(join(__dirname, '../../..'), docs!).split(sep)[0]);
    const version = await cli(['--version'], tmpdir());
    expect(version).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect((await cli(['frobnicate'], tmpdir())).code).toBe(2);
    expect((await cli(['run'], tmpdir())).code).toBe(2);
  });

  describe("a new user's mistakes: exit 2 and one paragraph naming what and where", () => {
    const mistakes: Array<[string, Record<string, unknown>, RegExp]> = [
      ['a missing file', {}, /^error send\.aite\.json: no such file \(looked in .*send\.aite\.json\)\. Check the path/],
      ['invalid JSON', { 'send.aite.json': '{ "steps": [ { "navigate": "/" }, ] }' }, /^error send\.aite\.json:1:35: this is not valid JSON: unexpected token '\]' \(a comma too many before it\?\)\./],
      ['an unknown step', { 'send.aite.json': { steps: [{ tap: 'Send' }] } }, /^error send\.aite\.json:4:7, step 1: unknown step "tap"\. A step has exactly one action: navigate, click/],
      ['a wrong field type', { 'send.aite.json': { steps: [{ type: { label: 'Amount' }, text: 1 }] } }, /^error send\.aite\.json:7:15, step 1 \(type\), field "text": expected a string, got the number 1\. Example: /],
      ['an unknown profile', { 'send.aite.json': { steps: [{ navigate: '/', profile: 'recever' }] } }, /^error send\.aite\.json:5:18, step 1 \(navigate\), field "profile": unknown profile "recever"\. Did you mean "receiver"\? Known profiles: "sender", "receiver", "default" \(in .*aite\.config\.json\)\. Declare it under "profiles"/],
      // Issue 20: caught before any Chrome starts (FAULTS row 40 for the allow list).
      ['a key that is not one', { 'send.aite.json': { steps: [{ navigate: '/' }, { press: 'Entr' }] } }, /^error send\.aite\.json:\d+:\d+, step 2 \(press\), field "press": "Entr" is not a key name \(did you mean "Enter"\?\)/],
      ['row 40: a literal URL outside the allow list', { 'send.aite.json': { steps: [{ navigate: 'http://127.0.0.1:5000/' }] } }, /^error send\.aite\.json:\d+:\d+, step 1 \(navigate\), field "navigate": http:\/\/127\.0\.0\.1:5000\/ is outside the allow list of profile "default" \(http:\/\/127\.0\.0\.1:4173\): aite would refuse to open it\. Add "http:\/\/127\.0\.0\.1:5000" to "allow"/],
    ];
    for (const [what, files, message] of mistakes) {
      it(what, async () => {
        const dir = await project({ 'aite.config.json': CONFIG, ...files });
        const { code, stdout, stderr } = await cli(['run', 'send.aite.json'], dir, { launch: fakeLauncher().launch });
        expect(code).toBe(2);
        expect(stderr).toMatch(message);
        expect(stderr.trim().split('\n')).toHaveLength(1);
        expect(stdout).toBe('');
      });
    }

    it('no Chrome', async () => {
      const dir = await project({ 'aite.config.json': CONFIG, 'send.aite.json': SEND });
      const { code, stderr } = await cli(['run', 'send.aite.json', '--chrome', '/nowhere/chrome'], dir);
      expect(code).toBe(2);
      expect(stderr).toMatch(/^error send\.aite\.json: Chrome not found at \/nowhere\/chrome \(from the `chrome` option\)\. Point it at a Chrome or Chromium executable file\. Run `aite doctor` to check the setup\.\n$/);
    });

    it('a config mistake, a bad flag, --update-lock without a lock file', async () => {
      const dir = await project({ 'aite.config.json': { alow: [] }, 'send.aite.json': SEND });
      expect(await cli(['run', 'send.aite.json'], dir)).toMatchObject({ code: 2, stderr: expect.stringContaining('field "alow": unknown field "alow". Did you mean "allow"?') });
      const ok = await project({ 'aite.config.json': CONFIG, 'send.aite.json': SEND });
      expect(await cli(['run', 'send.aite.json', '--shard', '3/2'], ok)).toMatchObject({ code: 2, stderr: expect.stringContaining('--shard takes i/n') });
      expect(await cli(['run', 'send.aite.json', '--timeout', 'soon'], ok)).toMatchObject({ code: 2, stderr: expect.stringContaining('--timeout takes a whole number') });
      expect(await cli(['run', 'send.aite.json', '--reporter', 'html'], ok)).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown reporter "html"') });
      expect(await cli(['run', 'send.aite.json', '--update-lock'], ok, { launch: fakeLauncher().launch })).toMatchObject({ code: 2, stderr: expect.stringContaining('add "lockFile"') });
    });

    it('reports the mistakes of every script before running any', async () => {
      const dir = await project({ 'aite.config.json': CONFIG, 'a.aite.json': SEND, 'b.aite.json': { steps: [{ clik: 'x' }] }, 'c.aite.json': { steps: [1] } });
      const fake = fakeLauncher();
      const { code, stderr } = await cli(['run', '.'], dir, { launch: fake.launch });
      expect(code).toBe(2);
      expect(stderr).toContain('b.aite.json:');
      expect(stderr).toContain('c.aite.json:');
      expect(fake.launched).toHaveLength(0);
    });
  });

  it('--base-url beats a script\'s own baseUrl (flags win)', async () => {
    const dir = await project({ 'aite.config.json': CONFIG, 'send.aite.json': { baseUrl: 'http://127.0.0.1:9999/', steps: [{ navigate: '/cart' }] } });
    const fake = fakeLauncher();
    const { code } = await cli(['run', 'send.aite.json', '--base-url', 'http://127.0.0.1:4173/'], dir, { launch: fake.launch });
    expect(code).toBe(0);
    expect(fake.calls.find((c) => c.method === 'navigate')?.args[0]).toBe('http://127.0.0.1:4173/cart');
  });

  it('a step that was retried says which command was re-sent; one step is "1 step"', async () => {
    const dir = await project({ 'aite.config.json': CONFIG, 'send.aite.json': { name: 'one', steps: [{ verify: { kind: 'text', value: '4 MALLBUCKS' } }] } });
    const fake = fakeLauncher(() => ({
      'verify.text': () => {
        // The bridge re-sent the verify after a reconnect: the session counts it.
        const retries = fake.sessions.get('default')!.retries as { total: number; byCommand: Record<string, number> };
        retries.total += 1;
        retries.byCommand.verify = (retries.byCommand.verify ?? 0) + 1;
        return {};
      },
    }));
    const { code, stdout } = await cli(['run', 'send.aite.json', '--report', 'out'], dir, { launch: fake.launch });
    expect(code).toBe(0);
    expect(stdout).toMatch(/✓ {3}1 verify .*1 retry \(verify re-sent\)/);
    expect(stdout).toMatch(/1 passed · 1 step · 1 retry/);
    const report = JSON.parse(await readFile(join(dir, 'out', 'report.json'), 'utf8')) as RunReport;
    expect(report.scripts[0]!.steps[0]).toMatchObject({ retries: 1, retried: { verify: 1 } });
  });

  it('[FOLDERS] a report folder the system refuses (under /proc, or under a file) is said after the summary, with exit 2; the run is not lost', async () => {
    const dir = await project({ 'aite.config.json': CONFIG, 'send.aite.json': SEND, 'plain.txt': 'x' });
    for (const [report, why] of [
      ['/proc/aite-none/report', /The report was not written to \/proc\/aite-none\/report: .*cannot make the folder \/proc\/aite-none: ENOENT.* Name a folder you can write with --report/],
      ['plain.txt/report', /The report was not written to plain\.txt\/report: .*cannot make the folder .*plain\.txt\/report: .*plain\.txt is a file, not a folder\. Name a folder/],
    ] as const) {
      const { code, stdout, stderr } = await cli(['run', 'send.aite.json', '--report', report], dir, { launch: fakeLauncher().launch });
      expect(code).toBe(2);
      expect(stdout).toMatch(/✓ 1 passed · 3 steps · 0 retries/);
      expect(stderr).toMatch(why);
    }
  });

  it('exit 0 when all passed, with a line per step and no colour off a terminal', async () => {
    const dir = await project({ 'aite.config.json': CONFIG, 'send.aite.json': SEND });
    const { code, stdout } = await cli(['run', 'send.aite.json'], dir, { launch: fakeLauncher().launch });
    expect(code).toBe(0);
    expect(stdout).toContain('✓   2 click "Send"');
    expect(stdout).toMatch(/✓ 1 passed · 3 steps · 0 retries/);
    expect(stdout).not.toMatch(/\x1b\[/);
  });

  it('colours on a terminal, and never with NO_COLOR', async () => {
    const dir = await project({ 'aite.config.json': CONFIG, 'send.aite.json': SEND });
    const tty = await cli(['run', 'send.aite.json'], dir, { launch: fakeLauncher().launch }, {}, true);
    expect(tty.stdout).toMatch(/\x1b\[32m✓/);
    const noColor = await cli(['run', 'send.aite.json'], dir, { launch: fakeLauncher().launch }, { NO_COLOR: '1' }, true);
    expect(noColor.stdout).not.toMatch(/\x1b\[\d+m/);
  });

  it('exit 1 when a step failed, naming it; the report holds it', async () => {
    const dir = await project({ 'aite.config.json': CONFIG, 'send.aite.json': SEND });
    const fake = fakeLauncher(() => ({ click: () => Promise.reject(stepFailure('not-found', 'No element shows "Send".', {}, new Uint8Array([1]))) }));
    const { code, stdout } = await cli(['run', 'send.aite.json', '--report', 'out', '--reporter', 'list,junit'], dir, { launch: fake.launch });
    expect(code).toBe(1);
    expect(stdout).toContain('✗   2 click "Send"');
    expect(stdout).toContain('No element shows "Send".');
    expect(stdout).toContain(`screenshot: ${join('out', 'screenshots', 'send-step-2-failed.png')}`);
    expect(stdout).toContain('report: out/index.html · junit: out/junit.xml');
    const report = JSON.parse(await readFile(join(dir, 'out/report.json'), 'utf8')) as RunReport;
    expect(report.scripts[0]!.steps.map((s) => s.status)).toEqual(['passed', 'failed', 'skipped']);
  });

  it('exit 3 when a pre-state check is not met, said apart from an app failure', async () => {
    const dir = await project({
      'aite.config.json': CONFIG,
      'send.aite.json': { pre: [{ http: { url: '/api/balance', json: { balance: 5 } } }], steps: SEND.steps },
    });
    const fake = fakeLauncher();
    const { code, stdout } = await cli(['run', 'send.aite.json'], dir, { launch: fake.launch });
    expect(code).toBe(3);
    expect(stdout).toContain('pre-state not met');
    expect(stdout).toContain('this is not an app failure');
    expect(fake.launched).toHaveLength(0);
  });

  it('--reporter json writes only the report, as JSON, on stdout', async () => {
    const dir = await project({ 'aite.config.json': CONFIG, 'send.aite.json': SEND });
    const { code, stdout } = await cli(['run', 'send.aite.json', '--reporter', 'json'], dir, { launch: fakeLauncher().launch });
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as RunReport;
    expect(report).toMatchObject({ version: 1, status: 'passed', totals: { scripts: 1, steps: 3 } });
  });

  it('lists proposed repairs with the command that accepts them', async () => {
    const dir = await project({ 'aite.config.json': { ...CONFIG, lockFile: 'aite.lock.json' }, 'send.aite.json': SEND });
    const fake = fakeLauncher(() => ({
      click: () => ({ ok: true, retries: 0, warnings: [], durationMs: 1, repair: { score: 0.9, runnerUp: 0.2, old: { v: 1, tag: 'button', xpath: '/b' }, changed: ['text'], changes: ['text "Send" -> "Send money"'] } }),
    }));
    const { code, stdout } = await cli(['run', 'send.aite.json'], dir, { launch: fake.launch });
    expect(code).toBe(0);
    expect(stdout).toContain('1 repair proposed, not written to the lock file:');
    expect(stdout).toContain('text "Send" → "Send money"');
    expect(stdout).toContain('Accept them with: aite run send.aite.json --update-lock');
    expect(fake.launched[0]).toMatchObject({ lockFile: join(dir, 'aite.lock.json'), updateLock: false });
    await cli(['run', 'send.aite.json', '--update-lock'], dir, { launch: fake.launch });
    expect(fake.launched[1]).toMatchObject({ updateLock: true });
  });

  it('--shard runs a deterministic slice, and merge-reports joins the shards', async () => {
    const dir = await project({ 'aite.config.json': CONFIG, 'a.aite.json': SEND, 'b.aite.json': SEND, 'c.aite.json': SEND });
    const one = await cli(['run', 'c.aite.json', 'a.aite.json', 'b.aite.json', '--shard', '1/2', '--report', 'r1'], dir, { launch: fakeLauncher().launch });
    const two = await cli(['run', 'a.aite.json', 'b.aite.json', 'c.aite.json', '--shard', '2/2', '--report', 'r2'], dir, { launch: fakeLauncher().launch });
    expect(one.stdout).toContain('2 scripts (shard 1/2 of 3)');
    expect(two.stdout).toContain('1 script (shard 2/2 of 3)');
    const merged = await cli(['merge-reports', 'r1', 'r2', '--report', 'all', '--reporter', 'junit'], dir);
    expect(merged.code).toBe(0);
    const report = JSON.parse(await readFile(join(dir, 'all/report.json'), 'utf8')) as RunReport;
    expect(report.scripts.map((s) => s.file).sort()).toEqual(['a.aite.json', 'b.aite.json', 'c.aite.json']);
    expect(await readFile(join(dir, 'all/junit.xml'), 'utf8')).toContain('tests="9"');
  });

  it('aite launch says clearly when there is no display', async () => {
    const dir = await project({ 'aite.config.json': CONFIG });
    const { code, stderr } = await cli(['launch'], dir, { launch: fakeLauncher().launch }, { DISPLAY: '' });
    expect(code).toBe(2);
    expect(stderr).toContain('there is no display here (DISPLAY and WAYLAND_DISPLAY are unset)');
    expect(stderr).toContain('xvfb-run -a aite launch');
  });

  it('aite launch opens the profile until told to stop', async () => {
    const dir = await project({ 'aite.config.json': { ...CONFIG, profiles: { sender: { userDataDir: 'profiles/sender' } } } });
    const fake = fakeLauncher();
    fake.launch = (async (options) => {
      const session = await fakeLauncher().launch(options);
      Object.assign(session, { bridge: { url: 'ws://127.0.0.1:1/ext?token=x' } });
      fake.launched.push(options);
      return session;
    }) as typeof fake.launch;
    const { code, stdout } = await cli(['launch', '--profile', 'sender', '--headless'], dir, { launch: fake.launch, until: Promise.resolve() });
    expect(code).toBe(0);
    expect(fake.launched[0]).toMatchObject({ profile: 'sender', headless: true, userDataDir: join(dir, 'profiles/sender'), allow: ['http://127.0.0.1:4173'] });
    expect(stdout).toContain('Chrome is open with the aite extension');
    expect((await cli(['launch', '--profile', 'nobody', '--headless'], dir, { launch: fake.launch })).code).toBe(2);
  });

  it('aite extension writes the extension for attach mode with the config\'s and the flags\' origins, and says how to load it', async () => {
    const dir = await project({ 'aite.config.json': { ...CONFIG, profiles: { shop: { allow: ['https://shop.example'] } } } });
    const staged: StageExtensionOptions[] = [];
    const stageExtension = async (options: StageExtensionOptions): Promise<StagedExtension> => {
      staged.push(options);
      return { dir: options.dir, extensionId: 'abcdefghijklmnopabcdefghijklmnop', hostPermissions: options.allow.map((o) => `${o}/*`) };
    };
    const { code, stdout } = await cli(['extension', '--out', 'ext', '--allow', 'http://127.0.0.1:5000', '--profile', 'shop'], dir, { stageExtension });
    expect(code).toBe(0);
    expect(staged).toEqual([{ dir: join(dir, 'ext'), allow: ['http://127.0.0.1:4173', 'http://127.0.0.1:5000', 'https://shop.example'] }]);
    expect(stdout).toContain(`--load-extension=${join(dir, 'ext')}`);
    expect(stdout).toContain(`attach({ extensionDir: '${join(dir, 'ext')}'`);
    const bare = await project({});
    const none = await cli(['extension', '--out', 'ext'], bare, { stageExtension });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('pass --allow http://127.0.0.1:4173');
    // Without --out: the one folder in the user's home where `aite mcp --attach` looks.
    const home = await cli(['extension', '--allow', 'http://127.0.0.1:4173'], bare, { stageExtension }, { HOME: join(bare, 'home') });
    expect(home.code).toBe(0);
    expect(staged[1]).toEqual({ dir: join(bare, 'home', '.aite', 'extension'), allow: ['http://127.0.0.1:4173'] });
    expect(staged).toHaveLength(2);
  });
});
