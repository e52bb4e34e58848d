import type { AnswerOf, Descriptor, RequestInput, Target } from '../protocol/index.js';
import { withoutHandle } from '../protocol/descriptor.js';
import { asResults, type Send } from './Channel.js';
import { Locator } from './Locator.js';
import type { DialogRecord } from './pipe/Dialogs.js';
import type { StepResult, Warning } from './types.js';
import { Verify } from './Verify.js';

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
  /**
   * Whether input went out over the pipe: from then on the step never resolves its element
   * again (an action is never sent twice).
   */
  inputSent = false;
  /** The URL the step's input navigated the run's tab to, once that document committed. */
  navigated: string | undefined;
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
  ) {
    this.#onWarning = onWarning;
    this.send = ((request: RequestInput) => send(this, request)) as Send;
    this.locator = new Locator(asResults(this.send));
    this.verify = new Verify(asResults(this.send));
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
      ...(this.element ? { element: withoutHandle(this.element) } : {}),
    };
  }

  durationMs(): number {
    return Math.round(performance.now() - this.#started);
  }
}
