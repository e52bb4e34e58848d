import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeConnection } from '../../../src/extension/worker/BridgeConnection.js';

// The worker's socket logic under fake timers, with Chrome's and the socket's APIs stubbed.
// (The real worker in real Chromium is exercised by the e2e tests.)
let attempts: number[];
let closeWith: number;
const badge: string[] = [];

class FakeSocket {
  onopen: (() => void) | undefined;
  onmessage: ((event: { data: unknown }) => void) | undefined;
  onclose: ((event: { code: number }) => void) | undefined;
  constructor(readonly url: string) {
    attempts.push(Date.now());
    queueMicrotask(() => this.onclose?.({ code: closeWith }));
  }
  send(): void {}
  close(): void {}
}

beforeEach(() => {
  vi.useFakeTimers();
  attempts = [];
  badge.length = 0;
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal('fetch', async () => ({ ok: true, json: async () => ({ url: 'ws://127.0.0.1:9/ext', token: 't'.repeat(32), profile: 'p' }) }));
  vi.stubGlobal('chrome', {
    runtime: { getURL: (p: string) => `chrome-extension://x/${p}`, getManifest: () => ({ version: '0.1.0' }) },
    action: {
      setBadgeText: async ({ text }: { text: string }) => void badge.push(text),
      setBadgeBackgroundColor: async () => undefined,
      setTitle: async () => undefined,
    },
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function connection(): BridgeConnection {
  return new BridgeConnection({ onMessage: async () => undefined, lastRunId: async () => undefined, onWelcome: async () => undefined });
}

describe('the worker reconnects as the spec says', () => {
  it('[KA-RECONNECT] row 31: backs off 0.5, 1, 2, 4, 8 s, then every 8 s', async () => {
    closeWith = 1006;
    const start = Date.now();
    connection().connect();
    await vi.advanceTimersByTimeAsync(40_000);
    const gaps = attempts.map((t, i) => t - (i === 0 ? start : attempts[i - 1]!));
    expect(gaps.slice(0, 8)).toEqual([0, 500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('[KA-4401] row 31: keeps retrying after 4401, with the error badge', async () => {
    closeWith = 4401;
    connection().connect();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(attempts.length).toBeGreaterThanOrEqual(5);
    expect(badge).toContain('ERR');
  });

  it('[KA-4409] row 15, row 31: stops after 4409 until the worker restarts, so two extensions do not fight', async () => {
    closeWith = 4409;
    const conn = connection();
    conn.connect();
    await vi.advanceTimersByTimeAsync(60_000);
    conn.connect();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(attempts).toHaveLength(1);
    expect(badge).toContain('ERR');
  });

  it('never opens two sockets at once when connect is called again while connecting', async () => {
    closeWith = 1006;
    const conn = connection();
    conn.connect();
    conn.connect();
    conn.connect();
    await vi.advanceTimersByTimeAsync(100);
    expect(attempts).toHaveLength(1);
  });
});
