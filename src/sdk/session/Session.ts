import { EventEmitter } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import type { Browser } from 'puppeteer-core';
import type { Bridge } from '../bridge/Bridge.js';
import { AiteError } from '../errors/AiteError.js';
import type { TypedEmitterClass } from '../events/TypedEmitter.js';
import { wakeWorker } from '../launch/wakeWorker.js';
import type { LockFile } from '../lock/LockFile.js';
import { allowedOrigins, ANSWER_SLACK_MS, INPUT_TIMES_MAX, redactUrl, defaultTimeoutOf, isPageCommand, resultOf, SCROLL_STEPS_DEFAULT, type AnswerOf, type ResultOf, type Command, type ExtensionEvent, type Rect, type RequestInput, type RequestOf, type Descriptor, type SelectOption, type Target, namesByState, VERIFY_ONE_KINDS, withinTarget, withTimeout } from '../protocol/index.js';
import { DebuggerInput } from './DebuggerInput.js';
import { asResults, type Send } from './Channel.js';
import { evaluateRequest } from './evaluate.js';
import { checkOptionNames, optionNames, parseStepOptions } from '../errors/parseOptions.js';
import { describeValue } from '../errors/zodIssues.js';
import { STEP_OPTIONS, type StepHow, type StepName } from './options.js';
import type { z } from 'zod';
import { failurePicture, type FailureFacts } from './failurePicture.js';
import type { GuardMode } from './HitGuard.js';
import type { Found, Input, Prepare } from './Input.js';
import { Locator } from './Locator.js';
import { writePicture } from './pipe/pictures.js';
import { PageWatch } from './PageWatch.js';
import { DebuggerPages } from './DebuggerPages.js';
import { ContentWorld } from './pipe/ContentWorld.js';
import { GuardVerdicts } from './pipe/GuardVerdicts.js';
import { HeldLeaves } from './HeldLeaves.js';
import { watchPipePages } from './pipe/PipePages.js';
import { emulateFocus } from './pipe/focus.js';
import { PipeInput } from './PipeInput.js';
import { RunRecords } from './RunRecords.js';
import { RunTab } from './RunTab.js';
import { StepContext } from './StepContext.js';
import { Tab } from './Tab.js';
import { toTarget, type ClickOptions, type DoubleClickOptions, type DragOptions, type HoverOptions, type NetworkEntry, type PageError, type RetryCounts, type ScrollResult, type StepOptions, type StepRecord, type StepResult, type TargetInput, type Warning } from './types.js';
import { explainCut, graceBefore, MIN_WAIT_MS, pictureTimeLeft, type TestDeadline } from './TestDeadline.js';
import { Verify } from './Verify.js';
import { resetPages, type ResetOptions } from './reset.js';
import { Dialogs, type DialogPolicy, type DialogRecord } from './pipe/Dialogs.js';
import type { Download, DownloadRecord } from './pipe/Downloads.js';
import { checkFiles } from './pipe/Files.js';
import { parseChord, platformModifier } from './pipe/keys.js';

/** The commands that check the page: one that passes only after its timeout fails. */
const CHECKS: ReadonlySet<Command> = new Set(['verify', 'wait']);

/** Failures a longer wait could have turned into a pass: a cut wait says it was cut. */
const TIMING_REASONS: ReadonlySet<string> = new Set(['timeout', 'mismatch', 'not-found', 'not-visible', 'not-enabled']);

/**
 * Events of a {@link Session}, by name.
 *
 * @example
 * ```ts
 * import type { Session, SessionEvents } from 'aite';
 *
 * declare const session: Session;
 * const log: SessionEvents['step'] = (record) => console.log(record.name, record.retries);
 * session.on('step', log);
 * session.off('step', log);
 * ```
 * @public
 */
export type SessionEvents = {
  /**
   * A step finished (passed or failed): a composed step (`click`, `type`, ...), or one request of
   * `tab`, `locator` or `verify`, named by its command (`verify`, `navigate`, `resolve`, ...).
   */
  step: (record: StepRecord) => void;
  /** An answer carried re-sends; `retries` is how many. */
  retry: (info: { cmd: Command; retries: number }) => void;
  /** An event from the extension: tab opened/closed, navigated, console error. */
  event: (event: ExtensionEvent) => void;
  /** Something worth knowing that did not fail a step. */
  warning: (warning: Warning) => void;
  /** A native dialog opened and was answered (by `dialogs.next()` or the launch policy). */
  dialog: (dialog: DialogRecord) => void;
  /** A page of the run had an error: uncaught, a rejection, console.error/warn, a failed load. */
  pageError: (error: PageError) => void;
  /** A request of the run's pages finished or failed. */
  request: (entry: NetworkEntry) => void;
};

/**
 * The names of the {@link SessionEvents}.
 *
 * @example
 * ```ts
 * import { SessionEvent, type Session } from 'aite';
 *
 * declare const session: Session;
 * session.on(SessionEvent.Step, (step) => console.log(`${step.ok ? 'ok' : step.reason} ${step.name} ${step.durationMs} ms`));
 * session.on(SessionEvent.Warning, (warning) => console.warn(warning.code, warning.message));
 * ```
 * @public
 */
export const SessionEvent = {
  Step: 'step',
  Retry: 'retry',
  Event: 'event',
  Warning: 'warning',
  Dialog: 'dialog',
  PageError: 'pageError',
  Request: 'request',
} as const satisfies Record<string, keyof SessionEvents>;

/**
 * What {@link launch} and {@link attach} hand a new Session: its bridge, its browser (none in
 * attach mode) and how to close them. Not for users: sessions come from launch() and attach().
 * @internal
 */
export interface SessionParts {
  bridge: Bridge;
  browser: Browser | undefined;
  profile: string;
  timeoutMs: number;
  lock?: LockFile;
  /** The run's allow list: reset clears these origins, and what the runner itself does over the pipe is checked against it. Default none. */
  allow?: readonly string[];
  /** Whether the profile is the temp one launch() made (reset clears its storage by default). Default false. */
  tempProfile?: boolean;
  /**
   * Where every download goes from the start (a folder of the temp profile, removed with it even
   * when the process is stopped by a signal). Without it, Chrome's own folder until the first
   * `download()` (a profile the user named keeps its own downloads).
   */
  downloads?: string;
  /** What to do with a dialog nobody armed an answer for; default dismiss. */
  dialogs?: DialogPolicy;
  /** Attach mode: whether the extension's chrome.debugger carries trusted input, pictures and dialogs in the run's tabs. Default false. */
  debugger?: boolean;
  close: () => Promise<void>;
}

/**
 * One run in one Chrome profile. Holds the `bridge`, and `tab`, `locator` and `verify`, whose
 * methods each send one protocol request; the composed steps (`click`, `type`, ...) resolve,
 * locate and send real input over the debugging pipe.
 *
 * @example
 * ```ts
 * import { launch } from 'aite';
 *
 * const session = await launch({ allow: ['http://127.0.0.1:4173'] });
 * try {
 *   await session.tab.navigate('http://127.0.0.1:4173/');
 *   await session.type({ label: 'Amount' }, '4');
 *   await session.click({ role: 'button', name: 'Send' });
 *   await session.verify.text('Sent 4 MALLBUCKS');
 *   console.log(session.retries.total, session.consoleErrors);
 * } finally {
 *   await session.close();
 * }
 * ```
 * @public
 */
