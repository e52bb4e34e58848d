import { _DEFAULT_TIMEOUT_MS as DEFAULT_TIMEOUT_MS, _NAVIGATE_TIMEOUT_MS as NAVIGATE_TIMEOUT_MS, type DialogAnswer as DialogAnswerOf, type NetworkEntry, _describeStep as describeStep, _describeTarget as describeTarget, _runStep as runStep, _stepSchema as stepSchema, AiteError, type ScriptStep, type StepOf, type SelectOption, type Session, type StepResult, type TargetInput } from 'aite';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { check, flattenUnion } from './flatten.js';
import { ANSWER_LIFETIME, elementWords, tabLine } from './results.js';

/** What a tool's work produced: the sentence, and what the step left beside passing. */
export interface ToolOutcome {
  sentence: string;
  /** What the tool read (a snapshot, the tab list), after the sentence and its re-sends. */
  body?: string;
  result?: StepResult;
  image?: Uint8Array;
  /** Records the sentence has told already (the page navigate opened with an error status): the answer does not list them again. */
  said?: readonly object[];
}

/** What every tool gets. */
export interface ToolContext {
  /** The session, started on first use. */
  session: () => Promise<Session>;
  /** The origins this server may open. */
  allow: readonly string[];
  /** Arms `answer` for the dialog this call opens: the server takes it back when the call ends. */
  armForCall(answer: DialogAnswerOf): Promise<void>;
}

/** One MCP tool: its fixed name, what an agent reads about it, its input, and what it does. */
export interface Tool {
  name: string;
  description: string;
  input: z.ZodObject;
  /**
   * What the tool does to the pages, for hosts (which may ask the user before a destructive
   * call) and for the server: a call that is not read-only ends the dialog answers armed for it.
   */
  annotations: ToolAnnotations;
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome>;
}

/**
 * The longest side of a picture the screenshot tool answers: hosts refuse or shrink larger images
 * (a long page's full picture is many thousand pixels tall), and one this size is a few hundred KB.
 */
const MAX_PICTURE_SIDE = 2_000;

/** Reads the pages and changes nothing: hosts may run it without asking. */
const READS: ToolAnnotations = { readOnlyHint: true, openWorldHint: true };
/** Acts on a page as a person's input does: it may buy, send or delete, as the page makes it. */
const ACTS: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, openWorldHint: true };
/** Moves the tab to a page (or hovers): what the page held unsaved may go, nothing is submitted. */
const MOVES: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, openWorldHint: true };

// The script format's own schemas: a tool's target is exactly a script step's target (a ref included).
const Target = (stepSchema('click').shape.click as z.ZodType<TargetInput>).describe(
  'The element: a plain string is its visible text ("Send"); or an object such as {"role":"button","name":"Send"}, {"label":"Amount"}, {"placeholder":"Search"}, {"testid":"pay"}, {"css":"#total"}, optionally with "within" (a region by name, or a target) and "nth" (0-based, when several match), and "frame" for an element inside an iframe (its name, id, title or css; a list for nested iframes, outermost first; cross-site iframes of allowed origins too); or {"ref":"e12"} from the last snapshot (no frame needed).',
);
const VerifyKinds = stepSchema('verify').shape.verify;
const WaitKinds = stepSchema('wait').shape.wait;
const TabMatch = stepSchema('switchTab').shape.switchTab;
const { click: _click, name: _name, profile: _profile, timeoutMs: _timeout, ...clickOptions } = stepSchema('click').shape;
const { hover: _hover, name: _hoverName, profile: _hoverProfile, timeoutMs: _hoverTimeout, ...hoverOptions } = stepSchema('hover').shape;
const { drag: _drag, to: _to, name: _dragName, profile: _dragProfile, timeoutMs: _dragTimeout, ...dragOptions } = stepSchema('drag').shape;
const Key = stepSchema('press').shape.press;
const SelectOptions = stepSchema('select').shape.option;
const DialogAnswer = stepSchema('dialog').shape.dialog;
const Files = stepSchema('upload').shape.files.describe('Absolute paths of files on the machine Chrome runs on (relative ones: to where the server started); [] clears the input.');
const Ms = z.number().int().positive().max(120_000).optional();
const timeoutMs = Ms.describe(`How long the step may take, in ms (default the server's --timeout, else ${DEFAULT_TIMEOUT_MS}).`);
const loadTimeoutMs = Ms.describe(`How long the page may take to load, in ms (default ${NAVIGATE_TIMEOUT_MS}, or the server's --timeout when that is longer); one that has not loaded by then fails, its answer a few seconds later at most (a picture of the failure, a check that the page still answers).`);

