/**
 * Waits that end at the next event a watcher hears, or after their own time: the waiter looks
 * at what it waits for again either way, so a wake-up too many costs one look and none is lost.
 */
export class Wakeups {
  readonly #sleepers = new Set<() => void>();

  /** Resolves at the next {@link Wakeups.wake}, or after `ms`, whichever is first. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.#sleepers.add(done);
    });
  }

  /** Ends every sleep now. */
  wake(): void {
    for (const done of [...this.#sleepers]) done();
  }
}
