import type { Frame, Page } from 'puppeteer-core';
import { AiteError } from '../errors/AiteError.js';
import { allowedOrigins, isAllowed, originOf, withTimeout } from '../protocol/index.js';

/** How long asking Chrome where a frame's iframe is may take. */
const FRAME_TREE_TIMEOUT_MS = 5_000;

/** What the page proxy checks before it lets a call through: input, pictures, waits, script. */
const GUARDED_DEVICES = new Set<PropertyKey>(['mouse', 'keyboard', 'touchscreen']);
const GUARDED_METHODS = new Set<PropertyKey>(['screenshot', 'waitForNetworkIdle', 'evaluate', 'evaluateHandle', 'bringToFront']);
/** Whose result shows the page: checked again afterwards, so a page that left the list meanwhile is not shown. */
const CHECKED_AFTER = new Set<PropertyKey>(['screenshot', 'waitForNetworkIdle']);

/**
 * The run's allow list on the runner's side. The extension refuses page commands outside the
 * list; what the runner sends itself over the debugging pipe (trusted keys and mouse, pictures,
 * network waits, script) never goes through the extension, so it is checked here, at dispatch,
 * against the tab's top-level origin as Chrome's frame tree says it now (its last navigation
 * event on the page's session, not a URL remembered from an extension's answer): after a
 * redirect or a script navigation to another origin, nothing is sent and no picture is taken.
 * Input is checked against the frames it would reach too: a mouse event at a point inside an
 * iframe showing an origin outside the list, or keys while the focus is in one, are refused (the
 * frames as puppeteer tracks them, out-of-process ones included).
 */
export class PipeAllowList {
  readonly origins: readonly string[];

  constructor(allow: readonly string[]) {
    this.origins = allowedOrigins(allow);
  }

  /** Throws `navigation`, naming the origin and the list, when the page's top frame is outside it. */
  async check(page: Page, doing: string): Promise<void> {
    const url = this.#topUrl(page);
    if (isAllowed(url, this.origins)) return;
    throw new AiteError(
      'navigation',
      !url || url === 'about:blank'
        ? `${doing} refused: the run's tab shows no page yet (about:blank, before the first navigate or after reset()). Navigate to a page of the allow list (${this.origins.join(', ')}) first.`
        : `${doing} refused: the run's tab shows ${originOf(url)}, outside the run's allow list (${this.origins.join(', ')}). aite sends no input to, takes no picture of and runs nothing in a page outside the list; add that origin to \`allow\` if the run may work there.`,
      { command: doing, detail: { origin: originOf(url), allow: [...this.origins] } },
    );
  }

  /**
   * Throws `navigation` when input the run delivered (`action`) took the tab to `url`, an http(s)
   * page outside the list: the step fails there, saying where the page went; the input is not
   * sent again.
   */
  landed(url: string, action: string): void {
    if (!/^https?:/.test(url) || isAllowed(url, this.origins)) return;
    throw new AiteError(
      'navigation',
      `${action} was delivered and is not sent again, but the page went to ${url}: ${originOf(url)} is outside the run's allow list (${this.origins.join(', ')}), so aite does nothing more there; add that origin to \`allow\` if the run may work there.`,
      { command: action, detail: { origin: originOf(url), allow: [...this.origins], url } },
    );
  }