/** A tool that is one script step: the step describes itself ("click \"Send\"") and runs as `aite run` runs it. */
function stepTool(name: string, description: string, input: z.ZodObject, toStep: (args: Record<string, unknown>) => ScriptStep, annotations: ToolAnnotations = ACTS): Tool {
  return {
    name,
    description,
    input,
    annotations,
    async run(args, ctx) {
      const step = toStep(args);
      const { result } = await runStep(await ctx.session(), step);
      return { sentence: done(step, args.target, result), ...(result ? { result } : {}) };
    },
  };
}

/**
 * A step's sentence. A target that does not say in words what it names (a ref, css, xpath,
 * testid) is followed by the element the step found: an agent sees what it acted on.
 */
function done(step: ScriptStep, target: unknown, result: StepResult | undefined): string {
  const t = target as Partial<Record<'text' | 'name' | 'label' | 'placeholder', unknown>> | string | undefined;
  const worded = typeof t !== 'object' || t.text !== undefined || t.name !== undefined || t.label !== undefined || t.placeholder !== undefined;
  return `Done: ${describeStep(step)}${!worded && result?.element ? ` (the ${elementWords(result.element)})` : ''}.`;
}

const t = (args: Record<string, unknown>, key = 'target'): TargetInput => args[key] as TargetInput;

/** Offered only with --allow-evaluate: it runs the agent's code in the page. */
const evaluateTool: Tool = {
  name: 'evaluate',
  description:
    "Run a JavaScript expression in the run's page (its main world) and answer its JSON value; a promise is awaited. Only on allowed origins. It runs page code: prefer read, verify and snapshot, which cannot change the page. Code still running at timeoutMs cannot be stopped: a loop that never yields leaves the tab stuck (close_tab, then navigate, opens a fresh one).",
  input: z.strictObject({
    expression: z.string().min(1).describe('An expression, e.g. "document.title" or "fetch(\'/api\').then(r => r.status)"'),
    timeoutMs: Ms.describe(`How long to wait for its value, in ms (default the server's --timeout, else ${DEFAULT_TIMEOUT_MS}).`),
  }),
  annotations: ACTS,
  async run(args, ctx) {
    const value = await (await ctx.session()).evaluate(String(args.expression), undefined, opt(args));
    return { sentence: `Evaluated: ${JSON.stringify(value) ?? 'undefined'}.` };
  },
};
const opt = (args: Record<string, unknown>): { timeoutMs?: number } => (args.timeoutMs === undefined ? {} : { timeoutMs: args.timeoutMs as number });
type Position = { x: number; y: number };
/** A drag tool call's positions, as the drag step takes them. */
const positions = (args: Record<string, unknown>): { sourcePosition?: Position; targetPosition?: Position } => ({
  ...(args.sourcePosition ? { sourcePosition: args.sourcePosition as Position } : {}),
  ...(args.targetPosition ? { targetPosition: args.targetPosition as Position } : {}),
});