export class Session extends (EventEmitter as TypedEmitterClass<SessionEvents>) {
  /** The bridge to the extension (an escape hatch: raw protocol requests). */
  readonly bridge: Bridge;
  /** The run's tabs: navigate, switch, close, list. */
  readonly tab: Tab;
  /** Single protocol commands: resolve, locate, read, act, wait, outline. */
  readonly locator: Locator;
  /** Checks on the page. */
  readonly verify: Verify;
  /** The profile's name. */
  readonly profile: string;
  /** The puppeteer-core Browser when launched over the pipe (an escape hatch); undefined in attach mode. */
  readonly browser: Browser | undefined;
  /** Re-sends counted over the session. Nothing hides a retry. */
  readonly retries: RetryCounts = { total: 0, byCommand: {} };
  /**
   * The page errors of this run (over the pipe: uncaught errors and rejections from the first
   * line of a page's load, console.error and console.warn, failed resource loads; in attach mode
   * the same in the tabs the extension's chrome.debugger holds, else the uncaught errors and
   * failed element loads its content script relays), at most 100 per step and 1,000 in all.
   */
  get consoleErrors(): readonly PageError[] {
    return this.#records.pageErrors;
  }

  /**
   * The requests of the run's pages, the latest 1,000: url (userinfo redacted), method, status,
   * resource type, duration, and why one failed. No headers. Over the pipe, or in attach mode
   * through the extension's chrome.debugger in the run's tabs (empty without it).
   */
  get network(): readonly NetworkEntry[] {
    return this.#records.network;
  }

  /**
   * The downloads the run's pages started, the latest 100, each as far as it has got: also those
   * no `download()` waited for (a plain click on an export link). Over the pipe with a temp
   * profile from the start, with a profile you named from the first `download()` on; in attach
   * mode through the extension's chrome.debugger (empty without it).
   */
  get downloads(): readonly DownloadRecord[] {
    return this.#input.downloads;
  }
  /** Native dialogs (alert, confirm, prompt, beforeunload): arm the next answer, see what was answered. */
  readonly dialogs: Dialogs;

  readonly #parts: SessionParts;
  readonly #runTab: RunTab;
  readonly #input: Input;
  /** The hit-target guard's one-way verdicts over the pipe (launch mode with an allow list); undefined otherwise. */
  readonly #verdicts: GuardVerdicts | undefined;
  /** Attach mode's run tabs as the extension's debugger hears them; undefined over the pipe. */
  readonly #pages: DebuggerPages | undefined;
  /** The calls running now: a dialog answered meanwhile belongs to each of them. */
  readonly #live = new Set<StepContext>();
  readonly #held = new HeldLeaves();
  /** Warnings of what happened between steps (the run's tab closed itself), for the next step to carry. */
  readonly #carried: Warning[] = [];
  readonly #records = new RunRecords();
  /** Why nothing more can be sent (Chrome exited, the session was closed); undefined while it can. */
  #gone: string | undefined;
  /** Whether the next navigate that names no tab may load its page in Chrome's one blank tab (see #inBlankTab). */
  #blankTab: boolean;
  #closing: Promise<void> | undefined;
  #testDeadline: (() => TestDeadline | undefined) | undefined;
  /** When the run's last input steps began (ms since the epoch), oldest first: one click's popups are told apart by them. */
  readonly #inputAt: number[] = [];
  /** A failed step's picture that would have outlasted the test's deadline: its error went without it. */
  #latePicture: { detail: Record<string, unknown>; png: Promise<Uint8Array | undefined> } | undefined;
  /** The armed dialog answers the extension was last given (attach mode's debugger; -1: never). */
  #dialogsSynced = -1;
  /** The number the run's next new snapshot ref takes: one numbering for every document of the run. */
  #nextRef = 1;

