import { z } from 'zod';
import { PROFILE_NAME_MAX } from './bridgeConfig.js';
import { DescriptorSchema, RectSchema } from './descriptor.js';
import { ReasonSchema } from './reasons.js';
import { TargetSchema } from './target.js';
import { NAVIGATION_CDP_METHODS } from './navigationEvents.js';
import { WATCHED_CDP_METHODS } from './pageWatch.js';

// ---------------------------------------------------------------------------------------------
// Handshake and keepalive
// ---------------------------------------------------------------------------------------------

export const HelloSchema = z.object({
  type: z.literal('hello'),
  extVersion: z.string().max(64),
  chrome: z.string().max(64),
  profile: z.string().max(PROFILE_NAME_MAX),
  /** The runId of the run this worker was in before it was stopped. */
  resume: z.string().max(200).optional(),
  /** Random challenge: the bridge proves it knows the token by answering its HMAC. */
  nonce: z.string().max(128).optional(),
  /** The protocol versions the extension speaks; absent means 1. */
  protocol: z.number().int().optional(),
});
/**
 * What the extension says first on each connection: its version, Chrome's, and the profile.
 *
 * @example
 * ```ts
 * declare const bridge: Bridge;
 * bridge.on('hello', (hello: Hello) => console.log(`extension ${hello.extVersion} in Chrome ${hello.chrome}, profile ${hello.profile}`));
 * ```
 * @public
 */
export type Hello = z.infer<typeof HelloSchema>;

export const WelcomeSchema = z.object({
  type: z.literal('welcome'),
  runId: z.string(),
  protocol: z.number().int(),
  /** HMAC-SHA256(token, nonce) in hex, when hello carried a nonce. */
  proof: z.string().optional(),
});
export type Welcome = z.infer<typeof WelcomeSchema>;

/**
 * The runner's word that the request `id` will not get what it waits for (a navigate whose page
 * a dismissed beforeunload kept): a wait that honours it ends at once, and the request is
 * answered as usual, failed with `detail.cancelled`. Sent beside the requests, not in their
 * turn; a request that is not waiting any more ignores it.
 */
export const CancelSchema = z.object({
  type: z.literal('cancel'),
  id: z.number().int().positive(),
  /** Why, in words the failure shows. */
  why: z.string().max(1000),
});
export type Cancel = z.infer<typeof CancelSchema>;


// ---------------------------------------------------------------------------------------------
// Requests (bridge -> extension)
// ---------------------------------------------------------------------------------------------

const base = {
  id: z.number().int().positive(),
  timeoutMs: z.number().int().positive().max(600_000).optional(),
  tab: z.number().int().optional(),
};

const Within = z.union([z.string().min(1), TargetSchema]);

/**
 * Beyond v1, compatible with it: what a composed step will do with the element, so one round
 * trip finds it and gets it ready. `click`: also do what `locate` does and answer `point`;
 * `fill`: wait until it is visible, enabled and editable, focus it, select its text, answer `point`;
 * `focus`: wait until it is visible and enabled, focus it without clicking it (keys go there next).
 */
export const PREPARE_KINDS = ['click', 'fill', 'focus'] as const;

export const ResolveRequestSchema = z.object({
  ...base,
  cmd: z.literal('resolve'),
  target: TargetSchema,
  descriptor: DescriptorSchema.optional(),
  prepare: z.enum(PREPARE_KINDS).optional(),
  /**
   * Beyond v1, compatible with it: the step sets files (upload), which needs no box and takes no
   * pointer input. When no match is visible, the hidden `<input type=file>` matches stand as
   * visible ones (a styled button's `display: none` input, a drop zone's zero-size one): one is
   * taken, several are ambiguous. A visible match still wins; other hidden matches stay refused.
   */
  hiddenFileInput: z.boolean().optional(),
  /**
   * Beyond v1, compatible with it: the runner will remember the answer's element in the lock
   * file, so its descriptor also carries `twins`, `twinPlaces`, `twinIndex` and `peers` (what repair needs from the rest of
   * the page; a look at the page that ordinary steps do not pay for).
   */
  record: z.boolean().optional(),
  /**
   * Beyond v1, compatible with it: with `descriptor`, an element the exact target finds is also
   * checked against it; one that is a remembered peer, scores below the drifted threshold (0.60),
   * is a twin out of its remembered row, or is out-scored by another element is refused as
   * `drifted` with `detail.exact: true` (locator-repair.md §1): the target now names something
   * else (a positional target after a list was reordered, a text that became part of another's).
   */
  checkExact: z.boolean().optional(),
  /**
   * Beyond v1, compatible with it: with `prepare`, the hit-target guard (see `guard`) is armed on
   * the readied element in this same round trip, as `guard` `arm` with this mode would, and the
   * answer's `guard` says what it saw then. Only an element of the top document is armed (one in
   * a frame is answered without `guard`); an extension that does not know it answers without
   * `guard`, and the runner arms with a `guard` request of its own.
   */
  guard: z.enum(['pointer', 'input']).optional(),
  /**
   * Beyond v1, compatible with it: with `guard`, the runner listens for the guard's verdict over
   * the debugging pipe (contentWorld.ts). When the trusted event `on` names (`click`: the last
   * event of a single left click; `input`: of inserted text) reaches the element's window, the
   * guard reports what it saw, with `token`, through the runner's binding in the extension's world,
   * and disarms; a `guard` `disarm` or `check` after it answers that same state. An extension
   * that does not know it, or a world without the binding, reports nothing: the runner disarms.
   */
  verdict: z.object({ token: z.string().min(16).max(64), on: z.enum(['click', 'input']) }).optional(),
});

