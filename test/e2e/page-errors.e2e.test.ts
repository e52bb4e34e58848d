import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkEntry, PageError } from '../../src/sdk/index.js';
import { failure } from './support/failure.js';
import { readFirstDocument } from '../../src/sdk/session/pipe/PipePages.js';
import { useSession } from './support/harness.js';

// A server as most are: no icon link in its page, and /favicon.ico answered 404 (late, so it
// comes while the next step runs). The fixture server answers 204 to keep it out of the way.
let bare: Server;
let bareOrigin = '';
beforeAll(async () => {
  bare = createServer((req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Bare</title><p id="state">loading</p><script>setTimeout(() => fetch("/missing.json"), 300)</script>');
    } else if (req.url === '/favicon.ico') {
      setTimeout(() => res.writeHead(404).end('no icon'), 600);
    } else {
      res.writeHead(404).end('not here');
    }
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  bareOrigin = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => bare.close(() => resolve())));

// localhost: another site than the fixture server's 127.0.0.1, for cross-site (out-of-process) frames.
const ctx = useSession({ extraAllow: () => [bareOrigin, ctx.server.origin.replace('127.0.0.1', 'localhost')] });
const seen: PageError[] = [];
const requests: NetworkEntry[] = [];

describe('page errors and the network log, over the pipe', () => {
  it('[PERR-LOAD, PERR-CONSOLE, PERR-RESOURCE] a page that throws while it parses, logs errors and 404s a script: all of it, from the first line', async () => {
    ctx.session.on('pageError', (e) => seen.push(e));
    ctx.session.on('request', (r) => requests.push(r));
    await ctx.session.tab.navigate(ctx.page('broken-load.html'));
    const texts = (kind: PageError['kind']): string => ctx.session.consoleErrors.filter((e) => e.kind === kind).map((e) => e.text).join('\n');
    await expect.poll(() => texts('error')).toMatch(/thrown in setTimeout 0/);
    expect(texts('error')).toMatch(/thrown while the page parses/);
    expect(texts('error')).toMatch(/thrown at DOMContentLoaded/);
    expect(texts('rejection')).toMatch(/nobody catches this/);
    await expect.poll(() => texts('console-error')).toMatch(/^the config did not load$/m);
    await expect.poll(() => texts('console-warning')).toMatch(/^deprecated option used$/m);
    await expect.poll(() => texts('resource')).toMatch(/status of 404 .*missing-bundle\.js/);
    expect(ctx.session.consoleErrors.filter((e) => e.url !== undefined).every((e) => e.url === ctx.page('broken-load.html'))).toBe(true);
    // Each once: the extension's relay does not add its copies over the pipe.
    expect(ctx.session.consoleErrors.filter((e) => /thrown while the page parses/.test(e.text))).toHaveLength(1);
    expect(seen.length).toBe(ctx.session.consoleErrors.length);
    // A later navigation's document is logged too.
    await ctx.session.tab.reload();
    await expect.poll(() => ctx.session.network.find((r) => r.url === ctx.page('broken-load.html'))).toMatchObject({ status: 200, type: 'document', method: 'GET' });
    await expect.poll(() => ctx.session.network.find((r) => r.url.endsWith('/missing-bundle.js'))).toMatchObject({ method: 'GET', status: 404, type: 'script' });
    // The relay's page errors of the reloaded page, once each again.
    await expect.poll(() => ctx.session.consoleErrors.filter((e) => /thrown while the page parses/.test(e.text)).length).toBe(2);
  });

  it('[NET-FAILED-STEP] a step that fails after a fetch answered 500 lists that request, and the session.network log has it with its timing', async () => {
    await ctx.session.click('Save');
    const error = await failure(ctx.session.verify.targetText({ css: '#result' }, 'Stored', { timeoutMs: 2_000 }));
    expect(error.reason).toBe('mismatch');
    // The click's step ended before the answer came; the verify waited while it failed.
    const failed = (error.detail.failedRequests ?? []) as NetworkEntry[];
    const logged = ctx.session.network.find((r) => r.url.endsWith('/status/500?ms=200'));
    expect(logged).toMatchObject({ method: 'GET', status: 500, type: 'fetch' });
    expect(logged!.ms).toBeGreaterThanOrEqual(0);
    expect(requests).toContainEqual(logged);
    expect(failed).toContainEqual(logged);
    const again = await failure(
      (async () => {
        await ctx.session.click('Save');
        await ctx.session.verify.targetText({ css: '#result' }, 'Stored', { timeoutMs: 2_000 });
      })(),
    );
    expect((again.detail.failedRequests as NetworkEntry[]).map((r) => `${r.method} ${r.status} ${r.url}`)).toContain(`GET 500 ${ctx.page('status/500?ms=200')}`);
  });

  it('[NET-FAVICON] a step after a navigation lists the page\u2019s failed fetch, not Chrome\u2019s own /favicon.ico 404 (which session.network still logs)', async () => {
    await ctx.session.tab.navigate(`${bareOrigin}/`);
    const error = await failure(ctx.session.verify.targetText({ css: '#state' }, 'ready', { timeoutMs: 2_000 }));
    const favicon = ctx.session.network.find((r) => r.url === `${bareOrigin}/favicon.ico`);
    expect(favicon).toMatchObject({ status: 404, type: 'other' });
    // Nor is it a page error, while the page's own 404 is.
    await expect.poll(() => ctx.session.consoleErrors.some((e) => e.kind === 'resource' && e.text.includes(`${bareOrigin}/missing.json`))).toBe(true);
    await ctx.session.evaluate('1');
    expect(ctx.session.consoleErrors.filter((e) => e.text.includes('favicon.ico'))).toEqual([]);
    const failed = ((error.detail.failedRequests ?? []) as NetworkEntry[]).map((r) => `${r.status} ${r.url}`);
    expect(failed).toEqual([`404 ${bareOrigin}/missing.json`]);
  });

  it('[PERR-HOSTILE] a page that replaced dispatchEvent, CustomEvent or JSON, or deleted the array iterator, still has its errors reported, and never sees one of aite\u2019s', async () => {
    for (const k of ['dispatch', 'json', 'symbol']) {
      await ctx.session.tab.navigate(ctx.page(`hostile-globals.html?k=${k}`));
      const before = ctx.session.consoleErrors.length;
      await ctx.session.click('Throw');
      await ctx.session.click('Reject');
      const fresh = (): string[] => ctx.session.consoleErrors.slice(before).map((e) => `${e.kind}: ${e.text.split('\n')[0]}`);
      await expect.poll(fresh, { message: k }).toEqual(expect.arrayContaining([expect.stringMatching(/^error: Uncaught Error: boom from handler/), expect.stringMatching(/^rejection: Uncaught \(in promise\) Error: async boom/)]));
      // The page's own handler saw its error, and nothing of aite's.
      expect(await ctx.session.evaluate(() => (window as unknown as { caught: string[] }).caught), k).toEqual(['Uncaught Error: boom from handler']);
    }
  });

  it('[PERR-FRAMES, PERR-CONSOLE-OBJECT] a same-origin and a cross-site frame: their console errors, uncaught errors, rejections and requests are the run\u2019s too; an object logged reads as its preview', async () => {
    const before = ctx.session.consoleErrors.length;
    await ctx.session.tab.navigate(ctx.page('frame-errors.html'));
    const cross = ctx.server.origin.replace('127.0.0.1', 'localhost');
    const lines = (): string[] => ctx.session.consoleErrors.slice(before).map((e) => `${e.kind}: ${e.text.split('\n')[0]}`);
    for (const host of ['127.0.0.1', 'localhost']) {
      await expect
        .poll(lines, { message: host })
        .toEqual(
          expect.arrayContaining([
            `console-error: frame console ${host} {a: 1, b: 'x'} [1, 2]`,
            expect.stringMatching(new RegExp(`^error: Uncaught Error: frame uncaught ${host}`)),
            expect.stringMatching(new RegExp(`^rejection: Uncaught \\(in promise\\) Error: frame rejection ${host}`)),
          ]),
        );
    }
    await expect.poll(() => ctx.session.network.find((r) => r.url === `${cross}/status/503?from=localhost`)).toMatchObject({ status: 503, method: 'GET' });
    await expect.poll(() => ctx.session.network.find((r) => r.url === ctx.page('status/503?from=127.0.0.1'))).toMatchObject({ status: 503 });
    // Each once.
    expect(lines().filter((l) => l.includes('frame uncaught localhost'))).toHaveLength(1);
  });

  it('[PERR-CAP] a page that throws 60 errors per load and reloads itself twice keeps at most 100 per step, and says so', async () => {
    await ctx.session.evaluate('sessionStorage.clear()');
    const before = ctx.session.consoleErrors.length;
    await ctx.session.tab.navigate(ctx.page('error-loop.html'));
    await ctx.session.verify.targetText({ css: '#loads' }, 'done', { timeoutMs: 10_000 });
    await expect.poll(() => ctx.session.consoleErrors.slice(before).some((e) => /more than 100 page errors in this step/.test(e.text))).toBe(true);
    const loops = ctx.session.consoleErrors.slice(before).filter((e) => /loop \d/.test(e.text));
    expect(loops.length).toBeLessThanOrEqual(200);
    expect(loops.length).toBeLessThan(180);
  });

  it('[NET-NEW-TAB] a new tab\u2019s first document is in the log (a link\u2019s target=_blank, window.open), and the tab is not left paused', async () => {
    await ctx.session.tab.navigate(ctx.page('popup.html'));
    const opener = ctx.session.tab.current;
    await ctx.session.click({ text: 'Payment page (link)' });
    const pay = await ctx.session.tab.switchTo({ urlContains: 'via=link' });
    await ctx.session.verify.exists({ text: 'Pay now' });
    await expect.poll(() => ctx.session.network.find((r) => r.url === ctx.page('pay.html?via=link'))).toMatchObject({ method: 'GET', status: 200, type: 'document' });
    // And by window.open, whose tab starts at about:blank.
    await ctx.session.tab.close();
    expect(ctx.session.tab.current).toBe(opener);
    await ctx.session.click({ text: 'Open payment' });
    await ctx.session.tab.switchTo({ urlContains: '/pay.html' });
    await ctx.session.verify.exists({ text: 'Pay now' });
    await expect.poll(() => ctx.session.network.find((r) => r.url === ctx.page('pay.html'))).toMatchObject({ status: 200, type: 'document' });
    expect(pay.tab).not.toBe(ctx.session.tab.current);
    await ctx.session.tab.close();
  });

  it('[NET-NEW-TAB] a new tab\u2019s first document read from its navigation timing is the browser\u2019s, whatever the page put in place of performance', async () => {
    // The page forges its navigation timing in its own world, as it loads.
    await ctx.session.tab.navigate(ctx.page('forged-timing.html'));
    expect(await ctx.session.evaluate('performance.getEntriesByType("navigation")[0].name')).toBe('https://forged.example/');
    const page = (await ctx.session.browser!.pages()).find((p) => p.url() === ctx.page('forged-timing.html'))!;
    const cdp = await page.createCDPSession();
    try {
      expect(await readFirstDocument(cdp)).toMatchObject({ url: ctx.page('forged-timing.html'), status: 200 });
    } finally {
      await cdp.detach();
    }
  });

  it('[PERR-HIDDEN] a page cannot find aite: the run\u2019s page has the same own globals as that page where aite does not run, and no __aitePageErrorRelay', async () => {
    await ctx.session.tab.navigate(ctx.page('broken-load.html'));
    const globals = (): string[] => Object.getOwnPropertyNames(window).sort();
    expect(await ctx.session.evaluate(() => '__aitePageErrorRelay' in window)).toBe(false);
    const seen = (await ctx.session.evaluate(globals)) as string[];
    expect(seen.filter((name) => /aite|relay/i.test(name))).toEqual([]);
    // localhost is not on the allow list: the extension does not run there.
    const plain = await ctx.session.browser!.newPage();
    try {
      await plain.goto(ctx.page('broken-load.html').replace('127.0.0.1', 'localhost'), { waitUntil: 'load' });
      expect(seen).toEqual(await plain.evaluate(globals));
    } finally {
      await plain.close();
    }
  });
});