  /** @internal */
  constructor(parts: SessionParts) {
    super();
    this.#parts = parts;
    this.bridge = parts.bridge;
    this.browser = parts.browser;
    this.profile = parts.profile;
    this.#runTab = new RunTab(parts.browser, parts.allow, (gone, now) => this.#tabLeft(gone, now));
    this.#blankTab = parts.browser !== undefined;
    this.dialogs = new Dialogs(parts.browser, parts.dialogs ?? 'dismiss', {
      pipe: parts.browser !== undefined || parts.debugger === true,
      tabOf: (url) => this.#runTab.tabOf(url),
      answered: (record) => this.#onDialog(record),
    });
    const watch = new PageWatch({
      pageError: (error) => this.#pageError(error),
      request: (entry) => this.emit('request', this.#records.addRequest(entry)),
    });
    // Launch mode: the pages' requests and console lines from the pipe; attach mode: as the
    // extension's debugger hears them.
    const pipePages = parts.browser ? watchPipePages(parts.browser, watch) : undefined;
    const pages = parts.browser ? undefined : new DebuggerPages(watch);
    this.#pages = pages;
    // The binding they come through lives beside the page commands over the pipe (ContentWorld).
    this.#verdicts = parts.browser && parts.allow ? new GuardVerdicts() : undefined;
    // A click the hit-target guard stopped is tried once more: a re-send, counted as one.
    this.#input = parts.browser
      ? new PipeInput(this.#runTab, parts.browser, {
          ...(parts.downloads ? { downloads: parts.downloads } : {}),
          dialogs: this.dialogs,
          timeoutMs: parts.timeoutMs,
          countRetry: (step) => this.#count(step, 'act', 1),
          idle: (page, idleMs, timeoutMs) => pipePages!.idle(page, idleMs, timeoutMs),
          ...(this.#verdicts ? { verdicts: this.#verdicts } : {}),
        })
      : new DebuggerInput({
          timeoutMs: parts.timeoutMs,
          countRetry: (step) => this.#count(step, 'act', 1),
          enabled: parts.debugger === true,
          idle: (tab, idleMs, timeoutMs) => pages!.idle(tab, idleMs, timeoutMs),
          runTab: () => this.#runTab.current,
          address: () => this.#runTab.url,
          landed: (url, action) => this.#runTab.landed(url, action),
          events: (listener) => {
            this.bridge.on('event', listener);
            return () => this.bridge.off('event', listener);
          },
        });
    // Each request of tab, locator and verify is a step of its own.
    const send = asResults((<R extends RequestInput>(request: R) =>
      this.#step(request.cmd, targetOf(request), undefined, (step) => (request.cmd === 'verify' ? this.#verify(step, request as RequestOf<'verify'>) : step.send(request))).then(({ value }) => value)) as Send);
    this.tab = new Tab(send, () => this.#runTab.current, () => this.#runTab.url, () => this.#inputAt);
    this.locator = new Locator(send);
    this.verify = new Verify(send);
    this.bridge.on('event', (event) => this.#onEvent(event));
    // A worker that started again has forgotten the dialog answers it was given.
    this.bridge.on('connected', () => {
      this.#dialogsSynced = -1;
    });
    const browser = parts.browser;
    if (browser) {
      const stopFocus = emulateFocus(browser);
      browser.once('disconnected', () => {
        pipePages!.stop();
        stopFocus();
        watch.dispose();
      });
      // Page commands go straight to the content script over the pipe when they can (ContentWorld).
      if (parts.allow && this.#verdicts) {
        const world = new ContentWorld(browser, (tab) => this.#runTab.knownPage(tab), allowedOrigins(parts.allow), this.#verdicts);
        this.bridge.useShortcut(world);
        browser.once('disconnected', () => world.dispose());
      }
      // A stopped worker would otherwise wait for its alarm (30 s) to reconnect.
      this.bridge.on('disconnected', () => {
        if (!this.#closing && !this.#gone) void wakeWorker(browser).catch(() => undefined);
      });
    }
    parts.browser?.on('disconnected', () => {
      if (this.#closing) return;
      this.#gone = 'Chrome exited';
      this.bridge.failPending('Chrome exited');
    });
  }

  /** The lock file, when the session was launched or attached with `lockFile`. */
  get lock(): LockFile | undefined {
    return this.#parts.lock;
  }

  /** This run's id (from the bridge's welcome). */
  get runId(): string {
    return this.bridge.runId;
  }

  // ------------------------------------------------------------------ composed steps

  /**
   * Clicks the target with real mouse input (plain events in attach mode): a `button`, held
   * `modifiers`, a `clickCount`, a `position` (see {@link ClickOptions.position}) and a `delay`
   * between press and release (a long press).
   */
  click(target: TargetInput, options: ClickOptions = {}): Promise<StepResult> {
    return this.#composed('click', target, options, async (step, { button, modifiers, clickCount, position, delay }) => {
      const how = { ...(button ? { button } : {}), modifiers: (modifiers ?? []).map(platformModifier), ...(clickCount ? { clickCount } : {}), ...(position ? { position } : {}), ...(delay ? { delay } : {}) };
      // A single left click ends with its click event: the guard can report then (see #find).
      const single = (button ?? 'left') === 'left' && (clickCount ?? 1) === 1;
      await this.#input.pointer(step, await this.#find(step, target, 'click', 'pointer', single ? 'click' : undefined), 'click', how);
    });
  }

  /** Double-clicks the target: a `button`, held `modifiers` and a `position` as {@link Session.click} takes them. */
  doubleClick(target: TargetInput, options: DoubleClickOptions = {}): Promise<StepResult> {
    return this.#composed('doubleClick', target, options, async (step, { button, modifiers, position }) => {
      const how = { ...(button ? { button } : {}), modifiers: (modifiers ?? []).map(platformModifier), ...(position ? { position } : {}) };
      await this.#input.pointer(step, await this.#find(step, target, 'click', 'pointer'), 'doubleClick', how);
    });
  }

  /**
   * Moves the mouse over the target: to its middle, or to `position` (a point of a chart drawn
   * on a canvas), holding `modifiers` meanwhile.
   */
  hover(target: TargetInput, options: HoverOptions = {}): Promise<StepResult> {
    return this.#composed('hover', target, options, async (step, { modifiers, position }) => {
      const how = { modifiers: (modifiers ?? []).map(platformModifier), ...(position ? { position } : {}) };
      await this.#input.pointer(step, await this.#find(step, target, 'click', 'pointer'), 'hover', how);
    });
  }

  /**
   * Types `text` key by key into the target. A target without the focus is clicked first, and
   * the text goes where that click put the caret; one with the focus is typed into where its
   * caret or selection is, without a click.
   */
  type(target: TargetInput, text: string, options: StepOptions = {}): Promise<StepResult> {
    return this.#composed('type', target, options, async (step) => this.#input.type(step, await this.#find(step, target, 'click', 'input'), textToSend(text, 'type')));
  }

  /**
   * Replaces the target's value with `text`: the field is focused with its text selected, then
   * `text` arrives as trusted text input (an empty `text` deletes the selection). Like other
   * tools' fill, it does not click the field first; use `type` for key-by-key typing.
   */
  fill(target: TargetInput, text: string, options: StepOptions = {}): Promise<StepResult> {
    // Text ends with its input event (an empty text deletes, which may send none).
    return this.#composed('fill', target, options, async (step) => {
      const value = textToSend(text, 'fill');
      await this.#input.fill(step, await this.#find(step, target, 'fill', 'input', value === '' ? undefined : 'input'), value);
    });
  }

