import type { Browser, Page } from 'puppeteer-core';
import { AiteError } from '../errors/AiteError.js';
import type { Point, Target } from '../protocol/index.js';
import { HitGuard, type GuardCheck, type GuardMode, type GuardOptions } from './HitGuard.js';
import type { Found, Input, PictureOptions, PointerHow } from './Input.js';
import { InputLedger } from './InputLedger.js';
import { inputWithDeadline, withTimeout } from './pipe/deadline.js';
import type { Dialogs } from './pipe/Dialogs.js';
import { Downloads, type Download } from './pipe/Downloads.js';
import { fileInputOf, setInputFiles } from './pipe/Files.js';
import { nextFrame, travel } from './pipe/drag.js';
import { holding, pressChord, type Chord } from './pipe/keys.js';
import { capture } from './pipe/pictures.js';
import type { RunTab } from './RunTab.js';
import type { StepContext } from './StepContext.js';

/**
 * Trusted input over the debugging pipe: the extension says where the element is, and the
 * runner's mouse and keyboard act there. What was sent is counted, and never sent twice.
 */
export class PipeInput implements Input {
  readonly prepares = true;

  readonly #downloads: Downloads;

  constructor(
    private readonly runTab: RunTab,
    browser: Browser,
    /** `countRetry` counts a click the hit-target guard stopped and sends again. */
    private readonly session: { dialogs: Dialogs; timeoutMs: number; countRetry: (step: StepContext) => void },
  ) {
    this.#downloads = new Downloads(browser);
  }

