import { EventEmitter } from 'node:events';
import type { Browser } from 'puppeteer-core';
import type TypedEmitter from 'typed-emitter';
import type { Bridge } from '../bridge/Bridge.js';
import { AiteError } from '../errors/AiteError.js';
import { wakeWorker } from '../launch/wakeWorker.js';
import type { LockFile } from '../lock/LockFile.js';
import { defaultTimeoutOf, isPageCommand, type AnswerOf, type Command, type ExtensionEvent, type RequestInput, type Target } from '../protocol/index.js';
import { AttachInput } from './AttachInput.js';
import type { Send } from './Channel.js';
import { failurePicture, type FailureFacts } from './failurePicture.js';
import type { Found, Input, Prepare } from './Input.js';
import { Locator } from './Locator.js';
import { PipeInput } from './PipeInput.js';
import { RunTab } from './RunTab.js';
import { StepContext } from './StepContext.js';
import { Tab } from './Tab.js';
import { toTarget, type ClickOptions, type RetryCounts, type StepOptions, type StepRecord, type StepResult, type TargetInput, type Warning } from './types.js';
import { Verify } from './Verify.js';
import { resetPages, type ResetOptions } from './reset.js';
import { Dialogs, type DialogPolicy, type DialogRecord } from './pipe/Dialogs.js';
import type { Download } from './pipe/Downloads.js';
import { checkFiles } from './pipe/Files.js';
import { parseChord, parseModifiers } from './pipe/keys.js';

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
  /** The run's allowed origins (what reset clears). Default none. */
  allow?: readonly string[];
  /** Whether the profile is the temp one launch() made (reset clears its storage by default). Default false. */
  tempProfile?: boolean;
  /** What to do with a dialog nobody armed an answer for; default dismiss. */
  dialogs?: DialogPolicy;
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
export class Session extends (EventEmitter as new () => TypedEmitter<SessionEvents>) {
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
  /** Console errors the pages of this run reported. */
  readonly consoleErrors: Array<{ tab: number; text: string }> = [];
  /** Native dialogs (alert, confirm, prompt, beforeunload): arm the next answer, see what was answered. */
  readonly dialogs: Dialogs;

  readonly #parts: SessionParts;
  readonly #runTab: RunTab;
  readonly #input: Input;
  /** The calls running now: a dialog answered meanwhile belongs to each of them. */
  readonly #live = new Set<StepContext>();
  #gone: string | undefined;
  #closing: Promise<void> | undefined;

