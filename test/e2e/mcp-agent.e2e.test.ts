import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/FixtureServer.js';
import { connect, textOf, type Answer } from './support/mcp.js';

// What an agent meets beside the tools' own work: the hints a host reads before it calls a tool,
// history, a picture too large for a host, a page whose script never yields, a ref of another tab.
// One server, started with --allow-evaluate, serves the file's tests in order.

let server: FixtureServer;
let cwd: string;
let client: Client;
const page = (path: string): string => new URL(path, server.url).href;
const call = (name: string, args: Record<string, unknown> = {}): Promise<Answer> => client.callTool({ name, arguments: args }) as Promise<Answer>;

async function ok(name: string, args: Record<string, unknown> = {}): Promise<string> {
  const answer = await call(name, args);
  expect(answer.isError, `${name}: ${textOf(answer)}`).toBeFalsy();
  return textOf(answer);
}

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(base64: string): { width: number; height: number } {
  const bytes = Buffer.from(base64, 'base64');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

beforeAll(async () => {
  server = await startFixtureServer();
  cwd = await mkdtemp(join(tmpdir(), 'aite-mcp-agent-'));
  ({ client } = await connect(['--allow', server.origin, '--allow-evaluate'], cwd));
});

afterAll(async () => {
  await client?.close();
  await server?.close();
  await rm(cwd, { recursive: true, force: true });
});

describe('aite mcp as an agent meets it', () => {
  it('[MCP-ANNOTATIONS] every tool says whether it only reads, or acts and may destroy; the instructions name the ref target', async () => {
    const { tools } = await client.listTools();
    const hints = new Map(tools.map((t) => [t.name, t.annotations ?? {}]));
    for (const name of ['snapshot', 'read', 'verify', 'wait', 'tabs', 'switch_tab', 'screenshot']) expect(hints.get(name)?.readOnlyHint, name).toBe(true);
    for (const name of ['click', 'type', 'fill', 'press', 'select', 'check', 'drag', 'upload', 'evaluate', 'close_tab']) {
      expect(hints.get(name), name).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    }
    for (const name of ['navigate', 'back', 'forward', 'reload', 'hover', 'dialog']) expect(hints.get(name), name).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(hints.get('navigate')?.openWorldHint).toBe(true);
    expect(client.getInstructions()).toContain('{"ref":"e12"} from the latest snapshot');
  });

  it('[MCP-HISTORY] back and forward move through the tab\'s history, reload loads the page again, each saying where it landed', async () => {
    await ok('navigate', { url: page('popup.html') });
    await ok('navigate', { url: page('counter.html') });
    expect(await ok('back')).toMatch(/^Went back to http:\/\/127\.0\.0\.1:\d+\/popup\.html \("Checkout"\) in tab \d+\. \(no re-sends\)$/);
    expect(await ok('forward')).toMatch(/^Went forward to http:\/\/127\.0\.0\.1:\d+\/counter\.html \("Counter"\) in tab \d+\. \(no re-sends\)$/);
    await ok('evaluate', { expression: 'window.__mark = 1' });
    expect(await ok('reload')).toMatch(/^Reloaded http:\/\/127\.0\.0\.1:\d+\/counter\.html \("Counter"\) in tab \d+\. \(no re-sends\)$/);
    expect(await ok('evaluate', { expression: 'window.__mark === undefined' })).toBe('Evaluated: true. (no re-sends)');
  });

  it('[MCP-SCREENSHOT-FIT] a full-page picture of a long page is scaled down to fit 2000 px and says so; the visible part is not', async () => {
    await ok('navigate', { url: page('counter.html') });
    await ok('evaluate', { expression: 'document.body.style.height = "9000px"' });
    const full = await call('screenshot', { fullPage: true });
    const picture = full.content.find((c) => c.type === 'image')!;
    const size = pngSize(picture.data!);
    expect(Math.max(size.width, size.height)).toBe(2000);
    expect(size.height).toBeGreaterThan(size.width);
    expect(textOf(full)).toMatch(new RegExp(`^Screenshot of tab \\d+ \\(\\d+ bytes of PNG\\)\\. The picture was scaled down to ${size.width}×${size.height} px to fit maxSide 2000 \\(the page is \\d+×9\\d{3} px\\): picture one element \\(target\\) for its detail\\.`));
    const visible = await call('screenshot');
    expect(textOf(visible)).not.toContain('scaled');
    const shown = pngSize(visible.content.find((c) => c.type === 'image')!.data!);
    expect(Math.max(shown.width, shown.height)).toBeLessThan(2000);
  });

  it('[MCP-REF-OTHER-TAB] a ref used in another tab than the one its snapshot read is said to be that tab\'s', async () => {
    await ok('navigate', { url: page('popup.html') });
    const ref = /button "Open payment" \[ref=(e\d+)\]/.exec(await ok('snapshot'))![1]!;
    await ok('click', { target: 'Open payment' });
    await ok('switch_tab', { urlContains: 'pay.html' });
    const answer = await call('click', { target: { ref } });
    expect(answer.isError).toBe(true);
    expect(textOf(answer)).toMatch(new RegExp(`^\\[not-found\\] The ref ${ref} is not one of this page's`));
    expect(textOf(answer)).toMatch(new RegExp(`\\nThe ref ${ref} was given out by a snapshot of tab \\d+, not of the run's tab \\d+: refs belong to the tab they were taken in\\. Take a snapshot here, or switch_tab back to that tab\\.`));
    await ok('close_tab');
  });

  it('[MCP-HUNG-PAGE] evaluate takes timeoutMs; a page that no longer answers is said so with the way out (close_tab, then navigate), one that answers is not', async () => {
    await ok('navigate', { url: page('counter.html') });
    const waiting = await call('evaluate', { expression: 'new Promise(() => {})', timeoutMs: 300 });
    expect(textOf(waiting)).toMatch(/^\[timeout\] evaluate did not finish within 300 ms/);
    expect(textOf(waiting)).not.toContain('close_tab');
    const stuck = await call('evaluate', { expression: 'while (true) {}', timeoutMs: 300 });
    expect(textOf(stuck)).toMatch(/^\[timeout\] evaluate did not finish within 300 ms/);
    expect(textOf(stuck)).toMatch(/\nThe page in tab \d+ does not answer: its script is busy or stuck .* call close_tab, then navigate: the page opens in a fresh tab\./);
    await ok('close_tab');
    expect(await ok('navigate', { url: page('counter.html') })).toMatch(/^Opened .*counter\.html/);
    expect(await ok('evaluate', { expression: 'document.title', timeoutMs: 2000 })).toBe('Evaluated: "Counter". (no re-sends)');
  });
});
