import { AiteError } from '../errors/AiteError.js';
import { redactUrl, type Point, type Target } from '../protocol/index.js';
import { HitGuard, type GuardCheck, type GuardMode, type GuardOptions, type VerdictSource } from './HitGuard.js';
import type { DragHow, Found, PointerHow } from './Input.js';
import type { Devices } from './InputLedger.js';
import type { Download, Downloads } from './pipe/Downloads.js';
import { travel, type DragSurface } from './pipe/drag.js';
import { InputNavigation, type NavigationSource } from './pipe/InputNavigation.js';
import { holding, pressChord, typeText, type Chord } from './pipe/keys.js';
import type { StepContext } from './StepContext.js';

/** How long a press into a frame waits for a move to reach its element (see TrustedInput#aim). */
const AIM_MS = 2_000;

/**
 * Input that starts no navigation of its own, as Playwright's fill, hover and drag assume too: it
 * is not watched for one, so it pays no round trip to the page after its acknowledgement.
 */
const NO_NAVIGATION = new Set(['fill', 'hover', 'scroll', 'drag', 'upload']);
/** The release events of a drag the hit-target guard may stop; not an HTML5 drag's drop, which ends the drag by itself. */
const POINTER_RELEASES = new Set(['pointerup', 'mouseup']);

/**
 * Trusted mouse and keyboard input, whatever carries it (the debugging pipe in launch mode, the
 * extension's `chrome.debugger` in attach mode): the extension says where the element is, the
 * runner's mouse and keyboard act there with the hit-target guard armed, and what was sent is
 * never sent twice. A strategy says how input reaches the page ({@link TrustedInput.dispatch}).
 */
export abstract class TrustedInput<D extends Devices> {
  readonly prepares: boolean = true;

  constructor(
    /**
     * `countRetry` counts a click the hit-target guard stopped and sends again; `verdicts` is
     * where the guard's one-way verdicts arrive, when they can; `address` is the run tab's address
     * now; `landed` tells the run where input took its tab, and throws `navigation` when that is
     * outside the allow list (see RunTab.landed).
     */
    protected readonly session: {
      timeoutMs: number;
      countRetry: (step: StepContext) => void;
      verdicts?: VerdictSource;
      address: () => string | undefined;
      landed: (url: string, action: string) => void;
    },
  ) {}

  /**
   * Sends input once, within the step's deadline, through the strategy's devices; marks the step
   * as having sent input (it is never resolved again after).
   */
  protected abstract dispatch(step: StepContext, action: string, input: (devices: D) => Promise<void>, timeoutMs?: number): Promise<void>;

  /** What a drag or a wheel travels through in this strategy (see {@link travel}). */
  protected abstract surface(step: StepContext, devices: D): DragSurface;

  /** Where the run's tab's navigations are heard now; undefined when they cannot be. */
  protected abstract navigationSource(step: StepContext): Promise<NavigationSource | undefined>;

  async pointer(step: StepContext, found: Found, action: 'click' | 'doubleClick' | 'hover', how?: PointerHow): Promise<void> {
    const point = await this.point(step, found);
    const offElement = how?.position && !onElement(how.position, point);
    const holdMs = how?.delay ?? 0;
    return this.guarded(
      step,
      found,
      action,
      'pointer',
      point,
      async (d, at, check) => {
        const { x, y } = how?.position ? pointAt(at, how.position) : at;
        const keys = how?.modifiers ?? [];
        if (action === 'hover') return holding(d.keyboard, keys, () => d.mouse.move(x, y));
        if (found.descriptor.frame !== undefined && !how?.position) await this.#aim(step, d, at, check);
        const count = action === 'doubleClick' ? 2 : (how?.clickCount ?? 1);
        return holding(d.keyboard, keys, () => d.mouse.click(x, y, { button: how?.button ?? 'left', count, ...(holdMs > 0 ? { delay: holdMs } : {}) }));
      },
      // A position may aim past the element on purpose: then its press is not the element's.
      // The guard stays armed through a hold, and the input gets the hold's time on top of the step's.
      { presses: action !== 'hover' && !how?.position, ...(holdMs > 0 ? { holdMs } : {}) },
    ).catch((error: unknown) => {
      // What the guard stopped there was not moved there by the page: the position aimed off the element.
      if (offElement && error instanceof AiteError && error.detail.coveredBy !== undefined) throw positionMissed(error, how.position!, point, found, action);
      throw error;
    });
  }

