import { createConnection, createServer } from 'node:net';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, type ExpectStatic } from 'vitest';
import { launch } from '../../src/sdk/index.js';
import { startFixtureServer, type FixtureServer } from '../support/FixtureServer.js';
import { alive, processesWith, startJob, type Job } from './support/processes.js';

// How the runner ends when a user stops it or Chrome cannot start (FAULTS rows 47 and 48, issue
// 22's bad `chrome`): each child process gets a TMPDIR of its own, so "nothing left behind" is a
// listing of that folder. Needs `npm run build` (the children load dist/).
const root = resolve(__dirname, '../..');
const cli = join(root, 'dist/cli/aite.js');
const sdk = new URL('../../dist/sdk/index.js', import.meta.url).href;

let server: FixtureServer;
let scratch: string;
beforeAll(async () => {
  server = await startFixtureServer();
  scratch = mkdtempSync(join(tmpdir(), 'aite-edges-'));
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

let count = 0;
/** Starts `node args` as the leader of its own process group, as a shell starts a job. */
function start(args: string[], env: NodeJS.ProcessEnv = {}): Job {
  return startJob(join(scratch, `run-${++count}`), args, env);
}

function writeScript(dir: string, webServer?: { command: string; url: string }): string {
  writeFileSync(join(dir, 'aite.config.json'), JSON.stringify({ allow: [server.origin], baseUrl: server.url, ...(webServer ? { webServer } : {}) }));
  writeFileSync(
    join(dir, 'wait.aite.json'),
    JSON.stringify({
      name: 'waits',
      steps: [{ navigate: '/counter.html' }, { wait: { kind: 'visible', target: { text: 'Never there' } }, timeoutMs: 60_000 }],
    }),
  );
  return 'wait.aite.json';
}

/**
 * A config's `webServer` as apps have one: a server that starts a process of its own (a watcher,
 * a worker) that does not stop when asked (SIGTERM); both pids are written to `pids.json` once it
 * listens.
 */
async function writeWebServer(dir: string): Promise<{ command: string; url: string; port: number; pids: () => number[] }> {
  const port = await freePort();
  const file = join(dir, 'web-server.cjs');
  writeFileSync(
    file,
    `const { spawn } = require('node:child_process');
     const worker = spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'], { stdio: 'ignore' });
     require('node:http').createServer((q, r) => r.end('ok')).listen(${port}, '127.0.0.1', () =>
       require('node:fs').writeFileSync(${JSON.stringify(join(dir, 'pids.json'))}, JSON.stringify([process.pid, worker.pid])));`,
  );
  return {
    command: `${JSON.stringify(process.execPath)} ${JSON.stringify(file)}`,
    url: `http://127.0.0.1:${port}/`,
    port,
    pids: () => JSON.parse(readFileSync(join(dir, 'pids.json'), 'utf8')) as number[],
  };
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer().once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

/** Whether something accepts connections on the port (within a second). */
function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ port, host: '127.0.0.1', timeout: 1_000 });
    const end = (answer: boolean) => () => {
      socket.destroy();
      done(answer);
    };
    socket.once('connect', end(true)).once('error', end(false)).once('timeout', end(false));
  });
}


/** An SDK script that opens a session and waits for ever. */
const waitingScript = (): string => `
  import { launch } from ${JSON.stringify(sdk)};
  const session = await launch({ allow: [${JSON.stringify(server.origin)}] });
  console.log('up');
  await new Promise(() => {});
`;

async function until(condition: () => boolean, what: string, child: Job, check: ExpectStatic = expect): Promise<void> {
  await check.poll(condition, { timeout: 30_000, message: `${what}\n${child.output()}` }).toBe(true);
}

// Each test is a child process with its own Chrome and TMPDIR that mostly waits: two at a time (the
// e2e project's maxConcurrency).
describe.concurrent('row 47: a signal mid-run leaves nothing behind', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`[RUN-WEBSERVER-STOP] row 47: ${signal} to \`aite run\`'s process group: Chrome, the temp profile, bridge.json and Chromium's temp dir are gone, so is the config's webServer with its children (its port free); exit ${code}`, async ({ expect, onTestFinished }) => {
      const dir = join(scratch, `cli-${signal}`);
      mkdirSync(dir);
      const web = await writeWebServer(dir);
      const script = writeScript(dir, { command: web.command, url: web.url });
      const child = start([cli, 'run', join(dir, script), '--config', join(dir, 'aite.config.json')]);
      // Mid-run: Chrome is up with its profile under the child's TMPDIR.
      await until(() => processesWith(child.tmp).length > 0 && readdirSync(child.tmp).some((f) => f.startsWith('org.chromium.')), 'Chrome started', child, expect);
      await new Promise((r) => setTimeout(r, 1_000));
      const pids = web.pids();
      // Whatever the outcome, nothing of it outlives the test.
      onTestFinished(() => pids.filter(alive).forEach((pid) => process.kill(pid, 'SIGKILL')));
      expect(pids.every(alive)).toBe(true);
      // As a terminal's Ctrl-C does: the whole group (the webServer leads a group of its own).
      process.kill(-child.proc.pid!, signal);
      const ended = await child.ended;
      expect(ended.code, child.output()).toBe(code);
      expect(readdirSync(child.tmp)).toEqual([]);
      expect(processesWith(child.tmp)).toEqual([]);
      expect(pids.filter(alive), child.output()).toEqual([]);
      expect(await listening(web.port)).toBe(false);
    }, 60_000);

    it(`row 47: ${signal} to an SDK script: the same, exit ${code}`, async ({ expect }) => {
      const child = start(['--input-type=module', '-e', waitingScript()]);
      await until(() => child.output().includes('up'), 'the session started', child, expect);
      expect(readdirSync(child.tmp).some((f) => f.startsWith('aite-profile-'))).toBe(true);
      process.kill(-child.proc.pid!, signal);
      const ended = await child.ended;
      expect(ended.code, child.output()).toBe(code);
      expect(readdirSync(child.tmp)).toEqual([]);
      expect(processesWith(child.tmp)).toEqual([]);
    }, 60_000);
  }
});