export const LocateRequestSchema = z.object({
  ...base,
  cmd: z.literal('locate'),
  descriptor: DescriptorSchema,
});

export const ReadRequestSchema = z.object({ ...base, cmd: z.literal('read'), target: TargetSchema });

export const VERIFY_KINDS = [
  'exists',
  'text',
  'targetText',
  'value',
  'state',
  'count',
  'url',
  'title',
  'numberChange',
] as const;
export const VerifyKindSchema = z.enum(VERIFY_KINDS);

export const ELEMENT_STATES = [
  'checked',
  'unchecked',
  'enabled',
  'disabled',
  'visible',
  'hidden',
  'focused',
  'editable',
  'valid',
  'invalid',
  'selected',
  'expanded',
  'collapsed',
  'pressed',
] as const;
export const ElementStateSchema = z.enum(ELEMENT_STATES);

const verifyBase = { ...base, cmd: z.literal('verify'), negate: z.boolean().optional() };
/** The checks that look at one element (the others count, or read the page, its URL or title). */
export const VERIFY_ONE_KINDS = ['targetText', 'value', 'state', 'numberChange'] as const;
/**
 * Beyond v1, compatible with it, on the `VERIFY_ONE_KINDS`: what the lock file remembers of a check's one element, as
 * `resolve` takes it. With `descriptor` and `checkExact`, the element the target finds is checked
 * against it as an act's is (`drifted` with `detail.exact: true` when it is another element now);
 * with `record`, the answer's `descriptor` describes that element for the lock file.
 */
const verifyRemembered = { descriptor: DescriptorSchema.optional(), checkExact: z.boolean().optional(), record: z.boolean().optional() };

export const VerifyRequestSchema = z.discriminatedUnion('kind', [
  z.object({ ...verifyBase, kind: z.literal('exists'), target: TargetSchema, within: Within.optional() }),
  z.object({ ...verifyBase, kind: z.literal('text'), value: z.string().min(1), within: Within.optional() }),
  z.object({
    ...verifyBase,
    kind: z.literal('targetText'),
    target: TargetSchema,
    ...verifyRemembered,
    value: z.string(),
    within: Within.optional(),
    /** The whole text is the value (case kept, spacing folded), not only contains it. */
    exact: z.boolean().optional(),
  }),
  z.object({ ...verifyBase, kind: z.literal('value'), target: TargetSchema, value: z.string(), ...verifyRemembered }),
  z.object({ ...verifyBase, kind: z.literal('state'), target: TargetSchema, state: ElementStateSchema, ...verifyRemembered }),
  z.object({
    ...verifyBase,
    kind: z.literal('count'),
    target: TargetSchema,
    value: z.number().int().nonnegative(),
    within: Within.optional(),
  }),
  z.object({ ...verifyBase, kind: z.literal('url'), value: z.string().min(1) }),
  z.object({ ...verifyBase, kind: z.literal('title'), value: z.string().min(1) }),
  z.object({
    ...verifyBase,
    kind: z.literal('numberChange'),
    target: TargetSchema,
    ...verifyRemembered,
    from: z.number(),
    by: z.number(),
  }),
]);

export const WAIT_KINDS = ['visible', 'gone', 'textChanges', 'url'] as const;
export const WaitKindSchema = z.enum(WAIT_KINDS);

export const WaitRequestSchema = z
  .object({
    ...base,
    cmd: z.literal('wait'),
    kind: WaitKindSchema,
    target: TargetSchema.optional(),
    contains: z.string().min(1).optional(),
  })
  .refine((r) => (r.kind === 'url' ? r.contains !== undefined : r.target !== undefined), {
    message: 'wait url needs `contains`; wait visible/gone/textChanges need `target`',
  });

export const ACT_ACTIONS = [
  'click',
  'doubleClick',
  'hover',
  'type',
  'press',
  'check',
  'uncheck',
  'drag',
  'select',
  // Beyond v1: replace a field's value with `text` in plain events (attach mode's fill).
  'fill',
] as const;
export const ActActionSchema = z.enum(ACT_ACTIONS);

/**
 * An option of a `<select>`, as `select()` names it: its label or value as words (the label
 * first), or by one field: `{ value }`, `{ label }` or `{ index }` (from 0), as Playwright's
 * `selectOption` takes them. A list picks several options of a `multiple` select (an empty list
 * clears it).
 *
 * @example
 * ```ts
 * declare const session: Session;
 * await session.select({ label: 'Colour' }, 'Dark blue');
 * await session.select({ label: 'Time zone' }, { index: 2 });
 * await session.select({ label: 'Toppings' }, ['Cheese', { value: 'olives' }]);
 * ```
 * @public
 */
export type SelectOption = string | { value: string } | { label: string } | { index: number };

const SelectOptionSchema = z.union([
  z.string(),
  z.strictObject({ value: z.string() }),
  z.strictObject({ label: z.string() }),
  z.strictObject({ index: z.number().int().nonnegative() }),
]);

/** One option, or the list of a multiple select's options (at most 500). @internal */
export const SelectOptionsSchema = z.union([SelectOptionSchema, z.array(SelectOptionSchema).max(500)]);