  /** Clicks the element and waits for the download the click starts (the wait armed before the click). */
  protected async clickToDownload(step: StepContext, found: Found, saveAs: string | undefined, downloads: Downloads): Promise<Download> {
    const waiting = await downloads.next({ timeoutMs: this.timeout(step), saidMs: this.stepTimeout(step), saveAs, what: `Clicking the <${found.descriptor.tag}>` });
    try {
      await this.pointer(step, found, 'click');
    } catch (error) {
      waiting.cancel();
      throw error;
    }
    return waiting.done;
  }

  type(step: StepContext, found: Found, text: string): Promise<void> {
    return this.at(step, found, 'type', 'input', async (d, at, check) => {
      // A field that has the focus is typed into where its caret or selection is (after
      // Control+A, over what is selected), as Playwright's pressSequentially does: a click
      // would move them. Otherwise it is clicked first, as a person does.
      if (!at.focused) await d.mouse.click(at.x, at.y);
      await HitGuard.typeChecked(text, (chunk) => typeText(d.keyboard, chunk), check);
    });
  }

  async fill(step: StepContext, found: Found, text: string): Promise<void> {
    // A slider, date or colour input takes no typed text: its value is set in the page, once.
    if (found.point?.setsValue) {
      await step.locator.act('fill', found.descriptor, { text, timeoutMs: step.timeoutMs });
      return;
    }
    // resolve focused the field: it must still have the focus when the guard is armed.
    return this.at(
      step,
      found,
      'fill',
      'input',
      async (d) => {
        if (text) await d.keyboard.sendCharacter(text);
        else await d.keyboard.press('Delete');
      },
      { focused: true },
    );
  }

  async press(step: StepContext, _key: string, found: Found | undefined, chord: Chord): Promise<void> {
    if (!found) return this.dispatch(step, 'press', (d) => pressChord(d.keyboard, chord));
    // A named element was focused by `resolve` (prepare: focus); it is not clicked, and must
    // still have the focus when the keys go.
    await this.guarded(step, found, 'press', 'input', await this.point(step, found), (d) => pressChord(d.keyboard, chord), { focused: true });
  }

  async drag(step: StepContext, from: Found, to: Found, how: DragHow = {}): Promise<void> {
    // Both points first, neither end scrolled while it is in the window: where a person aims,
    // before the page reacts to the press. Where bringing the source into view moved the target
    // (the two do not fit in the window together), the target is found again once the drag is
    // held, scrolling the page under it as a person's drag does (Playwright's dragTo the same).
    const at = async (found: Found, position: { x: number; y: number } | undefined): Promise<Point> => {
      const point = await step.locator.locate(found.descriptor, { timeoutMs: step.timeoutMs });
      return position ? { ...point, ...pointAt(point, position) } : point;
    };
    const locate = async (): Promise<{ a: Point; b: Point | (() => Promise<Point>) }> => {
      const b = await at(to, how.targetPosition);
      const a = await at(from, how.sourcePosition);
      return { a, b: a.scrolled ? () => at(to, how.targetPosition) : b };
    };
    let points = await locate();
    // The press must reach the source and the release the target (see HitGuard).
    try {
      await this.guarded(step, from, 'drag', 'drag', points.a, (d, a) => travel(this.surface(step, d), a, points.b), {
        to: to.descriptor,
        relocate: async () => (points = await locate()).a,
      });
    } catch (error) {
      if (!(error instanceof AiteError) || !POINTER_RELEASES.has(error.detail.event as string)) throw error;
      // The page saw the press and the moves and not the release: as far as it knows, the drag
      // goes on, and every later step meets it. Escape ends a drag in the drag libraries that
      // take the keyboard (an HTML5 drag ends with its stopped drop).
      await this.dispatch(step, 'drag', (d) => d.keyboard.press('Escape')).catch(() => undefined);
      throw new AiteError(error.reason, `${error.message} aite then pressed Escape, which ends a drag the page began in most drag libraries.`, {
        command: error.command,
        detail: { ...error.detail, escaped: true },
        retries: error.retries,
        callLog: error.callLog,
        cause: error,
      });
    }
  }

