// Puppeteer's own mouse and keyboard (its key table, modifiers, click counts), sending their CDP
// calls through the extension's chrome.debugger instead of a pipe.
import { CdpKeyboard, CdpMouse } from 'puppeteer-core/internal/cdp/Input.js';
import { AiteError } from '../errors/AiteError.js';
import { DEBUGGER_METHODS, type DebuggerMethod, type ExtensionEvent, type Target, withTimeout } from '../protocol/index.js';
import { AttachInput } from './AttachInput.js';
import type { DragHow, Found, Input, PictureOptions, PointerHow } from './Input.js';
import { InputLedger, type Devices } from './InputLedger.js';
import { inputWithDeadline } from './pipe/deadline.js';
import { Downloads, type Download, type DownloadRecord, type DownloadSource } from './pipe/Downloads.js';
import type { DragSurface } from './pipe/drag.js';
import type { NavigationSource } from './pipe/InputNavigation.js';
import type { Chord } from './pipe/keys.js';
import { fitting, pictureBox, scaledWarning, SCREENSHOT_TIMEOUT_MS, type LayoutMetrics, type Scaled } from './pipe/pictures.js';
import type { StepContext } from './StepContext.js';
import { firstLine, TrustedInput } from './TrustedInput.js';

/** The warning a step carries when its input went as plain events instead. */
const PLAIN_WARNING = 'trusted-input';

/**
 * Attach mode's input: trusted mouse and keyboard input and pictures through the extension's
 * `chrome.debugger`, attached to the run's own tabs only (the `debugger` command). Where the
 * debugger is refused (another debugger holds the tab, the person cancelled the debugging bar,
 * the extension lacks the permission, or `attach({ debugger: false })`), each step falls back to
 * plain DOM events through `act` ({@link AttachInput}) and says so once in its warnings. The
 * refusal is known before any input goes out, so nothing is ever sent twice.
 */
export class DebuggerInput extends TrustedInput<Devices> implements Input {
  readonly pictures = true;
  override readonly prepares: boolean;
  readonly #plain = new AttachInput();
  /** Why the debugger is never asked (the option turned it off), or undefined. */
  readonly #off: string | undefined;

  readonly #events: (listener: (event: ExtensionEvent) => void) => () => void;
  readonly #idle: (tab: number, idleMs: number, timeoutMs: number) => Promise<void>;
  readonly #runTab: () => number | null;
  readonly #downloads: Downloads;

  /**
   * `events` listens for the extension's events (a drag it intercepted, a download); answers how
   * to stop. `idle` waits for a tab's network to go quiet (see DebuggerPages).
   */
  constructor(session: {
    timeoutMs: number;
    countRetry: (step: StepContext) => void;
    enabled: boolean;
    events: (listener: (event: ExtensionEvent) => void) => () => void;
    idle: (tab: number, idleMs: number, timeoutMs: number) => Promise<void>;
    runTab: () => number | null;
    address: () => string | undefined;
    landed: (url: string, action: string) => void;
  }) {
    super(session);
    this.#events = session.events;
    this.#idle = session.idle;
    this.#runTab = session.runTab;
    this.#downloads = new Downloads(extensionDownloads(session.events));
    this.prepares = session.enabled;
    this.#off = session.enabled ? undefined : 'attach({ debugger: false }) turned chrome.debugger off';
  }

