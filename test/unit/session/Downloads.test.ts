import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterEach, describe, expect, it } from 'vitest';
import { pipeDownloads } from '../../../src/sdk/session/pipe/Downloads.js';

// Where downloads go is set over the pipe as a session starts: a Chrome that never answers it
// (a browser process too busy to, a pipe that stalls) must not hold a download() or close().
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A browser whose CDP session opens, and then never answers `send`. */
function silentBrowser(): { browser: Browser; detached: () => number; sent: () => number } {
  let detached = 0;
  let sent = 0;
  const session = { send: () => ((sent += 1), new Promise(() => undefined)), detach: async () => void (detached += 1), on: () => undefined, off: () => undefined };
  const browser = { target: () => ({ createCDPSession: async () => session }) } as unknown as Browser;
  return { browser, detached: () => detached, sent: () => sent };
}

describe('pipeDownloads', () => {
  it('[BUSY-PROBES] a Browser.setDownloadBehavior that never answers fails the wait within its deadline, and close() does not wait for it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'aite-downloads-test-'));
    const { browser, detached, sent } = silentBrowser();
    const source = pipeDownloads(browser, dir, 200);
    const started = performance.now();
    const error = await source.listen(() => undefined).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'timeout', message: expect.stringMatching(/Chrome did not say where downloads go \(Browser\.setDownloadBehavior\) within 200 ms/) });
    expect(performance.now() - started).toBeLessThan(1_500);
    // The browser's one session stays (launch/browserSession.ts); the next listen asks again.
    expect(detached()).toBe(0);
    await source.listen(() => undefined).catch(() => undefined);
    expect(sent()).toBe(2);
    await source.dispose();
  });
});