  async wheel(step: StepContext, at: { x: number; y: number }, deltaY: number): Promise<boolean> {
    await this.dispatch(step, 'scroll', async (d) => {
      await d.mouse.move(at.x, at.y);
      await d.mouse.wheel({ deltaY });
      // What the page does with it (a carousel's next slide) is drawn before anyone looks.
      await this.surface(step, d).nextFrame();
    });
    return true;
  }

  /** Runs `command` and waits for the navigation it starts in the run's tab (see Input.navigating). */
  async navigating(step: StepContext, action: string, command: () => Promise<void>): Promise<void> {
    const navigation = new InputNavigation(await this.navigationSource(step), this.session.address());
    try {
      await command();
    } catch (error) {
      navigation.stop();
      throw error;
    }
    await this.afterNavigation(step, action, navigation);
  }

  /** The watch for the navigation `action`'s input may start, heard from before it goes; none for input that starts none. */
  protected async watchNavigation(step: StepContext, action: string): Promise<InputNavigation | undefined> {
    return NO_NAVIGATION.has(action) ? undefined : new InputNavigation(await this.navigationSource(step), this.session.address());
  }

  /**
   * The next step must talk to the document the input navigated to, not the one it left: a
   * navigation the input started in the tab's top frame is waited for until it commits, within
   * what is left of the step's timeout. The input was delivered, so a navigation still on its
   * way then is a warning, never a re-send; one that committed outside the allow list fails the
   * step as `navigation`. A single-page app's route change the input made (the history API, a
   * `#fragment`) is a navigation within the document: it has committed when the step hears it,
   * and is said the same way.
   */
  protected async afterNavigation(step: StepContext, action: string, navigation: InputNavigation): Promise<void> {
    const end = await navigation.settled(this.timeout(step));
    if (end === 'none') return;
    const url = redactUrl(navigation.url ?? '');
    const within = navigation.sameDocument ? ' within the document' : '';
    step.log.push(`  ${action} started a navigation${within} to ${url}: ${end === 'pending' ? 'not committed yet' : end}`);
    if (end === 'committed') {
      const to = navigation.committedUrl ?? navigation.url ?? '';
      step.navigated = redactUrl(to);
      if (navigation.from !== undefined) step.navigatedFrom = redactUrl(navigation.from);
      step.sameDocument = navigation.sameDocument;
      this.session.landed(to, action);
    }
    if (end === 'pending') {
      step.warn({ code: 'navigation', message: `${action} started a navigation to ${url} that had not committed within the step's ${this.stepTimeout(step)} ms; the step goes on without it (the input was delivered and is not sent again).` });
    }
  }

  async toggle(step: StepContext, found: Found, want: boolean, check: Target): Promise<void> {
    const at = await this.point(step, found);
    if (at.kind === undefined) {
      throw new AiteError('unsupported', `${step.name} needs a checkbox or radio; the target is a <${at.tag}>.`, { command: step.name });
    }
    const clicked = at.checked !== want;
    if (clicked) await this.guarded(step, found, step.name, 'pointer', at, (d, point) => d.mouse.click(point.x, point.y), { presses: true });
    await step.verify.state(check, want ? 'checked' : 'unchecked', { timeoutMs: step.timeoutMs }).catch((error: unknown) => {
      if (clicked && error instanceof AiteError && error.reason === 'not-found') throw leftAfterClick(step.name, found, want, error);
      throw error;
    });
  }

