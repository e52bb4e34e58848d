import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The worker's wait for a tab's load with Chrome's APIs stubbed: a tab that reads 'loading' whose
// page never answers the readyState question (its main thread busy), which headless e2e cannot
// hold still long enough to catch.
const none = { addListener: () => undefined, removeListener: () => undefined };

beforeEach(() => {
  vi.stubGlobal('chrome', {
    tabs: { get: async (id: number) => ({ id, url: 'http://127.0.0.1:4173/', status: 'loading' }), onUpdated: none, onRemoved: none },
    webNavigation: { onErrorOccurred: none, onCompleted: none, onCommitted: none, onBeforeNavigate: none },
    // A page whose main thread is busy: the injected function never runs.
    scripting: { executeScript: () => new Promise(() => undefined) },
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('tabSettled', () => {
  it('[BUSY-PROBES] a page that never answers the readyState question holds the wait no longer than its deadline', async () => {
    // Imported once chrome is stubbed: the worker's tab status cache listens from the start.
    const { tabSettled } = await import('../../../src/extension/worker/LoadWatch.js');
    const started = Date.now();
    const error = await tabSettled(7, started + 300, 'waiting for the page to load before verify').catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'timeout', detail: { url: 'http://127.0.0.1:4173/', status: 'loading' } });
    // It says what the tab shows and how to get out of a page that never finishes.
    expect((error as Error).message).toMatch(/^Timed out while waiting for the page to load before verify\. The tab shows http:\/\/127\.0\.0\.1:4173\/, still loading\. .*close its tab \(tab\.close\(\)\)/);
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