export const ActRequestSchema = z
  .object({
    ...base,
    cmd: z.literal('act'),
    action: ActActionSchema,
    descriptor: DescriptorSchema,
    /** `type`: the text to type; `fill`: the field's new value. */
    text: z.string().optional(),
    /** `press`: a key name such as `Enter`, `Tab`, `ArrowDown`, `a`. */
    key: z.string().min(1).optional(),
    /** `select`: an option's label or value; beyond v1, one named by `value`, `label` or `index`, or a list of them. */
    option: SelectOptionsSchema.optional(),
    /** `drag`: where to drop. */
    to: DescriptorSchema.optional(),
  })
  .refine(
    (r) =>
      (r.action !== 'type' || r.text !== undefined) &&
      (r.action !== 'press' || r.key !== undefined) &&
      (r.action !== 'select' || r.option !== undefined) &&
      (r.action !== 'drag' || r.to !== undefined),
    { message: 'type needs `text`, press needs `key`, select needs `option`, drag needs `to`' },
  );

export const OutlineItemSchema = z.object({
  xpath: z.string().min(1),
  label: z.string().optional(),
  tone: z.string().optional(),
});
/**
 * One box the `outline` command draws over an element, found by its XPath.
 *
 * @example
 * ```ts
 * declare const session: Session;
 * const { descriptor } = await session.locator.resolve({ text: 'Send' });
 * const boxes: OutlineItem[] = [{ xpath: descriptor.xpath, label: 'Send', tone: 'wanted' }];
 * await session.locator.outline(boxes);
 * await session.locator.clearOutline();
 * ```
 * @public
 */
export type OutlineItem = z.infer<typeof OutlineItemSchema>;

export const OutlineRequestSchema = z
  .object({
    ...base,
    cmd: z.literal('outline'),
    items: z.array(OutlineItemSchema).optional(),
    clear: z.literal(true).optional(),
  })
  .refine((r) => (r.items !== undefined) !== (r.clear !== undefined), {
    message: 'outline takes either `items` or `clear: true`',
  });

export const TabsRequestSchema = z.object({ ...base, cmd: z.literal('tabs') });

export const NavigateRequestSchema = z.object({ ...base, cmd: z.literal('navigate'), url: z.string().min(1) });

/** The forms of a tab match, said wherever one is refused. */
export const TAB_MATCH_FORMS = 'a tab match takes exactly one of { urlContains: "…" }, { titleContains: "…" }, { new: true } or { id: <tab id> } (the id tabs() or a tab-opened event gives)';

export const TabMatchSchema = z.union(
  [
    z.strictObject({ urlContains: z.string().min(1) }),
    z.strictObject({ titleContains: z.string().min(1) }),
    z.strictObject({ new: z.literal(true) }),
    z.strictObject({ id: z.number().int().nonnegative() }),
  ],
  // One sentence naming every form: a Playwright-style { url } or two keys at once is no member's near miss.
  { error: (issue) => `${TAB_MATCH_FORMS}, got ${JSON.stringify(issue.input) ?? 'nothing'}` },
);
/** How many of the run's last input-step times a `switchTab` carries (`inputAt`). */
export const INPUT_TIMES_MAX = 32;

/**
 * How `switchTab` picks a tab: by a part of its URL, of its title, the newest tab that opened by
 * itself (`new`; several that opened together, such as one click's two popups, are taken in the
 * order they opened), or its `id` (as `tabs` and a `tab-opened` event give it).
 *
 * @example
 * ```ts
 * declare const session: Session;
 * const popup: TabMatch = { new: true };
 * await session.click({ text: 'Open receipt' });
 * await session.tab.switchTo(popup);
 * await session.tab.switchTo({ urlContains: '/settings' }, { timeoutMs: 10_000 });
 * const [first] = await session.tab.list();
 * await session.tab.switchTo({ id: first!.id });
 * ```
 * @public
 */
export type TabMatch = z.infer<typeof TabMatchSchema>;

export const SwitchTabRequestSchema = z.object({
  ...base,
  cmd: z.literal('switchTab'),
  match: TabMatchSchema,
  /**
   * Beyond v1: when the run's last input steps began (ms since the epoch, oldest first), so that
   * `new: true` takes the tabs one step opened (one click's two popups) in the order they opened.
   */
  inputAt: z.array(z.number()).max(INPUT_TIMES_MAX).optional(),
});

export const CloseTabRequestSchema = z.object({ ...base, cmd: z.literal('closeTab') });

/**
 * Beyond v1 (compatible with it: a v1 extension answers it `unsupported`): what became of an
 * act whose answer was lost with its connection. The bridge sends it after the extension is
 * back; `act` is the lost act's request id, `tab` the tab it ran in. It also fences the act:
 * once asked, an act that had not dispatched its input never will.
 */
export const ActStatusRequestSchema = z.object({ ...base, cmd: z.literal('actStatus'), act: z.number().int().positive() });

// Beyond v1, compatible with it (a v1 extension answers `unsupported`): the real-pages commands.

/** Lines of a snapshot when the request names no limit, and the most it may ask for. */
export const SNAPSHOT_LINES_DEFAULT = 400;
export const SNAPSHOT_LINES_MAX = 2_000;

/**
 * The page as a short outline of roles, names, states and refs (`e12`), frames and shadow roots
 * included, at most `maxLines` lines (default 400, at most 2000). A ref is a target (`{ ref }`)
 * until its element leaves the page or the document changes. Cross-site (out-of-process)
 * iframes whose origin is in the allow list are read too, by their own content script, and
 * nested under their iframe's line (the worker puts them in: see `frames` of the answer).
 */
export const SnapshotRequestSchema = z.object({
  ...base,
  cmd: z.literal('snapshot'),
  maxLines: z.number().int().positive().max(2_000).optional(),
  /**
   * Beyond v1, compatible with it: the lowest number a new ref may take (the last answer's
   * `nextRef`), so that the documents of one run never hand out the same ref and a ref from one
   * can never name an element of another.
   */
  firstRef: z.number().int().positive().optional(),
});

