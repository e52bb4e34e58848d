import { z } from 'zod';
import { ElementStateSchema, SelectOptionsSchema, TabMatchSchema } from '../protocol/messages.js';
import { TargetSchema } from '../protocol/target.js';
import { chordProblem } from '../session/pipe/keys.js';
import { CLICK_HOW, DOUBLE_CLICK_HOW, DRAG_HOW, HOVER_HOW } from '../session/options.js';
import { ConfinedPathSchema } from '../report/confined.js';
import { FILE_LIMITS } from '../errors/fileLimits.js';

// The step-script format (docs/cli.md). One schema per step kind: the parser picks the kind by
// the step's action key first, so an error names the field of that kind, never "no union
// member matched". The union of all of them is what the published JSON Schema describes.

const TargetInput = z
  .union([z.string().min(1), TargetSchema])
  .describe('An element: a plain string is its visible text, or an object such as { "label": "Amount" }.');
const Within = z.union([z.string().min(1), TargetSchema]).describe('A region (dialog, section, landmark) by name, else the list item, table or grid row, or card that says it; or a target.');
const Timeout = z.number().int().positive().max(600_000);

/** Keys every step may carry besides its action. */
const common = {
  /** What the report calls the step; default: a description of it. */
  name: z.string().min(1).max(FILE_LIMITS.nameChars).optional().describe('What the report calls this step.'),
  /** The profile (Chrome) the step runs in; default the script's `profile`, else `default`. */
  profile: z.string().min(1).max(200).optional().describe('The profile (a Chrome of its own) this step runs in.'),
  /** How long the step may take, in ms. */
  timeoutMs: Timeout.optional().describe('How long this step may take, in milliseconds.'),
};

/** A key or chord, checked against the key names the pipe can send (a typo is a script error, exit 2). */
const Key = z
  .string()
  .min(1)
  .superRefine((key, ctx) => {
    const problem = chordProblem(key);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe('A key or chord: Enter, Tab, ArrowDown, a, Control+A, Shift+Tab, Meta+Enter.');

const negate = z.boolean().optional().describe('Pass when the condition does NOT hold.');

const VerifyStep = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('exists'), target: TargetInput, within: Within.optional(), negate }),
  z.strictObject({ kind: z.literal('text'), value: z.string().min(1), within: Within.optional(), negate }),
  z.strictObject({ kind: z.literal('targetText'), target: TargetInput, value: z.string(), within: Within.optional(), exact: z.boolean().optional(), negate }),
  z.strictObject({ kind: z.literal('value'), target: TargetInput, value: z.string(), negate }),
  z.strictObject({
    kind: z.literal('state'),
    target: TargetInput,
    state: ElementStateSchema,
    negate,
  }),
  z.strictObject({ kind: z.literal('count'), target: TargetInput, value: z.number().int().nonnegative(), within: Within.optional(), negate }),
  z.strictObject({ kind: z.literal('url'), value: z.string().min(1), negate }),
  z.strictObject({ kind: z.literal('title'), value: z.string().min(1), negate }),
  z.strictObject({ kind: z.literal('numberChange'), target: TargetInput, from: z.number(), by: z.number(), negate }),
]);

const WaitStep = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('visible'), target: TargetInput }),
  z.strictObject({ kind: z.literal('gone'), target: TargetInput }),
  z.strictObject({ kind: z.literal('textChanges'), target: TargetInput }),
  z.strictObject({ kind: z.literal('url'), contains: z.string().min(1) }),
  z.strictObject({
    kind: z.literal('networkIdle'),
    idleMs: z.number().int().nonnegative().max(60_000).optional().describe('Quiet time that counts as idle (default 500).'),
  }),
]);

const HttpCheck = z.strictObject({
  url: z.string().min(1).describe('Absolute, or relative to baseUrl.'),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.unknown().optional().describe('Sent as JSON.'),
  status: z.number().int().min(100).max(599).optional().describe('Expected status; default any 2xx.'),
  json: z.unknown().optional().describe('The answer must be JSON containing these fields and values (a subset).'),
  contains: z.string().optional().describe('The answer body must contain this text.'),
});

const Screenshot = z.union([
  z.literal(true),
  z.string().min(1).regex(/^[\w.-]+$/, 'a screenshot name uses letters, digits, ".", "-" and "_"'),
  z.strictObject({
    name: z.string().min(1).regex(/^[\w.-]+$/).optional(),
    path: ConfinedPathSchema.optional().describe('Also write the PNG here: relative to the working directory and inside it (no "..", not absolute; no symbolic link is followed).'),
    target: TargetInput.optional().describe('Picture only this element.'),
    fullPage: z.boolean().optional().describe('Picture the whole page, not only the viewport.'),
  }),
]);

