import type { CDPSession, Page, Protocol } from 'puppeteer-core';
import { withTimeout } from '../../protocol/index.js';
import { mainFrameIdOf, sessionOf } from './sessions.js';

/** How a navigation an input started ended, as far as the input's step waits for it. */
export type NavigationEnd =
  /** The input started none in the tab's top frame (or one that opens another tab, or a same-document one). */
  | 'none'
  /** The new document committed: the page the next step talks to is the new one. */
  | 'committed'
  /** It ended without a new document: a 204, a download, a refusal, a dismissed beforeunload. */
  | 'ended'
  /** It had not committed by the deadline (`url` says where it was going). */
  | 'pending';

/**
 * The navigation one input starts in the run's tab's top frame, heard on the page's session from
 * before the input goes until it commits. Chrome announces a navigation the input's own event
 * handling asks for (`frameRequestedNavigation`, a link's default action, a form's submit, a
 * script's `location` change) while it handles the input, but the announcement and the input's
 * acknowledgement travel apart and the acknowledgement sometimes comes first: one round trip to
 * the page's renderer after it (its answer follows every event the renderer sent before) tells
 * whether the input started one. An input that started none goes on then, with no wait.
 * A navigation into another tab (`target=_blank`) is that tab's and is not waited for here.
 */
export class InputNavigation {
  readonly #session: CDPSession | undefined;
  readonly #frame: string | undefined;
  readonly #stop: Array<() => void> = [];
  #url: string | undefined;
  #committed: string | undefined;
  #started = false;
  #ended: NavigationEnd | undefined;
  #onEnd: (() => void) | undefined;

  constructor(page: Page) {
    this.#session = sessionOf(page.target());
    this.#frame = mainFrameIdOf(page);
    if (!this.#session || this.#frame === undefined) return;
    this.#on('Page.frameRequestedNavigation', ({ frameId, disposition, url }: Protocol.Page.FrameRequestedNavigationEvent) => {
      if (frameId === this.#frame && disposition === 'currentTab') this.#url ??= url;
    });
    this.#on('Page.frameStartedNavigating', ({ frameId, navigationType, url }: Protocol.Page.FrameStartedNavigatingEvent) => {
      if (frameId !== this.#frame) return;
      if (navigationType === 'sameDocument' || navigationType === 'historySameDocument') return;
      this.#url ??= url;
      this.#started = true;
    });
    this.#on('Page.frameNavigated', ({ frame }: Protocol.Page.FrameNavigatedEvent) => {
      if (frame.id !== this.#frame || this.#url === undefined) return;
      this.#committed ??= frame.url + (frame.urlFragment ?? '');
      this.#end('committed');
    });
    this.#on('Page.navigatedWithinDocument', ({ frameId, url }: Protocol.Page.NavigatedWithinDocumentEvent) => {
      if (frameId !== this.#frame || this.#url === undefined) return;
      this.#committed ??= url;
      this.#end('committed');
    });
    // Started and stopped with no document committed: a 204, a download, a network refusal.
    this.#on('Page.frameStoppedLoading', ({ frameId }: Protocol.Page.FrameStoppedLoadingEvent) => {
      if (frameId === this.#frame && this.#started) this.#end('ended');
    });
    // Asked for and dropped before it started: a dismissed beforeunload.
    this.#on('Page.frameClearedScheduledNavigation', ({ frameId }: Protocol.Page.FrameClearedScheduledNavigationEvent) => {
      if (frameId === this.#frame && this.#url !== undefined && !this.#started) this.#end('ended');
    });
    this.#on('Page.javascriptDialogClosed', ({ result }: Protocol.Page.JavascriptDialogClosedEvent) => {
      if (!result && this.#url !== undefined && !this.#started) this.#end('ended');
    });
    this.#on('Inspector.targetCrashed', () => this.#end('ended'));
    const closed = (): void => this.#end('ended');
    page.once('close', closed);
    this.#stop.push(() => page.off('close', closed));
  }

  /** Where the navigation was going, once one was asked for. */
  get url(): string | undefined {
    return this.#url;
  }

  /** Where it arrived once it committed (after any redirects). */
  get committedUrl(): string | undefined {
    return this.#committed;
  }

  /**
   * Called once the input was acknowledged: waits for the navigation it started to commit or
   * end, at most `timeoutMs`; `none`, after the one round trip, when it started none. Stops
   * listening either way.
   */
  async settled(timeoutMs: number): Promise<NavigationEnd> {
    try {
      if (this.#url === undefined && this.#session) {
        await withTimeout(this.#session.send('Runtime.evaluate', { expression: '0' }), timeoutMs, 'the page did not answer').catch(() => undefined);
      }
      if (this.#url === undefined) return 'none';
      if (this.#ended) return this.#ended;
      let timer: NodeJS.Timeout | undefined;
      const end = await new Promise<NavigationEnd>((resolve) => {
        this.#onEnd = () => resolve(this.#ended!);
        timer = setTimeout(() => resolve('pending'), Math.max(0, timeoutMs));
      });
      clearTimeout(timer);
      return end;
    } finally {
      this.stop();
    }
  }

  /** Stops listening (an input that failed is not waited for). */
  stop(): void {
    for (const stop of this.#stop.splice(0)) stop();
  }

  #end(end: NavigationEnd): void {
    if (this.#ended) return;
    this.#ended = end;
    this.#onEnd?.();
  }

  #on<E>(event: string, listener: (event: E) => void): void {
    const session = this.#session!;
    const handler = listener as (event: unknown) => void;
    session.on(event as never, handler as never);
    this.#stop.push(() => session.off(event as never, handler as never));
  }
}