export const HISTORY_ACTIONS = ['back', 'forward', 'reload'] as const;
/**
 * Back, forward or reload in the run's tab, waiting for the page to load as `navigate` does (a
 * page restored from the back/forward cache included); the page it lands on must be allowed.
 */
export const HistoryRequestSchema = z.object({ ...base, cmd: z.literal('history'), action: z.enum(HISTORY_ACTIONS) });

/**
 * Runs `source` in the main world of the run tab's top document: an expression, or (with
 * `call`) a function's source, called with `arg` (JSON text). Answers the JSON result as
 * `value` (absent for undefined); a promise is awaited within `timeoutMs`.
 */
export const EvaluateRequestSchema = z.object({
  ...base,
  cmd: z.literal('evaluate'),
  source: z.string().min(1).max(100_000),
  call: z.boolean().optional(),
  arg: z.string().max(1_000_000).optional(),
});

/** Steps a `scroll` with `until` takes when the request names no limit, and the most it may ask for. */
export const SCROLL_STEPS_DEFAULT = 200;
export const SCROLL_STEPS_MAX = 1_000;

/**
 * Scrolls the container of `target` (else the one under the middle of the viewport, else the
 * page; with `until` on a page that cannot scroll, the largest box that can) by `deltaY` px, or
 * with `until` step by step until that target is there; never clicks.
 */
export const ScrollRequestSchema = z.object({
  ...base,
  cmd: z.literal('scroll'),
  target: TargetSchema.optional(),
  deltaY: z.number().int().min(-1_000_000).max(1_000_000).refine((n) => n !== 0, 'deltaY must not be 0').optional(),
  until: TargetSchema.optional(),
  maxSteps: z.number().int().positive().max(SCROLL_STEPS_MAX).optional(),
});

/**
 * Beyond v1 (compatible with it: a v1 extension answers it `unsupported`): the runner's input
 * over the pipe lands only on the element it resolved. `arm` watches the element's window while
 * the runner dispatches: a pointer event (`pointer` and `input` modes) whose target is not the
 * element, or inside it, and a key or text event (`input` mode) that would reach something else,
 * is stopped in the capture phase before the page sees it, and remembered; focus leaving the
 * element is remembered too. `drag` mode: the press must reach the element, the release (or an
 * HTML5 drag's drop) `to` or the element. `check` answers what happened so far; `disarm` answers it and stops
 * watching. A guard nobody asks about for 30 s disarms itself. Every op may carry the element's
 * `descriptor`, so it reaches the frame the element lies in.
 */
export const GuardRequestSchema = z
  .object({
    ...base,
    cmd: z.literal('guard'),
    op: z.enum(['arm', 'check', 'disarm']),
    mode: z.enum(['pointer', 'input', 'drag']).optional(),
    descriptor: DescriptorSchema.optional(),
    /** `drag`: the element the release (or drop) must reach; `descriptor` is the one pressed. */
    to: DescriptorSchema.optional(),
  })
  .refine((r) => r.op !== 'arm' || (r.descriptor !== undefined && r.mode !== undefined), { message: 'guard arm needs `descriptor` and `mode`' })
  .refine((r) => r.op !== 'arm' || (r.mode === 'drag') === (r.to !== undefined), { message: 'guard arm takes `to` with mode `drag`, and only then' });

// Beyond v1, compatible with it (a v1 extension answers `unsupported`): attach mode's real input.

/** The Chrome DevTools methods the runner may send through the extension's `chrome.debugger`. */
export const DEBUGGER_METHODS = [
  'Input.dispatchMouseEvent',
  'Input.dispatchKeyEvent',
  'Input.insertText',
  'Page.bringToFront',
  'Page.captureScreenshot',
  'Page.getLayoutMetrics',
  'Page.getFrameTree',
  'Page.setInterceptFileChooserDialog',
  'Input.setInterceptDrags',
  'Input.dispatchDragEvent',
] as const;
export type DebuggerMethod = (typeof DEBUGGER_METHODS)[number];

/**
 * Attach mode: the extension's `chrome.debugger` on the run's own tabs (those the run opened
 * or switched to, showing an allowed origin), never on another tab. `attach` attaches to the
 * run's tab (a no-op when it is) or answers `unsupported` with `detail.debugger = 'refused'`
 * and why (another debugger, the person cancelled the bar, no permission); `send` sends one of
 * {@link DEBUGGER_METHODS} there, attaching first; `detach` lets go of every tab; `dialogs`
 * gives the policy and the armed answers for the dialogs the extension answers itself.
 * `upload` sets `files` on the file input at `xpath` (a `tag` element, or its label's input) in
 * the top document, or in the iframe `frame` names (a key or a path of keys, outermost first, as
 * a target's `frame`; a cross-site one through its own child session), answering `result.input: false` when the element is no file input; `chooser`
 * waits for the file chooser a click opened (after `Page.setInterceptFileChooserDialog`) and
 * answers it with `files`. `[]` clears.
 */
