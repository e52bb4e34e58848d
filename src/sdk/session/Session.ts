import { EventEmitter } from 'node:events';
import type { Browser, Page } from 'puppeteer-core';
import type TypedEmitter from 'typed-emitter';
import type { Bridge } from '../bridge/Bridge.js';
import { AiteError } from '../errors/AiteError.js';
import { PageFinder } from '../launch/PageFinder.js';
import { HitGuard, type GuardCheck, type GuardMode } from './HitGuard.js';
import { PipeAllowList } from './PipeAllowList.js';
import { wakeWorker } from '../launch/wakeWorker.js';
import type { LockFile } from '../lock/LockFile.js';
import type { AnswerOf, Command, Descriptor, ExtensionEvent, OutlineItem, Point, RequestInput, RequestOf, Target } from '../protocol/index.js';
import type { Send } from './Channel.js';
import { InputLedger } from './InputLedger.js';
import { Locator } from './Locator.js';
import { Tab } from './Tab.js';
import { toTarget, type RetryCounts, type StepRecord, type StepResult, type TargetInput, type Warning } from './types.js';
import { Verify } from './Verify.js';

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
  /** A composed step finished (passed or failed). */
  step: (record: StepRecord) => void;
  /** An answer carried re-sends; `retries` is how many. */
  retry: (info: { cmd: Command; retries: number }) => void;
  /** An event from the extension: tab opened/closed, navigated, console error. */
  event: (event: ExtensionEvent) => void;
  /** Something worth knowing that did not fail a step. */
  warning: (warning: Warning) => void;
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
  /** The run's allow list: what the runner itself does over the pipe is checked against it. */
  allow?: readonly string[];
  close: () => Promise<void>;
}

/** The one thing a step has found: the element now, how it was found, and where to act on it. */
interface Found {
  descriptor: Descriptor;
  resolved: AnswerOf<'resolve'>;
  point?: Point;
}

