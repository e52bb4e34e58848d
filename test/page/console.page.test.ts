import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, WebWorker } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTestExtension } from './support/extension.js';
import { launchChromium, PAGES } from './support/harness.js';
import { serveFolder, type StaticServer } from './support/server.js';

// main.ts in a real extension: the message contract with the worker, the guard against a
// second injection, and page errors reaching the worker through the main-world relay.

let dir = '';
let browser: Browser;
let server: StaticServer;
let worker: WebWorker;
let page: Page;
let tab = 0;

interface ConsoleEvent {
  type: string;
  kind: string;
  level: string;
  text: string;
  tab: number;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'aite-content-ext-'));
  const ext = await writeTestExtension(join(dir, 'ext'));
  server = await serveFolder(PAGES);
  browser = await launchChromium({ userDataDir: join(dir, 'profile'), enableExtensions: true });
  const id = await browser.installExtension(ext);
  const target = await browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().includes(id));
  worker = (await target.worker())!;
  page = await browser.newPage();
  await page.goto(`${server.origin}/console.html`, { waitUntil: 'load' });
  tab = await worker.evaluate((u) => (self as unknown as { tabIdOf(u: string): Promise<number> }).tabIdOf(u), '/console.html');
});

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function ask(message: unknown): Promise<Record<string, unknown>> {
  return worker.evaluate((t, m) => (self as unknown as { ask(t: number, m: unknown): Promise<Record<string, unknown>> }).ask(t, m), tab, message);
}

function events(): Promise<ConsoleEvent[]> {
  return worker.evaluate(() => (self as unknown as { events: ConsoleEvent[] }).events);
}

async function eventsWhen(count: number): Promise<ConsoleEvent[]> {
  await worker.evaluate(
    (n) =>
      new Promise<void>((resolve, reject) => {
        const give = setTimeout(() => reject(new Error(`fewer than ${n} console events`)), 5000);
        const poll = (): void => {
          if ((self as unknown as { events: unknown[] }).events.length >= n) {
            clearTimeout(give);
            resolve();
          } else setTimeout(poll, 10);
        };
        poll();
      }),
    count,
  );
  return events();
}

describe('content script in a real extension', () => {
  it('answers a page command sent by the worker', async () => {
    const a = await ask({ aite: 1, request: { id: 5, cmd: 'resolve', target: { text: 'Go' } } });
    expect(a).toMatchObject({ id: 5, ok: true, matches: 1, via: 'exact', descriptor: { tag: 'button', id: 'go' } });
    const f = await ask({ aite: 1, request: { id: 6, cmd: 'read', target: { css: '#nope' }, timeoutMs: 100 } });
    expect(f).toMatchObject({ id: 6, ok: false, reason: 'not-found' });
  });

  it('answers the actDispatched query', async () => {
    const d = (await ask({ aite: 1, request: { id: 7, cmd: 'resolve', target: { text: 'Go' } } })).descriptor;
    expect(await ask({ aite: 1, query: 'actDispatched', id: 8 })).toEqual({ dispatched: null });
    expect(await ask({ aite: 1, request: { id: 8, cmd: 'act', action: 'click', descriptor: d } })).toEqual({ id: 8, ok: true });
    expect(await ask({ aite: 1, query: 'actDispatched', id: 8 })).toMatchObject({ dispatched: { id: 8, action: 'click' } });
  });

  it('reports page errors and unhandled rejections with message and stack, through the main-world relay', async () => {
    const before = (await events()).length;
    await page.evaluate(() => {
      const w = window as unknown as { failLater(m: string): void; rejectLater(m: string): void };
      w.failLater('boom from page');
      w.rejectLater('rejected from page');
    });
    const all = await eventsWhen(before + 2);
    const fresh = all.slice(before);
    expect(fresh.every((e) => e.type === 'event' && e.kind === 'console' && e.level === 'error' && e.tab === tab)).toBe(true);
    const boom = fresh.find((e) => e.text.includes('boom from page'))!;
    expect(boom.text).toMatch(/^Uncaught Error: boom from page \(.*\)\n\s+at throwsBoom/);
    const rejected = fresh.find((e) => e.text.includes('rejected from page'))!;
    expect(rejected.text).toMatch(/^Uncaught \(in promise\) TypeError: rejected from page/);
  });

  it('measured: the isolated world itself receives no event for the page errors', async () => {
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-isolated-errors'))).toBeNull();
  });

  it('a second injection is a no-op: one listener, one answer, one event per error', async () => {
    await worker.evaluate((t) => (self as unknown as { inject(t: number): Promise<unknown> }).inject(t), tab);
    await worker.evaluate((t) => (self as unknown as { inject(t: number): Promise<unknown> }).inject(t), tab);
    expect(await ask({ aite: 1, request: { id: 9, cmd: 'verify', kind: 'title', value: 'Console test' } })).toMatchObject({ id: 9, ok: true });
    const before = (await events()).length;
    await page.evaluate(() => (window as unknown as { failLater(m: string): void }).failLater('after reinjection'));
    await eventsWhen(before + 1);
    // A duplicate would come right behind the first; give it the time a second listener needs.
    await page.evaluate(() => new Promise((r) => setTimeout(r, 200)));
    const again = (await events()).slice(before).filter((e) => e.text.includes('after reinjection'));
    expect(again).toHaveLength(1);
  });

  it('ignores messages that are not for it (no answer)', async () => {
    expect(await ask({ hello: true })).toBeUndefined();
    expect(await ask({ aite: 2, request: { id: 1, cmd: 'read', target: { css: 'button' } } })).toBeUndefined();
  });
});
