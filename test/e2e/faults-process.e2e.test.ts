import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { Bridge, launch } from '../../src/sdk/index.js';
import { ExtensionStage } from '../../src/sdk/launch/ExtensionStage.js';
import { descendants } from './support/listeningPorts.js';
import { startFixtureServer } from '../support/FixtureServer.js';
import { failure } from './support/failure.js';
import { alive, profileDirOf } from './support/processes.js';
import { startUserChrome, stopUserChrome } from './support/userChrome.js';

// Faults that end or disturb whole processes: each test has its own Chrome.



async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const port = (probe.address() as { port: number }).port;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Listens on `port` until `count` connections have come, closing each at once (to a WebSocket
 * client that is the same failure as a closed port), then stops listening. Fails after
 * `timeoutMs`, saying how many came.
 */
async function turnAway(port: number, count: number, timeoutMs: number): Promise<void> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  try {
    await new Promise<void>((resolve, reject) => {
      let seen = 0;
      const timer = setTimeout(() => reject(new Error(`${seen} of ${count} connection attempts on port ${port} within ${timeoutMs} ms`)), timeoutMs);
      server.on('connection', (socket) => {
        socket.destroy();
        if (++seen === count) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('the browser and the runner going away', () => {
  it('row 38: Chrome killed: pending requests fail within a second, bridge.json is deleted', async () => {
    const server = await startFixtureServer();
    const session = await launch({ allow: [server.origin] });
    try {
      await session.tab.navigate(new URL('counter.html', server.url).href);
      const file = join(profileDirOf(session.browser!.process()!.spawnargs)!, 'aite-extension', 'bridge.json');
      expect(existsSync(file)).toBe(true);
      const waiting = session.locator.wait('visible', { target: { text: 'Never' }, timeoutMs: 30_000 });
      const killedAt = Date.now();
      session.browser!.process()!.kill('SIGKILL');
      const error = await failure(waiting);
      expect(error.reason).toBe('connection-lost');
      expect(Date.now() - killedAt).toBeLessThan(1_000);
      await expect.poll(() => existsSync(file)).toBe(false);
      expect((await failure(session.tab.list())).reason).toBe('connection-lost');
    } finally {
      await session.close();
      await server.close();
    }
  });

  it('row 38: only the browser process killed: close() ends its helpers before it removes the temp profile', async () => {
    // Nobody else ends them: they take seconds to notice, and the network service among them writes
    // its cache index into the profile as it goes, after close() had removed it.
    const server = await startFixtureServer();
    const session = await launch({ allow: [server.origin] });
    const chrome = session.browser!.process()!;
    const profile = profileDirOf(chrome.spawnargs)!;
    try {
      await session.tab.navigate(new URL('counter.html', server.url).href);
      const helpers = [...descendants([chrome.pid!])].filter((pid) => pid !== chrome.pid);
      expect(helpers.length).toBeGreaterThan(0);
      chrome.kill('SIGKILL');
      await new Promise((resolve) => chrome.once('exit', resolve));
      await session.close();
      expect(helpers.filter(alive)).toEqual([]);
      expect(existsSync(profile)).toBe(false);
      // And it stays removed: nothing was left to write into it.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(existsSync(profile)).toBe(false);
    } finally {
      await session.close();
      await server.close();
    }
  });

  it('[DL-ACT-STATUS] row 38: Chrome killed during a click sent over the pipe: connection-lost, and the runner says what it knows of the input', async () => {
    const server = await startFixtureServer();
    const session = await launch({ allow: [server.origin] });
    try {
      await session.tab.navigate(new URL('slow-click.html?ms=3000', server.url).href);
      const page = (await session.browser!.pages()).find((p) => p.url().startsWith(server.origin))!;
      const started = new Promise<void>((resolve) => page.on('console', (m) => m.text() === 'slow-click started' && resolve()));
      const clicking = failure(session.click({ role: 'button', name: 'Slow save' }));
      // The click handler holds the page: the mouse-up is never acknowledged before Chrome dies.
      await started;
      session.browser!.process()!.kill('SIGKILL');
      const error = await clicking;
      expect(error.reason).toBe('connection-lost');
      expect(error.message).toMatch(/debugging pipe closed.*not sent again/);
      // The runner sent the click and got no acknowledgement: it cannot know more, and says so.
      expect(error.detail).toEqual({ dispatched: 'unknown' });
    } finally {
      await session.close();
      await server.close();
    }
  });

  for (const [how, code] of [
    ['exits without closing', 'process.exit(0)'],
    ['throws', 'throw new Error("boom")'],
    ['gets SIGINT', 'process.kill(process.pid, "SIGINT"); await new Promise(() => {})'],
    ['gets SIGTERM', 'process.kill(process.pid, "SIGTERM"); await new Promise(() => {})'],
  ] as const) {
    // A child runner and its Chrome that mostly wait on each other: two at a time (the e2e project's maxConcurrency).
    it.concurrent(`row 19: the runner ${how}: bridge.json is deleted and Chrome is gone`, async ({ expect }) => {
      const script = `
        import { launch } from ${JSON.stringify(new URL('../../dist/sdk/index.js', import.meta.url).href)};
        const session = await launch({ allow: ['http://127.0.0.1:9'] });
        const proc = session.browser.process();
        const dir = proc.spawnargs.find((a) => a.startsWith('--user-data-dir=')).split('=')[1];
        console.log(JSON.stringify({ pid: proc.pid, dir }));
        ${code};
      `;
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      await new Promise((resolve) => child.on('exit', resolve));
      const { pid, dir } = JSON.parse(out.trim().split('\n').pop()!) as { pid: number; dir: string };
      expect(existsSync(join(dir, 'aite-extension', 'bridge.json'))).toBe(false);
      await expect.poll(() => alive(pid)).toBe(false);
    });
  }
});

describe('a frozen browser', () => {
  it('row 28: Chrome stopped and resumed: 4410, a reconnect, and nothing repeated', async () => {
    const server = await startFixtureServer();
    const session = await launch({ allow: [server.origin], keepAlive: { pingIntervalMs: 300, pongTimeoutMs: 1_500 } });
    try {
      await session.tab.navigate(new URL('counter.html', server.url).href);
      await session.click({ text: 'Increment' });
      const causes: string[] = [];
      session.bridge.on('rejected', (r) => causes.push(r.cause));
      const pids = [...descendants([session.browser!.process()!.pid!])];
      for (const pid of pids) process.kill(pid, 'SIGSTOP');
      await expect.poll(() => causes, { timeout: 10_000 }).toContain('ping');
      for (const pid of pids) process.kill(pid, 'SIGCONT');
      await session.bridge.waitForExtension(20_000);
      await session.verify.targetText({ css: '#value' }, '11');
    } finally {
      await session.close();
      await server.close();
    }
  });
});

describe('bridges that are late or not ours', () => {
  it('row 30: a bridge that starts after the worker is joined by backoff', async () => {
    const server = await startFixtureServer();
    const profile = await mkdtemp(join(tmpdir(), 'aite-late-'));
    const stage = await ExtensionStage.create({ userDataDir: profile, allow: [server.origin] });
    const port = await freePort();
    const token = 'c'.repeat(32);
    await stage.writeBridgeConfig({ url: `ws://127.0.0.1:${port}/ext`, token, profile: 'late' });
    const chrome = startUserChrome({ profileDir: profile, extensions: [stage.dir] });
    try {
      // The worker is up and retrying before the bridge exists: that is the scenario. Its first
      // attempt and one retry after a backoff delay are seen (and turned away) before the bridge starts.
      await turnAway(port, 2, 30_000);
      const bridge = await Bridge.start({ port, token });
      await bridge.waitForExtension(20_000);
      expect(bridge.hello?.profile).toBe('late');
      await bridge.close();
    } finally {
      await stopUserChrome(chrome);
      await server.close();
      await rm(profile, { recursive: true, force: true, maxRetries: 5 });
    }
  });

  it('row 17: a process squatting on the bridge port after the runner died is not obeyed', async () => {
    const server = await startFixtureServer();
    const session = await launch({ allow: [server.origin] });
    try {
      const port = session.bridge.port;
      const pagesBefore = (await session.browser!.pages()).length;
      await session.bridge.close();
      const squatter = new WebSocketServer({ host: '127.0.0.1', port });
      const closes: number[] = [];
      squatter.on('connection', (ws) => {
        ws.on('message', () => {
          ws.send(JSON.stringify({ type: 'welcome', runId: 'evil', protocol: 1, proof: '0'.repeat(64) }));
          ws.send(JSON.stringify({ id: 1, cmd: 'navigate', url: `${server.url}counter.html` }));
        });
        ws.on('close', (code) => closes.push(code));
      });
      await expect.poll(() => closes.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
      expect(closes[0]).toBe(4401);
      expect((await session.browser!.pages()).length).toBe(pagesBefore);
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
    } finally {
      await session.close();
      await server.close();
    }
  });

  it('row 39: a Chrome that ignores the extension fails with a clear error, no hang', async () => {
    const started = Date.now();
    // Long enough for a loaded machine's Chrome to answer on its pipe (it took over 4 s there), so
    // what fails is the extension that never connects.
    const error = await failure(launch({ allow: ['http://127.0.0.1:9'], args: ['--disable-extensions'], connectTimeoutMs: 8_000 }));
    expect(error.message).toMatch(/extension|did not start/);
    expect(error.message).toMatch(/aite doctor/);
    expect(Date.now() - started).toBeLessThan(40_000);
  });
});