describe('row 47: a worker stopped as test runners stop it', () => {
  it('row 47: SIGTERM, then SIGKILL 500 ms later (Vitest stopping a worker): Chrome and the temp profile are gone', async () => {
    const child = start(['--input-type=module', '-e', waitingScript()]);
    await until(() => child.output().includes('up'), 'the session started', child);
    expect(readdirSync(child.tmp).some((f) => f.startsWith('aite-profile-'))).toBe(true);
    const kill = setTimeout(() => child.proc.kill('SIGKILL'), 500);
    child.proc.kill('SIGTERM');
    await child.ended;
    clearTimeout(kill);
    expect(readdirSync(child.tmp)).toEqual([]);
    // Killed at the start of the cleanup, a Chrome may still be exiting when its runner is killed.
    await until(() => processesWith(child.tmp).length === 0, 'Chrome gone', child);
  }, 60_000);

  it('[CHROMIUM-TEMP-GONE] row 47: Chromium\'s temp dir goes with a SIGTERM even when Chrome unlinked its socket before it was killed', async () => {
    const child = start(['--input-type=module', '-e', waitingScript()]);
    await until(() => child.output().includes('up'), 'the session started', child);
    const profile = readdirSync(child.tmp).find((f) => f.startsWith('aite-profile-'));
    expect(profile).toBeDefined();
    expect(readdirSync(child.tmp).some((f) => f.startsWith('org.chromium.'))).toBe(true);
    // As a Chrome ending on the group's SIGTERM does first, before it removes the dir.
    rmSync(join(child.tmp, profile!, 'SingletonSocket'));
    child.proc.kill('SIGTERM');
    await child.ended;
    expect(readdirSync(child.tmp)).toEqual([]);
  });

  it('[TEMP-PROFILE-ORPHANS] row 47: SIGKILL alone leaves the temp profile; the next launch removes it, and not the profile of a run still going', async () => {
    const tmp = join(scratch, 'orphans');
    mkdirSync(tmp);
    const profiles = (): string[] => readdirSync(tmp).filter((f) => f.startsWith('aite-profile-'));
    const killed = start(['--input-type=module', '-e', waitingScript()], { TMPDIR: tmp });
    await until(() => killed.output().includes('up'), 'the session started', killed);
    const [left] = profiles();
    process.kill(-killed.proc.pid!, 'SIGKILL');
    await killed.ended;
    // Its Chrome ends as its pipe closes; the profile stays.
    await until(() => processesWith(join(tmp, left!)).length === 0, 'Chrome gone', killed);
    expect(profiles()).toEqual([left]);
    const going = start(['--input-type=module', '-e', waitingScript()], { TMPDIR: tmp });
    onTestFinished(() => void going.proc.kill('SIGTERM'));
    await until(() => going.output().includes('up'), 'the second session started', going);
    expect(profiles()).not.toContain(left);
    const [kept] = profiles();
    const next = start(['--input-type=module', '-e', `
      import { launch } from ${JSON.stringify(sdk)};
      const session = await launch({ allow: [${JSON.stringify(server.origin)}] });
      await session.close();
    `], { TMPDIR: tmp });
    expect((await next.ended).code, next.output()).toBe(0);
    expect(profiles()).toEqual([kept]);
    going.proc.kill('SIGTERM');
    await going.ended;
    expect(profiles()).toEqual([]);
  }, 60_000);
});

