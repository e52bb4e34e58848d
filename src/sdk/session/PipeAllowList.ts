import type { CDPSession, Page } from 'puppeteer-core';
import { AiteError } from '../errors/AiteError.js';
import { allowedOrigins, isAllowed, originOf } from '../protocol/index.js';

/** How long asking Chrome for the tab's frame tree may take. */
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
 * against the tab's top-level origin as Chrome's frame tree says it now (not a URL remembered
 * from an earlier answer): after a redirect or a script navigation to another origin, nothing is
 * sent and no picture is taken.
 */
export class PipeAllowList {
  readonly origins: readonly string[];
  readonly #cdp = new WeakMap<Page, Promise<CDPSession>>();

  constructor(allow: readonly string[]) {
    this.origins = allowedOrigins(allow);
  }

  /** Throws `navigation`, naming the origin and the list, when the page's top frame is outside it. */
  async check(page: Page, doing: string): Promise<void> {
    const url = await this.#topUrl(page);
    if (isAllowed(url, this.origins)) return;
    throw new AiteError(
      'navigation',
      `${doing} refused: the run's tab shows ${originOf(url)}, outside the run's allow list (${this.origins.join(', ')}). aite sends no input to, takes no picture of and runs nothing in a page outside the list; add that origin to \`allow\` if the run may work there.`,
      { command: doing, detail: { origin: originOf(url), allow: [...this.origins] } },
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
    return new Proxy(device, {
      get: (target, key) => {
        const value: unknown = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]): Promise<unknown> => {
          await this.check(page, `${name}.${String(key)}`);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  }

  async #topUrl(page: Page): Promise<string> {
    let cdp = this.#cdp.get(page);
    if (!cdp) {
      cdp = page.createCDPSession();
      this.#cdp.set(page, cdp);
      cdp.catch(() => this.#cdp.delete(page));
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      const tree = await Promise.race([
        cdp.then((session) => session.send('Page.getFrameTree')),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`Chrome did not say what the tab shows within ${FRAME_TREE_TIMEOUT_MS} ms`)), FRAME_TREE_TIMEOUT_MS);
        }),
      ]);
      return tree.frameTree.frame.url;
    } catch (error) {
      this.#cdp.delete(page);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}