  /**
   * The page, with every call that acts on it or shows it (`mouse.*`, `keyboard.*`,
   * `screenshot`, `waitForNetworkIdle`, `evaluate`, ...) checked first, each time it is made.
   */
  guard(page: Page): Page {
    const devices = new Map<PropertyKey, unknown>();
    return new Proxy(page, {
      get: (target, key) => {
        const value: unknown = Reflect.get(target, key, target);
        if (GUARDED_DEVICES.has(key) && value && typeof value === 'object') {
          if (!devices.has(key)) devices.set(key, this.#guardDevice(target, value, String(key)));
          return devices.get(key);
        }
        if (typeof value !== 'function') return value;
        if (!GUARDED_METHODS.has(key)) return value.bind(target);
        return async (...args: unknown[]): Promise<unknown> => {
          await this.check(target, String(key));
          const result: unknown = await (value as (...a: unknown[]) => unknown).apply(target, args);
          if (CHECKED_AFTER.has(key)) await this.check(target, String(key));
          return result;
        };
      },
    });
  }

  #guardDevice(page: Page, device: object, name: string): object {
    // Where the mouse is: down, up and wheel act at the point of the last move or click.
    let at: { x: number; y: number } | undefined;
    return new Proxy(device, {
      get: (target, key) => {
        const value: unknown = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]): Promise<unknown> => {
          const doing = `${name}.${String(key)}`;
          await this.check(page, doing);
          if (name === 'keyboard') await this.#checkFrames(page, doing, 'focus');
          else if (name === 'mouse') {
            const [x, y] = args;
            if (typeof x === 'number' && typeof y === 'number') at = { x, y };
            if (at) await this.#checkFrames(page, doing, at);
          }
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  }

  /**
   * Throws `navigation` when input would reach a frame outside the list: a mouse event at `aim`
   * inside such an iframe's box, or keys (`'focus'`) while the focus is in one. Only frames whose
   * parent is on the list are looked at (in the parent, never in the frame itself): a frame
   * inside one that is not lies within its parent's box, and its focus within its parent's.
   */
  async #checkFrames(page: Page, doing: string, aim: { x: number; y: number } | 'focus'): Promise<void> {
    const main = page.mainFrame();
    const outside = page.frames().filter((f) => f !== main && /^https?:/.test(f.url()) && !isAllowed(f.url(), this.origins));
    if (outside.length === 0) return;
    for (const frame of outside) {
      const parent = frame.parentFrame();
      if (!parent || (parent !== main && !isAllowed(parent.url(), this.origins))) continue;
      const reached = await withTimeout(this.#reaches(frame, aim), FRAME_TREE_TIMEOUT_MS, `Chrome did not say where the iframe showing ${originOf(frame.url())} is within ${FRAME_TREE_TIMEOUT_MS} ms`);
      if (!reached) continue;
      const where = aim === 'focus' ? 'the focus is in an iframe' : `the point (${aim.x}, ${aim.y}) is inside an iframe`;
      throw new AiteError(
        'navigation',
        `${doing} refused: ${where} that shows ${originOf(frame.url())}, outside the run's allow list (${this.origins.join(', ')}). aite sends no input into a frame outside the list; add that origin to \`allow\` if the run may work there.`,
        { command: doing, detail: { origin: originOf(frame.url()), frame: frame.url(), allow: [...this.origins] } },
      );
    }
  }

  /** Whether input at `aim` (or to the focus) reaches `frame`: asked of its iframe element, in the parent. */
  async #reaches(frame: Frame, aim: { x: number; y: number } | 'focus'): Promise<boolean> {
    const owner = await frame.frameElement();
    if (!owner) return false;
    try {
      if (aim === 'focus') return await owner.evaluate((el) => el.ownerDocument.hasFocus() && el.ownerDocument.activeElement === el);
      // The box in the top viewport (puppeteer adds the offsets of the frames above).
      const box = await owner.boundingBox();
      return box !== null && aim.x >= box.x && aim.y >= box.y && aim.x < box.x + box.width && aim.y < box.y + box.height;
    } finally {
      await owner.dispose().catch(() => undefined);
    }
  }

  /**
   * The top frame's url as Chrome last reported it on the page's own session (puppeteer keeps
   * the frame tree from its frameNavigated events, which come in order with the answers: an
   * answer that follows a navigation is read after it). Not asked again with Page.getFrameTree
   * before each input: that cost a round trip per step and saw nothing the events had not said.
   */
  #topUrl(page: Page): string {
    return page.mainFrame().url();
  }
}