type Prepare = RequestOf<'resolve'>['prepare'];

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

  readonly #parts: SessionParts;
  readonly #pages: PageFinder | undefined;
  readonly #pipeAllow: PipeAllowList | undefined;
  readonly #hitGuard: HitGuard;
  readonly #tabUrls = new Map<number, string>();
  #currentTab: number | null = null;
  #gone: string | undefined;
  #closing: Promise<void> | undefined;
  #stepLog: string[] | undefined;

  /** @internal */
  constructor(parts: SessionParts) {
    super();
    this.#parts = parts;
    this.bridge = parts.bridge;
    this.browser = parts.browser;
    this.profile = parts.profile;
    this.#pages = parts.browser ? new PageFinder(parts.browser) : undefined;
    this.#pipeAllow = parts.browser && parts.allow ? new PipeAllowList(parts.allow) : undefined;
    const send = this.#send;
    this.tab = new Tab(send, () => this.#currentTab);
    this.locator = new Locator(send);
    this.verify = new Verify(send);
    this.#hitGuard = new HitGuard(send, () => this.#count('act', 1));
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

  /** Clicks the target with real mouse input (plain events in attach mode). */
  click(target: TargetInput, options: { timeoutMs?: number } = {}): Promise<StepResult> {
    return this.#step('click', target, async () => {
      const found = await this.#find(target, options.timeoutMs, 'click');
      await this.#pointer(found, 'click', (page, at) => page.mouse.click(at.x, at.y), options.timeoutMs);
    });
  }

  /** Double-clicks the target. */
  doubleClick(target: TargetInput, options: { timeoutMs?: number } = {}): Promise<StepResult> {
    return this.#step('doubleClick', target, async () => {
      const found = await this.#find(target, options.timeoutMs, 'click');
      await this.#pointer(found, 'doubleClick', (page, at) => page.mouse.click(at.x, at.y, { count: 2 }), options.timeoutMs);
    });
  }

  /** Moves the mouse over the target. */
  hover(target: TargetInput, options: { timeoutMs?: number } = {}): Promise<StepResult> {
    return this.#step('hover', target, async () => {
      const found = await this.#find(target, options.timeoutMs, 'click');
      await this.#pointer(found, 'hover', (page, at) => page.mouse.move(at.x, at.y), options.timeoutMs);
    });
  }

  /** Clicks the target to focus it, then types `text` key by key (appends to what is there). */
  type(target: TargetInput, text: string, options: { timeoutMs?: number } = {}): Promise<StepResult> {
    return this.#step('type', target, async () => {
      const found = await this.#find(target, options.timeoutMs, 'click');
      await this.#pointer(
        found,
        'type',
        async (page, at, check) => {
          await page.mouse.click(at.x, at.y);
          await HitGuard.typeChecked(text, (chunk) => page.keyboard.type(chunk), check);
        },
        options.timeoutMs,
        { text },
      );
    });
  }

  /**
   * Replaces the target's value with `text`: the field is focused with its text selected, then
   * `text` arrives as trusted text input (an empty `text` deletes the selection). Like other
   * tools' fill, it does not click the field first; use `type` for key-by-key typing.
   */
  fill(target: TargetInput, text: string, options: { timeoutMs?: number } = {}): Promise<StepResult> {
    return this.#step('fill', target, async () => {
      const found = await this.#find(target, options.timeoutMs, 'fill');
      if (!this.#pages) {
        await this.locator.act('fill', found.descriptor, { text, timeoutMs: options.timeoutMs });
        return;
      }
      await this.#pointer(
        found,
        'type',
        async (page) => {
          if (text) await page.keyboard.sendCharacter(text);
          else await page.keyboard.press('Delete');
        },
        options.timeoutMs,
        { text },
        'fill',
      );
    });
  }

  /** Presses a key (`Enter`, `Tab`, `ArrowDown`, `a`), in the target when one is named. */
  press(key: string, target?: TargetInput, options: { timeoutMs?: number } = {}): Promise<StepResult> {
    return this.#step('press', target, async () => {
      if (target === undefined) {
        if (this.#pages) return void (await (await this.#runPage()).keyboard.press(key as never));
        throw new AiteError('unsupported', 'press without a target needs the debugging pipe; name the element to press the key in.');
      }
      const found = await this.#find(target, options.timeoutMs, 'click');
      await this.#pointer(
        found,
        'press',
        async (page, at, check) => {
          await page.mouse.click(at.x, at.y);
          await check();
          await page.keyboard.press(key as never);
        },
        options.timeoutMs,
        { key },
      );
    });
  }

  /** Checks a checkbox or radio (does nothing when it already is), then verifies it. */
  check(target: TargetInput, options: { timeoutMs?: number } = {}): Promise<StepResult> {
    return this.#toggle('check', target, true, options.timeoutMs);
  }

  /** Unchecks a checkbox (does nothing when it already is), then verifies it. */
  uncheck(target: TargetInput, options: { timeoutMs?: number } = {}): Promise<StepResult> {
    return this.#toggle('uncheck', target, false, options.timeoutMs);
  }

  /** Picks an option of a `<select>` by its label or value. */
  select(target: TargetInput, option: string, options: { timeoutMs?: number } = {}): Promise<StepResult> {
    return this.#step('select', target, async () => {
      const found = await this.#find(target, options.timeoutMs);
      // A native select's popup is not part of the page; choosing through the DOM is what every tool does.
      await this.locator.act('select', found.descriptor, { option, timeoutMs: options.timeoutMs });
    });
  }

  /** Drags `from` onto `to` with real mouse input. */
  drag(from: TargetInput, to: TargetInput, options: { timeoutMs?: number } = {}): Promise<StepResult> {
    return this.#step('drag', from, async () => {
      const source = await this.#find(from, options.timeoutMs);
      const target = await this.#find(to, options.timeoutMs);
      if (!this.#pages) {
        await this.locator.act('drag', source.descriptor, { to: target.descriptor, timeoutMs: options.timeoutMs });
        return;
      }
      const a = await this.locator.locate(source.descriptor, { timeoutMs: options.timeoutMs });
      const page = await this.#runPage();
      await page.mouse.move(a.x, a.y);
      await page.mouse.down();
      const b = await this.locator.locate(target.descriptor, { timeoutMs: options.timeoutMs });
      await page.mouse.move(b.x, b.y, { steps: 8 });
      await page.mouse.up();
    });
  }

  /** Waits until the run's page has had no network request in flight for `idleMs` (default 500). */
  waitForNetworkIdle(options: { idleMs?: number; timeoutMs?: number } = {}): Promise<StepResult> {
    return this.#step('waitForNetworkIdle', undefined, async () => {
      if (!this.#pages) throw new AiteError('unsupported', 'waitForNetworkIdle needs the debugging pipe (not available in attach mode).');
      const timeout = options.timeoutMs ?? this.#parts.timeoutMs;
      await (await this.#runPage())
        .waitForNetworkIdle({ idleTime: options.idleMs ?? 500, timeout })
        .catch((error: unknown) => {
          if (error instanceof AiteError) throw error;
          throw new AiteError('timeout', `The network did not go idle within ${timeout} ms.`, { cause: error, command: 'wait' });
        });
    });
  }

  /**
   * A PNG of the run's tab, brought to the front first. Returns undefined, with a warning, when
   * no picture can be taken (attach mode, or the tab cannot be told apart from another).
   */
  async screenshot(): Promise<Uint8Array | undefined> {
    if (!this.#pages) {
      this.#warn({ code: 'screenshot', message: 'Screenshots need the debugging pipe; attach mode has none.' });
      return undefined;
    }
    try {
      const page = await this.#runPage();
      await page.bringToFront();
      return await page.screenshot({ type: 'png' });
    } catch (error) {
      this.#warn({ code: 'screenshot', message: `No screenshot: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` });
      return undefined;
    }
  }

  /** Closes Chrome (when launched) and the bridge, deletes bridge.json and a temp profile. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      try {
        await this.#parts.lock?.save();
      } finally {
        await this.#parts.close();
      }
    })();
    return this.#closing;
  }

  // ------------------------------------------------------------------ internals

  readonly #send: Send = async <R extends RequestInput>(request: R): Promise<AnswerOf<R['cmd']>> => {
    if (this.#gone) {
      throw new AiteError('connection-lost', `${request.cmd} not sent: ${this.#gone}.`, { command: request.cmd });
    }
    const withDefaults = this.#withDefaults(request);
    this.#stepLog?.push(`${request.cmd} ${summarise(withDefaults)}`);
    try {
      const answer = await this.bridge.request(withDefaults);
      this.#count(request.cmd, answer.retries);
      this.#track(request.cmd, answer);
      return answer;
    } catch (error) {
      if (error instanceof AiteError) this.#count(request.cmd, error.retries);
      throw error;
    }
  };

  #withDefaults<R extends RequestInput>(input: R): R {
    const cmd: Command = input.cmd;
    // Page commands name the run's tab: a reloaded extension has forgotten it (FAULTS row 41).
    const request = PAGE_COMMANDS.has(cmd) && this.#currentTab !== null ? ({ ...input, tab: (input as { tab?: number }).tab ?? this.#currentTab } as R) : input;
    if (cmd === 'tabs' || cmd === 'closeTab' || cmd === 'outline') return request;
    const fallback = cmd === 'navigate' ? Math.max(30_000, this.#parts.timeoutMs) : this.#parts.timeoutMs;
    return { ...request, timeoutMs: (request as { timeoutMs?: number }).timeoutMs ?? fallback } as R;
  }

  #count(cmd: Command, retries: number | undefined): void {
    if (!retries) return;
    this.retries.total += retries;
    this.retries.byCommand[cmd] = (this.retries.byCommand[cmd] ?? 0) + retries;
    this.#stepLog?.push(`  ${cmd} was re-sent ${retries} time(s)`);
    this.emit('retry', { cmd, retries });
  }

  #track(cmd: Command, answer: Record<string, unknown>): void {
    if (cmd === 'navigate' || cmd === 'switchTab') {
      this.#currentTab = answer.tab as number;
      this.#tabUrls.set(answer.tab as number, answer.url as string);
    } else if (cmd === 'closeTab') {
      this.#currentTab = (answer.tab as number | null) ?? null;
      this.#tabUrls.delete(answer.closed as number);
    }
  }

  #onEvent(event: ExtensionEvent): void {
    if (event.kind === 'navigated') this.#tabUrls.set(event.tab, event.url);
    if (event.kind === 'tab-closed') {
      this.#tabUrls.delete(event.tab);
      // The next navigate opens a new run tab instead of naming one that is gone.
      if (event.tab === this.#currentTab) this.#currentTab = null;
    }
    if (event.kind === 'console') this.consoleErrors.push({ tab: event.tab, text: event.text });
    this.emit('event', event);
  }

  #warn(warning: Warning): void {
    this.#stepWarnings?.push(warning);
    this.emit('warning', warning);
  }

  #stepWarnings: Warning[] | undefined;

  /** Resolves a target with what the lock file remembers of it, and keeps the lock file up to date. */
  async #find(input: TargetInput, timeoutMs?: number, prepare?: Prepare): Promise<Found> {
    const target = toTarget(input);
    const lock = this.#parts.lock;
    const page = this.#currentTab === null ? undefined : this.#tabUrls.get(this.#currentTab);
    const remembered = lock && page ? lock.get(target, page) : undefined;
    // Plain-event acts (no pipe) make their own checks in the page; only pipe input needs a point.
    // Only a descriptor that goes into the lock file needs the look at the rest of the page.
    const record = lock !== undefined && page !== undefined && lock.willRecord(target, page);
    const resolved = await this.locator.resolve(target, {
      descriptor: remembered,
      timeoutMs,
      prepare: this.#pages ? prepare : undefined,
      ...(record ? { record } : {}),
      ...(remembered ? { checkExact: true } : {}),
    });
    if (lock && page) {
      if (resolved.via === 'exact') lock.recordExact(target, page, resolved.descriptor);
      else lock.proposeRepair(target, page, resolved.descriptor, resolved.repair);
    }
    if (resolved.repaired && this.#stepRepair) this.#stepRepair.push(resolved);
    return { descriptor: resolved.descriptor, resolved, ...(resolved.point ? { point: resolved.point } : {}) };
  }

  #stepRepair: Array<AnswerOf<'resolve'>> | undefined;

  /** Real input at the located point over the pipe; one plain-event `act` without it. */
  async #pointer(
    found: Found,
    action: 'click' | 'doubleClick' | 'hover' | 'type' | 'press',
    input: (page: Page, at: Point, check: GuardCheck) => Promise<void>,
    timeoutMs: number | undefined,
    extra: { text?: string; key?: string } = {},
    guardAs: 'fill' | undefined = undefined,
  ): Promise<void> {
    if (!this.#pages) {
      await this.locator.act(action, found.descriptor, { ...extra, timeoutMs });
      return;
    }
    const at = found.point ?? (await this.locator.locate(found.descriptor, { timeoutMs }));
    const page = await this.#runPage();
    const ledger = new InputLedger(page);
    const mode: GuardMode = action === 'type' || action === 'press' ? 'input' : 'pointer';
    try {
      await this.#hitGuard.around(
        found.descriptor,
        mode,
        guardAs ?? action,
        at,
        (point, check) => input(ledger.page, point, check),
        () => this.locator.locate(found.descriptor, { timeoutMs }),
        { focused: guardAs === 'fill' },
      );
    } catch (error) {
      const pipeGone = error instanceof Error && /Target closed|Session closed|detached|Connection closed/i.test(error.message);
      // A click that closes its own tab (window.close) never gets its acknowledgement: it landed.
      if (pipeGone && page.isClosed() && page.browser().connected) return;
      // Never re-sent; the runner knows what it sent over the pipe (see InputLedger).
      if (pipeGone) {
        throw new AiteError('connection-lost', `${action} got no acknowledgement: the debugging pipe closed (${error.message.split('\n')[0]}); it is not sent again.`, {
          cause: error,
          command: action,
          detail: { dispatched: ledger.dispatched },
        });
      }
      throw error;
    }
  }

  async #toggle(name: 'check' | 'uncheck', target: TargetInput, want: boolean, timeoutMs?: number): Promise<StepResult> {
    return this.#step(name, target, async () => {
      const found = await this.#find(target, timeoutMs, 'click');
      if (!this.#pages) {
        await this.locator.act(name, found.descriptor, { timeoutMs });
        return;
      }
      const at = found.point ?? (await this.locator.locate(found.descriptor, { timeoutMs }));
      if (at.kind === undefined) {
        throw new AiteError('unsupported', `${name} needs a checkbox or radio; the target is a <${at.tag}>.`, { command: name });
      }
      if (at.checked !== want) {
        const page = await this.#runPage();
        await this.#hitGuard.around(found.descriptor, 'pointer', name, at, (point) => page.mouse.click(point.x, point.y), () =>
          this.locator.locate(found.descriptor, { timeoutMs }),
        );
      }
      await this.verify.state(found.descriptor.xpath ? { xpath: found.descriptor.xpath } : toTarget(target), want ? 'checked' : 'unchecked', { timeoutMs });
    });
  }

  /** The run's tab over the pipe; every input, picture and wait through it is checked against the allow list. */
  async #runPage(): Promise<Page> {
    const page = await this.#findRunPage();
    return this.#pipeAllow ? this.#pipeAllow.guard(page) : page;
  }

  async #findRunPage(): Promise<Page> {
    const pages = this.#pages;
    const tabId = this.#currentTab;
    if (!pages) throw new AiteError('unsupported', 'This session has no debugging pipe (attach mode).');
    if (tabId === null) throw new AiteError('tab-closed', 'There is no run tab yet: navigate first.');
    const cached = pages.cached(tabId, this.#tabUrls.get(tabId));
    if (cached) return cached;
    const info = (await this.tab.list()).find((tab) => tab.id === tabId);
    if (!info) throw new AiteError('tab-closed', `The run's tab ${tabId} is closed.`);
    this.#tabUrls.set(tabId, info.url);
    const page = await pages.find(info);
    if ('refused' in page) throw new AiteError('internal', `Cannot reach the run's tab over the debugging pipe: ${page.refused}.`);
    return page;
  }

  async #step(name: string, target: TargetInput | undefined, body: () => Promise<void>): Promise<StepResult> {
    const started = performance.now();
    const retriesBefore = this.retries.total;
    const warnings: Warning[] = [];
    const log: string[] = [];
    const repairs: Array<AnswerOf<'resolve'>> = [];
    this.#stepWarnings = warnings;
    this.#stepLog = log;
    this.#stepRepair = repairs;
    const resolvedTarget = target === undefined ? undefined : toTarget(target);
    try {
      await body();
      const result: StepResult = {
        ok: true,
        retries: this.retries.total - retriesBefore,
        warnings,
        durationMs: Math.round(performance.now() - started),
        ...(repairs.length > 0 ? { repaired: true, repair: repairs[0]!.repair } : {}),
      };
      this.emit('step', { name, target: resolvedTarget, ok: true, retries: result.retries, durationMs: result.durationMs, warnings, repaired: result.repaired });
      return result;
    } catch (caught) {
      this.#stepLog = undefined;
      const error =
        caught instanceof AiteError
          ? caught
          : new AiteError('internal', `${name} failed: ${caught instanceof Error ? caught.message : String(caught)}`, { cause: caught, command: name });
      error.screenshot = await this.#failureScreenshot(error);
      const retries = this.retries.total - retriesBefore;
      const durationMs = Math.round(performance.now() - started);
      this.emit('step', { name, target: resolvedTarget, ok: false, reason: error.reason, retries, durationMs, warnings, ...(error.screenshot ? { screenshot: error.screenshot } : {}) });
      const failed = error.withCallLog([`${name}${resolvedTarget ? ` ${JSON.stringify(resolvedTarget)}` : ''}`, ...log.map((l) => `  ${l}`)]);
      throw failed;
    } finally {
      this.#stepWarnings = undefined;
      this.#stepLog = undefined;
      this.#stepRepair = undefined;
    }
  }

  /** Outlines what the failure is about, takes the picture, and clears the boxes again. */
  async #failureScreenshot(error: AiteError): Promise<Uint8Array | undefined> {
    if (!this.#pages || this.#gone || this.#currentTab === null) return undefined;
    const items = outlineItems(error);
    let drawn = false;
    if (items.length > 0) {
      try {
        await this.locator.outline(items);
        drawn = true;
      } catch (e) {
        this.#warn({ code: 'outline', message: `Could not draw the outline: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}` });
      }
    }
    const png = await this.screenshot();
    if (drawn) {
      try {
        const cleared = await this.locator.clearOutline();
        if (cleared.remaining) this.#warn({ code: 'outline', message: `${cleared.remaining} outline box(es) remained on the page.` });
      } catch (e) {
        this.#warn({ code: 'outline', message: `Could not clear the outline: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}` });
      }
    }
    return png;
  }
}

