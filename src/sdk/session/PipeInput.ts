import type { Browser, Page } from 'puppeteer-core';
import { AiteError } from '../errors/AiteError.js';
import { withTimeout } from '../protocol/index.js';
import type { VerdictSource } from './HitGuard.js';
import type { Found, Input, PictureOptions } from './Input.js';
import { InputLedger } from './InputLedger.js';
import { inputWithDeadline, pageActivity } from './pipe/deadline.js';
import type { Dialogs } from './pipe/Dialogs.js';
import { Downloads, pipeDownloads, type Download, type DownloadRecord } from './pipe/Downloads.js';
import { fileInputOf, interceptChooser, setInputFiles, type OpenedChooser } from './pipe/Files.js';
import { pipeNavigationSource, type NavigationSource } from './pipe/InputNavigation.js';
import { pageDragSurface, type DragSurface } from './pipe/drag.js';
import { capture, scaledWarning, SCREENSHOT_TIMEOUT_MS } from './pipe/pictures.js';
import type { RunTab } from './RunTab.js';
import type { StepContext } from './StepContext.js';
import { firstLine, TrustedInput } from './TrustedInput.js';

/**
 * Trusted input over the debugging pipe: the extension says where the element is, and the
 * runner's mouse and keyboard act there. What was sent is counted, and never sent twice.
 */
export class PipeInput extends TrustedInput<Page> implements Input {
  readonly pictures = true;
  readonly #downloads: Downloads;

  constructor(
    private readonly runTab: RunTab,
    browser: Browser,
    /** `countRetry` counts a click the hit-target guard stopped and sends again; `verdicts`: see TrustedInput. */
    /** `idle`: waits for a page's network, its cross-site frames' included (see PipePages). */
    private readonly pipe: {
      dialogs: Dialogs;
      timeoutMs: number;
      countRetry: (step: StepContext) => void;
      idle: (page: Page, idleMs: number, timeoutMs: number) => Promise<void>;
      verdicts?: VerdictSource;
      downloads?: string;
    },
  ) {
    super({ ...pipe, address: () => runTab.url, landed: (url, action) => runTab.landed(url, action) });
    this.#downloads = new Downloads(pipeDownloads(browser, pipe.downloads));
  }

  async upload(step: StepContext, found: Found, paths: readonly string[]): Promise<void> {
    const timeoutMs = this.timeout(step);
    const page = await this.runTab.page(step.send);
    const input = await fileInputOf(page, found.descriptor);
    if (input) return this.dispatch(step, 'upload', () => setInputFiles(input, paths));
    // A control that opens a chooser: the click's chooser is intercepted and answered, in
    // whichever frame's process it opens. The click is guarded like any other: a chooser opened by
    // something else is not this control's.
    const chooser = await interceptChooser(page, timeoutMs);
    let opened: OpenedChooser | undefined;
    try {
      await this.at(step, found, 'upload', 'pointer', (p, at) => p.mouse.click(at.x, at.y));
      opened = await chooser.opened;
    } finally {
      chooser.stop();
    }
    if (!opened) {
      throw new AiteError('timeout', `Clicking the <${found.descriptor.tag}> opened no file chooser within ${this.stepTimeout(step)} ms; name the file input or its label instead.`, { command: 'upload' });
    }
    if (paths.length > 1 && !opened.multiple) {
      await opened.cancel();
      throw new AiteError('unsupported', `upload: ${paths.length} files for a chooser that takes one.`, { command: 'upload' });
    }
    await withTimeout(opened.accept(paths), timeoutMs, () => new AiteError('timeout', `upload: the file chooser did not take the files within ${this.stepTimeout(step)} ms.`, { command: 'upload' }));
  }

  download(step: StepContext, found: Found, saveAs: string | undefined): Promise<Download> {
    return this.clickToDownload(step, found, saveAs, this.#downloads);
  }

  get downloads(): readonly DownloadRecord[] {
    return this.#downloads.seen;
  }

  dispose(): Promise<void> {
    return this.#downloads.dispose();
  }

  protected surface(_step: StepContext, page: Page): DragSurface {
    return pageDragSurface(page);
  }

  /**
   * Waits for the run tab's network from the requests the page watch hears (as attach mode
   * does), checked against the allow list before and after as any wait that shows the page.
   */
  async networkIdle(step: StepContext, idleMs: number, timeoutMs: number): Promise<void> {
    const page = await this.runTab.page(step.send);
    await this.runTab.checkAllowed(page, 'waitForNetworkIdle');
    await this.pipe.idle(page, idleMs, timeoutMs);
    await this.runTab.checkAllowed(page, 'waitForNetworkIdle');
  }

  async screenshot(step: StepContext, options: PictureOptions = {}): Promise<Uint8Array | undefined> {
    try {
      const page = await this.runTab.page(step.send, { cachedOnly: options.cachedOnly });
      // A page that holds its main thread would hold the picture too: it gets a deadline.
      const { png, scaled } = await withTimeout(capture(page, options), SCREENSHOT_TIMEOUT_MS, `the page did not paint within ${SCREENSHOT_TIMEOUT_MS} ms`);
      if (scaled) step.warn(scaledWarning(scaled, options.maxSide!));
      return png;
    } catch (error) {
      step.warn({ code: 'screenshot', message: `No screenshot: ${firstLine(error)}` });
      return undefined;
    }
  }

  /**
   * Sends input over the pipe once, within the step's deadline (a dialog or a stuck renderer
   * never holds the run); a pipe that breaks under it is `connection-lost`, never a re-send.
   */
  protected async dispatch(step: StepContext, action: string, input: (page: Page) => Promise<void>, timeoutMs = this.inputTimeout(step, action)): Promise<void> {
    const page = await this.runTab.page(step.send);
    const ledger = new InputLedger(page);
    const navigation = await this.watchNavigation(step, action);
    step.inputSent = true;
    // Chrome takes input for a page whose renderer crashed meanwhile, and delivers it nowhere.
    const lost = `The ${action} went out as the page crashed: it is lost with the page, and is not sent again.`;
    try {
      await inputWithDeadline(action, timeoutMs, () => input(ledger.page), { activity: () => pageActivity(page, this.pipe.dialogs), dispatched: () => ledger.dispatched });
      this.runTab.checkAlive(page, lost);
    } catch (error) {
      navigation?.stop();
      this.runTab.checkAlive(page, lost);
      if (error instanceof AiteError) throw error;
      const pipeGone = error instanceof Error && /Target closed|Session closed|detached|Connection closed/i.test(error.message);
      // A click that closes its own tab (window.close) never gets its acknowledgement: it landed.
      // Puppeteer may hear the tab close just after the failed call: a moment is given for that.
      if (pipeGone && page.browser().connected && (await closesSoon(page))) return;
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
    if (navigation) await this.afterNavigation(step, action, navigation);
  }

  protected async navigationSource(step: StepContext): Promise<NavigationSource | undefined> {
    return pipeNavigationSource(await this.runTab.page(step.send));
  }
}

/** How long a page whose input lost its target may take to be known closed. */
const CLOSE_HEARD_MS = 1_000;

/** Whether `page` is closed, or is heard closing within {@link CLOSE_HEARD_MS}. */
function closesSoon(page: Page): Promise<boolean> {
  if (page.isClosed()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (closed: boolean): void => {
      clearTimeout(timer);
      page.off('close', onClose);
      resolve(closed || page.isClosed());
    };
    const onClose = (): void => done(true);
    const timer = setTimeout(() => done(false), CLOSE_HEARD_MS);
    page.once('close', onClose);
  });
}