/** The tools, in the order a host lists them. `allow` goes into navigate's description; `evaluate` only with `allowEvaluate`. */
export function tools(allow: readonly string[], allowEvaluate = false): Tool[] {
  return [
    ...(allowEvaluate ? [evaluateTool] : []),
    {
      name: 'navigate',
      description: `Open an absolute http(s) URL in the run's tab (a new tab the first time) and wait until it has loaded. Only these origins may be opened: ${allow.join(', ')}; any other is refused before anything runs. Then call snapshot to see the page.`,
      input: z.strictObject({ url: z.string().min(1).describe('An absolute URL, e.g. "http://127.0.0.1:4173/"'), timeoutMs: loadTimeoutMs }),
      annotations: { ...MOVES, idempotentHint: true },
      async run(args, ctx) {
        const url = refuseOutside(String(args.url), ctx.allow);
        const session = await ctx.session();
        const before = session.network.at(-1);
        // A URL with a fragment may only move within the page the tab shows (no request then).
        const shown = url.includes('#') ? (await session.tab.list()).find((tab) => tab.id === session.tab.current)?.url : undefined;
        const answer = await session.tab.navigate(url, opt(args));
        const status = await errorStatus(session, answer.url, before, shown);
        return { sentence: `Opened ${await landed(session, answer)}${status?.words ?? ''}.`, ...(status ? { said: [status.entry] } : {}) };
      },
    },
    {
      name: 'snapshot',
      description:
        'The page as a short outline: one line per element with its role, name, states and a ref (e12), nested as on the page. A ref is a target ({"ref":"e12"}) while its element is on the page, frames and shadow roots included; a ref whose element is gone fails at once, and a new snapshot is the answer. An iframe\'s page is nested under its iframe line, cross-site ones too when their origin is allowed; one that is not allowed is listed and not read, and its line says so.',
      input: z.strictObject({ maxLines: z.number().int().positive().max(2_000).optional().describe('At most this many lines (default 400)') }),
      annotations: READS,
      async run(args, ctx) {
        const snap = await (await ctx.session()).snapshot({ maxLines: (args.maxLines as number | undefined) ?? 400 });
        const cut = snap.truncated ? ' (cut short: ask for more with maxLines)' : '';
        return { sentence: `Snapshot of ${JSON.stringify(snap.title)} ${snap.url}: ${snap.lines} lines, ${snap.refs} refs${cut}.`, body: snap.text };
      },
    },
    {
      name: 'click',
      description:
        'Click an element with real mouse input, once (button, modifiers, clickCount 2 for a double click, position, delay: ms the button is held down for a long press). It is found first: a look-alike or drifted element is refused, never clicked. An action is never sent twice, so after a failure look at the page before trying again. With "dialog", the dialog the click opens (confirm, prompt) is answered so; an answer the click did not use is taken back, and the answer says so.',
      input: z.strictObject({ target: Target, ...clickOptions, dialog: DialogAnswer.optional(), timeoutMs }),
      annotations: ACTS,
      async run(args, ctx) {
        const { target, dialog, timeoutMs: ms, ...how } = args;
        const session = await ctx.session();
        const step = { click: target as TargetInput, ...how, ...opt({ timeoutMs: ms }) } as ScriptStep;
        if (dialog !== undefined) await ctx.armForCall(dialog as DialogAnswerOf);
        const { result } = await runStep(session, step);
        return { sentence: done(step, target, result), ...(result ? { result } : {}) };
      },
    },
    stepTool(
      'type',
      'Type text key by key into a field: clicked first unless it has the focus, the text goes where the caret is (a click in the middle of a long value puts it there; press End first to add at the end, or use fill to replace the value).',
      z.strictObject({ target: Target, text: z.string().describe('The text to type'), timeoutMs }),
      (a) => ({ type: t(a), text: String(a.text), ...opt(a) }),
    ),
    stepTool(
      'fill',
      "Replace a text field's value with text (an empty text clears it). Use type when the page reacts to each key.",
      z.strictObject({ target: Target, text: z.string().describe('The new value'), timeoutMs }),
      (a) => ({ fill: t(a), text: String(a.text), ...opt(a) }),
    ),
    stepTool(
      'press',
      'Press a key or chord (Enter, Tab, Escape, ArrowDown, a, Control+A, Shift+Tab) in the element named by target (focused first, not clicked), or in the page when no target is given.',
      z.strictObject({ key: Key, target: Target.optional(), timeoutMs }),
      (a) => ({ press: String(a.key), ...(a.target !== undefined ? { target: t(a) } : {}), ...opt(a) }),
    ),
    stepTool(
      'select',
      'Pick an option of a <select> by its label or value, or by { "index": 2 } (from 0), { "value": … } or { "label": … }; a list picks exactly those options of a multiple select ([] clears it).',
      z.strictObject({ target: Target, option: SelectOptions, timeoutMs }),
      (a) => ({ select: t(a), option: a.option as SelectOption | SelectOption[], ...opt(a) }),
    ),
    stepTool(
      'check',
      'Check a checkbox or radio button (nothing is clicked when it already is), then verify it; with "checked": false, uncheck it.',
      z.strictObject({ target: Target, checked: z.boolean().optional().describe('false unchecks; default true'), timeoutMs }),
      (a) => (a.checked === false ? { uncheck: t(a), ...opt(a) } : { check: t(a), ...opt(a) }),
    ),
    stepTool(
      'hover',
      'Move the mouse over an element (menus and tooltips that open on hover); "position" rests it at a point of the element (a bar of a chart drawn on a canvas), "modifiers" are held meanwhile.',
      z.strictObject({ target: Target, ...hoverOptions, timeoutMs }),
      (a) => ({ hover: t(a), ...(a.modifiers ? { modifiers: a.modifiers as StepOf<'hover'>['modifiers'] } : {}), ...(a.position ? { position: a.position as Position } : {}), ...opt(a) }),
      MOVES,
    ),
    stepTool(
      'drag',
      'Drag one element onto another with real mouse input; sourcePosition and targetPosition say where on each (a slider\'s track at a value), default their middles.',
      z.strictObject({ from: Target.describe('The element to drag'), to: Target.describe('Where to drop it'), ...dragOptions, timeoutMs }),
      (a) => ({ drag: t(a, 'from'), to: t(a, 'to'), ...positions(a), ...opt(a) }),
    ),
    stepTool(
      'upload',
      'Set the files of a file input: the input, its label, or a control that opens a file chooser when clicked (the chooser is intercepted, no window opens). [] clears it.',
      z.strictObject({ target: Target, files: Files, timeoutMs }),
      (a) => ({ upload: t(a), files: a.files as string[], ...opt(a) }),
    ),
    {
      name: 'dialog',
      description:
        `Answer the next native dialog (alert, confirm, prompt, beforeunload) in any tab of the run: call it right before the action that opens one (or pass "dialog" to click). ${ANSWER_LIFETIME} A dialog nobody armed is dismissed. The step during which it opens says what it said and how it was answered.`,
      input: DialogAnswer,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      async run(args, ctx) {
        const answer = args as { accept: boolean; promptText?: string };
        await runStep(await ctx.session(), { dialog: answer });
        return { sentence: `The next dialog will be ${answer.accept ? 'accepted' : 'dismissed'}${answer.promptText !== undefined ? ` with ${JSON.stringify(answer.promptText)}` : ''}. ${ANSWER_LIFETIME}` };
      },
    },
    {
      name: 'read',
      description: "Read an element's visible text (a form control's value).",
      input: z.strictObject({ target: Target, timeoutMs }),
      annotations: READS,
      async run(args, ctx) {
        const { text } = await (await ctx.session()).locator.read(t(args), opt(args));
        return { sentence: `${describeTarget(t(args))} reads: ${JSON.stringify(text)}` };
      },
    },
    unionTool(
      'verify',
      'Check the page and fail (a tool error, reason mismatch) when it does not hold within the timeout. kind "text" {value, within?}: the page or a region shows value (within: a region name, or a target such as {"css":"body","frame":"payment"} for the page in an iframe); "exists" {target}; "targetText" {target, value}; "value" {target, value} (a field\'s value); "state" {target, state}; "count" {target, value: n}; "url" {value}; "title" {value}; "numberChange" {target, from, by}. "negate": true passes when it does NOT hold.',
      VerifyKinds,
      (v, a) => ({ verify: v, ...opt(a) }) as ScriptStep,
      READS,
    ),
    unionTool(
      'wait',
      'Wait for the page: kind "visible" {target} or "gone" {target}, "textChanges" {target}, "url" {contains}, "networkIdle" {idleMs?}. Fails (reason timeout) when it does not happen in time. For the page a click opens, use verify (kind "url" or "title"): a verify is re-checked across the navigation, a wait fails with reason navigation.',
      WaitKinds,
      (w, a) => ({ wait: w, ...opt(a) }) as ScriptStep,
      READS,
    ),
    {
      name: 'tabs',
      description: "List the open tabs: id, title and URL; the run's tab is marked.",
      input: z.strictObject({}),
      annotations: { readOnlyHint: true, openWorldHint: false },
      async run(_args, ctx) {
        const session = await ctx.session();
        const list = await session.tab.list();
        const lines = list.map((tab) => tabLine(tab, session.tab.current));
        return { sentence: `${list.length} tab${list.length === 1 ? '' : 's'}; * is the run's tab.`, body: lines.join('\n') };
      },
    },
    {
      name: 'switch_tab',
      description:
        'Make another tab the run\'s tab, once it has loaded: {"urlContains": "/pay"}, {"titleContains": "Receipt"}, {"new": true} for the tab that opened last by itself (a popup; two that opened together are taken in the order they opened), or {"id": 123} for the tab of that id in the tabs list. One of them, not two.',
      input: flattenUnion(TabMatch).extend({ timeoutMs }),
      // It changes which tab the next calls drive, and no page.
      annotations: { readOnlyHint: true, openWorldHint: false },
      async run(args, ctx) {
        const { timeoutMs: ms, ...match } = args;
        const step = { switchTab: check(TabMatch, match, 'switch_tab'), ...opt({ timeoutMs: ms }) } as ScriptStep;
        await runStep(await ctx.session(), step);
        const session = await ctx.session();
        return { sentence: `Done: ${describeStep(step)} (tab ${session.tab.current}).` };
      },
    },
    {
      name: 'close_tab',
      description: "Close the run's tab and go back to the tab it came from. The answer names the run's tab now; when there is none (the closed tab was the first), the next navigate opens one.",
      input: z.strictObject({}),
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
      async run(_args, ctx) {
        const session = await ctx.session();
        const { closed, tab } = await session.tab.close();
        if (tab === null) return { sentence: `Closed tab ${closed}; the run has no tab now (navigate opens a new one).` };
        const back = (await session.tab.list()).find((t) => t.id === tab);
        return { sentence: `Closed tab ${closed}; back in ${back?.url ?? 'a tab that has no URL yet'}${back?.title ? ` (${JSON.stringify(back.title)})` : ''} in tab ${tab}.` };
      },
    },
    historyTool('back', "Go back one page in the run's tab, as the browser's Back button does, and wait until that page has loaded. A page outside the allow list is refused.", 'Went back to', (session, o) => session.tab.back(o)),
    historyTool('forward', "Go forward one page in the run's tab (after back), as the browser's Forward button does, and wait until that page has loaded. A page outside the allow list is refused.", 'Went forward to', (session, o) => session.tab.forward(o)),
    historyTool('reload', "Reload the run's page and wait until it has loaded again (what the page held unsaved is gone; refs of the last snapshot end).", 'Reloaded', (session, o) => session.tab.reload(o)),
    {
      name: 'screenshot',
      description: `A PNG picture of the run's tab (the visible part), of one element (target), or of the whole page (fullPage), as an image. A picture wider or taller than ${MAX_PICTURE_SIDE} px (a long page) is scaled down to fit, and the answer says so: picture one element (target) to see its detail.`,
      input: z.strictObject({ target: Target.optional(), fullPage: z.boolean().optional().describe('The whole page, not only the visible part') }),
      annotations: READS,
      async run(args, ctx) {
        const session = await ctx.session();
        const warnings: Array<{ code: string; message: string }> = [];
        const onWarning = (w: { code: string; message: string }): void => void warnings.push(w);
        session.on('warning', onWarning);
        try {
          const png = await session.screenshot({ ...(args.target !== undefined ? { target: t(args) } : {}), ...(args.fullPage ? { fullPage: true } : {}), maxSide: MAX_PICTURE_SIDE });
          if (!png) throw new AiteError('unsupported', `No screenshot: ${warnings.map((w) => w.message).join(' ') || 'none could be taken'}`);
          const scaled = warnings.find((w) => w.code === 'screenshot-scaled');
          return { sentence: `Screenshot of tab ${session.tab.current} (${png.byteLength} bytes of PNG).${scaled ? ` ${scaled.message}` : ''}`, image: png };
        } finally {
          session.off('warning', onWarning);
        }
      },
    },
  ];
}