export const DebuggerRequestSchema = z
  .object({
    ...base,
    cmd: z.literal('debugger'),
    op: z.enum(['attach', 'send', 'detach', 'dialogs', 'upload', 'chooser']),
    method: z.enum(DEBUGGER_METHODS).optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    policy: z.enum(['dismiss', 'accept']).optional(),
    armed: z
      .array(z.object({ id: z.number().int().positive(), accept: z.boolean(), promptText: z.string().max(100_000).optional() }))
      .max(100)
      .optional(),
    files: z.array(z.string().min(1).max(4_096)).max(1_000).optional(),
    xpath: z.string().min(1).max(10_000).optional(),
    tag: z.string().min(1).max(100).optional(),
    frame: z.union([z.string().min(1).max(1_000), z.array(z.string().min(1).max(1_000)).min(1).max(20)]).optional(),
  })
  .refine((r) => r.op !== 'send' || r.method !== undefined, { message: 'debugger send needs `method`' })
  .refine((r) => r.op !== 'upload' || (r.files !== undefined && r.xpath !== undefined && r.tag !== undefined), { message: 'debugger upload needs `files`, `xpath` and `tag`' })
  .refine((r) => r.op !== 'chooser' || r.files !== undefined, { message: 'debugger chooser needs `files`' });

/** Every request, keyed by `cmd`. */
export const RequestSchemas = {
  resolve: ResolveRequestSchema,
  locate: LocateRequestSchema,
  read: ReadRequestSchema,
  verify: VerifyRequestSchema,
  wait: WaitRequestSchema,
  act: ActRequestSchema,
  outline: OutlineRequestSchema,
  tabs: TabsRequestSchema,
  navigate: NavigateRequestSchema,
  switchTab: SwitchTabRequestSchema,
  closeTab: CloseTabRequestSchema,
  actStatus: ActStatusRequestSchema,
  snapshot: SnapshotRequestSchema,
  history: HistoryRequestSchema,
  evaluate: EvaluateRequestSchema,
  scroll: ScrollRequestSchema,
  guard: GuardRequestSchema,
  debugger: DebuggerRequestSchema,
} as const;

/**
 * The wire protocol's commands: resolve, locate, read, verify, wait, act, outline, tabs,
 * navigate, switchTab, closeTab.
 *
 * @example
 * ```ts
 * declare const session: Session;
 * const busiest = (Object.entries(session.retries.byCommand) as [Command, number][]).sort((x, y) => y[1] - x[1])[0];
 * ```
 * @public
 */
export type Command = keyof typeof RequestSchemas;
export const COMMANDS = Object.keys(RequestSchemas) as Command[];
/**
 * The request of one command, as it goes over the wire (with its id).
 *
 * @example
 * ```ts
 * const action: RequestOf<'act'>['action'] = 'click';
 * const kind: RequestOf<'wait'>['kind'] = 'visible';
 * ```
 * @public
 */
export type RequestOf<C extends Command> = z.infer<(typeof RequestSchemas)[C]>;
export type Request = { [C in Command]: RequestOf<C> }[Command];

// Spelled out (a request may be a union, so `id` is dropped from each member) rather than through a
// helper type, so the public type names nothing that is not exported.
/**
 * A request before the bridge gives it an id.
 *
 * @example
 * ```ts
 * declare const bridge: Bridge;
 * const read: RequestInput<'read'> = { cmd: 'read', target: { css: 'h1' } };
 * const { text } = await bridge.request(read);
 * ```
 * @public
 */
export type RequestInput<C extends Command = Command> = C extends Command
  ? RequestOf<C> extends infer R
    ? R extends unknown
      ? Omit<R, 'id'>
      : never
    : never
  : never;

/** Validates any request by its `cmd`. */
export function parseRequest(raw: unknown): z.ZodSafeParseResult<Request> {
  const cmd = (raw as { cmd?: unknown } | null)?.cmd;
  const schema = typeof cmd === 'string' ? (RequestSchemas as Record<string, z.ZodType>)[cmd] : undefined;
  if (!schema) {
    return z.object({ cmd: z.enum(COMMANDS as [Command, ...Command[]]) }).safeParse(raw) as z.ZodSafeParseResult<Request>;
  }
  // The value found goes into the issue, so the error can say what was wrong with it.
  return schema.safeParse(raw, { reportInput: true }) as z.ZodSafeParseResult<Request>;
}

// ---------------------------------------------------------------------------------------------
// Answers (extension -> bridge)
// ---------------------------------------------------------------------------------------------

const okBase = {
  id: z.number().int().positive(),
  ok: z.literal(true),
  retries: z.number().int().positive().optional(),
  /**
   * Beyond v1, page commands: the tab the command ran in, when the tab it named was a run tab that
   * had closed (a popup's window.close()) and the run had gone back to this one.
   */
  runTab: z.number().int().optional(),
};

export const RepairSchema = z.object({
  score: z.number(),
  runnerUp: z.number(),
  old: DescriptorSchema,
  changed: z.array(z.string()),
  changes: z.array(z.string()),
});
/**
 * How a target was repaired: the score of the element chosen and of the next best, the
 * descriptor as remembered, and what changed.
 *
 * @example
 * ```ts
 * declare const session: Session;
 * const step = await session.click({ text: 'Send' });
 * const repair: Repair | undefined = step.repair;
 * if (repair) console.log(`repaired (score ${repair.score}, next best ${repair.runnerUp}): ${repair.changes.join('; ')}`);
 * ```
 * @public
 */
export type Repair = z.infer<typeof RepairSchema>;

