import type { Page } from 'puppeteer-core';
import { AiteError } from '../errors/AiteError.js';
import type { Point, Target } from '../protocol/index.js';
import type { Found, Input } from './Input.js';
import { InputLedger } from './InputLedger.js';
import type { RunTab } from './RunTab.js';
import type { StepContext } from './StepContext.js';

/**
 * Trusted input over the debugging pipe: the extension says where the element is, and the
 * runner's mouse and keyboard act there. What was sent is counted, and never sent twice.
 */
export class PipeInput implements Input {
  readonly prepares = true;

  constructor(private readonly runTab: RunTab) {}

  pointer(step: StepContext, found: Found, action: 'click' | 'doubleClick' | 'hover'): Promise<void> {
    return this.#at(step, found, action, (page, at) => {
      if (action === 'hover') return page.mouse.move(at.x, at.y);
      return page.mouse.click(at.x, at.y, action === 'doubleClick' ? { count: 2 } : {});
    });
  }

  type(step: StepContext, found: Found, text: string): Promise<void> {
    return this.#at(step, found, 'type', async (page, at) => {
      await page.mouse.click(at.x, at.y);
      await page.keyboard.type(text);
    });
  }

  fill(step: StepContext, found: Found, text: string): Promise<void> {
    return this.#at(step, found, 'type', async (page) => {
      if (text) await page.keyboard.sendCharacter(text);
      else await page.keyboard.press('Delete');
    });
  }

  async press(step: StepContext, key: string, found: Found | undefined): Promise<void> {
    if (!found) {
      await (await this.runTab.page(step.send)).keyboard.press(key as never);
      return;
    }
    await this.#at(step, found, 'press', async (page, at) => {
      await page.mouse.click(at.x, at.y);
      await page.keyboard.press(key as never);
    });
  }

  async toggle(step: StepContext, found: Found, want: boolean, check: Target): Promise<void> {
    const at = await this.#point(step, found);
    if (at.kind === undefined) {
      throw new AiteError('unsupported', `${step.name} needs a checkbox or radio; the target is a <${at.tag}>.`, { command: step.name });
    }
    if (at.checked !== want) await this.#input(step, step.name, (page) => page.mouse.click(at.x, at.y));
    await step.verify.state(check, want ? 'checked' : 'unchecked', { timeoutMs: step.timeoutMs });
  }

  async drag(step: StepContext, from: Found, to: Found): Promise<void> {
    const a = await step.locator.locate(from.descriptor, { timeoutMs: step.timeoutMs });
    const page = await this.runTab.page(step.send);
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    const b = await step.locator.locate(to.descriptor, { timeoutMs: step.timeoutMs });
    await page.mouse.move(b.x, b.y, { steps: 8 });
    await page.mouse.up();
  }

  async networkIdle(step: StepContext, idleMs: number, timeoutMs: number): Promise<void> {
    await (await this.runTab.page(step.send)).waitForNetworkIdle({ idleTime: idleMs, timeout: timeoutMs }).catch((error: unknown) => {
      throw new AiteError('timeout', `The network did not go idle within ${timeoutMs} ms.`, { cause: error, command: 'wait' });
    });
  }

  async screenshot(step: StepContext, options: { cachedOnly?: boolean } = {}): Promise<Uint8Array | undefined> {
    try {
      const page = await this.runTab.page(step.send, options);
      await page.bringToFront();
      return await page.screenshot({ type: 'png' });
    } catch (error) {
      step.warn({ code: 'screenshot', message: `No screenshot: ${firstLine(error)}` });
      return undefined;
    }
  }

  /** Where to act on the element: the point `resolve` answered, else a `locate`. */
  async #point(step: StepContext, found: Found): Promise<Point> {
    return found.point ?? (await step.locator.locate(found.descriptor, { timeoutMs: step.timeoutMs }));
  }

  async #at(step: StepContext, found: Found, action: string, input: (page: Page, at: Point) => Promise<void>): Promise<void> {
    const at = await this.#point(step, found);
    await this.#input(step, action, (page) => input(page, at));
  }

  /** Sends input over the pipe once; a pipe that breaks under it is `connection-lost`, never a re-send. */
  async #input(step: StepContext, action: string, input: (page: Page) => Promise<void>): Promise<void> {
    const page = await this.runTab.page(step.send);
    const ledger = new InputLedger(page);
    try {
      await input(ledger.page);
    } catch (error) {
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

function firstLine(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}