/** The schema of each step kind, by its action key. */
export const STEP_SCHEMAS = {
  navigate: z.strictObject({ navigate: z.string().min(1).describe('An absolute URL, or a path relative to baseUrl.'), ...common }),
  click: z.strictObject({ click: TargetInput, ...CLICK_HOW, ...common }),
  doubleClick: z.strictObject({ doubleClick: TargetInput, ...DOUBLE_CLICK_HOW, ...common }),
  hover: z.strictObject({ hover: TargetInput, ...HOVER_HOW, ...common }),
  type: z.strictObject({ type: TargetInput, text: z.string().describe('Typed key by key where the caret is: the field is clicked first unless it has the focus (fill replaces).'), ...common }),
  fill: z.strictObject({ fill: TargetInput, text: z.string().describe('Replaces the value.'), ...common }),
  press: z.strictObject({ press: Key, target: TargetInput.optional().describe('Focused first, without clicking it.'), ...common }),
  select: z.strictObject({ select: TargetInput, option: SelectOptionsSchema.describe("An option's label or value; or { \"value\" }, { \"label\" } or { \"index\" }; a list for a multiple select."), ...common }),
  check: z.strictObject({ check: TargetInput, ...common }),
  uncheck: z.strictObject({ uncheck: TargetInput, ...common }),
  drag: z.strictObject({ drag: TargetInput, to: TargetInput, ...DRAG_HOW, ...common }),
  verify: z.strictObject({ verify: VerifyStep, ...common }),
  wait: z.strictObject({ wait: WaitStep, ...common }),
  switchTab: z.strictObject({ switchTab: TabMatchSchema, ...common }),
  closeTab: z.strictObject({ closeTab: z.literal(true), ...common }),
  screenshot: z.strictObject({ screenshot: Screenshot, ...common }),
  http: z.strictObject({ http: HttpCheck, ...common }),
  dialog: z.strictObject({
    dialog: z
      .strictObject({ accept: z.boolean().describe('OK (true) or Cancel (false).'), promptText: z.string().optional().describe('Typed into a prompt before OK.') })
      .describe('Arms the answer of the next native dialog (alert, confirm, prompt, beforeunload), in any tab of the run.'),
    ...common,
  }),
  upload: z.strictObject({
    upload: TargetInput.describe('A file input, its label, or a control that opens a file chooser.'),
    files: z.union([z.string().min(1), z.array(z.string().min(1))]).describe('Paths relative to the script; [] clears the input.'),
    ...common,
  }),
  download: z.strictObject({
    download: TargetInput.describe('What to click to start the download.'),
    saveAs: z.string().min(1).optional().describe('Where to keep the file (relative to the working directory).'),
    ...common,
  }),
  // Real pages (issue 16)
  back: z.strictObject({ back: z.literal(true).describe("Go back one page in the run's tab."), ...common }),
  forward: z.strictObject({ forward: z.literal(true).describe("Go forward one page in the run's tab."), ...common }),
  reload: z.strictObject({ reload: z.literal(true).describe("Reload the run's page."), ...common }),
  scroll: z.strictObject({
    scroll: z
      .strictObject({
        target: TargetInput.optional().describe('An element in the container to scroll (default: the one under the middle of the viewport, else the page; with until on a page that cannot scroll, the largest box that can).'),
        until: TargetInput.optional().describe('Scroll until this element is there (a virtual list), then bring it into view.'),
        deltaY: z.number().int().min(-1_000_000).max(1_000_000).optional().describe('Pixels per step, negative for up; default most of the container.'),
        maxSteps: z.number().int().positive().max(1_000).optional().describe('With until: at most this many steps (default 200).'),
      })
      .describe('Scrolls a list or the page; never clicks.'),
    ...common,
  }),
  evaluate: z.strictObject({
    evaluate: z.string().min(1).max(100_000).describe("A JavaScript expression, run in the page's main world (a promise is awaited)."),
    equals: z.unknown().optional().describe('The step fails (mismatch) unless the result, as JSON, is exactly this.'),
    ...common,
  }),
} as const;

/**
 * The action keys a step can have (exactly one per step).
 *
 * @example
 * ```ts
 * import type { ScriptStep, StepAction } from 'aite';
 *
 * const actionOf = (step: ScriptStep): StepAction => Object.keys(step).find((key) => key !== 'name' && key !== 'profile' && key !== 'timeoutMs') as StepAction;
 * ```
 * @public
 */
export type StepAction = keyof typeof STEP_SCHEMAS;