  pointer(step: StepContext, found: Found, action: 'click' | 'doubleClick' | 'hover', how?: PointerHow): Promise<void> {
    return this.#at(step, found, action, 'pointer', (page, at) => {
      if (action === 'hover') return page.mouse.move(at.x, at.y);
      if (action === 'doubleClick') return page.mouse.click(at.x, at.y, { count: 2 });
      const x = how?.position ? at.rect.x + how.position.x : at.x;
      const y = how?.position ? at.rect.y + how.position.y : at.y;
      return holding(page.keyboard, how?.modifiers ?? [], () => page.mouse.click(x, y, { button: how?.button ?? 'left', count: how?.clickCount ?? 1 }));
    });
  }

  type(step: StepContext, found: Found, text: string): Promise<void> {
    return this.#at(step, found, 'type', 'input', async (page, at, check) => {
      await page.mouse.click(at.x, at.y);
      await HitGuard.typeChecked(text, (chunk) => page.keyboard.type(chunk), check);
    });
  }

  fill(step: StepContext, found: Found, text: string): Promise<void> {
    // resolve focused the field: it must still have the focus when the guard is armed.
    return this.#at(
      step,
      found,
      'fill',
      'input',
      async (page) => {
        if (text) await page.keyboard.sendCharacter(text);
        else await page.keyboard.press('Delete');
      },
      { focused: true },
    );
  }

  async press(step: StepContext, _key: string, found: Found | undefined, chord: Chord): Promise<void> {
    if (!found) return this.#input(step, 'press', (page) => pressChord(page.keyboard, chord));
    // A named element was focused by `resolve` (prepare: focus); it is not clicked, and must
    // still have the focus when the keys go.
    await this.#guarded(step, found, 'press', 'input', await this.#point(step, found), (page) => pressChord(page.keyboard, chord), { focused: true });
  }

  async upload(step: StepContext, found: Found, paths: readonly string[]): Promise<void> {
    const timeoutMs = this.#timeout(step);
    const page = await this.runTab.page(step.send);
    const input = await fileInputOf(page, found.descriptor);
    if (input) return this.#input(step, 'upload', () => setInputFiles(input, paths));
    // A control that opens a chooser: the click's chooser is intercepted and answered. The click
    // is guarded like any other: a chooser opened by something else is not this control's.
    const chooser = page.waitForFileChooser({ timeout: timeoutMs });
    chooser.catch(() => undefined);
    await this.#at(step, found, 'upload', 'pointer', (p, at) => p.mouse.click(at.x, at.y));
    // The chooser's own wait says what went wrong.
    const opened = await chooser.catch(() => undefined);
    if (!opened) {
      throw new AiteError('timeout', `Clicking the <${found.descriptor.tag}> opened no file chooser within ${timeoutMs} ms; name the file input or its label instead.`, { command: 'upload' });
    }
    if (paths.length > 1 && !opened.isMultiple()) {
      await opened.cancel();
      throw new AiteError('unsupported', `upload: ${paths.length} files for a chooser that takes one.`, { command: 'upload' });
    }
    await withTimeout(opened.accept([...paths]), timeoutMs, () => new AiteError('timeout', `upload: the file chooser did not take the files within ${timeoutMs} ms.`, { command: 'upload' }));
  }

  async download(step: StepContext, found: Found, saveAs: string | undefined): Promise<Download> {
    const timeoutMs = this.#timeout(step);
    const waiting = await this.#downloads.next({ timeoutMs, saveAs, what: `Clicking the <${found.descriptor.tag}>` });
    try {
      await this.pointer(step, found, 'click');
    } catch (error) {
      waiting.cancel();
      throw error;
    }
    return waiting.done;
  }

  dispose(): Promise<void> {
    return this.#downloads.dispose();
  }

  async toggle(step: StepContext, found: Found, want: boolean, check: Target): Promise<void> {
    const at = await this.#point(step, found);
    if (at.kind === undefined) {
      throw new AiteError('unsupported', `${step.name} needs a checkbox or radio; the target is a <${at.tag}>.`, { command: step.name });
    }
    if (at.checked !== want) await this.#guarded(step, found, step.name, 'pointer', at, (page, point) => page.mouse.click(point.x, point.y));
    await step.verify.state(check, want ? 'checked' : 'unchecked', { timeoutMs: step.timeoutMs });
  }

  async drag(step: StepContext, from: Found, to: Found): Promise<void> {
    // Both points first: where a person aims, before the page reacts to the press.
    const locate = async (): Promise<{ a: Point; b: Point }> => ({
      a: await step.locator.locate(from.descriptor, { timeoutMs: step.timeoutMs }),
      b: await step.locator.locate(to.descriptor, { timeoutMs: step.timeoutMs }),
    });
    let points = await locate();
    // The press must reach the source and the release the target (see HitGuard).
    await this.#guarded(step, from, 'drag', 'drag', points.a, (page, a) => travel(page, a, points.b), {
      to: to.descriptor,
      relocate: async () => (points = await locate()).a,
    });
  }

  async wheel(step: StepContext, at: { x: number; y: number }, deltaY: number): Promise<boolean> {
    await this.#input(step, 'scroll', async (page) => {
      await page.mouse.move(at.x, at.y);
      await page.mouse.wheel({ deltaY });
      // What the page does with it (a carousel's next slide) is drawn before anyone looks.
      await nextFrame(page);
    });
    return true;
  }

  async networkIdle(step: StepContext, idleMs: number, timeoutMs: number): Promise<void> {
    await (await this.runTab.page(step.send)).waitForNetworkIdle({ idleTime: idleMs, timeout: timeoutMs }).catch((error: unknown) => {
      // The allow list's refusal says why; anything else is the network not going idle.
      if (error instanceof AiteError) throw error;
      throw new AiteError('timeout', `The network did not go idle within ${timeoutMs} ms.`, { cause: error, command: 'wait' });
    });
  }

  async screenshot(step: StepContext, options: PictureOptions = {}): Promise<Uint8Array | undefined> {
    try {
      const page = await this.runTab.page(step.send, { cachedOnly: options.cachedOnly });
      // A page that holds its main thread would hold the picture too: it gets a deadline.
      return await withTimeout(capture(page, options), SCREENSHOT_TIMEOUT_MS, `the page did not paint within ${SCREENSHOT_TIMEOUT_MS} ms`);
    } catch (error) {
      step.warn({ code: 'screenshot', message: `No screenshot: ${firstLine(error)}` });
      return undefined;
    }
  }

  /** Where to act on the element: the point `resolve` answered, else a `locate`. */
  async #point(step: StepContext, found: Found): Promise<Point> {
    return found.point ?? (await step.locator.locate(found.descriptor, { timeoutMs: step.timeoutMs }));
  }

  async #at(
    step: StepContext,
    found: Found,
    action: string,
    mode: GuardMode,
    input: (page: Page, at: Point, check: GuardCheck) => Promise<void>,
    options: GuardedOptions = {},
  ): Promise<void> {
    await this.#guarded(step, found, action, mode, await this.#point(step, found), input, options);
  }

  /** Input at `at` with the hit-target guard armed on the element (see {@link HitGuard}). */
  async #guarded(
    step: StepContext,
    found: Found,
    action: string,
    mode: GuardMode,
    at: Point,
    input: (page: Page, at: Point, check: GuardCheck) => Promise<void>,
    { relocate, ...options }: GuardedOptions = {},
  ): Promise<void> {
    const guard = new HitGuard(step.send, () => this.session.countRetry(step));
    try {
      await guard.around(
        found.descriptor,
        mode,
        action,
        at,
        (point, check) => this.#input(step, action, (page) => input(page, point, check)),
        relocate ?? (() => step.locator.locate(found.descriptor, { timeoutMs: step.timeoutMs })),
        { ...options, ...(found.armed ? { armed: found.armed } : {}) },
      );
    } catch (error) {
      // The element is only located again after the guard stopped the input before the page saw
      // any of it; found re-rendered then, the step may resolve it again as if nothing was sent.
      if (error instanceof AiteError && error.reason === 'not-found' && error.detail.stale === 'removed') step.inputSent = false;
      throw error;
    }
  }

  #timeout(step: StepContext): number {
    return step.timeoutMs ?? this.session.timeoutMs;
  }

  /**
   * Sends input over the pipe once, within the step's deadline (a dialog or a stuck renderer
   * never holds the run); a pipe that breaks under it is `connection-lost`, never a re-send.
   */
  async #input(step: StepContext, action: string, input: (page: Page) => Promise<void>, timeoutMs = this.#timeout(step)): Promise<void> {
    const page = await this.runTab.page(step.send);
    const ledger = new InputLedger(page);
    step.inputSent = true;
    try {
      await inputWithDeadline(page, action, timeoutMs, () => input(ledger.page), { dialogs: this.session.dialogs, dispatched: () => ledger.dispatched });
    } catch (error) {
      if (error instanceof AiteError) throw error;
      const pipeGone = error instanceof Error && /Target closed|Session closed|detached|Connection closed/i.test(error.message);
      // A click that closes its own tab (window.close) never gets its acknowledgement: it landed.
      if (pipeGone && page.isClosed() && page.browser().connected) return;
      // The runner knows what it sent over the pipe (see InputLedger).
      if (pipeGone) {
        throw new AiteError('connection-lost', `${action} got no acknowledgement: the debugging pipe closed (${firstLine(error)}); it is not sent again.`, {
          cause: error,
          command: action,
          detail: { dispatched: ledger.dispatched },
        });
      }
      throw error;
    }
  }
}

/** How a guarded input goes: {@link GuardOptions}, and how the element is found again for the second try. */
interface GuardedOptions extends GuardOptions {
  relocate?: () => Promise<Point>;
}

const SCREENSHOT_TIMEOUT_MS = 2_000;

function firstLine(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}