  /**
   * Presses a key or a chord (`Enter`, `a`, `Control+A`, `Shift+Tab`, `Meta+Enter`). A named
   * target is focused first, without clicking it. A key name the pipe cannot send is an
   * `unsupported` error before anything is sent.
   */
  press(key: string, target?: TargetInput, options: StepOptions = {}): Promise<StepResult> {
    return this.#composed('press', target, options, async (step) => {
      const chord = parseChord(key);
      await this.#input.press(step, key, target === undefined ? undefined : await this.#find(step, target, 'focus', 'input'), chord);
    });
  }

  /** Checks a checkbox or radio (does nothing when it already is), then verifies it. */
  check(target: TargetInput, options: StepOptions = {}): Promise<StepResult> {
    return this.#toggle('check', target, true, options);
  }

  /** Unchecks a checkbox (does nothing when it already is), then verifies it. */
  uncheck(target: TargetInput, options: StepOptions = {}): Promise<StepResult> {
    return this.#toggle('uncheck', target, false, options);
  }

  /**
   * Picks an option of a `<select>` by its label or value, or by `{ value }`, `{ label }` or
   * `{ index }`; a list picks those of a `multiple` select (and only those; `[]` clears it).
   */
  select(target: TargetInput, option: SelectOption | SelectOption[], options: StepOptions = {}): Promise<StepResult> {
    return this.#composed('select', target, options, async (step) => {
      const found = await this.#find(step, target);
      // A native select's popup is not part of the page; choosing through the DOM is what every tool does.
      // A change handler that sets `location` navigates like a link's click: the step returns once it commits.
      await this.#input.navigating(step, 'select', () => step.locator.act('select', found.descriptor, { option, timeoutMs: step.timeoutMs }).then(() => undefined));
    });
  }

  /** Drags `from` onto `to` with real mouse input. */
  drag(from: TargetInput, to: TargetInput, options: DragOptions = {}): Promise<StepResult> {
    return this.#composed('drag', from, options, async (step, { sourcePosition, targetPosition }) => {
      await this.#input.drag(step, await this.#find(step, from), await this.#find(step, to), { sourcePosition, targetPosition });
    });
  }

  /**
   * Puts files into a file input: the input (a hidden one too: setting files needs no box), its
   * label, or a control that opens a file chooser when clicked (the chooser is intercepted and
   * answered, in whichever frame it opens). `[]` clears the input. The page gets
   * its `input` and `change` events. Relative paths are relative to the working directory.
   */
  upload(target: TargetInput, files: string | string[], options: StepOptions = {}): Promise<StepResult> {
    return this.#composed('upload', target, options, async (step) => {
      const paths = await checkFiles(files);
      await this.#input.upload(step, await this.#find(step, target, 'upload'), paths);
    });
  }

  /**
   * Clicks the target and waits for the download the click starts; answers where the file is,
   * its name and size. Without `saveAs` the file is in a folder of the session's that `close()`
   * removes.
   */
  async download(target: TargetInput, options: StepOptions & { saveAs?: string } = {}): Promise<StepResult & Download> {
    parseStepOptions(STEP_OPTIONS.download, options, 'download');
    const { value, result } = await this.#step(
      'download',
      target,
      options.timeoutMs,
      async (step) => this.#input.download(step, await this.#find(step, target, 'click'), options.saveAs),
      options.timeoutMs ?? this.#parts.timeoutMs,
    );
    return { ...result, ...value };
  }

  /** Waits until the run's page has had no network request in flight for `idleMs` (default 500). */
  waitForNetworkIdle(options: { idleMs?: number; timeoutMs?: number } = {}): Promise<StepResult> {
    return this.#composed('waitForNetworkIdle', undefined, options, (step) =>
      this.#input.networkIdle(step, options.idleMs ?? 500, options.timeoutMs ?? this.#parts.timeoutMs),
    );
  }

  /**
   * A PNG of the run's tab: the viewport, the whole page (`fullPage`), or one element
   * (`target`, resolved first, pictured at its size wherever it is). With `path` it is also
   * written there. Returns undefined, with a warning, when no picture can be taken (attach mode,
   * or the tab cannot be told apart from another); a `target` that names no element throws.
   * With `maxSide` (over the pipe, and in attach mode through the extension's debugger), a picture wider or taller than that many pixels is painted
   * smaller to fit, its aspect kept, and a `screenshot-scaled` warning says from what size.
   */
  async screenshot(options: { target?: TargetInput; fullPage?: boolean; path?: string; timeoutMs?: number; maxSide?: number } = {}): Promise<Uint8Array | undefined> {
    options = checkOptionNames(options, SCREENSHOT_OPTIONS, 'screenshot');
    if (options.maxSide !== undefined && !(Number.isInteger(options.maxSide) && options.maxSide > 0)) {
      throw new AiteError('unsupported', `screenshot: maxSide is the longest side in pixels, a whole number above 0; ${JSON.stringify(options.maxSide)} is not one.`, { command: 'screenshot' });
    }
    const { value } = await this.#step('screenshot', options.target, options.timeoutMs, async (step) => {
      let clip: Rect | undefined;
      if (options.target !== undefined) {
        const { descriptor } = await step.locator.resolve(toTarget(options.target), { timeoutMs: step.timeoutMs });
        if (!descriptor.rect) throw new AiteError('unsupported', `The element ${JSON.stringify(options.target)} has no box to picture.`, { command: 'screenshot' });
        clip = descriptor.rect;
      }
      const png = await this.#input.screenshot(step, { ...(clip ? { clip } : {}), ...(options.fullPage ? { fullPage: true } : {}), ...(options.maxSide !== undefined ? { maxSide: options.maxSide } : {}) });
      if (png && options.path) await writePicture(options.path, png);
      return png;
    });
    return value;
  }

  /**
   * Scrolls the target's scroll container (none named: the one under the middle of the
   * viewport, else the page) by `deltaY` px, default most of its height (across, by most of its
   * width, for a container that scrolls only sideways). With `until`, scrolls
   * step by step until that target is there, as a virtual list renders it, brings it into view
   * and answers its descriptor; a search begun partway that reaches the end turns back
   * (`turned`). At most `maxSteps` steps (default 200, both ways) within `timeoutMs`
   * (default 15 s with `until`). Never clicks.
   */
  async scroll(target?: TargetInput, options: { deltaY?: number; until?: TargetInput; maxSteps?: number; timeoutMs?: number } = {}): Promise<ScrollResult> {
    options = checkOptionNames(options, SCROLL_OPTIONS, 'scroll');
    const timeoutMs = options.timeoutMs ?? (options.until !== undefined ? Math.max(SCROLL_UNTIL_TIMEOUT_MS, this.#parts.timeoutMs) : undefined);
    const request = {
      cmd: 'scroll' as const,
      ...(target !== undefined ? { target: toTarget(target) } : {}),
      ...(options.until !== undefined ? { until: toTarget(options.until) } : {}),
      ...(options.deltaY !== undefined ? { deltaY: options.deltaY } : {}),
      ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
      timeoutMs,
    };
    const { value, result } = await this.#step('scroll', options.until ?? target, timeoutMs, (step) => this.#scroll(step, request, timeoutMs ?? this.#parts.timeoutMs));
    return { ...result, scrolled: value.scrolled, steps: value.steps, by: value.by, ...(value.turned ? { turned: value.turned } : {}), ...(value.descriptor ? { descriptor: value.descriptor } : {}) };
  }

  /**
   * The extension scrolls a container. Where nothing there can scroll (it answers `wheelAt`), a
   * page that moves on wheel events itself (a carousel, a map) gets trusted wheel input over the
   * target instead, and with `until` one wheel step at a time until the target is there: a
   * container is scrolled exactly and measurably, a wheel only as the page decides.
   */
  async #scroll(step: StepContext, request: RequestInput<'scroll'>, timeoutMs: number): Promise<AnswerOf<'scroll'> & { by: 'container' | 'wheel' }> {
    const deltaY = request.deltaY ?? WHEEL_DELTA_Y;
    if (!request.until) {
      const answer = await step.send(request);
      if (!answer.wheelAt) return { ...answer, by: 'container' };
      const sent = await this.#input.wheel(step, answer.wheelAt, deltaY);
      return { ...answer, steps: sent ? 1 : 0, by: sent ? 'wheel' : 'container' };
    }
    const maxSteps = request.maxSteps ?? SCROLL_STEPS_DEFAULT;
    const deadline = performance.now() + timeoutMs;
    for (let steps = 0; ; steps++) {
      try {
        const answer = await step.send(request);
        if (steps > 0) return { ...answer, steps, by: 'wheel' };
        if (request.deltaY !== undefined && answer.step !== undefined && Math.abs(answer.step) < Math.abs(request.deltaY)) {
          step.warn({ code: 'scroll', message: `deltaY ${request.deltaY} is more than ${answer.container} shows: each step was ${Math.abs(answer.step)} px, so that no row of a virtual list was stepped over.` });
        }
        return { ...answer, by: 'container' };
      } catch (error) {
        const at = error instanceof AiteError && error.reason === 'not-found' ? pointOf(error.detail.wheelAt) : undefined;
        if (!at) throw error;
        // Nothing in or around the target can scroll: the wheel is the page's to act on, and
        // whether anything moved is not known here.
        const what = `${JSON.stringify(request.until)} did not appear after ${steps} wheel step(s) of ${deltaY} px over ${request.target ? 'the target' : 'the middle of the viewport'} (no box in or around it can scroll, and the page fits its viewport, so wheel input was sent for the page to act on)`;
        if (steps >= maxSteps) throw new AiteError('not-found', `${what}: maxSteps (${maxSteps}) reached.`, { command: 'scroll', detail: { steps } });
        if (performance.now() >= deadline) throw new AiteError('timeout', `${what} within ${timeoutMs} ms.`, { command: 'scroll', detail: { steps } });
        if (!(await this.#input.wheel(step, at, deltaY))) throw error;
      }
    }
  }

  /**
   * Runs an expression, or a function called with `arg`, in the main world of the run's page (its
   * top document), and resolves with its result as JSON (a promise is awaited). Only on the
   * allow list: the tab's origin is checked when it is sent. A page exception rejects with an
   * {@link AiteError} whose `detail.exception` holds its name, message and stack; code that
   * runs longer than `timeoutMs` rejects `timeout`. The function runs in the page, so it sees
   * nothing of the caller's scope: pass what it needs as `arg` (JSON).
   */
  async evaluate<T = unknown, A = unknown>(code: string | ((arg: A) => T | Promise<T>), arg?: A, options: { timeoutMs?: number } = {}): Promise<T> {
    options = checkOptionNames(options, EVALUATE_OPTIONS, 'evaluate');
    const request = evaluateRequest(code as string | ((arg: never) => unknown), arg, options.timeoutMs);
    const { value } = await this.#step('evaluate', undefined, options.timeoutMs, (step) => step.send(request));
    return value.value as T;
  }

  /**
   * The run's page as a short outline of roles, names, states and refs (`e12`), frames and
   * shadow roots included, at most `maxLines` lines (default 400). A ref names its element as
   * a target, `{ ref: 'e12' }`, until the page removes it or navigates.
   */
  async snapshot(options: { maxLines?: number; timeoutMs?: number } = {}): Promise<ResultOf<'snapshot'>> {
    options = checkOptionNames(options, SNAPSHOT_OPTIONS, 'snapshot');
    const { value } = await this.#step('snapshot', undefined, options.timeoutMs, (step) => step.send({ cmd: 'snapshot', ...options, firstRef: this.#nextRef }));
    this.#nextRef = Math.max(this.#nextRef, value.nextRef ?? 1);
    return resultOf<'snapshot'>(value);
  }

  /**
   * The picture of a failure that did not come from this session's own steps (those carry theirs
   * on the error): the page with what `failure` names outlined. Undefined when none can be taken.
   * @internal
   */
  async failurePicture(failure: FailureFacts): Promise<Uint8Array | undefined> {
    // A step's picture cut short by the test's deadline is this failure's, once it is done.
    const late = this.#latePicture;
    this.#latePicture = undefined;
    if (late) {
      const png = await late.png;
      if (png && isDeepStrictEqual(late.detail, failure.detail ?? {})) return png;
    }
    return this.#picture(this.#context('failure picture', undefined, undefined), failure);
  }

  /**
   * A fresh start for the next test in the same Chrome, in a fraction of a relaunch: the run's
   * other tabs closed, its tab on about:blank, cookies, storage and caches of the allowed origins
   * cleared (see {@link ResetOptions.storage}), console errors and dialogs (seen and armed)
   * emptied. Retries keep counting.
   * In attach mode only the run's other tabs are closed: the user's Chrome keeps its data.
   */
  async reset(options: ResetOptions = {}): Promise<void> {
    options = checkOptionNames(options, RESET_OPTIONS, 'reset');
    const step = this.#context('reset', undefined, undefined);
    // Live while it closes tabs: the run's tab it closes is not one that "closed itself".
    this.#live.add(step);
    try {
      await this.#reset(step, options);
    } finally {
      this.#live.delete(step);
    }
  }

  async #reset(step: StepContext, options: ResetOptions): Promise<void> {
    // The last test's picture is taken before its page goes.
    await this.#latePicture?.png;
    this.#latePicture = undefined;
    if (options.storage !== undefined && typeof options.storage !== 'boolean') {
      throw new AiteError('unsupported', `reset: storage is true or false; it was given ${describeValue(options.storage)}. Nothing was reset.`, { command: 'reset' });
    }
    const storage = options.storage ?? this.#parts.tempProfile ?? false;
    const current = this.#runTab.current;
    if (this.browser) {
      const keep = current === null ? undefined : await this.#runTab.page(step.send).catch(() => undefined);
      const kept = await resetPages(this.browser, keep, { origins: this.#parts.allow ?? [], storage, timeoutMs: Math.max(this.#parts.timeoutMs, 10_000) });
      this.#runTab.reset(keep !== undefined && kept === keep);
      this.#blankTab = this.#runTab.current === null;
    } else {
      for (const id of this.#runTab.known) if (id !== current) await step.send({ cmd: 'closeTab', tab: id }).catch(() => undefined);
      if (options.storage) step.warn({ code: 'reset', message: 'reset({ storage: true }) needs the debugging pipe; attach mode leaves the data of your Chrome as it is.' });
      this.#runTab.reset(true);
    }
    this.#records.clear();
    this.dialogs.clear();
  }

  /** Closes Chrome (when launched) and the bridge, deletes bridge.json and a temp profile. */
  close(): Promise<void> {
    // A call after close() says so, rather than that a bridge it never saw is closed.
    this.#gone ??= 'this session was closed (session.close()); start a new one with launch() or attach() to go on';
    this.#closing ??= (async () => {
      try {
        await this.#parts.lock?.save();
      } finally {
        this.bridge.useShortcut(undefined);
        await this.#parts.close();
        await this.#input.dispose();
      }
    })();
    return this.#closing;
  }

  // ------------------------------------------------------------------ internals

  #toggle(name: 'check' | 'uncheck', target: TargetInput, want: boolean, options: StepOptions): Promise<StepResult> {
    return this.#composed(name, target, options, async (step) => {
      const found = await this.#find(step, target, 'click');
      await this.#input.toggle(step, found, want, found.descriptor.xpath ? { xpath: found.descriptor.xpath, ...(found.descriptor.frame !== undefined ? { frame: found.descriptor.frame } : {}) } : toTarget(target));
    });
  }

  /**
   * A composed step. Its element re-rendered (replaced) before any input went out is resolved
   * again, counted as a resolve retry, until the step's timeout; after input, never.
   */
  #composed<N extends StepName>(name: N, target: TargetInput | undefined, options: unknown, body: (step: StepContext, how: StepHow<N>) => Promise<void>): Promise<StepResult> {
    let how: StepHow<N>;
    try {
      // Before anything is sent: an option aite does not take is refused, never ignored.
      how = parseStepOptions(STEP_OPTIONS[name] as unknown as z.ZodType<StepHow<N>>, options, name);
    } catch (error) {
      return Promise.reject(error);
    }
    const timeoutMs = (how as StepOptions).timeoutMs;
    const started = performance.now();
    const budgetMs = timeoutMs ?? this.#parts.timeoutMs;
    const deadline = started + budgetMs;
    return this.#step(name, target, timeoutMs, async (step) => {
      for (let again = 0; ; again++) {
        try {
          return await body(step, how);
        } catch (error) {
          if (!step.inputSent && unanswered(error)) throw noInputSent(name, error as AiteError);
          if (step.inputSent || !isReRendered(error)) throw error;
          if (performance.now() >= deadline) throw again === 0 ? error : reRenderedTooOften(name, error as AiteError, again, performance.now() - started);
          step.log.push(`the element was re-rendered before input was sent (${(error as AiteError).message.split('\n')[0]}); resolving it again`);
          this.#count(step, 'resolve', 1);
        }
      }
    }, budgetMs).then(({ result }) => result);
  }

  #context(name: string, target: TargetInput | undefined, timeoutMs: number | undefined, budgetMs?: number): StepContext {
    return new StepContext(
      name,
      target === undefined ? undefined : toTarget(target),
      timeoutMs,
      (step, request) => this.#request(step, request),
      (warning) => this.emit('warning', warning),
      { ...(budgetMs !== undefined ? { budgetMs } : {}), testDeadline: () => this.#testDeadline?.(), onInput: () => void (this.#inputAt.push(Date.now()) > INPUT_TIMES_MAX && this.#inputAt.shift()) },
    );
  }

  /**
   * The one step wrapper: every Session call runs through it with a context of its own. It
   * reports the step, and on failure gives the error the step's call log and the picture.
   */
  async #step<T>(
    name: string,
    target: TargetInput | undefined,
    timeoutMs: number | undefined,
    body: (step: StepContext) => Promise<T>,
    budgetMs?: number,
  ): Promise<{ value: T; result: StepResult }> {
    const step = this.#context(name, target, timeoutMs, budgetMs);
    this.#live.add(step);
    for (const warning of this.#carried.splice(0)) step.warn(warning);
    const mark = this.#records.startStep();
    try {
      const value = await body(step);
      const result = step.result();
      this.emit('step', { name, target: step.target, ok: true, retries: result.retries, durationMs: result.durationMs, warnings: step.warnings, repaired: result.repaired });
      return { value, result };
    } catch (caught) {
      const log = step.callLog();
      const error =
        caught instanceof AiteError
          ? caught
          : new AiteError('internal', `${name} failed: ${caught instanceof Error ? caught.message : String(caught)}`, { cause: caught, command: name });
      error.screenshot ??= await this.#stepPicture(step, error, log);
      // What the page did wrong during the step is often why it failed.
      const failedRequests = this.#records.failedSince(mark);
      if (failedRequests.length > 0 && error.detail.failedRequests === undefined) error.detail.failedRequests = failedRequests;
      const pageErrors = this.#records.errorsSince(mark).filter((e) => e.kind !== 'console-warning');
      if (pageErrors.length > 0 && error.detail.pageErrors === undefined) error.detail.pageErrors = pageErrors.slice(-20);
      const durationMs = step.durationMs();
      this.emit('step', { name, target: step.target, ok: false, reason: error.reason, retries: step.retries, durationMs, warnings: step.warnings, ...(error.screenshot ? { screenshot: error.screenshot } : {}) });
      throw error.withCallLog(log, step.retries);
    } finally {
      this.#live.delete(step);
    }
  }

  /**
   * The run's tab closed without a closeTab (the page called window.close(), or Chrome closed it)
   * and the run went on elsewhere: the steps running now say so, else the next one does, so a
   * check that then fails on the other page is not a mystery in the report.
   */
  #tabLeft(gone: { tab: number; url: string | undefined }, now: { tab: number | null; url: string | undefined }): void {
    if ([...this.#live].some((step) => step.name === 'closeTab' || step.name === 'reset') || this.#closing) return;
    const where = now.tab === null ? 'no tab is left to the run: the next navigate opens one' : `the run goes on in tab ${now.tab}${now.url ? ` (${redactUrl(now.url)})` : ''}, the one it came from`;
    const warning = { code: 'tab-closed', message: `The run's tab ${gone.tab}${gone.url ? ` (${redactUrl(gone.url)})` : ''} closed (the page closed itself, or Chrome closed it); ${where}.` };
    if (this.#live.size === 0) this.#carried.push(warning);
    for (const step of this.#live) step.warn(warning);
  }

  #onDialog(record: DialogRecord): void {
    this.#held.answered(record);
    for (const step of this.#live) {
      step.dialogs.push(record);
      step.log.push(`a ${record.type} dialog ("${record.message}") was ${record.accepted ? 'accepted' : 'dismissed'} by ${record.by === 'armed' ? 'dialogs.next()' : 'the dialogs policy'}`);
    }
    this.emit('dialog', record);
  }

  /**
   * A failed step's picture, unless taking it would let the runner's test timeout beat the error:
   * then the error goes without it and the runner's failure hook gets it from `failurePicture`.
   */
  async #stepPicture(step: StepContext, error: AiteError, log: string[]): Promise<Uint8Array | undefined> {
    const png = this.#picture(step, error).catch(() => undefined);
    const left = pictureTimeLeft(this.#testDeadline?.());
    if (left === undefined) return png;
    const late = Symbol('late');
    const first = await Promise.race([png, delay(left, late, { ref: false })]);
    if (first !== late) return first;
    log.push("  the failure picture was left to the test runner's failure hook: the test's timeout was near");
    this.#latePicture = { detail: error.detail, png };
    return undefined;
  }

  #picture(step: StepContext, failure: FailureFacts): Promise<Uint8Array | undefined> {
    if (!this.#input.pictures || this.#gone || this.#runTab.current === null) return Promise.resolve(undefined);
    // A page that did not take input (detail.page says why) or did not answer would not draw an outline or paint either.
    if (typeof failure.detail?.page === 'string' || failure.detail?.answered === false) return Promise.resolve(undefined);
    return failurePicture(step, this.#input, failure);
  }

  /** Sends one request of `step`: the run's tab and the default timeout filled in, logged and counted. */
  async #request<R extends RequestInput>(step: StepContext, request: R): Promise<AnswerOf<R['cmd']>> {
    if (this.#gone) {
      throw new AiteError('connection-lost', `${request.cmd} not sent: ${this.#gone}.`, { command: request.cmd });
    }
    const defaulted = this.#withDefaults(await this.#inBlankTab(request));
    // The step's own time and a test runner's timeout are deadlines too: the wait ends before
    // them (one look at the page at least), so aite's error wins.
    // A page command that takes no timeout of its own (guard, outline) is bounded so too: the
    // bridge waits for it no longer than for any other.
    const given = (defaulted as { timeoutMs?: number }).timeoutMs;
    const asked = given ?? (isPageCommand(request.cmd) ? this.#parts.timeoutMs : undefined);
    const left = asked === undefined ? undefined : step.timeLeft(asked);
    const timeoutMs = left === undefined || left.timeoutMs === asked ? asked : Math.max(MIN_WAIT_MS, left.timeoutMs);
    const cut = given === undefined ? undefined : left?.cut;
    const withDefaults = timeoutMs !== given ? ({ ...defaulted, timeoutMs } as R) : defaulted;
    const graceMs = timeoutMs === undefined ? undefined : graceBefore(timeoutMs, ANSWER_SLACK_MS, this.#testDeadline?.());
    // Attach mode's input goes as many small debugger calls (a key is two): like input over the
    // pipe they are not listed one by one.
    const quiet = request.cmd === 'debugger' && (request as RequestInput<'debugger'>).op === 'send';
    if (!quiet) step.log.push(`${request.cmd} ${summarise(withDefaults)}`);
    const dialogsBefore = this.dialogs.seen.length;
    const requestsBefore = this.#records.startMark();
    try {
      await this.#syncDialogs();
      const sent = performance.now();
      const answer = await this.#held.around(withDefaults, (signal) => this.bridge.request(withDefaults, { ...(graceMs === undefined ? {} : { graceMs }), ...(signal ? { signal } : {}) }));
      this.#count(step, request.cmd, answer.retries);
      // As in Playwright: a check that passes only after its timeout fails.
      const tookMs = performance.now() - sent;
      if (CHECKS.has(request.cmd) && timeoutMs !== undefined && tookMs > timeoutMs) throw passedLate(request.cmd, timeoutMs, tookMs);
      await this.#runTab.track(withDefaults, answer);
      if (request.cmd === 'navigate' || request.cmd === 'history') {
        const url = (answer as AnswerOf<'navigate'>).url;
        let status = this.#records.documentStatus(requestsBefore, url);
        // The answer comes over the bridge, the document's response over the pipe: on a busy
        // machine the answer can be read first. One round trip over the pipe brings in what
        // Chrome wrote on it before (a back/forward-cache restore has no response to bring).
        if (status === undefined && this.browser) {
          await withTimeout(this.browser.version(), PIPE_FLUSH_MS, 'the browser did not answer').catch(() => undefined);
          status = this.#records.documentStatus(requestsBefore, url);
        }
        if (status !== undefined) (answer as AnswerOf<'navigate'>).status = status;
        const { crashedLoads } = answer as AnswerOf<'navigate'>;
        if (crashedLoads) step.warn({ code: 'crashed', message: `The page's renderer crashed as ${redactUrl(url)} loaded, and Chrome showed its "Aw, Snap!" page: aite loaded the address again (counted as a retry).` });
      }
      return answer;
    } catch (error) {
      if (!(error instanceof AiteError)) throw error;
      this.#count(step, request.cmd, error.retries);
      this.#runTab.failed(request.cmd, error);
      // A timeout a dialog explains, or a load a dismissed beforeunload cancelled, says so.
      // `detail.dialogAdvice`: the words that say how to arm an answer, for a caller to put its own in their place.
      const cancelled = (error.detail as { cancelled?: unknown } | undefined)?.cancelled === true;
      const why = error.reason === 'timeout' || cancelled ? this.dialogs.explainSince(dialogsBefore) : undefined;
      const explained = why
        ? new AiteError(error.reason, `${error.message.split('\nCall log:\n')[0]} ${why.sentence}`, {
            detail: why.advice ? { ...error.detail, dialogAdvice: why.advice } : error.detail,
            command: error.command,
            retries: error.retries,
            callLog: error.callLog,
            cause: error,
          })
        : error;
      throw cut && TIMING_REASONS.has(error.reason) ? explainCut(explained, cut, timeoutMs!) : explained;
    }
  }

  /**
   * Makes every command end before the runner's timeout of the current test (the test-runner
   * entries call it; `undefined` ends it).
   * @internal
   */
  endBeforeTestTimeout(deadline: (() => TestDeadline | undefined) | undefined): void {
    this.#testDeadline = deadline;
  }

  /**
   * A launched Chrome starts with a blank tab of its own, and a reset that keeps the profile's
   * data leaves a new blank tab. The next navigate loads its page there instead of opening a
   * second tab beside it: a test lists only the tabs it opened, the first test of a file as every
   * test after a `reset()`.
   */
  async #inBlankTab<R extends RequestInput>(request: R): Promise<R> {
    if (!this.#blankTab || request.cmd !== 'navigate' || (request as RequestInput<'navigate'>).tab !== undefined) return request;
    this.#blankTab = false;
    const { tabs } = await this.bridge.request({ cmd: 'tabs' });
    const only = tabs.length === 1 ? tabs[0]! : undefined;
    return only?.url === 'about:blank' ? { ...request, tab: only.id } : request;
  }

  #withDefaults<R extends RequestInput>(input: R): R {
    const cmd: Command = input.cmd;
    const current = this.#runTab.current;
    // Page commands name the run's tab: a reloaded extension has forgotten it (FAULTS row 41).
    const request = isPageCommand(cmd) && current !== null ? ({ ...input, tab: (input as { tab?: number }).tab ?? current } as R) : input;
    const fallback = defaultTimeoutOf(cmd, this.#parts.timeoutMs);
    if (fallback === undefined) return request;
    return { ...request, timeoutMs: (request as { timeoutMs?: number }).timeoutMs ?? fallback } as R;
  }

  #count(step: StepContext, cmd: Command, retries: number | undefined): void {
    if (!retries) return;
    this.retries.total += retries;
    this.retries.byCommand[cmd] = (this.retries.byCommand[cmd] ?? 0) + retries;
    step.retries += retries;
    step.log.push(`  ${cmd} was re-sent ${retries} time(s)`);
    this.emit('retry', { cmd, retries });
  }

  /**
   * Attach mode's debugger: the extension answers dialogs itself, so it is given the policy and
   * the armed answers whenever they changed, before the next request (which may open one).
   */
  async #syncDialogs(): Promise<void> {
    // With the extension away the request itself waits for it; the answers go before the next one.
    if (this.#parts.browser || !this.#parts.debugger || !this.bridge.connected) return;
    const { changes, armed } = this.dialogs.armedAnswers;
    if (changes === this.#dialogsSynced) return;
    this.#dialogsSynced = changes;
    await this.bridge.request({ cmd: 'debugger', op: 'dialogs', policy: this.dialogs.policy, armed }).catch((error: unknown) => {
      // An extension too old for the command will not learn it by being asked again.
      if (!(error instanceof AiteError && error.reason === 'unsupported')) this.#dialogsSynced = -1;
    });
  }

  #onEvent(event: ExtensionEvent): void {
    if (event.kind === 'dialog') this.dialogs.answeredElsewhere(event);
    this.#pages?.onEvent(event);
    this.#runTab.onEvent(event);
    // Uncaught errors and rejections come from the extension's relay, which is there before the
    // page's first script; over the pipe, console lines and failed loads come from CDP (PageWatch).
    if (event.kind === 'console' && (!this.browser || event.error !== 'resource')) {
      this.#pageError({ kind: event.error ?? 'error', text: event.text, tab: event.tab, ...(this.#runTab.current === event.tab && this.#runTab.url ? { url: this.#runTab.url } : {}) });
    }
    this.emit('event', event);
  }

  #pageError(error: PageError): void {
    const kept = this.#records.addPageError(error);
    if (kept) this.emit('pageError', kept);
  }

  /**
   * Resolves a target with what the lock file remembers of it, and keeps the lock file up to date.
   * `guard`: the input that follows at once is guarded so (pipe input only), and the guard is
   * armed in the same round trip; only steps that always send input right after ask for it.
   * `verdictOn`: the trusted event that ends that input; over the pipe the guard reports what it
   * saw when that event arrives, one way, and the step needs no disarm round trip.
   */
  async #find(step: StepContext, input: TargetInput, prepare?: Prepare | 'upload', guard?: Extract<GuardMode, 'pointer' | 'input'>, verdictOn?: 'click' | 'input'): Promise<Found> {
    const target = toTarget(input);
    const { lock, page, remembered, record, checkExact } = this.#lockOf(target);
    // Only pipe input needs a point: plain-event acts make their own checks in the page. An upload
    // is readied by the input strategy, which reaches a hidden input too (see `hiddenFileInput`).
    const upload = prepare === 'upload';
    const prepares = this.#input.prepares && prepare !== undefined && prepare !== 'upload';
    const verdict = prepares && guard && verdictOn && this.#verdicts ? { token: this.#verdicts.token(), on: verdictOn } : undefined;
    // Not Locator.resolve: an armed guard is the step's to disarm, never a public caller's.
    const resolved = await step.send({
      cmd: 'resolve',
      target,
      descriptor: remembered,
      timeoutMs: step.timeoutMs,
      ...(prepares ? { prepare } : {}),
      ...(upload ? { hiddenFileInput: true } : {}),
      ...(prepares && guard ? { guard } : {}),
      ...(verdict ? { verdict } : {}),
      ...(record ? { record } : {}),
      ...(checkExact ? { checkExact } : {}),
    });
    // A repair that finds the element just as the lock file remembers it (no field changed) has
    // nothing to write or propose: the lock file already holds it. Proposing it again would never
    // converge (every run would offer the same repair); the step says the target is stale instead.
    const unchanged = resolved.via !== 'exact' && remembered !== undefined && resolved.repair?.changed.length === 0;
    if (lock && page) {
      if (resolved.via === 'exact') lock.recordExact(target, page, resolved.descriptor);
      else if (unchanged) {
        step.warn({
          code: 'lock',
          message: `The target ${JSON.stringify(target)} no longer matches anything; the lock file's entry found the element, unchanged since it was written. Update the target so it does not depend on the lock file.`,
        });
      } else lock.proposeRepair(target, page, resolved.descriptor, resolved.repair);
    }
    if (resolved.repaired && !unchanged) step.repairs.push(resolved);
    step.element ??= resolved.descriptor;
    return {
      descriptor: resolved.descriptor,
      resolved,
      ...(resolved.point ? { point: resolved.point } : {}),
      ...(guard && resolved.guard ? { armed: { mode: guard, state: resolved.guard, ...(verdict ? { verdict: verdict.token } : {}) } } : {}),
    };
  }

  /**
   * What the lock file remembers of a target on the run tab's page, and whether an element found
   * for it now would be written (then only the page's look at the rest of it is asked for).
   * `checkExact`: whether the element found must be the remembered one; not for a target that
   * picks by a state (`{ role: 'tab', selected: true }` names whichever tab is selected now),
   * whose memory serves only a repair (to an element in that state).
   */
  #lockOf(target: Target): { lock?: LockFile; page?: string; remembered?: Descriptor; record: boolean; checkExact: boolean } {
    // A snapshot's ref lives as long as its element: nothing to remember it by.
    const lock = target.ref === undefined ? this.#parts.lock : undefined;
    const page = this.#runTab.url;
    if (!lock || page === undefined) return { record: false, checkExact: false };
    const remembered = lock.get(target, page);
    return { lock, page, remembered, record: lock.willRecord(target, page), checkExact: remembered !== undefined && !namesByState(target) };
  }

  /**
   * A check of one element is held to the lock file as an act is: the element it finds must still
   * be the remembered one (else `drifted`), and a first find is remembered. A check never repairs.
   */
  async #verify(step: StepContext, request: RequestOf<'verify'>): Promise<AnswerOf<'verify'>> {
    if (!isOneElementCheck(request)) return step.send(request);
    const one = request;
    // Remembered under the target as a step names it: its region is part of it.
    const target = withinTarget(one.target, 'within' in one ? one.within : undefined);
    const { lock, page, remembered, record, checkExact } = this.#lockOf(target);
    const answer = await step.send({ ...one, ...(remembered ? { descriptor: remembered } : {}), ...(checkExact ? { checkExact } : {}), ...(record ? { record } : {}) });
    if (lock && page && answer.descriptor && !remembered) lock.recordExact(target, page, answer.descriptor);
    return answer;
  }
}

