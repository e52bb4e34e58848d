import type { AnswerOf, Descriptor, RequestInput, Target } from '../protocol/index.js';
import { withoutHandle } from '../protocol/descriptor.js';
import { asResults, type Send } from './Channel.js';
import { Locator } from './Locator.js';
import type { DialogRecord } from './pipe/Dialogs.js';
import { cutToDeadline, type TestDeadline } from './TestDeadline.js';
import type { StepResult, Warning } from './types.js';
import { Verify } from './Verify.js';

/** How long a step may take, beyond each request's own `timeoutMs`. */
export interface StepLimits {
  /**
   * The step's whole time (its `timeoutMs`, else the session's) when its requests and its input
   * share it: each gets what the ones before left. Undefined: each request keeps its own.
   */
  budgetMs?: number;
  /** The test runner's deadline of the current test: every wait ends a margin before it. */
  testDeadline?: () => TestDeadline | undefined;
  /** Told once, as the step's input is about to go out. */
  onInput?: () => void;
}

/**
 * What one Session call gathers while it runs: its call log, warnings, repairs and re-sends.
 * Each call gets its own, so calls that overlap never write into each other's record. Requests
 * made through `send`, `locator` and `verify` are logged here and are not steps of their own.
 */
export class StepContext {
  readonly #started = performance.now();
  readonly #onWarning: (warning: Warning) => void;
  /** What was sent, in order, and every re-send. */
  readonly log: string[] = [];
  readonly warnings: Warning[] = [];
  /** Elements found by repair during the step. */
  readonly repairs: Array<AnswerOf<'resolve'>> = [];
  /** Re-sends counted during the step. */
  retries = 0;
  /** Native dialogs answered while the step ran. */
  readonly dialogs: DialogRecord[] = [];
  #inputSent = false;
  /**
   * Whether input went out over the pipe: from then on the step never resolves its element
   * again (an action is never sent twice).
   */
  get inputSent(): boolean {
    return this.#inputSent;
  }
  set inputSent(sent: boolean) {
    if (sent && !this.#inputSent) this.limits.onInput?.();
    this.#inputSent = sent;
  }
  /** The URL the step's input navigated the run's tab to, once that document committed (or the document moved there). */
  navigated: string | undefined;
  /** The address the run's tab showed before the input that navigated it. */
  navigatedFrom: string | undefined;
  /** Whether that navigation stayed within the document (a single-page app's route change). */
  sameDocument = false;
  /** The element the step found first (for a drag, the one dragged). */
  element: Descriptor | undefined;
  /** Sends one request as part of this step. */
  readonly send: Send;
  readonly locator: Locator;
  readonly verify: Verify;

  constructor(
    /** The step: `click`, `verify`, `navigate`, ... */
    readonly name: string,
    readonly target: Target | undefined,
    /** The step's own `timeoutMs`, when it was given one. */
    readonly timeoutMs: number | undefined,
    send: (step: StepContext, request: RequestInput) => Promise<unknown>,
    onWarning: (warning: Warning) => void,
    readonly limits: StepLimits = {},
  ) {
    this.#onWarning = onWarning;
    this.send = ((request: RequestInput) => send(this, request)) as Send;
    this.locator = new Locator(asResults(this.send));
    this.verify = new Verify(asResults(this.send));
  }

  /**
   * What a wait that asks `wantedMs` may take now: no more than the step's budget has left, and
   * cut to end before the test's deadline (`cut` says from what). Zero or less: the step's time is up.
   */
  timeLeft(wantedMs: number): { timeoutMs: number; cut?: { from: number; deadline: TestDeadline } } {
    // A timeout that is no whole positive number goes as it is: the request's schema names what is wrong with it.
    if (!isTimeout(wantedMs)) return { timeoutMs: wantedMs };
    const { budgetMs } = this.limits;
    const own = !isTimeout(budgetMs) ? wantedMs : Math.min(wantedMs, Math.floor(this.#started + budgetMs - performance.now()));
    return own <= 0 ? { timeoutMs: own } : cutToDeadline(own, this.limits.testDeadline?.());
  }

  warn(warning: Warning): void {
    this.warnings.push(warning);
    this.#onWarning(warning);
  }

  /** The step's call log as an error carries it: the step and its target, then what it sent. */
  callLog(): string[] {
    return [`${this.name}${this.target ? ` ${JSON.stringify(this.target)}` : ''}`, ...this.log.map((line) => `  ${line}`)];
  }

  result(): StepResult {
    return {
      ok: true,
      retries: this.retries,
      warnings: this.warnings,
      durationMs: this.durationMs(),
      ...(this.repairs.length > 0 ? { repaired: true, repair: this.repairs[0]!.repair } : {}),
      ...(this.dialogs.length > 0 ? { dialogs: [...this.dialogs] } : {}),
      ...(this.navigated !== undefined ? { navigated: this.navigated } : {}),
      ...(this.navigated !== undefined && this.navigatedFrom !== undefined ? { navigatedFrom: this.navigatedFrom } : {}),
      ...(this.navigated !== undefined && this.sameDocument ? { sameDocument: true as const } : {}),
      ...(this.element ? { element: withoutHandle(this.element) } : {}),
    };
  }

  durationMs(): number {
    return Math.round(performance.now() - this.#started);
  }
}

function isTimeout(ms: number | undefined): ms is number {
  return Number.isInteger(ms) && ms! > 0;
}
