import type { ChildProcess } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkEntry, PageError, Session } from '../../src/sdk/index.js';
import type { FixtureServer } from '../support/FixtureServer.js';
import { failure } from './support/failure.js';
import { closeAttached, openAttached } from './support/userChrome.js';

// Attach mode with chrome.debugger: the run tabs' requests, console lines and failed loads, and
// downloads, as the extension's debugger hears them. A Chrome started as a person would (no
// pipe), whose download folder the person set in its settings (a folder of the test's).
let server: FixtureServer;
let chrome: ChildProcess;
let session: Session;
let profileDir: string;
let downloadDir: string;
const page = (path: string): string => new URL(path, server.url).href;
const crossSite = (origin: string): string => origin.replace('127.0.0.1', 'localhost');
/** The extension relays what its debugger hears a moment after the page did; a loaded machine is slower. */
const POLL = { timeout: 5_000 };

beforeAll(async () => {
  // The person set the download folder in the profile's settings.
  const setDownloads = async (dir: string): Promise<void> => {
    downloadDir = join(dir, 'Downloads');
    await mkdir(join(dir, 'Default'), { recursive: true });
    await writeFile(join(dir, 'Default', 'Preferences'), JSON.stringify({ download: { default_directory: downloadDir, prompt_for_download: false } }));
  };
  // localhost: the cross-site frames of frame-errors.html and xframe.html (another site than 127.0.0.1).
  ({ server, chrome, session, profileDir } = await openAttached({ prefix: 'aite-attach-net-', profile: setDownloads, allow: (s) => [s.origin, crossSite(s.origin)] }));
});

afterAll(() => closeAttached({ server, chrome, session, profileDir }));

