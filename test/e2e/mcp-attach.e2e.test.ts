import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/FixtureServer.js';
import { startUserChrome, stopUserChrome } from './support/userChrome.js';
import { connect, textOf, type Answer } from './support/mcp.js';

// `aite mcp --attach` as docs/agents.md sets it up: the extension folder written by
// `aite extension`, loaded into a Chrome the user runs (no pipe, no debugging port), and
// the server pointed at the same folder. The server's bridge starts on the first tool call; the
// Chrome here is started once bridge.json is written, as attach.e2e.test.ts starts it after attach().

const CLI = fileURLToPath(new URL('../../dist/cli/aite.js', import.meta.url));

let server: FixtureServer;
let dir: string;
let extensionDir: string;
let chrome: ChildProcess;
let client: Client;
const page = (path: string): string => new URL(path, server.url).href;
const call = (name: string, args: Record<string, unknown> = {}): Promise<Answer> => client.callTool({ name, arguments: args }, undefined, { timeout: 90_000 }) as Promise<Answer>;

beforeAll(async () => {
  server = await startFixtureServer();
  dir = await mkdtemp(join(tmpdir(), 'aite-mcp-attach-'));
  // Both without a folder: `aite extension` writes where `aite mcp --attach` looks, in the user's home.
  extensionDir = join(dir, '.aite', 'extension');
  await promisify(execFile)(process.execPath, [CLI, 'extension', '--allow', server.origin], { cwd: dir, env: { ...process.env, HOME: dir } });
  ({ client } = await connect(['--attach', '--allow', server.origin, '--lock', 'aite.lock.json'], dir, { HOME: dir }));
});

afterAll(async () => {
  await client?.close();
  await stopUserChrome(chrome);
  await server?.close();
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

describe('aite mcp --attach: the user\'s own Chrome', () => {
  it('[MCP-ATTACH] [MCP-LAZY] the first navigate starts the bridge, the user\'s Chrome connects, and the page opens there', async () => {
    expect(existsSync(join(extensionDir, 'bridge.json'))).toBe(false);
    const first = call('navigate', { url: page('counter.html') });
    await expect.poll(() => existsSync(join(extensionDir, 'bridge.json')), { timeout: 30_000 }).toBe(true);
    chrome = startUserChrome({ profileDir: join(dir, 'profile'), extensions: [extensionDir] });
    const answer = await first;
    expect(answer.isError, textOf(answer)).toBeFalsy();
    expect(textOf(answer)).toMatch(/^Opened http:\/\/127\.0\.0\.1:\d+\/counter\.html \("Counter"\) in tab \d+\. \(no re-sends\)$/);
  });

  it('[MCP-ATTACH] a click lands in the page (its own counter moves once) and read shows it', async () => {
    expect(textOf(await call('read', { target: { css: '#value' } }))).toBe('css "#value" reads: "10" (no re-sends)');
    expect(textOf(await call('click', { target: { role: 'button', name: 'Increment' } }))).toBe('Done: click button "Increment". (no re-sends)');
    expect(textOf(await call('read', { target: { css: '#value' } }))).toBe('css "#value" reads: "11" (no re-sends)');
    const snapshot = textOf(await call('snapshot'));
    expect(snapshot).toMatch(/^Snapshot of "Counter" http:\/\/127\.0\.0\.1:\d+\/counter\.html: /);
    const ref = /- button "Decrement" \[ref=(e\d+)\]/.exec(snapshot)![1]!;
    await call('click', { target: { ref } });
    expect(textOf(await call('read', { target: { css: '#value' } }))).toBe('css "#value" reads: "10" (no re-sends)');
  });

  it('[MCP-ATTACH] [MCP-ALLOW] an origin outside the allow list is refused there too', async () => {
    const answer = await call('navigate', { url: 'https://example.com/' });
    expect(answer.isError).toBe(true);
    expect(textOf(answer)).toMatch(/^\[unsupported\] https:\/\/example\.com is not in this server's allow list/);
  });

  it('[MCP-ATTACH] [MCP-CLOSE] closing the connection deletes bridge.json and writes the lock file (--lock); the user\'s Chrome keeps running', async () => {
    await client.close();
    await expect.poll(() => existsSync(join(extensionDir, 'bridge.json')), { timeout: 10_000 }).toBe(false);
    // What the agent named is remembered, as in launch mode.
    const lock = JSON.parse(await readFile(join(dir, 'aite.lock.json'), 'utf8')) as unknown;
    expect(JSON.stringify(lock)).toContain('"Increment"');
    expect(chrome.exitCode).toBeNull();
    expect(chrome.signalCode).toBeNull();
  });
});
