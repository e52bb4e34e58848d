import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { _isFailedRequest as isFailedRequest, AiteError, type DialogAnswer, type DialogRecord, type DownloadRecord, type Session } from 'aite';
import { check } from './flatten.js';
import { LazySession } from './LazySession.js';
import { failed, passed, type PageTrouble, type ToolAnswer, type Unused } from './results.js';
import { tools, type Tool, type ToolContext } from './tools.js';

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
  'Targets name elements as a script does: a plain string is visible text; or {"role","name"}, {"label"}, {"placeholder"}, {"testid"}, {"css"}, with "within" and "nth"; or {"ref":"e12"} from the latest snapshot of the run\'s tab.',
  'An action is sent once and never again: after a failure, look at the page before deciding to retry.',
  'A tool error starts with its reason in brackets. not-found/not-visible/not-enabled: look again (snapshot) and name the element differently or wait. ambiguous: name one of the candidates (nth, within, or a listed target). drifted: the page changed and the element is not the one remembered; nothing was done — check the candidates and name the one you mean. mismatch: the check failed, the page shows something else. timeout: it did not happen in time. unsupported: the request cannot be done here (an origin outside the allow list, say); do not retry it as is.',
].join('\n');

/** How long an answer waits for a download its call started to be saved. */
const DOWNLOAD_SETTLE_MS = 2000;
const DOWNLOAD_POLL_MS = 25;
/** How long a page that timed out gets to answer a trivial check before it is said to be stuck. */
const PROBE_MS = 500;

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
  // The snapshots' refs by the tab they were given out in: a ref used in another tab is said to be that tab's.
  const refTabs: Array<{ from: number; to: number; tab: number }> = [];
  const byName = new Map<string, Tool>();
  for (const tool of tools(options.allow, options.allowEvaluate)) {
    byName.set(tool.name, tool);
    server.registerTool(tool.name, { description: tool.description, inputSchema: tool.input, annotations: tool.annotations }, (args: Record<string, unknown>) => call(tool, args));
  }
  // Arguments are checked by the server's own handler, in one place (check): an agent reads every
  // argument error as `[usage] <tool> was not run: <what to fix>`, as it reads every other error.
  server.server.removeRequestHandler('tools/call');
  server.server.setRequestHandler(CallToolRequestSchema, (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `There is no tool ${JSON.stringify(request.params.name)}; the tools are: ${[...byName.keys()].join(', ')}.`);
    return call(tool, request.params.arguments ?? {});
  });
  // The dialog tool's answers left armed when the last call that acts on a page ended: taken back
  // when the next such call begins (ANSWER_LIFETIME).
  let outlived: number[] = [];
  const call = (tool: Tool, given: Record<string, unknown>): Promise<ToolAnswer> =>
    session.run(async (get, restarted) => {
      let started: Session | undefined;
      let before = 0;
      const own: number[] = [];
      const ctx: ToolContext = {
        allow: options.allow,
        session: async (): Promise<Session> => {
          if (!started) {
            started = await get();
            before = started.retries.total;
          }
          return started;
        },
        armForCall: async (answer) => {
          const s = await ctx.session();
          s.dialogs.next(answer);
          own.push(s.dialogs.armedAnswers.armed.at(-1)!.id);
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
      // A call that acts on a page ends the answers armed for it, and begins by taking back those
      // that outlived the call that acted before it (ANSWER_LIFETIME).
      const acts = tool.annotations.readOnlyHint !== true && tool.name !== 'dialog';
      let left: DialogAnswer[] = [];
      const unused = (): Unused | undefined => {
        if (!acts || !started) return undefined;
        const ownBack = started.dialogs.takeBack(own);
        outlived = started.dialogs.armedAnswers.armed.map((a) => a.id);
        return { own: ownBack, before: left };
      };
      try {
        const args = check(tool.input, given, tool.name);
        if (acts && outlived.length > 0) {
          left = (await ctx.session()).dialogs.takeBack(outlived);
          outlived = [];
        }
        const outcome = await tool.run(args, ctx);
        if (tool.name === 'snapshot' && started) noteRefs(refTabs, outcome.body ?? '', started.tab.current);
        for (const record of outcome.said ?? []) said.add(record);
        const sentence = restarted ? `${restarted}\n${outcome.sentence}` : outcome.sentence;
        await settled();
        const t = trouble();
        const back = unused();
        return passed(sentence, { retries: retries(), dialogs: unsaid(), ...(back ? { unused: back } : {}), armed: armed(), downloads: downloads(), ...(outcome.result ? { result: outcome.result } : {}), ...(t ? { trouble: t } : {}) }, outcome.image, outcome.body);
      } catch (error) {
        const back = unused();
        const advice = started ? await adviceFor(error, started, refTabs) : undefined;
        return failed(error, { retries: retries(), ...(restarted ? { notice: restarted } : {}), ...(advice ? { advice } : {}), dialogs: unsaid(), ...(back ? { unused: back } : {}), armed: armed(), trouble: trouble(), downloads: downloads() });
      }
    });
  return { server, session };
}

/** Notes the refs a snapshot of `tab` gave out (`[ref=e12]`): one range, as refs are numbered on. */
function noteRefs(refTabs: Array<{ from: number; to: number; tab: number }>, text: string, tab: number | null): void {
  if (tab === null) return;
  const numbers = [...text.matchAll(/\[ref=e(\d+)\]/g)].map((m) => Number(m[1]));
  if (numbers.length > 0) refTabs.push({ from: Math.min(...numbers), to: Math.max(...numbers), tab });
}

/**
 * What the server knows of a failure that its message cannot: a ref given out in another tab
 * than the run's, and a page that timed out and does not answer at all (its script is stuck:
 * nothing more will work in that tab, and only a fresh one gets the agent going again).
 */
async function adviceFor(error: unknown, session: Session, refTabs: ReadonlyArray<{ from: number; to: number; tab: number }>): Promise<string | undefined> {
  if (!(error instanceof AiteError)) return undefined;
  const detail = error.detail as { ref?: string; stale?: string };
  if (error.reason === 'not-found' && detail.stale === 'unknown' && typeof detail.ref === 'string') {
    const n = Number(detail.ref.slice(1));
    const given = refTabs.findLast((r) => n >= r.from && n <= r.to);
    if (given && given.tab !== session.tab.current) {
      return `The ref ${detail.ref} was given out by a snapshot of tab ${given.tab}, not of the run's tab ${session.tab.current ?? '(none)'}: refs belong to the tab they were taken in. Take a snapshot here, or switch_tab back to that tab.`;
    }
    return undefined;
  }
  if (error.reason !== 'timeout' || session.tab.current === null) return undefined;
  // A request the page never answered says so itself; any other timeout (a page that never
  // loaded, code that never returned) is told apart by a trivial check.
  const silent =
    (error.detail as { answered?: boolean }).answered === false ||
    (await session.evaluate('1', undefined, { timeoutMs: PROBE_MS }).then(
      () => false,
      (probe: unknown) => probe instanceof AiteError && probe.reason === 'timeout',
    ));
  if (!silent) return undefined;
  return `The page in tab ${session.tab.current} does not answer: its script is busy or stuck (a loop that never yields), and while it is, nothing works in this tab. If it stays so, call close_tab, then navigate: the page opens in a fresh tab.`;
}

/** The stdio transport over `stdin` and `stdout` (the process's own unless tests pass theirs). */
export function stdioTransport(stdin: NodeJS.ReadableStream, stdout: NodeJS.WritableStream): StdioServerTransport {
  return new StdioServerTransport(stdin as typeof process.stdin, stdout as typeof process.stdout);
}
