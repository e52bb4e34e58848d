import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The worker's cache of loaded tabs with Chrome's events stubbed: a tab's 'loading' update can
// come after the browser committed the next document, which e2e cannot hold still to see.
type Listener = (...args: unknown[]) => void;
let listeners: Record<string, Listener[]>;
const on = (name: string) => ({ addListener: (l: Listener) => void (listeners[name] ??= []).push(l) });
const fire = (name: string, ...args: unknown[]): void => listeners[name]?.forEach((l) => l(...args));

beforeEach(() => {
  vi.resetModules();
  listeners = {};
  vi.stubGlobal('chrome', {
    tabs: { onUpdated: on('updated'), onRemoved: on('removed') },
    webNavigation: { onBeforeNavigate: on('before'), onCommitted: on('committed') },
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('TabStatusCache', () => {
  it('[ATT-NAV] a loaded tab is forgotten when its top frame starts a navigation or commits, not when a frame of it does', async () => {
    const { TabStatusCache } = await import('../../../src/extension/worker/TabStatusCache.js');
    const cache = new TabStatusCache();
    const tab = { id: 5, url: 'http://127.0.0.1:4173/a.html', status: 'complete' };
    fire('updated', 5, { status: 'complete' }, tab);
    expect(cache.loaded(5)).toEqual(tab);
    fire('before', { tabId: 5, frameId: 3 });
    fire('committed', { tabId: 5, frameId: 3 });
    expect(cache.loaded(5)).toEqual(tab);
    fire('before', { tabId: 5, frameId: 0 });
    expect(cache.loaded(5)).toBeUndefined();
    cache.remember(tab as chrome.tabs.Tab);
    fire('committed', { tabId: 5, frameId: 0 });
    expect(cache.loaded(5)).toBeUndefined();
  });
});
