import type { Session } from '../../../src/sdk/index.js';

/**
 * `work` with every request of `session` over the extension's socket: page commands that would go
 * straight to the content script over the pipe (ContentWorld) go through the worker, so a test can
 * stop, reload or compare against it.
 */
export async function overSocket<T>(session: Session, work: () => Promise<T>): Promise<T> {
  const pipe = session.bridge.useShortcut(undefined);
  try {
    return await work();
  } finally {
    session.bridge.useShortcut(pipe);
  }
}