/**
 * A failure that says the element was replaced in the page (re-rendered), not that it is gone for
 * good. A ref's element that left the page is gone for good: the ref names that one element,
 * never the one the page drew in its place, so resolving the ref again can only fail again.
 */
function isReRendered(error: unknown): boolean {
  return error instanceof AiteError && error.reason === 'not-found' && error.detail.stale === 'removed' && error.detail.ref === undefined;
}

/**
 * A step whose element the page kept re-drawing until the step's time ran out: the last "removed
 * since resolve" alone would tell the user to resolve again, which the step did `times` times.
 */
function reRenderedTooOften(step: string, last: AiteError, times: number, waitedMs: number): AiteError {
  return new AiteError(
    'timeout',
    `${step} sent no input in ${Math.round(waitedMs)} ms: the page re-drew its element ${times + 1} times, each time between aite finding it and the input going out, and aite found it again ${times} times (counted as resolve retries). Nothing was sent. Look for what keeps re-drawing it (a timer, a mousemove or focus handler, a polling render), or give the step a longer timeoutMs if the page settles later.`,
    { detail: { ...last.detail, reRendered: times + 1 }, command: last.command ?? step, cause: last },
  );
}

/** The text a `type` or `fill` sends, or an `unsupported` error before anything is sent when it is not text. */
function textToSend(text: unknown, command: string): string {
  if (typeof text === 'string') return text;
  throw new AiteError('unsupported', `${command} needs the text to send as a string; it was given ${describeValue(text)}. Nothing was sent.`, { command });
}

