import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { _isFailedRequest as isFailedRequest, type DialogAnswer, type DialogRecord, type DownloadRecord, type Session } from 'aite';
import { LazySession } from './LazySession.js';
import { failed, passed, type PageTrouble, type ToolAnswer } from './results.js';
import { tools, type Tool } from './tools.js';

/** What the MCP server is built from. */
export interface McpServerOptions {
  /** The server's version, told to the host. */
  version: string;
  /** Origins the run may touch. */
  allow: readonly string[];
  /** Starts the session (launch or attach), on the first tool call that needs a browser. */
  start: () => Promise<Session>;
  /** Whether the `evaluate` tool (page script in the main world) is offered at all. */
  allowEvaluate: boolean;
}

/** Cross-tool rules, sent once at initialisation (hosts put them in the model's context). */
const INSTRUCTIONS = [
  'aite drives a real Chrome through its extension. Look before you act: navigate, then snapshot (or read) to see the page.',
  'Targets name elements as a script does: a plain string is visible text; or {"role","name"}, {"label"}, {"placeholder"}, {"testid"}, {"css"}, with "within" and "nth".',
  'An action is sent once and never again: after a failure, look at the page before deciding to retry.',
  'A tool error starts with its reason in brackets. not-found/not-visible/not-enabled: look again (snapshot) and name the element differently or wait. ambiguous: name one of the candidates (nth, within, or a listed target). drifted: the page changed and the element is not the one remembered; nothing was done — check the candidates and name the one you mean. mismatch: the check failed, the page shows something else. timeout: it did not happen in time. unsupported: the request cannot be done here (an origin outside the allow list, say); do not retry it as is.',
].join('\n');

/** How long an answer waits for a download its call started to be saved. */
const DOWNLOAD_SETTLE_MS = 2000;
const DOWNLOAD_POLL_MS = 25;

/**
 * The MCP server over one session: the tools of tools.ts, each call queued after the one before,
 * each answer a sentence with the step's re-sends, repair, dialogs and warnings, or a tool error.
 */
export function createMcpServer(options: McpServerOptions): { server: McpServer; session: LazySession } {
  const session = new LazySession(options.start);
  // The dialogs an answer has said: each is said once, by the first answer after it was answered.
  const said = new WeakSet<object>();
  // The state each download was last said in: said when it starts, and again when it ends.
  const saidDownload = new WeakMap<DownloadRecord, DownloadRecord['state']>();
  const server = new McpServer({ name: 'aite', version: options.version }, { instructions: INSTRUCTIONS });
  for (const tool of tools(options.allow, options.allowEvaluate)) {
    server.registerTool(tool.name, { description: tool.description, inputSchema: tool.input }, (args: Record<string, unknown>) => call(tool, args));
  }
  const call = (tool: Tool, args: Record<string, unknown>): Promise<ToolAnswer> =>
    session.run(async (get, restarted) => {
      let started: Session | undefined;
      let before = 0;
      const ctx = {
        allow: options.allow,
        session: async (): Promise<Session> => {
          if (!started) {
            started = await get();
            before = started.retries.total;
          }
          return started;
        },
      };
      const retries = (): number => (started ? started.retries.total - before : 0);
      const unsaid = (): DialogRecord[] => {
        const fresh = (started?.dialogs.seen ?? []).filter((d) => !said.has(d));
        for (const d of fresh) said.add(d);
        return fresh;
      };
      // A request is said once it has ended badly; one still on its way may yet.
      const trouble = (): PageTrouble | undefined => {
        if (!started) return undefined;
        const fresh = <T extends object>(items: readonly T[], bad: (item: T) => boolean): T[] => {
          const out = items.filter((item) => !said.has(item) && bad(item));
          for (const item of out) said.add(item);
          return out;
        };
        // Chrome's "Failed to load resource" lines are the failed requests below, said once there.
        const errors = fresh(started.consoleErrors, (e) => e.kind !== 'console-warning' && e.kind !== 'resource');
        // The tab's icon is Chrome's request, not the page's: a site without one is not in trouble.
        const failedRequests = fresh(started.network, (r) => isFailedRequest(r));
        return errors.length + failedRequests.length > 0 ? { errors, failedRequests } : undefined;
      };
      // A download a call started is usually saved within moments: its answer waits that long for
      // it, so it says where the file went; one still coming is said as such, and again when it ends.
      const settled = async (): Promise<void> => {
        const deadline = Date.now() + DOWNLOAD_SETTLE_MS;
        const coming = (): boolean => (started?.downloads ?? []).some((d) => d.state === 'in-progress' && saidDownload.get(d) === undefined);
        while (coming() && Date.now() < deadline) await new Promise((r) => setTimeout(r, DOWNLOAD_POLL_MS));
      };
      const downloads = (): DownloadRecord[] => {
        const fresh = (started?.downloads ?? []).filter((d) => saidDownload.get(d) !== d.state);
        for (const d of fresh) saidDownload.set(d, d.state);
        return fresh;
      };
      // The dialog tool's own answer says what it armed; every other answer says what is still waiting.
      const armed = (): DialogAnswer[] => (tool.name === 'dialog' || !started ? [] : started.dialogs.armedAnswers.armed.map(({ id: _id, ...answer }) => answer));
      try {
        const outcome = await tool.run(args, ctx);
        for (const record of outcome.said ?? []) said.add(record);
        const sentence = restarted ? `${restarted}\n${outcome.sentence}` : outcome.sentence;
        await settled();
        const t = trouble();
        return passed(sentence, { retries: retries(), dialogs: unsaid(), armed: armed(), downloads: downloads(), ...(outcome.result ? { result: outcome.result } : {}), ...(t ? { trouble: t } : {}) }, outcome.image, outcome.body);
      } catch (error) {
        return failed(error, retries(), restarted, unsaid(), armed(), trouble(), downloads());
      }
    });
  return { server, session };
}

/** The stdio transport over `stdin` and `stdout` (the process's own unless tests pass theirs). */
export function stdioTransport(stdin: NodeJS.ReadableStream, stdout: NodeJS.WritableStream): StdioServerTransport {
  return new StdioServerTransport(stdin as typeof process.stdin, stdout as typeof process.stdout);
}
