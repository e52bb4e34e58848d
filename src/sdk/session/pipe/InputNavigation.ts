import type { Page } from 'puppeteer-core';
import { withTimeout, type NavigationEvents, type NavigationMethod } from '../../protocol/index.js';
import { sessionOf } from '../../launch/pages.js';
import { mainFrameIdOf } from './sessions.js';

/** How a navigation an input started ended, as far as the input's step waits for it. */
export type NavigationEnd =
  /** The input started none in the tab's top frame (or one that opens another tab, or one that left the address as it was). */
  | 'none'
  /** The new document committed, or the address changed within the document ({@link InputNavigation.sameDocument}): the page the next step talks to is there. */
  | 'committed'
  /** It ended without a new document: a 204, a download, a refusal, a dismissed beforeunload. */
  | 'ended'
  /** It had not committed by the deadline (`url` says where it was going). */
  | 'pending';

/**
 * Where a tab's navigation events are heard: the page's CDP session over the pipe, or attach
 * mode's debugger relayed by the extension ({@link NavigationEvents}).
 */
export interface NavigationSource {
  /** The tab's top frame. */
  readonly frame: string;
  /** Listens for `method`; answers how to stop. */
  on<M extends NavigationMethod>(method: M, listener: (params: NavigationEvents[M]) => void): () => void;
  /** One call the page's renderer answers after every event it sent before it. */
  roundTrip(): Promise<unknown>;
  /** Calls `listener` when the tab closes or its renderer crashes; answers how to stop. */
  onClose(listener: () => void): () => void;
}

/** The pipe's source for `page`, or undefined when its session or top frame is not known. */
export function pipeNavigationSource(page: Page): NavigationSource | undefined {
  const session = sessionOf(page.target());
  const frame = mainFrameIdOf(page);
  if (!session || frame === undefined) return undefined;
  return {
    frame,
    on: (method, listener) => {
      const handler = listener as (event: unknown) => void;
      session.on(method as never, handler as never);
      return () => session.off(method as never, handler as never);
    },
    roundTrip: () => session.send('Runtime.evaluate', { expression: '0' }),
    onClose: (listener) => {
      page.once('close', listener);
      session.on('Inspector.targetCrashed', listener);
      return () => {
        page.off('close', listener);
        session.off('Inspector.targetCrashed', listener);
      };
    },
  };
}

/**
 * The navigation one input starts in the run's tab's top frame, heard from before the input goes
 * until it commits. Chrome announces a navigation the input's own event handling asks for
 * (`frameRequestedNavigation`, a link's default action, a form's submit, a script's `location`
 * change) while it handles the input, but the announcement and the input's acknowledgement travel
 * apart and the acknowledgement sometimes comes first: one round trip to the page's renderer after
 * it (its answer follows every event the renderer sent before) tells whether the input started
 * one. An input that started none goes on then, with no wait. A navigation into another tab
 * (`target=_blank`) is that tab's and is not waited for here.
 *
 * A single-page app's route change is a navigation too, within the document: `pushState`,
 * `replaceState` and a `#fragment` commit before the round trip's answer and are announced by
 * nothing else; the page's `history.back()` is a move the browser starts a moment later
 * (`frameStartedNavigating` of a same-document kind), waited for until it commits.
 */
export class InputNavigation {
  readonly #source: NavigationSource | undefined;
  readonly #stop: Array<() => void> = [];
  #url: string | undefined;
  #committed: string | undefined;
  #started = false;
  /** The last address the top frame moved to within its document, with no navigation asked for. */
  #within: string | undefined;
  /** A history move between entries of the document started, to this address, and has not committed. */
  #traversing: string | undefined;
  #sameDocument = false;
  readonly #from: string | undefined;
  #ended: NavigationEnd | undefined;
  #onEnd: (() => void) | undefined;