/** A tool that moves the run's tab through its history and says where it landed. */
function historyTool(name: string, description: string, verb: string, go: (session: Session, options: { timeoutMs?: number }) => Promise<{ tab: number; url: string }>): Tool {
  return {
    name,
    description,
    input: z.strictObject({ timeoutMs: loadTimeoutMs }),
    annotations: MOVES,
    async run(args, ctx) {
      const session = await ctx.session();
      const answer = await go(session, opt(args));
      return { sentence: `${verb} ${await landed(session, answer)}.` };
    },
  };
}

/** Where a navigation landed, as an agent wants to know it: the URL, the title, the tab. */
async function landed(session: Session, answer: { tab: number; url: string }): Promise<string> {
  const title = (await session.tab.list()).find((tab) => tab.id === answer.tab)?.title;
  return `${answer.url}${title ? ` (${JSON.stringify(title)})` : ''} in tab ${answer.tab}`;
}

/**
 * How long navigate waits to hear its document's request over the pipe. The page's commit comes
 * by the extension and the request's answer by the pipe, each on its own way: on a busy machine
 * the answer can trail the commit by a little, never by this much (the browser had it first).
 */
const DOCUMENT_HEARD_MS = 1_000;

/**
 * A page the server answered with an error status still loads (its error page): the agent is told
 * the status, which the page's title may not say. The navigation's request is the latest document
 * request for `url` heard since `before` (the last entry before it began); none is heard in
 * attach mode, where nothing is waited for.
 */
