import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { InputLedger } from '../../../src/sdk/session/InputLedger.js';

/** A page whose mouse answers when the test says so, like a renderer busy in a click handler. */
function fakePage(): { page: Page; acknowledge: () => void; fail: (e: Error) => void } {
  let settle: { resolve: () => void; reject: (e: Error) => void } | undefined;
  const mouse = {
    click: () => new Promise<void>((resolve, reject) => (settle = { resolve, reject })),
  };
  const page = { mouse, keyboard: { press: () => Promise.resolve() }, url: () => 'http://127.0.0.1/' };
  return { page: page as unknown as Page, acknowledge: () => settle!.resolve(), fail: (e) => settle!.reject(e) };
}

describe('InputLedger', () => {
  it('[DL-ACT-STATUS] says false before any input, "unknown" while input is unacknowledged, true once acknowledged', async () => {
    const fake = fakePage();
    const ledger = new InputLedger(fake.page);
    expect(ledger.dispatched).toBe(false);
    expect(ledger.page.url()).toBe('http://127.0.0.1/');
    const click = ledger.page.mouse.click(1, 2);
    expect(ledger.dispatched).toBe('unknown');
    fake.acknowledge();
    await click;
    expect(ledger.dispatched).toBe(true);
  });

  it('[DL-ACT-STATUS] input that failed unacknowledged stays "unknown"', async () => {
    const fake = fakePage();
    const ledger = new InputLedger(fake.page);
    const click = ledger.page.mouse.click(1, 2);
    fake.fail(new Error('Protocol error: Connection closed.'));
    await expect(click).rejects.toThrow(/Connection closed/);
    expect(ledger.dispatched).toBe('unknown');
  });
});
