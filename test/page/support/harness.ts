import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { extensionZod } from '../../../build/extensionZodPlugin.js';
import type { PageAnswer, PageFailureAnswer, PageRequest } from '../../../src/extension/content/PageCommands.js';
import { serveFolder, type StaticServer } from './server.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
export const REPO = resolve(HERE, '../../..');
export const PAGES = resolve(HERE, '../pages');

export const CHROME_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--window-size=1280,800',
];

/** A request as a test writes it: the id defaults to 1. */
export type Req = PageRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> & { id?: number } : never) : never;
export type Answer = PageAnswer | PageFailureAnswer;

/** The page logic bundled for a plain page, with the extension's zod: `window.__aitePage` exposes PageCommands' exports. */
export async function buildPageBundle(): Promise<string> {
  const out = await build({
    entryPoints: [join(REPO, 'src/extension/content/PageCommands.ts')],
    bundle: true,
    format: 'iife',
    globalName: '__aitePage',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    logLevel: 'silent',
    plugins: [extensionZod],
  });
  return out.outputFiles[0]!.text;
}

export function launchChromium(extra: { userDataDir: string; enableExtensions?: boolean }): Promise<Browser> {
  return puppeteer.launch({
    executablePath: process.env.AITE_CHROME ?? '/usr/bin/chromium',
    headless: true,
    pipe: true,
    userDataDir: extra.userDataDir,
    args: CHROME_ARGS,
    defaultViewport: { width: 1280, height: 800 },
    ...(extra.enableExtensions ? { enableExtensions: true } : {}),
  });
}

/** One browser, one static server and the page bundle for a test file. */
export class PageHarness {
  browser!: Browser;
  server!: StaticServer;
  bundle!: string;
  #dir = '';

  async start(): Promise<void> {
    this.#dir = mkdtempSync(join(tmpdir(), 'aite-page-'));
    const [bundle, server, browser] = await Promise.all([buildPageBundle(), serveFolder(PAGES), launchChromium({ userDataDir: this.#dir })]);
    this.bundle = bundle;
    this.server = server;
    this.browser = browser;
  }

  async stop(): Promise<void> {
    await this.browser?.close().catch(() => undefined);
    await this.server?.close();
    if (this.#dir) rmSync(this.#dir, { recursive: true, force: true });
  }

  /** Opens a test page with the page logic loaded, and a `run` that sends it one request. */
  async open(path: string): Promise<TestPage> {
    const page = await this.browser.newPage();
    const t = new TestPage(page, this);
    page.on('pageerror', (e) => t.errors.push(e instanceof Error ? e.message : String(e)));
    await t.load(path);
    return t;
  }
}

export class TestPage {
  /** Uncaught errors of the page (a test page must have none). */
  readonly errors: string[] = [];

  constructor(
    readonly page: Page,
    readonly harness: PageHarness,
  ) {}

  run<A extends Answer = Answer>(req: Req): Promise<A & Record<string, unknown>> {
    const full = { id: 1, ...req };
    return this.page.evaluate((r) => (window as unknown as { __aitePage: { handlePageRequest(x: unknown): Promise<unknown> } }).__aitePage.handlePageRequest(r), full as unknown as Record<string, unknown>) as Promise<A & Record<string, unknown>>;
  }

  /** Runs a request that must succeed, returning its answer. */
  async ok<A extends Answer = Answer>(req: Req): Promise<A & Record<string, unknown>> {
    const a = await this.run<A>(req);
    if (!a.ok) throw new Error(`expected ok, got ${JSON.stringify(a)}`);
    return a;
  }

  /** Runs a request that must fail, returning the failure. */
  async fail(req: Req): Promise<PageFailureAnswer> {
    const a = await this.run(req);
    if (a.ok) throw new Error(`expected a failure, got ${JSON.stringify(a)}`);
    return a as PageFailureAnswer;
  }

  /**
   * Opens a test page in this same tab, with the page logic loaded: a new document, as fresh as
   * {@link PageHarness.open}'s, without the cost of a new tab. Its errors start empty.
   */
  async load(path: string): Promise<void> {
    this.errors.length = 0;
    await this.page.goto(`${this.harness.server.origin}/${path}`, { waitUntil: 'load' });
    await this.page.addScriptTag({ content: this.harness.bundle });
  }

  /** Reloads the page and the page logic (a new document, so a new documentId). */
  async reload(): Promise<void> {
    await this.page.reload({ waitUntil: 'load' });
    await this.page.addScriptTag({ content: this.harness.bundle });
  }

  /** A value from the page's own `window.counts` (the test pages count what they receive). */
  counts(): Promise<Record<string, number>> {
    return this.page.evaluate(() => ({ ...(window as unknown as { counts: Record<string, number> }).counts }));
  }

  close(): Promise<void> {
    return this.page.close();
  }
}