/** Where to act on an element: the fields of a `locate` answer. */
export const PointSchema = z.object({
  x: z.number(),
  y: z.number(),
  rect: RectSchema,
  /**
   * The element's left and top border widths (`clientLeft`, `clientTop`): its padding box, from
   * which a click's `position` is measured, starts that far inside `rect`.
   */
  border: z.object({ left: z.number(), top: z.number() }).optional(),
  /**
   * Beyond v1: the element's layout size in its own CSS pixels (`offsetWidth`, `offsetHeight`).
   * `rect` is the box as drawn on the page, so where a frame or transform shows it scaled (an
   * iframe under `transform: scale()` or CSS zoom), `rect` against it is that scale, by which
   * `border` and a click's `position` are scaled onto the page.
   */
  layout: z.object({ width: z.number(), height: z.number() }).optional(),
  tag: z.string(),
  editable: z.boolean(),
  kind: z.enum(['checkbox', 'radio']).optional(),
  checked: z.boolean().optional(),
  /**
   * Beyond v1: getting it ready scrolled the page (points answered before are stale). An element
   * wholly in the window is not scrolled.
   */
  scrolled: z.boolean().optional(),
  /**
   * Beyond v1: the element has the focus, or holds the element that has it: a `type` goes on
   * where its caret or selection is, without clicking it.
   */
  focused: z.boolean().optional(),
  /**
   * Beyond v1: `prepare: "fill"` found an input a person picks a value in (range, color, date,
   * time, datetime-local, month, week): it takes no typed text, and `fill` sets its value with
   * an `act` instead.
   */
  setsValue: z.boolean().optional(),
});
export type Point = z.infer<typeof PointSchema>;

/** Something the page had in place of the guarded element: what it is, and its XPath to outline it. */
export const GuardElementSchema = z.object({ element: z.string().max(500), xpath: z.string().max(5_000).optional() });

/** What a hit-target guard saw: a `guard` answer, and a `resolve` answer's `guard`. */
export const GuardStateSchema = z.object({
  /** False when no guard is armed in this document (it navigated, or the guard timed out). */
  armed: z.boolean(),
  /** The first event stopped because it would have reached something else, and that element. */
  intercepted: GuardElementSchema.extend({ event: z.string().max(50) }).optional(),
  /** Whether the element (or one inside it) has the focus now. */
  focused: z.boolean(),
  /** What took the focus away from the element since it had it (or has it, when it never had it). */
  focusTakenBy: GuardElementSchema.optional(),
  /** Whether a trusted pointerdown or mousedown reached the element since the guard was armed. */
  pressed: z.boolean().optional(),
  /** Whether a trusted mousemove reached the element since the guard was armed. */
  hovered: z.boolean().optional(),
  /**
   * The page threw the pressed element away and drew a copy before the release reached it: the
   * release went to the copy, so the click went to neither.
   */
  replacedBy: GuardElementSchema.optional(),
  /**
   * The press and the release reached the element, but the page took it out and put it back in
   * between (a list re-drawn from the nodes it keeps): the browser then sends no click.
   */
  takenOut: GuardElementSchema.optional(),
  /**
   * The document began to leave (a reload, a navigation away, its frame removed) while the guard
   * was armed, after this many key strokes had reached the element: input sent after that is lost
   * with the document.
   */
  leaving: z.object({ keys: z.number().int().nonnegative() }).optional(),
});
export type GuardState = z.infer<typeof GuardStateSchema>;

export const ResolveAnswerSchema = z.object({
  ...okBase,
  descriptor: DescriptorSchema,
  matches: z.number().int().nonnegative(),
  repaired: z.boolean(),
  via: z.enum(['exact', 'descriptor', 'repair']),
  repair: RepairSchema.optional(),
  /** With `prepare`: the element is ready, and this is where to act on it. */
  point: PointSchema.optional(),
  /** With `guard`: the guard armed on the element, and what it saw when armed. */
  guard: GuardStateSchema.optional(),
});

export const LocateAnswerSchema = z.object({ ...okBase, ...PointSchema.shape });

export const ReadAnswerSchema = z.object({ ...okBase, text: z.string() });
export const VerifyAnswerSchema = z.object({
  ...okBase,
  found: z.unknown().optional(),
  /** Beyond v1: the checked element, when the request asked to `record` it. */
  descriptor: DescriptorSchema.optional(),
});
export const WaitAnswerSchema = z.object({ ...okBase, found: z.unknown().optional() });
export const ActAnswerSchema = z.object({ ...okBase });
export const OutlineAnswerSchema = z.object({
  ...okBase,
  drawn: z.number().int().nonnegative().optional(),
  removed: z.number().int().nonnegative().optional(),
  remaining: z.number().int().nonnegative().optional(),
});

export const TabInfoSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  title: z.string(),
  active: z.boolean(),
  /** Still loading (beyond v1): its title is often empty until the page says one. */
  loading: z.boolean().optional(),
});
/**
 * One open tab, as `tabs` lists it.
 *
 * @example
 * ```ts
 * declare const session: Session;
 * const tabs: TabInfo[] = await session.tab.list();
 * const active = tabs.find((tab) => tab.active);
 * console.log(active?.title, active?.url);
 * ```
 * @public
 */
export type TabInfo = z.infer<typeof TabInfoSchema>;

export const TabsAnswerSchema = z.object({ ...okBase, tabs: z.array(TabInfoSchema) });
export const NavigateAnswerSchema = z.object({
  ...okBase,
  tab: z.number().int(),
  url: z.string(),
  /**
   * Beyond v1, the runner's (the extension sends none): the HTTP status of the document the tab
   * landed on, from the network log (as Playwright's `goto` answers its response). Absent when no
   * document was fetched (a back/forward-cache restore) or none was seen.
   */
  status: z.number().int().optional(),
  /**
   * Beyond v1: loads of the page whose renderer crashed as they loaded, each loaded again (a
   * navigate does so once; `retries` counts it too). Absent when none crashed.
   */
  crashedLoads: z.number().int().positive().optional(),
});
export const SwitchTabAnswerSchema = z.object({
  ...okBase,
  tab: z.number().int(),
  url: z.string(),
  title: z.string(),
});
export const CloseTabAnswerSchema = z.object({
  ...okBase,
  closed: z.number().int(),
  tab: z.number().int().nullable(),
  alreadyClosed: z.literal(true).optional(),
});