const PAGE_COMMANDS: ReadonlySet<Command> = new Set<Command>(['resolve', 'locate', 'read', 'verify', 'wait', 'act', 'outline', 'guard']);

function outlineItems(error: AiteError): OutlineItem[] {
  const detail = error.detail as {
    candidates?: Array<{ descriptor?: Descriptor; score?: number }>;
    candidate?: Descriptor;
    score?: number;
    element?: Descriptor;
    coveredBy?: { xpath?: string };
  };
  const items: OutlineItem[] = [];
  if (detail.candidate?.xpath) items.push({ xpath: detail.candidate.xpath, tone: 'candidate', label: `possible match ${detail.score ?? ''}`.trim() });
  for (const [i, c] of (detail.candidates ?? []).entries()) {
    if (c.descriptor?.xpath) items.push({ xpath: c.descriptor.xpath, tone: 'candidate', label: `match ${i + 1}${c.score ? ` (${c.score})` : ''}` });
  }
  if (detail.element?.xpath) items.push({ xpath: detail.element.xpath, tone: 'wanted', label: error.reason });
  if (detail.coveredBy?.xpath) items.push({ xpath: detail.coveredBy.xpath, tone: 'cover', label: 'covering element' });
  return items.slice(0, 10);
}

function summarise(request: object): string {
  const { cmd: _cmd, ...rest } = request as Record<string, unknown>;
  const text = JSON.stringify(rest, (key, value: unknown) => (key === 'descriptor' || key === 'to' ? '(element)' : value));
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

export type { Target };