  /**
   * Input into a frame goes where the browser last drew that frame, which lags its place on a busy
   * page: the pointer moves to the point (a pixel either way) until a move reaches the element, as
   * the guard sees, so the press goes where that move went. Bounded: after {@link AIM_MS} the
   * press goes anyway and the guard judges where it landed.
   */
  async #aim(step: StepContext, d: D, at: Point, check: GuardCheck): Promise<void> {
    const until = Date.now() + Math.min(AIM_MS, this.timeout(step));
    for (let i = 0; ; i++) {
      await d.mouse.move(at.x + (i % 2), at.y);
      const state = await check();
      if (!state || state.hovered || state.intercepted || Date.now() > until) return;
      await this.surface(step, d).nextFrame();
    }
  }

  /** Where to act on the element: the point `resolve` answered, else a `locate`. */
  protected async point(step: StepContext, found: Found): Promise<Point> {
    return found.point ?? (await step.locator.locate(found.descriptor, { timeoutMs: step.timeoutMs }));
  }

  /** The step's whole time, as a message names it (its waits end when it is up, whatever they were armed with). */
  protected stepTimeout(step: StepContext): number {
    return step.timeoutMs ?? this.session.timeoutMs;
  }

  /** What is left of the step's time (see StepContext.timeLeft); at least 1 ms: 0 would mean none to puppeteer. */
  protected timeout(step: StepContext): number {
    return Math.max(1, step.timeLeft(step.timeoutMs ?? this.session.timeoutMs).timeoutMs);
  }

  /** The time the step's input may take; a step whose time is already up sends none. */
  protected inputTimeout(step: StepContext, action: string): number {
    const budgetMs = step.timeoutMs ?? this.session.timeoutMs;
    if (!Number.isInteger(budgetMs) || budgetMs <= 0) {
      throw new AiteError('unsupported', `${action}: timeoutMs must be a whole number of milliseconds more than 0, got ${JSON.stringify(budgetMs)}. Nothing was sent.`, { command: action });
    }
    const { timeoutMs } = step.timeLeft(budgetMs);
    if (timeoutMs > 0) return timeoutMs;
    throw new AiteError('timeout', `${action} sent no input: the step's ${budgetMs} ms were used up before it (finding the element and getting it ready took them). Nothing reached the page.`, {
      command: action,
      detail: { dispatched: false },
    });
  }

  protected async at(
    step: StepContext,
    found: Found,
    action: string,
    mode: GuardMode,
    input: (devices: D, at: Point, check: GuardCheck) => Promise<void>,
    options: GuardedOptions = {},
  ): Promise<void> {
    await this.guarded(step, found, action, mode, await this.point(step, found), input, options);
  }

  /** Input at `at` with the hit-target guard armed on the element (see {@link HitGuard}). */
  protected async guarded(
    step: StepContext,
    found: Found,
    action: string,
    mode: GuardMode,
    at: Point,
    input: (devices: D, at: Point, check: GuardCheck) => Promise<void>,
    { relocate, holdMs, ...options }: GuardedOptions = {},
  ): Promise<void> {
    const guard = new HitGuard(step.send, () => this.session.countRetry(step), this.session.verdicts);
    try {
      await guard.around(
        found.descriptor,
        mode,
        action,
        at,
        (point, check) => this.dispatch(step, action, (d) => input(d, point, check), holdMs ? this.inputTimeout(step, action) + holdMs : undefined),
        relocate ?? (() => step.locator.locate(found.descriptor, { timeoutMs: step.timeoutMs })),
        // The first try uses the guard the step's resolve armed, when it did.
        { ...options, ...(found.armed ? { armed: found.armed } : {}) },
      );
    } catch (error) {
      // The element is only located again after the guard stopped the input before the page saw
      // any of it; found re-rendered then, the step may resolve it again as if nothing was sent.
      if (error instanceof AiteError && error.reason === 'not-found' && error.detail.stale === 'removed') step.inputSent = false;
      throw error;
    }
  }
}

