import type { RequestInput } from '../protocol/index.js';
import type { DialogRecord } from './pipe/Dialogs.js';

/**
 * The `navigate` and `history` requests in flight, by the tab whose page they leave. A
 * beforeunload dismissed in that tab keeps its page, so the load they wait for never comes:
 * their wait is ended at once (the bridge's `cancel`) instead of running out its timeout.
 */
export class HeldLeaves {
  readonly #leaving = new Map<AbortController, number>();

  /** Runs `send` with a signal a dismissed beforeunload of the request's tab aborts (none for other requests). */
  async around<T>(request: RequestInput, send: (signal?: AbortSignal) => Promise<T>): Promise<T> {
    const tab = (request as { tab?: number }).tab;
    if ((request.cmd !== 'navigate' && request.cmd !== 'history') || tab === undefined) return send();
    const controller = new AbortController();
    this.#leaving.set(controller, tab);
    try {
      return await send(controller.signal);
    } finally {
      this.#leaving.delete(controller);
    }
  }

  /** A dialog was answered: a dismissed beforeunload ends the waits of the tab it kept (of every tab, when its tab is unknown). */
  answered(record: DialogRecord): void {
    if (record.type !== 'beforeunload' || record.accepted) return;
    for (const [controller, tab] of this.#leaving) {
      if (record.tab === undefined || record.tab === tab) controller.abort('a beforeunload dialog kept the page');
    }
  }
}
