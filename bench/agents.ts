// The agent task: the same 10-step task through two MCP servers on stdio, `aite mcp` and the
// Playwright MCP server (@playwright/mcp), on the same page and the same Chromium, driven by the
// MCP SDK's own client as a host drives them. Measured per run: tool calls needed, wall time from
// spawning the server to the task done, and the bytes of tool output an agent must read
// (snapshots included; the tool list, read once per connection, is counted apart).
//
// Each tool is driven the way its own docs say: Playwright MCP by refs from browser_snapshot, aite
// by the page's own words (labels, roles, text) after one snapshot, both taking one look at the
// page before acting. Every step's answer is checked: a task that did not happen is a failure,
// never a number.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const require = createRequire(import.meta.url);

export type AgentTool = 'aite mcp' | 'playwright mcp';

/** One run of the task by one tool. */
export interface AgentRun {
  calls: number;
  /** Bytes of tool output (text, and images as their base64) over the task. */
  bytes: number;
  /** Bytes of the tools/list answer. */
  toolListBytes: number;
  wallMs: number;
}

export interface AgentBenchOptions {
  /** The origin serving test/fixtures/pages (agent.html, counter.html). */
  origin: string;
  /** The built CLI, dist/cli/aite.js (of the snapshot the bench runs against). */
  aiteCli: string;
  executablePath: string;
  /** The Chrome flags both get (aite's own). */
  chromeArgs: string[];
  n: number;
}

/** The 10 steps, in words: what both agents do. */
export const AGENT_TASK = [
  'open the newsletter page',
  'look at the page (one snapshot)',
  'enter the email address',
  'tick "Weekly digest"',
  'pick the topic "Technology"',
  'subscribe',
  'confirm the status says so',
  'delete the draft, accepting the confirm dialog',
  'confirm "Draft deleted"',
  'open the Counter page (confirmed by its title)',
] as const;

interface Answer {
  content: Array<{ type: string; text?: string; data?: string }>;
  isError?: boolean;
}

/** A connected client that counts what the agent calls and must read. */
class Agent {
  calls = 0;
  bytes = 0;
  constructor(readonly client: Client) {}