/**
 * Every action key a step can have, in the order the docs list them.
 *
 * @example
 * ```ts
 * import { STEP_ACTIONS } from 'aite';
 *
 * console.log(`a step is one of: ${STEP_ACTIONS.join(', ')}`);
 * ```
 * @public
 */
export const STEP_ACTIONS = Object.keys(STEP_SCHEMAS) as StepAction[];

/** A correct example of each step kind, shown when one is written wrong. */
export const STEP_EXAMPLES: Record<StepAction, string> = {
  navigate: '{ "navigate": "http://127.0.0.1:4173/" }',
  click: '{ "click": { "text": "Send" } }',
  doubleClick: '{ "doubleClick": { "text": "Row 1" } }',
  hover: '{ "hover": { "role": "button", "name": "Help" } }',
  type: '{ "type": { "label": "Amount" }, "text": "1" }',
  fill: '{ "fill": { "label": "Amount" }, "text": "1" }',
  press: '{ "press": "Enter", "target": { "label": "Amount" } }',
  select: '{ "select": { "label": "Colour" }, "option": "Dark blue" }',
  check: '{ "check": { "label": "Subscribe" } }',
  uncheck: '{ "uncheck": { "label": "Subscribe" } }',
  drag: '{ "drag": { "text": "Alpha" }, "to": { "text": "Gamma" } }',
  verify: '{ "verify": { "kind": "text", "value": "5 MALLBUCKS" } }',
  wait: '{ "wait": { "kind": "visible", "target": { "text": "Done" } } }',
  switchTab: '{ "switchTab": { "urlContains": "/pay" } }',
  closeTab: '{ "closeTab": true }',
  screenshot: '{ "screenshot": "after-send" }',
  http: '{ "http": { "url": "http://127.0.0.1:4173/api/balance", "json": { "balance": 5 } } }',
  dialog: '{ "dialog": { "accept": true, "promptText": "Zephyr" } }',
  upload: '{ "upload": { "label": "Receipt" }, "files": ["fixtures/receipt.txt"] }',
  download: '{ "download": "Export CSV", "saveAs": "out/export.csv" }',
  back: '{ "back": true }',
  forward: '{ "forward": true }',
  reload: '{ "reload": true }',
  scroll: '{ "scroll": { "until": "Row 750" } }',
  evaluate: '{ "evaluate": "document.title", "equals": "MallBucks" }',
};

/** A correct example of each verify and wait kind: a wrong `state` verify shows a `state` one. */
export const KIND_EXAMPLES = {
  verify: {
    exists: '{ "verify": { "kind": "exists", "target": { "role": "dialog", "name": "Review send" } } }',
    text: STEP_EXAMPLES.verify,
    targetText: '{ "verify": { "kind": "targetText", "target": { "css": "#balance" }, "value": "5 MALLBUCKS" } }',
    value: '{ "verify": { "kind": "value", "target": { "label": "Amount" }, "value": "1" } }',
    state: '{ "verify": { "kind": "state", "target": { "label": "Subscribe" }, "state": "checked" } }',
    count: '{ "verify": { "kind": "count", "target": { "role": "listitem" }, "value": 3 } }',
    url: '{ "verify": { "kind": "url", "value": "/done" } }',
    title: '{ "verify": { "kind": "title", "value": "MallBucks" } }',
    numberChange: '{ "verify": { "kind": "numberChange", "target": { "css": "#balance" }, "from": 5, "by": -1 } }',
  },
  wait: {
    visible: STEP_EXAMPLES.wait,
    gone: '{ "wait": { "kind": "gone", "target": { "text": "Loading" } } }',
    textChanges: '{ "wait": { "kind": "textChanges", "target": { "css": "#balance" } } }',
    url: '{ "wait": { "kind": "url", "contains": "/done" } }',
    networkIdle: '{ "wait": { "kind": "networkIdle", "idleMs": 500 } }',
  },
} as const satisfies { verify: Record<z.infer<typeof VerifyStep>['kind'], string>; wait: Record<z.infer<typeof WaitStep>['kind'], string> };

/** The example to show for a wrong step: of its verify or wait kind when it names a known one. */
export function exampleOf(action: StepAction, raw: unknown): string {
  if (action === 'verify' || action === 'wait') {
    const kind = (raw as Record<string, { kind?: unknown } | undefined>)[action]?.kind;
    const examples: Record<string, string> = KIND_EXAMPLES[action];
    if (typeof kind === 'string' && Object.hasOwn(examples, kind)) return examples[kind]!;
  }
  return STEP_EXAMPLES[action];
}

/**
 * One step of a script.
 *
 * @example
 * ```ts
 * import type { ScriptStep } from 'aite';
 *
 * const steps: ScriptStep[] = [
 *   { navigate: '/' },
 *   { click: { text: 'Send' } },
 *   { type: { label: 'Amount' }, text: '4' },
 *   { verify: { kind: 'text', value: '4 MALLBUCKS' } },
 * ];
 * ```
 * @public
 */
