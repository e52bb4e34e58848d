import type { ResultOf, Descriptor, OutlineItem, RequestOf } from '../protocol/index.js';
import { checkOptionNames, optionNames, withOptions } from '../errors/parseOptions.js';
import type { ResultSend } from './Channel.js';
import { toTarget, type TargetInput } from './types.js';

/**
 * Finding and reading elements in the run's tab. Each method sends one protocol request.
 *
 * @example
 * ```ts
 * import type { Session } from 'aite';
 *
 * declare const session: Session;
 * // One protocol command per call, no composition: the building blocks of session.click and friends.
 * const { descriptor, via } = await session.locator.resolve({ text: 'Send' });
 * const box = await session.locator.locate(descriptor);
 * const { text } = await session.locator.read({ css: '#balance' });
 * await session.locator.act('click', descriptor);
 * console.log(via, box.rect, text);
 * ```
 * @public
 */
export class Locator {
  /** @internal */
  constructor(private readonly send: ResultSend) {}

  /**
   * Finds exactly one element; with `descriptor`, repairs a drifted target or refuses. With
   * `prepare`, also gets it ready for a click (what `locate` checks) or for filling (focused,
   * text selected) and answers `point`: one round trip instead of two. With `record`, the answer's
   * descriptor also says what repair needs from the rest of the page (`twins`, `twinPlaces`, `twinIndex`, `peers`): ask for
   * it when the descriptor goes into a lock file. With `checkExact` (and `descriptor`), an element
   * the exact target finds that no longer looks like the remembered one is refused as `drifted`.
   */
  resolve(
    target: TargetInput,
    options: { descriptor?: Descriptor; timeoutMs?: number; prepare?: RequestOf<'resolve'>['prepare']; record?: boolean; checkExact?: boolean } = {},
  ): Promise<ResultOf<'resolve'>> {
    return withOptions('locator.resolve', options, RESOLVE, (o) =>
      this.send({ cmd: 'resolve', target: toTarget(target), descriptor: o.descriptor, timeoutMs: o.timeoutMs, prepare: o.prepare, record: o.record, checkExact: o.checkExact }),
    );
  }

  /**
   * Scrolls the element into view (unless it is wholly in the window) and answers where to click,
   * once it is visible, enabled and on top; `scrolled` says whether the page moved.
   */
  locate(descriptor: Descriptor, options: { timeoutMs?: number } = {}): Promise<ResultOf<'locate'>> {
    return withOptions('locator.locate', options, TIMEOUT, (o) => this.send({ cmd: 'locate', descriptor, timeoutMs: o.timeoutMs }));
  }

  /** The element's visible text (or a control's value). */
  read(target: TargetInput, options: { timeoutMs?: number } = {}): Promise<ResultOf<'read'>> {
    return withOptions('locator.read', options, TIMEOUT, (o) => this.send({ cmd: 'read', target: toTarget(target), timeoutMs: o.timeoutMs }));
  }

  /** An action as plain DOM events in the page (attach mode, or `select`). */
  act(
    action: RequestOf<'act'>['action'],
    descriptor: Descriptor,
    options: Pick<RequestOf<'act'>, 'text' | 'key' | 'option' | 'to' | 'timeoutMs'> = {},
  ): Promise<ResultOf<'act'>> {
    return withOptions('locator.act', options, ACT, (o) => this.send({ cmd: 'act', action, descriptor, ...o }));
  }

  /** Waits until the target is visible or gone, its text changes, or the url contains a string. */
  wait(
    kind: RequestOf<'wait'>['kind'],
    options: { target?: TargetInput; contains?: string; timeoutMs?: number } = {},
  ): Promise<ResultOf<'wait'>> {
    return withOptions('locator.wait', options, WAIT, (o) =>
      this.send({ cmd: 'wait', kind, target: o.target === undefined ? undefined : toTarget(o.target), contains: o.contains, timeoutMs: o.timeoutMs }),
    );
  }

  /** Draws labelled boxes around elements (for a screenshot). */
  outline(items: OutlineItem[]): Promise<ResultOf<'outline'>> {
    // Each box's fields are checked as a call's options are: another tool's (`color`) is refused.
    try {
      if (Array.isArray(items)) for (const item of items) checkOptionNames(item, OUTLINE_ITEM, 'locator.outline');
    } catch (error) {
      return Promise.reject(error);
    }
    return this.send({ cmd: 'outline', items });
  }

  /** Removes the boxes; answers how many were removed and how many remain. */
  clearOutline(): Promise<ResultOf<'outline'>> {
    return this.send({ cmd: 'outline', clear: true });
  }
}

// The options each call takes, by name: another is refused before anything is sent (a script
// without types passes Playwright's `timeout` as readily as aite's `timeoutMs`).
const RESOLVE = optionNames<NonNullable<Parameters<Locator['resolve']>[1]>>()(['descriptor', 'timeoutMs', 'prepare', 'record', 'checkExact']);
const TIMEOUT = optionNames<{ timeoutMs?: number }>()(['timeoutMs']);
const ACT = optionNames<NonNullable<Parameters<Locator['act']>[2]>>()(['text', 'key', 'option', 'to', 'timeoutMs']);
const OUTLINE_ITEM = optionNames<OutlineItem>()(['xpath', 'label', 'tone']);
const WAIT = optionNames<NonNullable<Parameters<Locator['wait']>[1]>>()(['target', 'contains', 'timeoutMs']);