  /**
   * `source` undefined: nothing can be heard, and the input is taken to have started none.
   * `from`: the address the run's tab showed before the input.
   */
  constructor(source: NavigationSource | undefined, from?: string) {
    this.#source = source;
    this.#from = from;
    if (!source) return;
    const top = source.frame;
    this.#on('Page.frameRequestedNavigation', ({ frameId, disposition, url }) => {
      if (frameId === top && disposition === 'currentTab') this.#url ??= url;
    });
    this.#on('Page.frameStartedNavigating', ({ frameId, navigationType, url }) => {
      if (frameId !== top) return;
      if (navigationType === 'sameDocument' || navigationType === 'historySameDocument') {
        if (this.#url === undefined) this.#traversing = url;
        return;
      }
      this.#url ??= url;
      this.#started = true;
    });
    this.#on('Page.frameNavigated', ({ frame }) => {
      if (frame.id !== top || this.#url === undefined) return;
      this.#committed ??= frame.url + (frame.urlFragment ?? '');
      this.#end('committed');
    });
    this.#on('Page.navigatedWithinDocument', ({ frameId, url }) => {
      if (frameId !== top) return;
      if (this.#url === undefined) {
        this.#within = url;
        this.#traversing = undefined;
        this.#onEnd?.();
        return;
      }
      if (this.#committed === undefined) this.#sameDocument = true;
      this.#committed ??= url;
      this.#end('committed');
    });
    // Started and stopped with no document committed: a 204, a download, a network refusal.
    // A move within the document that stopped without moving was dropped (the page cancelled it).
    this.#on('Page.frameStoppedLoading', ({ frameId }) => {
      if (frameId !== top) return;
      if (this.#started) this.#end('ended');
      if (this.#traversing !== undefined) {
        this.#traversing = undefined;
        this.#onEnd?.();
      }
    });
    // Asked for and dropped before it started: a dismissed beforeunload.
    this.#on('Page.frameClearedScheduledNavigation', ({ frameId }) => {
      if (frameId === top && this.#url !== undefined && !this.#started) this.#end('ended');
    });
    this.#on('Page.javascriptDialogClosed', ({ result }) => {
      if (!result && this.#url !== undefined && !this.#started) this.#end('ended');
    });
    this.#stop.push(source.onClose(() => this.#end('ended')));
  }

  /** Where the navigation was going, once one was asked for (or the document moved). */
  get url(): string | undefined {
    return this.#url ?? this.#within ?? this.#traversing;
  }

  /** Where it arrived once it committed (after any redirects). */
  get committedUrl(): string | undefined {
    return this.#committed ?? this.#within;
  }

  /** The address the run's tab showed before the input, when known. */
  get from(): string | undefined {
    return this.#from;
  }

  /** Whether it committed within the document: the address changed and no document loaded. */
  get sameDocument(): boolean {
    return this.#sameDocument || (this.#url === undefined && this.#within !== undefined);
  }

  /**
   * Called once the input was acknowledged: waits for the navigation it started to commit or
   * end, at most `timeoutMs`; `none`, after the one round trip, when it started none. Stops
   * listening either way.
   */
  async settled(timeoutMs: number): Promise<NavigationEnd> {
    try {
      if (this.#url === undefined && this.#source) {
        await withTimeout(this.#source.roundTrip(), timeoutMs, 'the page did not answer').catch(() => undefined);
      }
      if (this.#url === undefined) return await this.#withinDocument(timeoutMs);
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

  /**
   * How a step that asked for no navigation moved its document: not at all, or to a new address
   * within it (a history move it started is waited for until it moves or stops, at most
   * `timeoutMs`). A move that ended where the page was is no navigation.
   */
  async #withinDocument(timeoutMs: number): Promise<NavigationEnd> {
    if (this.#traversing !== undefined) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.#onEnd = resolve;
        timer = setTimeout(resolve, Math.max(0, timeoutMs));
      });
      clearTimeout(timer);
      if (this.#traversing !== undefined) return 'pending';
    }
    return this.#within === undefined || this.#within === this.#from ? 'none' : 'committed';
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

  #on<M extends NavigationMethod>(method: M, listener: (params: NavigationEvents[M]) => void): void {
    this.#stop.push(this.#source!.on(method, listener));
  }
}