export type ScriptStep = { [A in StepAction]: z.infer<(typeof STEP_SCHEMAS)[A]> }[StepAction];

/**
 * The step kind that has action `A`.
 *
 * @example
 * ```ts
 * import type { StepOf } from 'aite';
 *
 * const click: StepOf<'click'> = { click: { text: 'Send' }, name: 'sends', timeoutMs: 10_000 };
 * ```
 * @public
 */
export type StepOf<A extends StepAction> = z.infer<(typeof STEP_SCHEMAS)[A]>;

const StepSchema = z
  .union(STEP_ACTIONS.map((a) => STEP_SCHEMAS[a]) as unknown as [z.ZodType<ScriptStep>, ...Array<z.ZodType<ScriptStep>>])
  .describe('One step: exactly one action key (navigate, click, type, verify, ...), plus optional name, profile and timeoutMs.');

/** The top-level keys of a script, with steps not yet checked (the parser checks each one by its kind). */
export const ScriptShellSchema = z.strictObject({
  $schema: z.string().optional(),
  name: z.string().min(1).max(FILE_LIMITS.nameChars).optional().describe('What the report calls this script; default its file name.'),
  description: z.string().optional(),
  profile: z.string().min(1).max(200).optional().describe('The profile of steps that name none; default "default".'),
  allow: z.array(z.string().min(1)).optional().describe('Origins the extension may touch, added to the config\'s.'),
  baseUrl: z.string().min(1).optional().describe('Relative navigate and http URLs resolve against it.'),
  timeoutMs: Timeout.optional().describe('Default timeout of each step, in milliseconds.'),
  pre: z.array(z.unknown()).optional().describe('Checks of the state before the test: a failure is "pre-state", not an app failure.'),
  steps: z.array(z.unknown()).min(1, 'a script needs at least one step'),
});

/** The full script schema (what the JSON Schema file describes). */
export const ScriptSchema = ScriptShellSchema.extend({
  pre: z.array(StepSchema).optional().describe('Checks of the state before the test: a failure is "pre-state", not an app failure.'),
  steps: z.array(StepSchema).min(1),
});

/**
 * A step script, as parsed and checked.
 *
 * @example
 * ```ts
 * import { writeFile } from 'node:fs/promises';
 * import type { Script } from 'aite';
 *
 * const script: Script = {
 *   name: 'send',
 *   baseUrl: 'http://127.0.0.1:4173/',
 *   steps: [{ navigate: '/' }, { click: 'Send' }, { verify: { kind: 'text', value: '4 MALLBUCKS' } }],
 * };
 * await writeFile('send.aite.json', JSON.stringify(script, null, 2));
 * ```
 * @public
 */
export type Script = Omit<z.infer<typeof ScriptShellSchema>, 'pre' | 'steps'> & {
  pre?: ScriptStep[];
  steps: ScriptStep[];
};

/**
 * The JSON Schema (draft 2020-12) of step scripts, generated from the zod schema the parser uses.
 *
 * @example
 * ```ts
 * import { writeFile } from 'node:fs/promises';
 * import { scriptJsonSchema } from 'aite';
 *
 * // For editors: "$schema": "./aite.schema.json" at the top of a script.
 * await writeFile('aite.schema.json', JSON.stringify(scriptJsonSchema(), null, 2));
 * ```
 * @public
 */
export function scriptJsonSchema(): Record<string, unknown> {
  const names = z.registry<{ id: string }>();
  names.add(StepSchema, { id: 'Step' });
  names.add(TargetSchema, { id: 'Target' });
  names.add(TargetInput, { id: 'TargetInput' });
  for (const action of STEP_ACTIONS) names.add(STEP_SCHEMAS[action], { id: `${action}Step` });
  return {
    ...z.toJSONSchema(ScriptSchema, {
      io: 'input',
      unrepresentable: 'any',
      metadata: names,
      // A registry of our own names the definitions; descriptions stay in zod's global one.
      override: ({ zodSchema, jsonSchema }) => {
        const description = z.globalRegistry.get(zodSchema as unknown as z.ZodType)?.description;
        if (description && !jsonSchema.description) jsonSchema.description = description;
      },
    }),
    $id: 'https://aite.dev/schema/aite-script.schema.json',
    title: 'aite step script',
  };
}

/** The action key of a step. */
export function actionOf(step: ScriptStep): StepAction {
  for (const action of STEP_ACTIONS) if (action in step) return action;
  throw new Error('a step without an action');
}