/** Whether a lost act dispatched its input: `"unknown"` when the page cannot tell (it navigated, the tab closed). */
export const ActDispatchedSchema = z.union([z.boolean(), z.literal('unknown')]);
export type ActDispatched = z.infer<typeof ActDispatchedSchema>;

export const ActStatusAnswerSchema = z.object({
  ...okBase,
  dispatched: ActDispatchedSchema,
  /** Why it is `"unknown"`, for a person. */
  why: z.string().max(1_000).optional(),
});

export const SnapshotAnswerSchema = z.object({
  ...okBase,
  /** The outline, one line per element: `- role "name" [state] [ref=e12]`, nested by two spaces. */
  text: z.string(),
  url: z.string(),
  title: z.string(),
  lines: z.number().int().nonnegative(),
  /** How many elements carry a ref. */
  refs: z.number().int().nonnegative(),
  /** The page had more than `maxLines` lines; the last line says how many were left out. */
  truncated: z.boolean(),
  /** Beyond v1: the number the next new ref will take (what the next snapshot's `firstRef` carries). */
  nextRef: z.number().int().positive().optional(),
  /**
   * Beyond v1, between the content script and its worker only (the worker reads them and answers
   * without them): the cross-site iframes the document could not read. `line` is the index of
   * the iframe's line in `text`, `probe` the nonce the document probed the iframe with (its own
   * content script reports it, naming the frame), `path` the frame keys from the document to it,
   * `src` its address as the document sees it, `levels` how many frame boundaries lie between
   * the document and the frame (absent: 1, an iframe of the document itself; more for one inside
   * same-origin iframes there: the worker believes the probe's report only from that far below).
   */
  frames: z
    .array(
      z.object({
        line: z.number().int().nonnegative(),
        probe: z.string(),
        path: z.array(z.string()),
        src: z.string(),
        levels: z.number().int().min(1).max(9).optional(),
      }),
    )
    .optional(),
});

export const GuardAnswerSchema = z.object({ ...okBase, ...GuardStateSchema.shape });

export const AnswerSchemas = {
  resolve: ResolveAnswerSchema,
  locate: LocateAnswerSchema,
  read: ReadAnswerSchema,
  verify: VerifyAnswerSchema,
  wait: WaitAnswerSchema,
  act: ActAnswerSchema,
  outline: OutlineAnswerSchema,
  tabs: TabsAnswerSchema,
  navigate: NavigateAnswerSchema,
  switchTab: SwitchTabAnswerSchema,
  closeTab: CloseTabAnswerSchema,
  actStatus: ActStatusAnswerSchema,
  snapshot: SnapshotAnswerSchema,
  history: NavigateAnswerSchema,
  evaluate: z.object({ ...okBase, value: z.unknown().optional() }),
  scroll: z.object({
    ...okBase,
    steps: z.number().int().nonnegative(),
    /** Pixels scrolled down (negative: up); to the right for a container that scrolls only sideways. */
    scrolled: z.number(),
    /** The container scrolled, in words. */
    container: z.string(),
    /** With `until`: the element that appeared, brought into view. */
    descriptor: DescriptorSchema.optional(),
    /**
     * Beyond v1, with `until`: the px of each step, signed, as taken (a `deltaY` longer than the
     * container shows is cut to what it shows), the way it went last.
     */
    step: z.number().optional(),
    /**
     * Beyond v1, with `until`: the search reached the end of the container it went towards
     * without finding the target and turned back, searching the other way from where it began.
     */
    turned: z.literal(true).optional(),
    /**
     * Beyond v1: nothing there can scroll (no scrollable box, and the page fits its viewport), so
     * nothing was scrolled; the middle of the target (or the viewport) in top-viewport CSS px, for
     * the runner's wheel input. With `until`, it comes in a `not-found` failure's detail instead.
     */
    wheelAt: z.object({ x: z.number(), y: z.number() }).optional(),
  }),
  guard: GuardAnswerSchema,
  debugger: z.object({
    ...okBase,
    /** `send`: what the method answered (a picture's `data` is base64 PNG). */
    result: z.unknown().optional(),
    /** The tabs the extension's debugger is attached to now: only the run's. */
    attached: z.array(z.number().int()),
  }),
} as const satisfies Record<Command, z.ZodType>;

/**
 * The answer of one command: what a successful request resolves to.
 *
 * @example
 * ```ts
 * declare const session: Session;
 * const located: ResultOf<'locate'> = await session.locator.locate((await session.locator.resolve({ text: 'Send' })).descriptor);
 * console.log(located.x, located.y, located.editable);
 * ```
 * @public
 */
export type AnswerOf<C extends Command> = z.infer<(typeof AnswerSchemas)[C]>;

/**
 * An answer as a Session call returns it: the protocol's answer without its `id`, which pairs
 * it with its request on the bridge and means nothing to a caller.
 *
 * @example
 * ```ts
 * declare const session: Session;
 * const loaded: ResultOf<'navigate'> = await session.tab.navigate('http://127.0.0.1:4173/');
 * console.log(loaded.tab, loaded.url);
 * ```
 * @public
 */
export type ResultOf<C extends Command> = AnswerOf<C> extends infer A ? (A extends unknown ? Omit<A, 'id'> : never) : never;