  override async pointer(step: StepContext, found: Found, action: 'click' | 'doubleClick' | 'hover', how?: PointerHow): Promise<void> {
    if (await this.#plainFor(step, action)) return this.#plain.pointer(step, found, action, how);
    return super.pointer(step, found, action, how);
  }

  override async type(step: StepContext, found: Found, text: string): Promise<void> {
    if (await this.#plainFor(step, 'type')) return this.#plain.type(step, found, text);
    return super.type(step, found, text);
  }

  override async fill(step: StepContext, found: Found, text: string): Promise<void> {
    if (await this.#plainFor(step, 'fill')) return this.#plain.fill(step, found, text);
    return super.fill(step, found, text);
  }

  override async press(step: StepContext, key: string, found: Found | undefined, chord: Chord): Promise<void> {
    if (await this.#plainFor(step, 'press')) return this.#plain.press(step, key, found);
    return super.press(step, key, found, chord);
  }

  override async toggle(step: StepContext, found: Found, want: boolean, check: Target): Promise<void> {
    if (await this.#plainFor(step, step.name)) return this.#plain.toggle(step, found, want, check);
    return super.toggle(step, found, want, check);
  }

  override async drag(step: StepContext, from: Found, to: Found, how: DragHow = {}): Promise<void> {
    if (await this.#plainFor(step, 'drag')) return this.#plain.drag(step, from, to, how);
    return super.drag(step, from, to, how);
  }

  override async wheel(step: StepContext, at: { x: number; y: number }, deltaY: number): Promise<boolean> {
    if (this.#off !== undefined || (await this.#refusal(step)) !== undefined) return this.#plain.wheel(step);
    return super.wheel(step, at, deltaY);
  }

  /** The pipe's drag and wheel through the debugger, a drag's interception relayed by the extension. */
  protected surface(step: StepContext, devices: Devices): DragSurface {
    const timeoutMs = this.timeout(step);
    return {
      mouse: devices.mouse,
      send: (method, params) => this.#send(step, method, params, timeoutMs),
      onDragIntercepted: (listener) =>
        this.#events((event) => {
          if (event.kind === 'drag-intercepted') listener(event.data as never);
        }),
      // A frame apart, as a hand moves (the page is not asked: that would be a round trip more).
      nextFrame: () => new Promise((resolve) => setTimeout(resolve, 16)),
    };
  }

  /**
   * Files into a file input (or the input its label names) through `DOM.setFileInputFiles`; a
   * control that opens a file chooser is clicked with trusted input, its chooser intercepted
   * and answered. In the top document or any iframe, a cross-site one through its own session
   * (its chooser intercepted and answered there too).
   */
  async upload(step: StepContext, found: Found, paths: readonly string[]): Promise<void> {
    const refused = await this.#refusal(step);
    if (refused) throw new AiteError('unsupported', `upload needs chrome.debugger in attach mode, and ${refused}; plain DOM events cannot set the files of an input.`, { command: 'upload' });
    const { descriptor } = found;
    const timeoutMs = this.timeout(step);
    const files = [...paths];
    const set = await step.send({ cmd: 'debugger', op: 'upload', xpath: descriptor.xpath, tag: descriptor.tag, files, timeoutMs, ...(descriptor.frame !== undefined ? { frame: descriptor.frame } : {}) });
    if ((set.result as { input?: boolean }).input) {
      step.inputSent = true;
      return;
    }
    // A control that opens a chooser: the click's chooser is intercepted and answered.
    const at = await this.point(step, found);
    await this.#send(step, 'Page.setInterceptFileChooserDialog', { enabled: true }, timeoutMs);
    try {
      await this.dispatch(step, 'upload', (d) => d.mouse.click(at.x, at.y));
      await step.send({ cmd: 'debugger', op: 'chooser', files, timeoutMs }).catch((error: unknown) => {
        if (error instanceof AiteError && error.reason === 'timeout') {
          throw new AiteError('timeout', `Clicking the <${descriptor.tag}> opened no file chooser within ${this.stepTimeout(step)} ms; name the file input or its label instead.`, { command: 'upload', cause: error });
        }
        throw error;
      });
    } finally {
      await this.#send(step, 'Page.setInterceptFileChooserDialog', { enabled: false }, timeoutMs).catch(() => undefined);
    }
  }

  /**
   * Clicks with trusted input and waits for the download the click starts in a run tab, as the
   * extension hears it (chrome.debugger's Page download events, chrome.downloads for the file).
   */
  async download(step: StepContext, found: Found, saveAs: string | undefined): Promise<Download> {
    const refused = await this.#refusal(step);
    if (refused) throw new AiteError('unsupported', `download needs chrome.debugger in attach mode, and ${refused}; without it attach mode leaves downloads to Chrome.`, { command: 'download' });
    return this.clickToDownload(step, found, saveAs, this.#downloads);
  }

  get downloads(): readonly DownloadRecord[] {
    return this.#downloads.seen;
  }

  /** Waits for the run tab's network to go quiet, from the requests the extension's debugger relays. */
  async networkIdle(step: StepContext, idleMs: number, timeoutMs: number): Promise<void> {
    const refused = await this.#refusal(step);
    if (refused) throw new AiteError('unsupported', `waitForNetworkIdle needs chrome.debugger in attach mode, and ${refused}.`, { command: 'wait' });
    const tab = this.#runTab();
    if (tab === null) throw new AiteError('tab-closed', 'There is no run tab to wait in: navigate first.', { command: 'wait' });
    await this.#idle(tab, idleMs, timeoutMs);
  }

  dispose(): Promise<void> {
    return this.#downloads.dispose();
  }

  /**
   * A picture through `Page.captureScreenshot`, as launch mode takes it: the viewport, the whole
   * page (its layout size, painted beyond the viewport) or a box of it.
   */
  async screenshot(step: StepContext, options: PictureOptions = {}): Promise<Uint8Array | undefined> {
    if (options.cachedOnly) {
      step.warn({ code: 'screenshot', message: 'No screenshot: the extension cannot be reached, and attach mode takes pictures through it.' });
      return undefined;
    }
    const refused = await this.#refusal(step).catch((error: unknown) => `the run's tab could not be reached (${firstLine(error)})`);
    if (refused) {
      step.warn({ code: 'screenshot', message: `No screenshot: ${refused}.` });
      return undefined;
    }
    try {
      const send = (method: DebuggerMethod, params: object = {}): Promise<unknown> => this.#send(step, method, params, SCREENSHOT_TIMEOUT_MS);
      const picture = async (): Promise<{ png: Uint8Array; scaled?: Scaled }> => {
        // A background tab does not paint.
        await send('Page.bringToFront');
        const metrics = options.fullPage || options.maxSide !== undefined ? ((await send('Page.getLayoutMetrics')) as LayoutMetrics) : undefined;
        const fit = metrics && options.maxSide !== undefined ? fitting(metrics, options, options.maxSide) : undefined;
        const box = fit?.box ?? (options.clip || options.fullPage ? pictureBox(metrics!, options) : undefined);
        const beyond = options.clip !== undefined || options.fullPage === true;
        const clip = box ? { clip: { ...box, scale: fit?.scale ?? 1 }, captureBeyondViewport: beyond } : {};
        const { data } = (await send('Page.captureScreenshot', { format: 'png', ...clip })) as { data: string };
        return { png: new Uint8Array(Buffer.from(data, 'base64')), ...(fit ? { scaled: fit.scaled } : {}) };
      };
      const { png, scaled } = await withTimeout(picture(), SCREENSHOT_TIMEOUT_MS * 2, `the page did not paint within ${SCREENSHOT_TIMEOUT_MS * 2} ms`);
      if (scaled) step.warn(scaledWarning(scaled, options.maxSide!));
      return png;
    } catch (error) {
      step.warn({ code: 'screenshot', message: `No screenshot: ${firstLine(error)}` });
      return undefined;
    }
  }

  /**
   * Sends input through the debugger once, within the step's deadline; what the page got is
   * counted (see {@link InputLedger}), and a failure midway is never a re-send.
   */
  protected async dispatch(step: StepContext, action: string, input: (devices: Devices) => Promise<void>, timeoutMs = this.inputTimeout(step, action)): Promise<void> {
    const ledger = new InputLedger(debuggerDevices((method, params) => this.#send(step, method, params, timeoutMs)));
    const navigation = await this.watchNavigation(step, action);
    step.inputSent = true;
    try {
      await inputWithDeadline(action, timeoutMs, () => input(ledger.page), {
        activity: () => Promise.resolve('the page did not acknowledge it through chrome.debugger (its main thread may be busy)'),
        dispatched: () => ledger.dispatched,
      });
    } catch (error) {
      navigation?.stop();
      if (error instanceof AiteError && error.detail.dispatched === undefined && error.reason !== 'not-visible' && error.reason !== 'navigation') {
        error.detail.dispatched = ledger.dispatched;
      }
      throw error;
    }
    if (navigation) await this.afterNavigation(step, action, navigation);
  }

  /**
   * The run's tab's navigation events as its debugger hears them (relayed by the extension, see
   * NavigationEvents), its top frame as the debugger names it; the round trip is one the page's
   * renderer answers. Undefined when the debugger cannot be asked (its input goes as plain
   * events then, see {@link DebuggerInput.navigating}).
   */
  protected async navigationSource(step: StepContext): Promise<NavigationSource | undefined> {
    const tab = this.#runTab();
    if (tab === null || this.#off !== undefined) return undefined;
    const timeoutMs = this.timeout(step);
    // Asked each time: a debugger that was refused answers nothing here, and nothing is waited for.
    const tree = (await this.#send(step, 'Page.getFrameTree', {}, timeoutMs).catch(() => undefined)) as { frameTree?: { frame?: { id?: string } } } | undefined;
    const frame = tree?.frameTree?.frame?.id;
    if (frame === undefined) return undefined;
    return {
      frame,
      on: (method, listener) =>
        this.#events((event) => {
          if (event.kind === 'navigation' && event.tab === tab && event.method === method) listener(event.params as never);
        }),
      roundTrip: () => this.#send(step, 'Page.getLayoutMetrics', {}, timeoutMs),
      onClose: (listener) =>
        this.#events((event) => {
          if (event.kind === 'tab-closed' && event.tab === tab) listener();
        }),
    };
  }

  /** Whether `action` goes as plain events in this step (saying so once in the step's warnings). */
  async #plainFor(step: StepContext, action: string): Promise<boolean> {
    const refused = await this.#refusal(step);
    if (refused === undefined) return false;
    if (!step.warnings.some((w) => w.code === PLAIN_WARNING)) {
      step.warn({
        code: PLAIN_WARNING,
        message: `${action} went as plain DOM events, not trusted input: ${refused}. The page sees isTrusted false, so a page that checks it may ignore them; keys and clicks with modifiers need trusted input.`,
      });
    }
    return true;
  }

  /** Why the debugger cannot act in the run's tab now, or undefined when it is attached there. */
  async #refusal(step: StepContext): Promise<string | undefined> {
    if (this.#off) return this.#off;
    try {
      await step.send({ cmd: 'debugger', op: 'attach' });
      return undefined;
    } catch (error) {
      if (!(error instanceof AiteError)) throw error;
      if (error.detail.debugger === 'refused') return error.message.replace(/^The extension could not attach chrome\.debugger to the run's tab: /, 'chrome.debugger was refused: ').replace(/\.$/, '');
      // An older extension cannot read the command at all.
      if (error.reason === 'unsupported' && /cannot read this request/.test(error.message)) return 'the extension is older than the debugger command; stage it again and reload it';
      throw error;
    }
  }

  async #send(step: StepContext, method: string, params: object | undefined, timeoutMs: number): Promise<unknown> {
    if (!(DEBUGGER_METHODS as readonly string[]).includes(method)) {
      throw new AiteError('internal', `attach mode cannot send ${method} through chrome.debugger.`, { command: 'debugger' });
    }
    const answer = await step.send({ cmd: 'debugger', op: 'send', method: method as DebuggerMethod, params: (params ?? {}) as Record<string, unknown>, timeoutMs });
    return answer.result;
  }
}

/** Puppeteer's mouse and keyboard over `send` (they only ever send Input methods). */
function debuggerDevices(send: (method: string, params?: object) => Promise<unknown>): Devices {
  const client = { send } as unknown as ConstructorParameters<typeof CdpKeyboard>[0];
  const keyboard = new CdpKeyboard(client);
  return { keyboard, mouse: new CdpMouse(client, keyboard) };
}

/**
 * Attach mode's downloads, as the extension tells them (`download` events of the run's tabs):
 * the file stays where the person's Chrome saved it, and `saveAs` gets a copy.
 */
function extensionDownloads(events: (listener: (event: ExtensionEvent) => void) => () => void): DownloadSource {
  return {
    owned: false,
    fromStart: true,
    noPath: 'the extension cannot tell where Chrome saved it: it has no "downloads" permission (it was staged by an older aite); stage it again and reload it',
    listen: (listener) =>
      Promise.resolve(
        events((event) => {
          if (event.kind !== 'download') return;
          if (event.state === 'began') listener({ guid: event.guid, state: 'began', url: event.url ?? '', suggestedFilename: event.suggestedFilename ?? '' });
          else if (event.state === 'completed') listener({ guid: event.guid, state: 'completed', ...(event.path !== undefined ? { path: event.path } : {}) });
          else listener({ guid: event.guid, state: 'canceled' });
        }),
      ),
    dispose: () => Promise.resolve(),
  };
}