  /** @internal */
  constructor(parts: SessionParts) {
    super();
    this.#parts = parts;
    this.bridge = parts.bridge;
    this.browser = parts.browser;
    this.profile = parts.profile;
    this.#runTab = new RunTab(parts.browser);
    this.dialogs = new Dialogs(parts.browser, parts.dialogs ?? 'dismiss', {
      pipe: parts.browser !== undefined,
      tabOf: (url) => this.#runTab.tabOf(url),
      answered: (record) => this.#onDialog(record),
    });
    this.#input = parts.browser ? new PipeInput(this.#runTab, parts.browser, { dialogs: this.dialogs, timeoutMs: parts.timeoutMs }) : new AttachInput();
    // Each request of tab, locator and verify is a step of its own.
    const send = (<R extends RequestInput>(request: R) =>
      this.#step(request.cmd, targetOf(request), undefined, (step) => step.send(request)).then(({ value }) => value)) as Send;
    this.tab = new Tab(send, () => this.#runTab.current);
    this.locator = new Locator(send);
    this.verify = new Verify(send);
    this.bridge.on('event', (event) => this.#onEvent(event));
    const browser = parts.browser;
    if (browser) {
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

  /** The lock file, when the session was launched with `lockFile`. */
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
   * `modifiers`, a `clickCount` and a `position` from the element's top-left corner.
   */
  click(target: TargetInput, options: ClickOptions = {}): Promise<StepResult> {
    return this.#composed('click', target, options, async (step) => {
      const modifiers = parseModifiers(options.modifiers, 'click');
      const how = { ...(options.button ? { button: options.button } : {}), modifiers, ...(options.clickCount ? { clickCount: options.clickCount } : {}), ...(options.position ? { position: options.position } : {}) };
      await this.#input.pointer(step, await this.#find(step, target, 'click'), 'click', how);
    });
  }

  /** Double-clicks the target. */
  doubleClick(target: TargetInput, options: StepOptions = {}): Promise<StepResult> {
    return this.#composed('doubleClick', target, options, async (step) => this.#input.pointer(step, await this.#find(step, target, 'click'), 'doubleClick'));
  }

  /** Moves the mouse over the target. */
  hover(target: TargetInput, options: StepOptions = {}): Promise<StepResult> {
    return this.#composed('hover', target, options, async (step) => this.#input.pointer(step, await this.#find(step, target, 'click'), 'hover'));
  }

  /** Clicks the target to focus it, then types `text` key by key (appends to what is there). */
  type(target: TargetInput, text: string, options: StepOptions = {}): Promise<StepResult> {
    return this.#composed('type', target, options, async (step) => this.#input.type(step, await this.#find(step, target, 'click'), text));
  }

  /**
   * Replaces the target's value with `text`: the field is focused with its text selected, then
   * `text` arrives as trusted text input (an empty `text` deletes the selection). Like other
   * tools' fill, it does not click the field first; use `type` for key-by-key typing.
   */
  fill(target: TargetInput, text: string, options: StepOptions = {}): Promise<StepResult> {
    return this.#composed('fill', target, options, async (step) => this.#input.fill(step, await this.#find(step, target, 'fill'), text));
  }

  /**
   * Presses a key or a chord (`Enter`, `a`, `Control+A`, `Shift+Tab`, `Meta+Enter`). A named
   * target is focused first, without clicking it. A key name the pipe cannot send is an
   * `unsupported` error before anything is sent.
   */
  press(key: string, target?: TargetInput, options: StepOptions = {}): Promise<StepResult> {
    return this.#composed('press', target, options, async (step) => {
      const chord = parseChord(key);
      await this.#input.press(step, key, target === undefined ? undefined : await this.#find(step, target, 'focus'), chord);
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

  /** Picks an option of a `<select>` by its label or value. */
  select(target: TargetInput, option: string, options: StepOptions = {}): Promise<StepResult> {
    return this.#composed('select', target, options, async (step) => {
      const found = await this.#find(step, target);
      // A native select's popup is not part of the page; choosing through the DOM is what every tool does.
      await step.locator.act('select', found.descriptor, { option, timeoutMs: step.timeoutMs });
    });
  }

  /** Drags `from` onto `to` with real mouse input. */
  drag(from: TargetInput, to: TargetInput, options: StepOptions = {}): Promise<StepResult> {
    return this.#composed('drag', from, options, async (step) => this.#input.drag(step, await this.#find(step, from), await this.#find(step, to)));
  }

  /**
   * Puts files into a file input: the input, its label, or a control that opens a file chooser
   * when clicked (the chooser is intercepted and answered). `[]` clears the input. The page gets
   * its `input` and `change` events. Relative paths are relative to the working directory.
   */
  upload(target: TargetInput, files: string | string[], options: StepOptions = {}): Promise<StepResult> {
    return this.#composed('upload', target, options, async (step) => {
      const paths = await checkFiles(files);
      // Hidden inputs are the usual case: no `prepare`, the input strategy decides how to reach it.
      await this.#input.upload(step, await this.#find(step, target), paths);
    });
  }