/** How a guarded input goes: {@link GuardOptions}, and how the element is found again for the second try. */
export interface GuardedOptions extends GuardOptions {
  relocate?: () => Promise<Point>;
  /** How long the input holds a button down: the input may take that much longer than what is left of the step. */
  holdMs?: number;
}

/** An error's first line, for a warning or a message. */
export function firstLine(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}

/** The page point of `position`, measured from the padding box's top-left corner (see ClickOptions), in the element's own CSS pixels. */
function pointAt(at: Point, position: { x: number; y: number }): { x: number; y: number } {
  const { x: sx, y: sy } = scaleOf(at);
  return { x: at.rect.x + ((at.border?.left ?? 0) + position.x) * sx, y: at.rect.y + ((at.border?.top ?? 0) + position.y) * sy };
}

/** Whether a click's `position` (from the padding box's top-left corner) falls inside the element's border box. */
function onElement(position: { x: number; y: number }, at: Point): boolean {
  const left = at.border?.left ?? 0;
  const top = at.border?.top ?? 0;
  const { x: sx, y: sy } = scaleOf(at);
  return position.x >= -left && position.x <= at.rect.width / sx - left && position.y >= -top && position.y <= at.rect.height / sy - top;
}

/** How many page pixels one of the element's own CSS pixels takes (not 1 in a scaled frame, see Point's `layout`). */
function scaleOf(at: Point): { x: number; y: number } {
  const w = at.layout?.width ?? 0;
  const h = at.layout?.height ?? 0;
  return { x: w > 0 && at.rect.width > 0 ? at.rect.width / w : 1, y: h > 0 && at.rect.height > 0 ? at.rect.height / h : 1 };
}

/**
 * The click reached the checkbox, and the page then took it out before its state could be read
 * (a to-do app's "Active" view drops an item once it is checked): said as that, not as an
 * element that was never found.
 */
function leftAfterClick(action: string, found: Found, want: boolean, cause: AiteError): AiteError {
  const name = found.descriptor.name ?? found.descriptor.label ?? found.descriptor.text;
  const what = `the <${found.descriptor.tag}>${name ? ` "${name.slice(0, 60)}"` : ''}`;
  return new AiteError(
    'not-found',
    `${action} clicked ${what} (the click reached it), but the page then took it out before it could be seen ${want ? 'checked' : 'unchecked'} (a filtered view, such as a to-do list's "Active", drops an item once it is ${want ? 'checked' : 'unchecked'}). The click is not sent again: verify what the page shows now, or ${action} it in a view that keeps it.`,
    { command: action, detail: { clicked: true, left: true }, retries: cause.retries, cause },
  );
}

/**
 * The guard's refusal of a click whose `position` aimed off the element (it may, on purpose: at a
 * part of it drawn outside its box), said as what happened: the point was outside, and another
 * element was there. Nothing reached the page, as the guard's own error says.
 */
function positionMissed(error: AiteError, position: { x: number; y: number }, at: Point, found: Found, action: string): AiteError {
  const name = found.descriptor.name ?? found.descriptor.text;
  const covered = (error.detail.coveredBy as { element?: string } | undefined)?.element ?? 'another element';
  const scale = scaleOf(at);
  return new AiteError(
    'not-visible',
    `${action} did not reach its target: position { x: ${position.x}, y: ${position.y} } lies outside the <${found.descriptor.tag}>${name ? ` "${name.slice(0, 40)}"` : ''} (${Math.round(at.rect.width / scale.x)} × ${Math.round(at.rect.height / scale.y)} px; a position counts in CSS pixels from the top-left corner of its padding box), and ${covered} is there; aite stopped the event before the page saw it.`,
    { command: action, detail: { ...error.detail, position }, retries: error.retries, cause: error },
  );
}