describe('row 48: a Chrome that cannot start', () => {
  it('row 48: AITE_CHROME=/bin/false: a clear error, and the CLI exits within a second of printing it', async () => {
    const dir = join(scratch, 'false');
    mkdirSync(dir);
    const script = writeScript(dir);
    const child = start([cli, 'run', join(dir, script), '--config', join(dir, 'aite.config.json')], { AITE_CHROME: '/bin/false' });
    const ended = await child.ended;
    expect(ended.code).toBe(1);
    expect(child.output()).toMatch(/Chrome at \/bin\/false did not start/);
    expect(ended.at - ended.lastOutputAt).toBeLessThan(1_000);
    expect(readdirSync(child.tmp)).toEqual([]);
  }, 60_000);

  it('[PROFILE-KEPT] row 47: a script stopped by SIGINT on a profile it named: its Chrome ends cleanly, the profile keeps its cookies, a launch right after takes it', async () => {
    const userDataDir = mkdtempSync(join(scratch, 'profile-'));
    const page = new URL('counter.html', server.url).href;
    const child = start([
      '--input-type=module',
      '-e',
      `import { launch } from ${JSON.stringify(sdk)};
       const session = await launch({ allow: [${JSON.stringify(server.origin)}], userDataDir: ${JSON.stringify(userDataDir)} });
       await session.tab.navigate(${JSON.stringify(page)});
       await session.evaluate('document.cookie = "kept=yes; max-age=3600"');
       console.log('cookie set');
       process.kill(process.pid, 'SIGINT');
       await new Promise(() => {});`,
    ]);
    const ended = await child.ended;
    expect(ended.code).toBe(130);
    expect(child.output()).toContain('cookie set');
    const next = await launch({ allow: [server.origin], userDataDir });
    try {
      await next.tab.navigate(page);
      expect(await next.evaluate('document.cookie')).toContain('kept=yes');
    } finally {
      await next.close();
    }
  }, 60_000);

  it('row 48: a second launch on a profile in use names the Chrome that holds it, and exits within a second', async () => {
    const userDataDir = mkdtempSync(join(scratch, 'profile-'));
    const first = await launch({ allow: [server.origin], userDataDir });
    try {
      const pid = first.browser!.process()!.pid!;
      const child = start([
        '--input-type=module',
        '-e',
        `import { launch } from ${JSON.stringify(sdk)};
         try { await launch({ allow: [${JSON.stringify(server.origin)}], userDataDir: ${JSON.stringify(userDataDir)} }); }
         catch (e) { console.error(e.reason, e.message); }`,
      ]);
      const ended = await child.ended;
      expect(child.output()).toContain(`this profile is in use by another Chrome (pid ${pid})`);
      expect(child.output()).not.toMatch(/Target closed/);
      expect(ended.at - ended.lastOutputAt).toBeLessThan(1_000);
      // The first session is untouched.
      await first.tab.navigate(new URL('counter.html', server.url).href);
      // Once closed, a call says the session was closed, not that some bridge is; closing again is quiet.
      await first.close();
      for (const call of [() => first.click('Add'), () => first.verify.text('x'), () => first.evaluate('1')]) {
        await expect(call()).rejects.toMatchObject({ reason: 'connection-lost', message: expect.stringMatching(/not sent: this session was closed \(session\.close\(\)\); start a new one/) });
      }
    } finally {
      await first.close();
    }
  }, 60_000);
});

describe('issue 22: a `chrome` that is not one', () => {
  it('a directory as `chrome` is a clear error, not an EACCES crash', async () => {
    const child = start([
      '--input-type=module',
      '-e',
      `import { launch } from ${JSON.stringify(sdk)};
       try { await launch({ allow: ['http://127.0.0.1:9'], chrome: ${JSON.stringify(scratch)} }); }
       catch (e) { console.error(e.name, e.reason, e.message); }`,
    ]);
    const ended = await child.ended;
    expect(ended.code).toBe(0);
    expect(child.output()).toContain(`AiteError unsupported Chrome at ${scratch} is a directory, not an executable file`);
    expect(child.output()).not.toMatch(/EACCES|Unhandled/);
  }, 30_000);

  it('a `chrome` that never answers on the pipe fails by the launch deadline, is killed, and the process exits', async () => {
    const fake = join(scratch, 'silent-chrome');
    // Its own command line carries Chrome's flags (the user data dir under TMPDIR): findable.
    writeFileSync(fake, '#!/bin/sh\nwhile :; do sleep 1; done\n');
    chmodSync(fake, 0o755);
    const started = Date.now();
    const child = start([
      '--input-type=module',
      '-e',
      `import { launch } from ${JSON.stringify(sdk)};
       try { await launch({ allow: ['http://127.0.0.1:9'], chrome: ${JSON.stringify(fake)}, connectTimeoutMs: 2000 }); }
       catch (e) { console.error(e.reason, e.message); }`,
    ]);
    await until(() => processesWith(child.tmp).length > 0, 'the fake Chrome started', child);
    const ended = await child.ended;
    expect(child.output()).toMatch(/^timeout Chrome at .*silent-chrome did not answer on its debugging pipe within 2000 ms, so it was stopped/m);
    expect(ended.at - started).toBeLessThan(10_000);
    expect(ended.at - ended.lastOutputAt).toBeLessThan(1_000);
    expect(processesWith(child.tmp)).toEqual([]);
    expect(readdirSync(child.tmp)).toEqual([]);
  }, 60_000);
});
