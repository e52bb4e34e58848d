import { wireTarget, type Command, type Descriptor, type Repair, type Target } from '../protocol/index.js';
import type { DialogRecord } from './pipe/Dialogs.js';
import type { Modifier } from './pipe/keys.js';

/**
 * A target as a script names it: a plain string is `{ text }`.
 *
 * @example
 * ```ts
 * import type { Session, TargetInput } from 'aite';
 *
 * declare const session: Session;
 * const targets: TargetInput[] = ['Send', { text: 'Send' }, { role: 'button', name: 'Send' }];
 * for (const target of targets) await session.verify.exists(target);
 * ```
 * @public
 */
export type TargetInput = string | Target;

/** @public */
export function toTarget(input: TargetInput): Target {
  return typeof input === 'string' ? { text: input } : wireTarget(input);
}

/**
 * Options every composed step takes.
 *
 * @example
 * ```ts
 * import type { Session, StepOptions } from 'aite';
 *
 * declare const session: Session;
 * const slowPage: StepOptions = { timeoutMs: 15_000 };
 * await session.click({ text: 'Send' }, slowPage);
 * ```
 * @public
 */
export interface StepOptions {
  /** How long the step may wait for its element; default the session's `timeoutMs`. */
  timeoutMs?: number;
}

/**
 * Something worth knowing that did not fail the step.
 *
 * @example
 * ```ts
 * import type { Session, Warning } from 'aite';
 *
 * declare const session: Session;
 * const step = await session.click({ text: 'Send' });
 * const warnings: Warning[] = step.warnings;
 * for (const w of warnings) console.warn(`${w.code}: ${w.message}`);
 * ```
 * @public
 */
export interface Warning {
  /** `screenshot`, `outline`, `lock`, ... */
  code: string;
  /** What happened, for a person. */
  message: string;
}

/**
 * What a composed step returns.
 *
 * @example
 * ```ts
 * import type { Session, StepResult } from 'aite';
 *
 * declare const session: Session;
 * const result: StepResult = await session.click({ text: 'Send' });
 * if (result.repaired) console.log('found by repair:', result.repair?.changes);
 * console.log(`${result.durationMs} ms, ${result.retries} re-send(s)`);
 * ```
 * @public
 */
export interface StepResult {
  /** Always true: a failed step throws an AiteError. */
  ok: true;
  /** Re-sends counted during this step (navigation and reconnect). */
  retries: number;
  /** True when the element was found by repair rather than by the exact target. */
  repaired?: boolean;
  /** How the element was repaired, when it was. */
  repair?: Repair;
  /** Things worth knowing that did not fail the step. */
  warnings: Warning[];
  /** How long the step took. */
  durationMs: number;
  /** The native dialogs that opened during the step, and how each was answered. */
  dialogs?: DialogRecord[];
  /**
   * Where the page went: the URL of the document the step's input navigated the run's tab to
   * (a link, a form's submit), once it committed; or, with {@link StepResult.sameDocument}, the
   * address a single-page app moved to without loading a document (`history.pushState`,
   * `replaceState`, a `#fragment`, the page's `history.back()`). Absent when the input started
   * no navigation, or moved the page back to the address it had.
   */
  navigated?: string;
  /** Where the page was before it went to {@link StepResult.navigated}: the run tab's address when the step began. */
  navigatedFrom?: string;
  /** True when {@link StepResult.navigated} is a move within the document: no page loaded, the same document shows the new address. */
  sameDocument?: true;
  /**
   * The element the step found and acted on (for a drag, the one dragged), as the page described
   * it then: its tag, role, name, text. Absent for a step that names no element.
   */
  element?: Descriptor;
}

/**
 * What `session.scroll()` returns: a step result, with the element `until` waited for.
 *
 * @example
 * ```ts
 * import type { ScrollResult, Session } from 'aite';
 *
 * declare const session: Session;
 * const result: ScrollResult = await session.scroll({ css: '.rows' }, { until: { text: 'Row 750', exact: true } });
 * console.log(result.descriptor?.text, result.scrolled);
 * ```
 * @public
 */