async function errorStatus(session: Session, url: string, before: NetworkEntry | undefined, shown: string | undefined): Promise<{ words: string; entry: object } | undefined> {
  // A request's URL has no fragment. A navigation that only changed the fragment of the page
  // `shown` stayed in that page and made no request, so none is waited for.
  const bare = (u: string): string => u.split('#', 1)[0]!;
  const isIt = (entry: NetworkEntry): boolean => entry.type === 'document' && bare(entry.url) === bare(url);
  const withinPage = shown !== undefined && url.includes('#') && bare(shown) === bare(url);
  const heard = session.network.slice(before ? session.network.lastIndexOf(before) + 1 : 0);
  const doc = heard.findLast(isIt) ?? (session.browser && !withinPage ? await nextRequest(session, isIt, DOCUMENT_HEARD_MS) : undefined);
  return doc?.status !== undefined && doc.status >= 400 ? { words: `; the server answered HTTP ${doc.status}`, entry: doc } : undefined;
}

/** The next request the session hears that `wanted` takes, within `ms`; undefined after. */
function nextRequest(session: Session, wanted: (entry: NetworkEntry) => boolean, ms: number): Promise<NetworkEntry | undefined> {
  return new Promise((resolve) => {
    const done = (entry: NetworkEntry | undefined): void => {
      clearTimeout(timer);
      session.off('request', onRequest);
      resolve(entry);
    };
    const onRequest = (entry: NetworkEntry): void => {
      if (wanted(entry)) done(entry);
    };
    const timer = setTimeout(() => done(undefined), ms);
    session.on('request', onRequest);
  });
}