  async call(name: string, args: Record<string, unknown> = {}, expect?: RegExp): Promise<string> {
    this.calls += 1;
    const answer = (await this.client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as Answer;
    const text = answer.content.map((c) => c.text ?? c.data ?? '').join('\n');
    this.bytes += Buffer.byteLength(text);
    if (answer.isError) throw new Error(`${name} failed: ${text.slice(0, 400)}`);
    if (expect && !expect.test(text)) throw new Error(`${name}: expected ${expect} in ${text.slice(0, 400)}`);
    return text;
  }
}

const EMAIL = 'ada@example.com';
const SUBSCRIBED = `Subscribed: ${EMAIL} (tech, weekly)`;

async function aiteTask(agent: Agent, url: string): Promise<void> {
  await agent.call('navigate', { url });
  await agent.call('snapshot', {}, /textbox "Email"/);
  await agent.call('type', { target: { label: 'Email' }, text: EMAIL });
  await agent.call('check', { target: { label: 'Weekly digest' } });
  await agent.call('select', { target: { label: 'Topic' }, option: 'Technology' });
  await agent.call('click', { target: { role: 'button', name: 'Subscribe' } });
  await agent.call('verify', { kind: 'text', value: SUBSCRIBED });
  await agent.call('click', { target: { role: 'button', name: 'Delete draft' }, dialog: { accept: true } }, /confirm dialog opened: "Delete the draft\?"; it was accepted/);
  await agent.call('verify', { kind: 'text', value: 'Draft deleted' });
  await agent.call('click', { target: { role: 'link', name: 'Counter' } });
  await agent.call('verify', { kind: 'title', value: 'Counter' });
}

/** The ref Playwright's snapshot gives the line that matches `line`. */
function refOf(snapshot: string, line: RegExp): string {
  for (const l of snapshot.split('\n')) {
    const ref = /\[ref=(e\d+)\]/.exec(l)?.[1];
    if (ref && line.test(l)) return ref;
  }
  throw new Error(`playwright mcp: no ${line} in the snapshot`);
}

async function playwrightTask(agent: Agent, url: string): Promise<void> {
  await agent.call('browser_navigate', { url });
  const snap = await agent.call('browser_snapshot');
  const ref = (line: RegExp): string => refOf(snap, line);
  await agent.call('browser_type', { element: 'Email', target: ref(/textbox "Email"/), text: EMAIL });
  await agent.call('browser_click', { element: 'Weekly digest', target: ref(/checkbox "Weekly digest"/) });
  await agent.call('browser_select_option', { element: 'Topic', target: ref(/combobox "Topic"/), values: ['Technology'] });
  await agent.call('browser_click', { element: 'Subscribe', target: ref(/button "Subscribe"/) });
  await agent.call('browser_wait_for', { text: SUBSCRIBED });
  await agent.call('browser_click', { element: 'Delete draft', target: ref(/button "Delete draft"/) }, /confirm.*Delete the draft\?/s);
  await agent.call('browser_handle_dialog', { accept: true });
  await agent.call('browser_wait_for', { text: 'Draft deleted' });
  await agent.call('browser_click', { element: 'Counter', target: ref(/link "Counter"/) }, /Page Title: Counter/);
}

/** Spawns one tool's server, runs the task once, and closes it. */
export async function runOnce(tool: AgentTool, options: AgentBenchOptions, scratch: string): Promise<AgentRun> {
  const url = `${options.origin}/agent.html`;
  const started = performance.now();
  const transport =
    tool === 'aite mcp'
      ? new StdioClientTransport({
          command: process.execPath,
          args: [options.aiteCli, 'mcp', '--allow', options.origin],
          cwd: scratch,
          env: { ...(process.env as Record<string, string>), AITE_CHROME: options.executablePath },
          stderr: 'ignore',
        })
      : new StdioClientTransport({
          command: process.execPath,
          args: [join(dirname(require.resolve('@playwright/mcp/package.json')), 'cli.js'), '--config', join(scratch, 'playwright-mcp.json'), '--isolated', '--output-dir', join(scratch, 'pw-out')],
          cwd: scratch,
          stderr: 'ignore',
        });
  const client = new Client({ name: 'aite-bench', version: '1.0.0' });
  await client.connect(transport);
  try {
    const toolListBytes = Buffer.byteLength(JSON.stringify((await client.listTools()).tools));
    const agent = new Agent(client);
    await (tool === 'aite mcp' ? aiteTask(agent, url) : playwrightTask(agent, url));
    return { calls: agent.calls, bytes: agent.bytes, toolListBytes, wallMs: performance.now() - started };
  } finally {
    await client.close();
  }
}

/** The task `n` times per tool, interleaved (A B A B ...) after one warm-up each. */
export async function runAgentBench(options: AgentBenchOptions): Promise<Record<AgentTool, AgentRun[]>> {
  const scratch = mkdtempSync(join(tmpdir(), 'aite-bench-agents-'));
  // Playwright MCP on aite's Chromium with aite's flags: it cannot download a browser here.
  writeFileSync(
    join(scratch, 'playwright-mcp.json'),
    JSON.stringify({ browser: { browserName: 'chromium', launchOptions: { executablePath: options.executablePath, headless: true, chromiumSandbox: false, args: options.chromeArgs } } }),
  );
  const tools: AgentTool[] = ['aite mcp', 'playwright mcp'];
  const runs: Record<AgentTool, AgentRun[]> = { 'aite mcp': [], 'playwright mcp': [] };
  try {
    for (const tool of tools) await runOnce(tool, options, scratch);
    for (let i = 0; i < options.n; i++) for (const tool of tools) runs[tool].push(await runOnce(tool, options, scratch));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return runs;
}
