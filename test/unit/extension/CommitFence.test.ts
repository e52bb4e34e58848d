import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The worker's fence between the debugger's word of a top document commit and the browser's,
// with Chrome's events stubbed: the browser's late commit is a moment e2e cannot hold still.
type Listener = (details: { tabId: number; frameId: number; error?: string }) => void;
let committed: Listener[];
let failed: Listener[];
const none = { addListener: () => undefined, removeListener: () => undefined };

beforeEach(() => {
  vi.resetModules();
  committed = [];
  failed = [];
  vi.stubGlobal('chrome', {
    tabs: { onRemoved: none },
    webNavigation: {
      onCommitted: { addListener: (l: Listener) => committed.push(l) },
      onErrorOccurred: { addListener: (l: Listener) => failed.push(l) },
    },
  });
});
afterEach(() => vi.unstubAllGlobals());

async function fence() {
  const { CommitFence } = await import('../../../src/extension/worker/CommitFence.js');
  return new CommitFence();
}
const browserCommits = (tabId: number, frameId = 0): void => committed.forEach((l) => l({ tabId, frameId }));

describe('CommitFence', () => {
  it('[ATT-NAV] a commit the debugger told before the browser holds page commands until the browser tells it', async () => {
    const f = await fence();
    f.debuggerCommitted(3);
    let through = false;
    const passing = f.passed(3, Date.now() + 5_000).then((waited) => {
      through = true;
      return waited;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(through).toBe(false);
    browserCommits(3, 2); // a frame's commit is not the top document's
    browserCommits(4); // nor another tab's
    await new Promise((r) => setTimeout(r, 20));
    expect(through).toBe(false);
    browserCommits(3);
    expect(await passing).toBe(true);
  });

  it('[ATT-NAV] a commit the browser told first, and an error page, let commands through at once', async () => {
    const f = await fence();
    browserCommits(3);
    f.debuggerCommitted(3);
    expect(await f.passed(3, Date.now() + 5_000)).toBe(false);
    f.debuggerCommitted(3);
    failed.forEach((l) => l({ tabId: 3, frameId: 0, error: 'net::ERR_CONNECTION_REFUSED' }));
    expect(await f.passed(3, Date.now() + 5_000)).toBe(false);
  });

  it('[ATT-NAV] a replaced navigation (ERR_ABORTED) is no commit; a commit the browser never tells holds no longer than the deadline', async () => {
    const f = await fence();
    failed.forEach((l) => l({ tabId: 3, frameId: 0, error: 'net::ERR_ABORTED' }));
    f.debuggerCommitted(3);
    const started = Date.now();
    expect(await f.passed(3, started + 200)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