// The options of screenshot, scroll, evaluate, snapshot and reset, by name: another is refused
// before anything is sent (a script without types passes Playwright's `timeout` or `clip` as
// readily as aite's names).
const SCREENSHOT_OPTIONS = optionNames<NonNullable<Parameters<Session['screenshot']>[0]>>()(['target', 'fullPage', 'path', 'timeoutMs', 'maxSide']);
const SCROLL_OPTIONS = optionNames<NonNullable<Parameters<Session['scroll']>[1]>>()(['deltaY', 'until', 'maxSteps', 'timeoutMs']);
const EVALUATE_OPTIONS = optionNames<NonNullable<Parameters<Session['evaluate']>[2]>>()(['timeoutMs']);
const SNAPSHOT_OPTIONS = optionNames<NonNullable<Parameters<Session['snapshot']>[0]>>()(['maxLines', 'timeoutMs']);
const RESET_OPTIONS = optionNames<ResetOptions>()(['storage']);

/** How long a scroll with `until` may take by default: a long list takes many steps. */
const SCROLL_UNTIL_TIMEOUT_MS = 15_000;
/** The most a navigate waits for the pipe to bring in its document's response (a busy Chrome answers a round trip in milliseconds). */
const PIPE_FLUSH_MS = 2_000;
/** A request the page never answered (the bridge's `detail.answered: false`). */
function unanswered(error: unknown): boolean {
  return error instanceof AiteError && error.reason === 'timeout' && error.detail.answered === false;
}