/** An answer as a result ({@link ResultOf}): the one place a Session call's answer loses its wire `id`. */
export function resultOf<C extends Command>(answer: AnswerOf<C>): ResultOf<C> {
  const { id: _id, ...result } = answer as AnswerOf<C> & { id?: number };
  return result as ResultOf<C>;
}

export const FailureSchema = z.object({
  id: z.number().int().positive(),
  ok: z.literal(false),
  reason: ReasonSchema,
  /** A sentence for a person: what was asked, what was found. */
  message: z.string().optional(),
  detail: z.record(z.string(), z.unknown()).optional(),
  retries: z.number().int().positive().optional(),
});
export type Failure = z.infer<typeof FailureSchema>;

/** Any answer before it is matched to its request: only the envelope is checked here. */
export const AnswerEnvelopeSchema = z.looseObject({
  id: z.number().int().positive(),
  ok: z.boolean(),
});

// ---------------------------------------------------------------------------------------------
// Events (extension -> bridge, no reply)
// ---------------------------------------------------------------------------------------------

export const EventSchema = z.discriminatedUnion('kind', [
  z.object({ type: z.literal('event'), kind: z.literal('tab-opened'), tab: z.number().int(), url: z.string() }),
  z.object({
    type: z.literal('event'),
    kind: z.literal('tab-closed'),
    tab: z.number().int(),
    /** Beyond v1: the run's tab once this one closed (the tab it went back to when this was the run's; null: none). */
    runTab: z.number().int().nullable().optional(),
  }),
  z.object({
    type: z.literal('event'),
    kind: z.literal('navigated'),
    tab: z.number().int(),
    url: z.string(),
    /** Beyond v1: the tab's top frame changed its address without loading a document (the history API, a #fragment, a move between such entries). */
    sameDocument: z.literal(true).optional(),
  }),
  z.object({
    type: z.literal('event'),
    kind: z.literal('console'),
    tab: z.number().int(),
    level: z.enum(['error', 'warning', 'log']),
    text: z.string().max(10_000),
    /** Beyond v1: what the page's error was, an uncaught error, a rejection, or a failed resource load. */
    error: z.enum(['error', 'rejection', 'resource']).optional(),
  }),
  // Beyond v1: a native dialog the extension answered through chrome.debugger (attach mode).
  z.object({
    type: z.literal('event'),
    kind: z.literal('dialog'),
    tab: z.number().int(),
    dialog: z.enum(['alert', 'confirm', 'prompt', 'beforeunload']),
    message: z.string().max(10_000),
    url: z.string(),
    defaultPrompt: z.string().max(100_000).optional(),
    accepted: z.boolean(),
    promptText: z.string().max(100_000).optional(),
    /** The id of the armed answer it took (see the `debugger` request's `armed`); absent: the policy's. */
    armed: z.number().int().positive().optional(),
  }),
  // Beyond v1: the page began an HTML5 drag that chrome.debugger intercepted (attach mode's drag).
  z.object({ type: z.literal('event'), kind: z.literal('drag-intercepted'), tab: z.number().int(), data: z.record(z.string(), z.unknown()) }),
  // Beyond v1 (attach mode's debugger): what a run tab's debugger heard of its requests, console
  // lines and failed loads, cut to the fields the runner's page watch reads (see pageWatch.ts: no
  // headers, no bodies, URLs' userinfo redacted); `firstDocument` once its Network domain is on;
  // `detached` when the debugger let go of the tab (what it began and never answered is forgotten);
  // `frameDetached` when a cross-site frame's session went away (the frame was removed), with the
  // `requestIds` it began and never answered, to be forgotten (Chrome tells nothing more of them).
  z.object({
    type: z.literal('event'),
    kind: z.literal('page-watch'),
    tab: z.number().int(),
    method: z.enum([...WATCHED_CDP_METHODS, 'firstDocument', 'detached', 'frameDetached']),
    params: z.record(z.string(), z.unknown()),
  }),
  // Beyond v1 (attach mode's debugger): where input took a run tab's frames, as its debugger heard
  // it, cut to the fields the runner's navigation watch reads (see navigationEvents.ts); the
  // runner waits on them for a navigation its input started, as it does over the pipe.
  z.object({
    type: z.literal('event'),
    kind: z.literal('navigation'),
    tab: z.number().int(),
    method: z.enum(NAVIGATION_CDP_METHODS),
    params: z.record(z.string(), z.unknown()),
  }),
  // Beyond v1 (attach mode's debugger): a download a run tab began (`began`, with its address and
  // name), and how it ended: `completed` with where Chrome saved it and its size (absent without
  // the "downloads" permission), or `canceled`.
  z.object({
    type: z.literal('event'),
    kind: z.literal('download'),
    tab: z.number().int(),
    guid: z.string().min(1).max(100),
    state: z.enum(['began', 'completed', 'canceled']),
    url: z.string().max(10_000).optional(),
    suggestedFilename: z.string().max(1_000).optional(),
    path: z.string().max(4_096).optional(),
    bytes: z.number().int().nonnegative().optional(),
  }),
]);
/**
 * Something the extension reports without being asked: a tab opened or closed, a navigation, a
 * page's console error.
 *
 * @example
 * ```ts
 * declare const session: Session;
 * session.on('event', (event: ExtensionEvent) => {
 *   if (event.kind === 'console' && event.level === 'error') console.warn(`page error in tab ${event.tab}: ${event.text}`);
 *   if (event.kind === 'tab-opened') console.log(`tab ${event.tab} opened ${event.url}`);
 * });
 * ```
 * @public
 */
export type ExtensionEvent = z.infer<typeof EventSchema>;

