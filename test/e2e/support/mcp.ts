import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

// `aite mcp` as a host runs it: the built CLI spawned on stdio, driven by the MCP SDK's own client.

const CLI = fileURLToPath(new URL('../../../dist/cli/aite.js', import.meta.url));

/** A tool's answer as the SDK client gives it. */
export interface Answer {
  content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
  isError?: boolean;
}

/** A spawned `aite mcp` and an SDK client connected to it. */
export async function connect(args: string[], cwd: string, env?: Record<string, string>): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], cwd, stderr: 'pipe', ...(env ? { env: { ...getDefaultEnvironment(), ...env } } : {}) });
  const client = new Client({ name: 'aite-e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** The text blocks of an answer, one after the other. */
export const textOf = (answer: Answer): string => answer.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