export interface ScrollResult extends StepResult {
  /** With `until`: the element that appeared (brought into view). */
  descriptor?: Descriptor;
  /** Pixels scrolled down (negative: up); to the right for a container that scrolls only sideways. */
  scrolled: number;
  /** Scroll steps taken (both ways, when the search {@link ScrollResult.turned | turned}). */
  steps: number;
  /**
   * With `until`: the search went to the end of the container without finding it and turned
   * back, searching the other way from where it began (the container had been scrolled partway).
   */
  turned?: true;
  /**
   * How it scrolled: `container`, the target's scroll box (or the page), by exactly `scrolled`
   * px; `wheel`, trusted wheel input over the target where nothing there can scroll (a page
   * that moves on wheel events itself, a carousel), `scrolled` then 0.
   */
  by: 'container' | 'wheel';
}

/**
 * Re-sends counted over the session, in total and by command.
 *
 * @example
 * ```ts
 * import type { RetryCounts, Session } from 'aite';
 *
 * declare const session: Session;
 * const counts: RetryCounts = session.retries;
 * console.log(`re-sent ${counts.total} time(s); resolve ${counts.byCommand.resolve ?? 0}`);
 * ```
 * @public
 */
export interface RetryCounts {
  /** Every re-send of the session. */
  total: number;
  /** Re-sends by command. */
  byCommand: Partial<Record<Command, number>>;
}

/**
 * One finished step, as the Session reports it.
 *
 * @example
 * ```ts
 * import type { Session, StepRecord } from 'aite';
 *
 * declare const session: Session;
 * const slow: StepRecord[] = [];
 * session.on('step', (record) => {
 *   if (record.durationMs > 2_000) slow.push(record);
 * });
 * ```
 * @public
 */
export interface StepRecord {
  /** The step: click, type, verify, ... */
  name: string;
  /** Its target, when it has one. */
  target?: Target;
  /** Whether it passed. */
  ok: boolean;
  /** Why it failed, when it did. */
  reason?: string;
  /** Re-sends counted during the step. */
  retries: number;
  /** How long it took. */
  durationMs: number;
  /** Things worth knowing that did not fail it. */
  warnings: Warning[];
  /** True when its element was found by repair. */
  repaired?: boolean;
  /** A failed step's picture, outlined (the PNG its error carries too), when one was taken. */
  screenshot?: Uint8Array;
}

/**
 * An error of a page of the run: an uncaught error or unhandled rejection (from the first line
 * of the page's load), a `console.error` or `console.warn`, or a resource that failed to load.
 *
 * @example
 * ```ts
 * import type { PageError, Session } from 'aite';
 *
 * declare const session: Session;
 * session.on('pageError', (e: PageError) => console.warn(`${e.kind}: ${e.text} on ${e.url}`));
 * const uncaught = session.consoleErrors.filter((e) => e.kind === 'error' || e.kind === 'rejection');
 * ```
 * @public
 */
export interface PageError {
  kind: 'error' | 'rejection' | 'console-error' | 'console-warning' | 'resource';
  /** The message (with its stack, when there is one), cut to 4,000 characters. */
  text: string;
  /** The page it happened on (its userinfo redacted). */
  url?: string;
  /** For console lines: the script and line that logged it. */
  source?: string;
  /** The extension's tab id, when the error came through the extension (attach mode). */
  tab?: number;
}

/**
 * One request of the run's pages, as `session.network` keeps it. Headers are never kept; a
 * URL's `user:password@` is redacted.
 *
 * @example
 * ```ts
 * import type { NetworkEntry, Session } from 'aite';
 *
 * declare const session: Session;
 * const failed: NetworkEntry[] = session.network.filter((r) => r.failed !== undefined || (r.status ?? 0) >= 400);
 * for (const r of failed) console.log(r.method, r.url, r.status ?? r.failed, `${r.ms} ms`);
 * ```
 * @public
 */