describe('attach mode: the network, page errors and downloads through chrome.debugger', () => {
  it('[ATT-NETWORK] the run tab\u2019s requests are listed with method, status, type and timing, as session events too', async () => {
    const heard: NetworkEntry[] = [];
    session.on('request', (entry) => heard.push(entry));
    // The run's tab first: what a new tab asks for before the debugger attaches is not heard
    // (Chrome cannot hold a new tab for an extension), and slow.html fetches as it loads.
    await session.tab.navigate(page('buttons.html'));
    await session.tab.navigate(page('slow.html?ms=400'));
    await session.verify.text('Done');
    await expect.poll(() => session.network.find((r) => r.url === page('slow.html?ms=400')), POLL).toMatchObject({ method: 'GET', status: 200, type: 'document' });
    await expect.poll(() => session.network.find((r) => r.url === page('slow?ms=400')), POLL).toMatchObject({ method: 'GET', status: 200, type: 'fetch' });
    const fetched = session.network.find((r) => r.url === page('slow?ms=400'))!;
    // The server held the answer 400 ms: CDP's own timestamps say so.
    expect(fetched.ms).toBeGreaterThanOrEqual(350);
    expect(fetched.ms).toBeLessThan(5_000);
    expect(heard).toContainEqual(fetched);
  });

  it('[ATT-PAGE-ERRORS] console.error, console.warn and a 404 script are recorded, each once, beside the relay\u2019s uncaught errors', async () => {
    const before = session.consoleErrors.length;
    const seen: PageError[] = [];
    session.on('pageError', (e) => seen.push(e));
    await session.tab.navigate(page('broken-load.html'));
    const texts = (kind: PageError['kind']): string => session.consoleErrors.slice(before).filter((e) => e.kind === kind).map((e) => e.text).join('\n');
    await expect.poll(() => texts('console-error'), POLL).toMatch(/^the config did not load$/m);
    await expect.poll(() => texts('console-warning'), POLL).toMatch(/^deprecated option used$/m);
    await expect.poll(() => texts('resource'), POLL).toMatch(/status of 404 .*missing-bundle\.js/);
    await expect.poll(() => texts('error'), POLL).toMatch(/thrown while the page parses/);
    const mine = session.consoleErrors.slice(before);
    expect(mine.filter((e) => e.kind === 'console-error' && e.text === 'the config did not load')).toHaveLength(1);
    // The failed load once: the relay's copy is not added in a tab the debugger holds.
    expect(mine.filter((e) => e.kind === 'resource' && /missing-bundle\.js/.test(e.text))).toHaveLength(1);
    expect(mine.find((e) => e.text === 'the config did not load')).toMatchObject({ url: page('broken-load.html'), source: expect.stringMatching(/broken-load\.html:\d+$/) });
    expect(seen.length).toBeGreaterThanOrEqual(4);
    await expect.poll(() => session.network.find((r) => r.url === page('missing-bundle.js')), POLL).toMatchObject({ status: 404, type: 'script' });
  });

  it('[ATT-NET-FAILED-STEP] a step that fails after a fetch answered 500 lists that request in its detail', async () => {
    // The page saves a moment after the verify began, so the failing fetch is that step's.
    await session.evaluate(`setTimeout(() => document.getElementById('save').click(), 300)`);
    const error = await failure(session.verify.targetText({ css: '#result' }, 'Stored', { timeoutMs: 2_000 }));
    expect(error.reason).toBe('mismatch');
    expect(error.message).toMatch(/Error 500/);
    expect((error.detail.failedRequests as NetworkEntry[] | undefined)?.map((r) => `${r.method} ${r.status} ${r.type} ${r.url}`)).toContain(`GET 500 fetch ${page('status/500?ms=200')}`);
  });

  it('[ATT-PERR-FRAMES] a same-origin and a cross-site (out-of-process) frame: their console errors, uncaught errors, rejections and failed requests are the run\u2019s too, each once', async () => {
    const before = session.consoleErrors.length;
    await session.tab.navigate(page('frame-errors.html'));
    const lines = (): string[] => session.consoleErrors.slice(before).map((e) => `${e.kind}: ${e.text.split('\n')[0]}`);
    for (const host of ['127.0.0.1', 'localhost']) {
      await expect
        .poll(lines, { ...POLL, message: host })
        .toEqual(
          expect.arrayContaining([
            expect.stringMatching(new RegExp(`^console-error: frame console ${host}`)),
            expect.stringMatching(new RegExp(`^error: .*frame uncaught ${host}`)),
            expect.stringMatching(new RegExp(`^rejection: .*frame rejection ${host}`)),
          ]),
        );
    }
    await expect.poll(() => session.network.find((r) => r.url === `${crossSite(server.origin)}/status/503?from=localhost`), POLL).toMatchObject({ status: 503, method: 'GET' });
    await expect.poll(() => session.network.find((r) => r.url === page('status/503?from=127.0.0.1')), POLL).toMatchObject({ status: 503 });
    // Each once.
    for (const host of ['127.0.0.1', 'localhost']) {
      expect(lines().filter((l) => l.includes(`frame uncaught ${host}`))).toHaveLength(1);
      expect(lines().filter((l) => l.includes(`frame console ${host}`))).toHaveLength(1);
    }
    const origins = [server.origin, crossSite(server.origin)];
    expect(origins.map((o) => session.network.filter((r) => r.url === `${o}/frame-errors-inner.html`).length)).toEqual([1, 1]);
  });

  it('[ATT-NETWORK-IDLE] waitForNetworkIdle waits for a slow fetch begun by a click; one that outlasts the timeout fails, naming it', async () => {
    await session.tab.navigate(page('slow.html?ms=900'));
    await session.verify.text('Done');
    await session.click('Load again');
    const started = performance.now();
    const idle = await session.waitForNetworkIdle({ idleMs: 200 });
    expect(idle.ok).toBe(true);
    // The fetch was answered before the wait ended, and the wait lasted about as long as it.
    expect(await session.evaluate<number>('window.__loads')).toBe(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(500);
    await session.tab.navigate(page('slow.html?ms=4000'));
    const busy = await failure(session.waitForNetworkIdle({ idleMs: 200, timeoutMs: 1_000 }));
    expect(busy.reason).toBe('timeout');
    expect(busy.message).toMatch(/did not go idle within 1000 ms \(1 in flight: .*\/slow\?ms=4000\)/);
  });

  it('[ATT-NET-IDLE-LEFT] a request still in flight when the tab loads another page is not waited for after it', async () => {
    await session.tab.navigate(page('slow.html?ms=4000'));
    await session.tab.navigate(page('buttons.html'));
    const idle = await session.waitForNetworkIdle({ idleMs: 200, timeoutMs: 2_000 });
    expect(idle.ok).toBe(true);
  });

  for (const origin of ['same', 'other'] as const) {
    it(`[ATT-NET-IDLE-OOPIF] waitForNetworkIdle waits for a request of a ${origin === 'same' ? 'same-origin' : 'cross-site (out-of-process)'} iframe`, async () => {
      // frame-set.html holding slow.html (which fetches /slow?ms=3000 after its load) as the iframe "report".
      const src = `${origin === 'other' ? '{other}/' : ''}slow.html?ms=3000`;
      await session.tab.navigate(page(`frame-set.html?html=${encodeURIComponent(`<iframe name="report" src="${src}"></iframe>`)}`));
      const started = Date.now();
      await session.waitForNetworkIdle({ idleMs: 200, timeoutMs: 10_000 });
      const waited = Date.now() - started;
      // The frame's fetch had ended when the wait did: its page says so at once (within a second
      // for a busy machine; an idle that passed over the fetch would leave it two more to go).
      await session.verify.text('Done', { within: { css: 'body', frame: 'report' }, timeoutMs: 1_000 });
      // On a loaded machine navigate can return a second or more into the fetch: what is left of
      // it is still well over half a second.
      expect(waited).toBeGreaterThan(500);
    });

    it(`[ATT-NET-IDLE-FRAME-REMOVED] a ${origin === 'same' ? 'same-origin' : 'cross-site (out-of-process)'} iframe removed while its request hangs is not waited for`, async () => {
      const src = `${origin === 'other' ? '{other}/' : ''}slow.html?ms=30000`;
      await session.tab.navigate(page(`frame-set.html?html=${encodeURIComponent(`<iframe name="report" src="${src}"></iframe>`)}`));
      // The frame's request is in flight: the network is not idle.
      const busy = await failure(session.waitForNetworkIdle({ idleMs: 200, timeoutMs: 1_000 }));
      expect(busy.message).toMatch(/in flight: .*\/slow\?ms=30000/);
      await session.evaluate(`document.querySelector('iframe').remove()`);
      const started = Date.now();
      await session.waitForNetworkIdle({ idleMs: 200, timeoutMs: 5_000 });
      expect(Date.now() - started).toBeLessThan(3_000);
    });
  }

  it('[ATT-DOWNLOAD] download answers the file the click started, its name and size; saveAs gets a copy', async () => {
    await session.tab.navigate(page('files.html'));
    const kept = await session.download('Export CSV');
    expect(kept).toMatchObject({ suggestedFilename: 'report.csv', bytes: 18, url: page('report.csv') });
    expect(dirname(kept.path)).toBe(downloadDir);
    expect(await readFile(kept.path, 'utf8')).toBe('id,amount\n1,4\n2,5\n');
    const saveAs = join(profileDir, 'out', 'nested', 'export.csv');
    const copied = await session.download('Export CSV', { saveAs });
    expect(copied).toMatchObject({ path: saveAs, suggestedFilename: 'report.csv', bytes: 18 });
    expect(await readFile(saveAs, 'utf8')).toBe('id,amount\n1,4\n2,5\n');
  });

  it('[ATT-DOWNLOAD] a click that starts no download fails within the timeout, saying so; the next step works', async () => {
    const started = performance.now();
    const none = await failure(session.download('Not a download', { timeoutMs: 1_500 }));
    expect(none.reason).toBe('timeout');
    expect(none.message).toMatch(/started no download within 1500 ms/);
    expect(performance.now() - started).toBeLessThan(1_500 + 2_000);
    await session.verify.title('Counter');
  });
});