/** The page did not answer before the step's input: the message says none was sent. */
function noInputSent(step: string, error: AiteError): AiteError {
  const base = error.message.split('\nCall log:\n')[0];
  return new AiteError(error.reason, `${base} ${step} sent no input: nothing reached the page.`, {
    detail: { ...error.detail, dispatched: false },
    command: error.command,
    retries: error.retries,
    callLog: error.callLog,
    cause: error,
  });
}

/** A check whose answer came after its timeout: it fails, whatever it found. */
function passedLate(cmd: Command, timeoutMs: number, tookMs: number): AiteError {
  return new AiteError(
    'timeout',
    `${cmd} had no answer within its ${timeoutMs} ms: the page answered only after ${Math.round(tookMs)} ms, most likely because its main thread was busy (a long-running script), and a check that passes only after its timeout fails. Look for what holds the page; raise timeoutMs only if the page is meant to be busy that long.`,
    { command: cmd, detail: { answered: 'late', answeredAfterMs: Math.round(tookMs) } },
  );
}

/** A wheel step when the scroll names no `deltaY`: one notch of a mouse wheel. */
const WHEEL_DELTA_Y = 100;

function pointOf(value: unknown): { x: number; y: number } | undefined {
  const p = value as { x?: unknown; y?: unknown } | undefined;
  return typeof p?.x === 'number' && typeof p.y === 'number' ? { x: p.x, y: p.y } : undefined;
}

/** The target a request names, for its step's record. */
function isOneElementCheck(request: RequestOf<'verify'>): request is Extract<RequestOf<'verify'>, { kind: (typeof VERIFY_ONE_KINDS)[number] }> {
  return (VERIFY_ONE_KINDS as readonly string[]).includes(request.kind);
}

function targetOf(request: RequestInput): Target | undefined {
  const target = (request as { target?: unknown }).target;
  return target && typeof target === 'object' ? (target as Target) : undefined;
}

function summarise(request: object): string {
  const { cmd: _cmd, ...rest } = request as Record<string, unknown>;
  const text = JSON.stringify(rest, (key, value: unknown) => (key === 'descriptor' || key === 'to' ? '(element)' : value));
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

export type { Target };