export interface NetworkEntry {
  url: string;
  method: string;
  /** The HTTP status; absent when no answer came. */
  status?: number;
  /** Chrome's resource type: document, script, stylesheet, image, fetch, xhr, ... */
  type: string;
  /** From the request to its end. */
  ms?: number;
  /** Why it failed without an answer (`net::ERR_CONNECTION_REFUSED`, ...). */
  failed?: string;
}

/**
 * Options of {@link Session.click}, as Playwright names them.
 *
 * @example
 * ```ts
 * import type { ClickOptions, Session } from 'aite';
 *
 * declare const session: Session;
 * const menu: ClickOptions = { button: 'right' };
 * await session.click('budget.xlsx', menu);
 * await session.click('Row 3', { modifiers: ['Shift'] });
 * await session.click({ role: 'img', name: 'Map' }, { position: { x: 10, y: 20 }, clickCount: 2 });
 * ```
 * @public
 */
export interface ClickOptions extends StepOptions {
  /** Default `left`. */
  button?: 'left' | 'right' | 'middle';
  /** Keys held during the click. */
  modifiers?: Modifier[];
  /** 2 for a double click; default 1. */
  clickCount?: number;
  /**
   * Where to click, in CSS pixels from the top-left corner of the element's padding box (inside
   * its border, as in Playwright); default its middle.
   */
  position?: { x: number; y: number };
  /**
   * Milliseconds to hold the button down between press and release, as Playwright's `delay`: a
   * long press ("hold to delete"). At most 10 000; default 0. The hit-target guard watches the
   * whole hold, and the input may take this long on top of what is left of the step's time.
   */
  delay?: number;
}

/**
 * Options of {@link Session.doubleClick}, as Playwright's `dblclick` names them.
 *
 * @example
 * ```ts
 * import type { DoubleClickOptions, Session } from 'aite';
 *
 * declare const session: Session;
 * const wordAt: DoubleClickOptions = { position: { x: 40, y: 8 } };
 * await session.doubleClick({ label: 'Note' }, wordAt);
 * ```
 * @public
 */
export interface DoubleClickOptions extends StepOptions {
  /** Default `left`. */
  button?: 'left' | 'right' | 'middle';
  /** Keys held during the double click. */
  modifiers?: Modifier[];
  /** Where to double-click, as {@link ClickOptions.position}; default the middle. */
  position?: { x: number; y: number };
}

/**
 * Options of {@link Session.hover}, as Playwright's `hover` names them.
 *
 * @example
 * ```ts
 * import type { HoverOptions, Session } from 'aite';
 *
 * declare const session: Session;
 * // The tooltip of the bar drawn 60 px from the chart's left edge.
 * const januaryBar: HoverOptions = { position: { x: 60, y: 150 } };
 * await session.hover({ role: 'img', name: 'Sales chart' }, januaryBar);
 * ```
 * @public
 */
export interface HoverOptions extends StepOptions {
  /** Keys held while the pointer moves there. */
  modifiers?: Modifier[];
  /** Where to rest the pointer, as {@link ClickOptions.position}; default the middle. */
  position?: { x: number; y: number };
}

/**
 * Options of {@link Session.drag}, as Playwright's `dragTo` names them: where the drag presses
 * the dragged element and where it lets go over the target, each in CSS pixels from the
 * top-left corner of the element's padding box; default their middles.
 *
 * @example
 * ```ts
 * import type { DragOptions, Session } from 'aite';
 *
 * declare const session: Session;
 * // A slider's handle to the far end of its track (300 px wide): the value goes to its maximum.
 * const end: DragOptions = { targetPosition: { x: 299, y: 5 } };
 * await session.drag({ role: 'slider' }, { css: '.track' }, end);
 * ```
 * @public
 */
export interface DragOptions extends StepOptions {
  /** Where to press the dragged element; default its middle. */
  sourcePosition?: { x: number; y: number };
  /** Where to let go over the target; default its middle. */
  targetPosition?: { x: number; y: number };
}