/** A tool over a union of step kinds (verify, wait): one flat object for the host, the union checks it. */
function unionTool(name: string, description: string, union: z.ZodType, toStep: (checked: unknown, args: Record<string, unknown>) => ScriptStep, annotations: ToolAnnotations): Tool {
  return stepTool(
    name,
    description,
    flattenUnion(union, 'kind').extend({ timeoutMs }),
    (args) => {
      const { timeoutMs: ms, ...rest } = args;
      return toStep(check(union, rest, name), { timeoutMs: ms });
    },
    annotations,
  );
}

/** The allow list holds before anything runs: no browser is started for a URL it could not open. */
function refuseOutside(url: string, allow: readonly string[]): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AiteError('unsupported', `"${url}" is not an absolute URL; navigate takes one such as ${allow[0] ?? 'http://127.0.0.1:4173'}/.`);
  }
  // file:, data:, about:, javascript:, chrome: have no origin to allow: no --allow opens them.
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new AiteError('unsupported', `navigate opens only http(s) pages; ${JSON.stringify(url)} is not one, so nothing was opened.`, { detail: { url }, command: 'navigate' });
  }
  if (!allow.includes(parsed.origin)) {
    throw new AiteError(
      'unsupported',
      `${parsed.origin} is not in this server's allow list (${allow.join(', ')}); nothing was opened. Only those origins can be opened; the user adds one by starting aite mcp with --allow ${parsed.origin}.`,
      { detail: { url, allow: [...allow] }, command: 'navigate' },
    );
  }
  return parsed.href;
}