  /**
   * Clicks the target and waits for the download the click starts; answers where the file is,
   * its name and size. Without `saveAs` the file is in a folder of the session's that `close()`
   * removes.
   */
  async download(target: TargetInput, options: StepOptions & { saveAs?: string } = {}): Promise<StepResult & Download> {
    const { value, result } = await this.#step('download', target, options.timeoutMs, async (step) =>
      this.#input.download(step, await this.#find(step, target, 'click'), options.saveAs),
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
   * A PNG of the run's tab, brought to the front first. Returns undefined, with a warning, when
   * no picture can be taken (attach mode, or the tab cannot be told apart from another).
   */
  async screenshot(): Promise<Uint8Array | undefined> {
    return (await this.#step('screenshot', undefined, undefined, (step) => this.#input.screenshot(step))).value;
  }

  /**
   * The picture of a failure that did not come from this session's own steps (those carry theirs
   * on the error): the page with what `failure` names outlined. Undefined when none can be taken.
   * @internal
   */
  failurePicture(failure: FailureFacts): Promise<Uint8Array | undefined> {
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
    const step = this.#context('reset', undefined, undefined);
    const storage = options.storage ?? this.#parts.tempProfile ?? false;
    const current = this.#runTab.current;
    if (this.browser) {
      const keep = current === null ? undefined : await this.#runTab.page(step.send).catch(() => undefined);
      const kept = await resetPages(this.browser, keep, { origins: this.#parts.allow ?? [], storage, timeoutMs: Math.max(this.#parts.timeoutMs, 10_000) });
      this.#runTab.reset(keep !== undefined && kept === keep);
    } else {
      for (const id of this.#runTab.known) if (id !== current) await step.send({ cmd: 'closeTab', tab: id }).catch(() => undefined);
      if (options.storage) step.warn({ code: 'reset', message: 'reset({ storage: true }) needs the debugging pipe; attach mode leaves the data of your Chrome as it is.' });
      this.#runTab.reset(true);
    }
    this.consoleErrors.length = 0;
    this.dialogs.clear();
  }

  /** Closes Chrome (when launched) and the bridge, deletes bridge.json and a temp profile. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      try {
        await this.#parts.lock?.save();
      } finally {
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
  #composed(name: string, target: TargetInput | undefined, options: StepOptions, body: (step: StepContext) => Promise<void>): Promise<StepResult> {
    const deadline = performance.now() + (options.timeoutMs ?? this.#parts.timeoutMs);
    return this.#step(name, target, options.timeoutMs, async (step) => {
      for (;;) {
        try {
          return await body(step);
        } catch (error) {
          if (step.inputSent || !isReRendered(error) || performance.now() >= deadline) throw error;
          step.log.push(`the element was re-rendered before input was sent (${(error as AiteError).message.split('\n')[0]}); resolving it again`);
          this.#count(step, 'resolve', 1);
        }
      }
    }).then(({ result }) => result);
  }

  #context(name: string, target: TargetInput | undefined, timeoutMs: number | undefined): StepContext {
    return new StepContext(
      name,
      target === undefined ? undefined : toTarget(target),
      timeoutMs,
      (step, request) => this.#request(step, request),
      (warning) => this.emit('warning', warning),
    );
  }

  /**
   * The one step wrapper: every Session call runs through it with a context of its own. It
   * reports the step, and on failure gives the error the step's call log and the picture.
   */
  async #step<T>(name: string, target: TargetInput | undefined, timeoutMs: number | undefined, body: (step: StepContext) => Promise<T>): Promise<{ value: T; result: StepResult }> {
    const step = this.#context(name, target, timeoutMs);
    this.#live.add(step);
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
      error.screenshot ??= await this.#picture(step, error);
      const durationMs = step.durationMs();
      this.emit('step', { name, target: step.target, ok: false, reason: error.reason, retries: step.retries, durationMs, warnings: step.warnings, ...(error.screenshot ? { screenshot: error.screenshot } : {}) });
      throw error.withCallLog(log);
    } finally {
      this.#live.delete(step);
    }
  }

  #onDialog(record: DialogRecord): void {
    for (const step of this.#live) {
      step.dialogs.push(record);
      step.log.push(`a ${record.type} dialog ("${record.message}") was ${record.accepted ? 'accepted' : 'dismissed'} by ${record.by === 'armed' ? 'dialogs.next()' : 'the dialogs policy'}`);
    }
    this.emit('dialog', record);
  }

  #picture(step: StepContext, failure: FailureFacts): Promise<Uint8Array | undefined> {
    if (!this.browser || this.#gone || this.#runTab.current === null) return Promise.resolve(undefined);
    // Input the page did not take (detail.page says why): it would not draw an outline or paint either.
    if (typeof failure.detail?.page === 'string') return Promise.resolve(undefined);
    return failurePicture(step, this.#input, failure);
  }

  /** Sends one request of `step`: the run's tab and the default timeout filled in, logged and counted. */
  async #request<R extends RequestInput>(step: StepContext, request: R): Promise<AnswerOf<R['cmd']>> {
    if (this.#gone) {
      throw new AiteError('connection-lost', `${request.cmd} not sent: ${this.#gone}.`, { command: request.cmd });
    }
    const withDefaults = this.#withDefaults(request);
    step.log.push(`${request.cmd} ${summarise(withDefaults)}`);
    const dialogsBefore = this.dialogs.seen.length;
    try {
      const answer = await this.bridge.request(withDefaults);
      this.#count(step, request.cmd, answer.retries);
      this.#runTab.track(request.cmd, answer);
      return answer;
    } catch (error) {
      if (!(error instanceof AiteError)) throw error;
      this.#count(step, request.cmd, error.retries);
      // A timeout a dialog explains (a dismissed beforeunload kept the page) says so.
      const dialogs = error.reason === 'timeout' ? this.dialogs.explainSince(dialogsBefore) : undefined;
      if (!dialogs) throw error;
      throw new AiteError(error.reason, `${error.message.split('\nCall log:\n')[0]} ${dialogs}`, { detail: error.detail, command: error.command, retries: error.retries, callLog: error.callLog, cause: error });
    }
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

  #onEvent(event: ExtensionEvent): void {
    this.#runTab.onEvent(event);
    if (event.kind === 'console') this.consoleErrors.push({ tab: event.tab, text: event.text });
    this.emit('event', event);
  }

  /** Resolves a target with what the lock file remembers of it, and keeps the lock file up to date. */
  async #find(step: StepContext, input: TargetInput, prepare?: Prepare): Promise<Found> {
    const target = toTarget(input);
    const lock = this.#parts.lock;
    const page = this.#runTab.url;
    const remembered = lock && page ? lock.get(target, page) : undefined;
    // Only pipe input needs a point: plain-event acts make their own checks in the page.
    // Only a descriptor that goes into the lock file needs the look at the rest of the page.
    const record = lock !== undefined && page !== undefined && lock.willRecord(target, page);
    const resolved = await step.locator.resolve(target, {
      descriptor: remembered,
      timeoutMs: step.timeoutMs,
      prepare: this.#input.prepares ? prepare : undefined,
      ...(record ? { record } : {}),
      ...(remembered ? { checkExact: true } : {}),
    });
    if (lock && page) {
      if (resolved.via === 'exact') lock.recordExact(target, page, resolved.descriptor);
      else lock.proposeRepair(target, page, resolved.descriptor, resolved.repair);
    }
    if (resolved.repaired) step.repairs.push(resolved);
    return { descriptor: resolved.descriptor, resolved, ...(resolved.point ? { point: resolved.point } : {}) };
  }
}

/** A failure that says the element was replaced in the page (re-rendered), not that it is gone for good. */
function isReRendered(error: unknown): boolean {
  return error instanceof AiteError && error.reason === 'not-found' && error.detail.stale === 'removed';
}

/** The target a request names, for its step's record. */
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
