import { describe, expect, it } from 'vitest';
import { Connection } from 'puppeteer-core/internal/cdp/Connection.js';
import type { RetryInfo } from '../../src/sdk/index.js';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';
import { overSocket as overSocketOf } from './support/overSocket.js';
import { runPage } from './support/runPage.js';
import { reloadExtension } from './support/worker.js';

// Page commands over the debugging pipe, straight to the content script's isolated world
// (sdk/session/pipe/ContentWorld.ts), beside the extension's socket: the same answers, the same
// rules, and the worker's path whenever the pipe cannot carry one.
const ctx = useSession();

/** The CDP methods the runner sends while `work` runs. */
async function cdpSent<T>(work: () => Promise<T>): Promise<{ value: T; methods: string[] }> {
  const methods: string[] = [];
  const raw = Connection.prototype._rawSend;
  Connection.prototype._rawSend = function (this: Connection, ...args: Parameters<typeof raw>) {
    methods.push(args[1]);
    return raw.apply(this, args);
  } as typeof raw;
  try {
    return { value: await work(), methods };
  } finally {
    Connection.prototype._rawSend = raw;
  }
}

/** `work` with every request over the extension's socket. */
const overSocket = <T>(work: () => Promise<T>): Promise<T> => overSocketOf(ctx.session, work);

/** The counter page, its value moved on by one click. */
async function openCounter(): Promise<void> {
  await ctx.session.tab.navigate(ctx.page('counter.html'));
  await ctx.session.click({ text: 'Increment' });
  await ctx.session.verify.targetText({ css: '#value' }, '11');
}

describe('page commands over the pipe', () => {
  it('[PIPE-PAGE-DIRECT] read, verify and resolve of the top document go over the pipe and answer as over the socket', async () => {
    await openCounter();
    const steps: Record<string, () => Promise<object>> = {
      read: () => ctx.session.locator.read({ css: '#value' }),
      verify: () => ctx.session.verify.text('Increment'),
      resolve: () => ctx.session.locator.resolve({ text: 'Increment' }),
    };
    for (const [name, step] of Object.entries(steps)) {
      const piped = await cdpSent(step);
      expect(piped.methods, name).toContain('Runtime.callFunctionOn');
      const socket = await cdpSent(() => overSocket(step));
      expect(socket.methods, name).not.toContain('Runtime.callFunctionOn');
      // Each answer carries its own request id; all else is the same.
      expect({ ...piped.value, id: 0 }, name).toEqual({ ...socket.value, id: 0 });
    }
    // A failure is the same failure, with its reason and sentence.
    const piped = await failure(ctx.session.verify.text('Never on the page', { timeoutMs: 300 }));
    const socket = await failure(overSocket(() => ctx.session.verify.text('Never on the page', { timeoutMs: 300 })));
    expect(piped.reason).toBe('mismatch');
    // How long each waited is measured, so a millisecond either way is no difference.
    const sentence = (e: { message: string }) => e.message.split('\n')[0]?.replace(/waited \d+ ms/, 'waited N ms');
    expect([piped.reason, sentence(piped)]).toEqual([socket.reason, sentence(socket)]);
  });

  it('[PIPE-PAGE-INVALID] a request the protocol refuses is refused before it reaches the page, on either path', async () => {
    await openCounter();
    const bad = { cmd: 'read', target: { css: '#value', colour: 'red' }, tab: ctx.session.tab.current! } as never;
    const { value: piped, methods } = await cdpSent(() => failure(ctx.session.bridge.request(bad)));
    expect(piped.reason).toBe('unsupported');
    expect(methods).not.toContain('Runtime.callFunctionOn');
  });

  it('[PIPE-PAGE-NAVIGATED] a verify whose page navigates under it is sent again to the new page through the worker, counted; a wait fails navigation', async () => {
    await openCounter();
    const page = await runPage(ctx.session);
    const verifying = cdpSent(async () => {
      const answer = ctx.session.verify.text('Arrived', { timeoutMs: 10_000 });
      await page.evaluate((url) => setTimeout(() => (location.href = url), 100), ctx.page('navigated.html'));
      return answer;
    });
    const { value: seen, methods } = await verifying;
    expect(methods).toContain('Runtime.callFunctionOn');
    expect(seen).toMatchObject({ ok: true, retries: 1 });

    await openCounter();
    const again = await runPage(ctx.session);
    const waiting = failure(ctx.session.locator.wait('visible', { target: { text: 'Never there' }, timeoutMs: 10_000 }));
    await again.evaluate((url) => setTimeout(() => (location.href = url), 100), ctx.page('counter.html'));
    const error = await waiting;
    expect(error.reason).toBe('navigation');
    expect(error.message).toMatch(/^The page navigated during wait\./);
  });

  it('[PIPE-PAGE-RESEND-COUNTED] a verify re-sent after its page navigated under the pipe is counted even when the new page never answers it', async () => {
    await openCounter();
    const page = await runPage(ctx.session);
    const resent: RetryInfo[] = [];
    const onRetry = (info: RetryInfo): void => void resent.push(info);
    ctx.session.bridge.on('retry', onRetry);
    const before = ctx.session.retries.byCommand.verify ?? 0;
    try {
      // The new page holds its main thread from its load on (longer than the verify's time): the
      // re-sent verify gets no answer. The time leaves a loaded machine room to navigate first.
      const { value: error, methods } = await cdpSent(async () => {
        const verifying = failure(ctx.session.verify.text('Never there', { timeoutMs: 2_500 }));
        await page.evaluate((url) => setTimeout(() => (location.href = url), 100), ctx.page('busy.html?busyOnLoad=5000'));
        return verifying;
      });
      expect(methods).toContain('Runtime.callFunctionOn');
      expect(error.reason).toBe('timeout');
      expect(error.retries).toBe(1);
      expect(error.callLog).toContain('    verify was re-sent 1 time(s)');
      expect((ctx.session.retries.byCommand.verify ?? 0) - before).toBe(1);
      expect(resent).toMatchObject([{ cmd: 'verify', retries: 1, why: 'navigation' }]);
    } finally {
      ctx.session.bridge.off('retry', onRetry);
    }
    // The page is free again once its script is done.
    await ctx.session.verify.text('done', { timeoutMs: 10_000 });
  });

  it('[PIPE-PAGE-FIRST] a tab the run just switched to, never given input, gets its page commands over the pipe at once', async () => {
    await ctx.session.tab.navigate(ctx.page('popup.html'));
    await ctx.session.click({ text: 'Open payment' });
    await ctx.session.tab.switchTo({ urlContains: 'pay.html' });
    try {
      const { value, methods } = await cdpSent(() => ctx.session.locator.read({ css: '#status' }));
      expect(value.text).toBe('Not paid');
      expect(methods).toContain('Runtime.callFunctionOn');
    } finally {
      await ctx.session.tab.close();
    }
  });

  it('[PIPE-PAGE-FRAME] a target inside a frame is the worker\u2019s to route: nothing goes over the pipe', async () => {
    await ctx.session.tab.navigate(ctx.page('frame.html'));
    await ctx.session.click({ text: 'Outer button' });
    const { methods } = await cdpSent(() => ctx.session.locator.read({ css: 'button', frame: 'iframe' }));
    expect(methods).not.toContain('Runtime.callFunctionOn');
  });

  it('[PIPE-PAGE-RELOAD] the extension reloaded during a wait over the pipe: the wait is answered, and the run goes on', async () => {
    await ctx.session.tab.navigate(ctx.page('textchange.html?ms=50'));
    await ctx.session.click({ text: 'Start' });
    await ctx.session.verify.text('Finished');
    const hellos: unknown[] = [];
    ctx.session.bridge.on('hello', (h) => hellos.push(h));
    const waiting = ctx.session.locator.wait('visible', { target: { text: 'Finished (2)' }, timeoutMs: 15_000 });
    waiting.catch(() => undefined);
    await reloadExtension(ctx.session.browser!);
    await expect.poll(() => hellos.length, { timeout: 15_000 }).toBe(1);
    // Found without a bridge request: one would wait behind the wait under test.
    const page = (await ctx.session.browser!.pages()).find((p) => p.url().startsWith(ctx.page('textchange.html')))!;
    await page.click('#start');
    await expect(waiting).resolves.toMatchObject({ ok: true });
    await ctx.session.verify.text('Finished (2)');
  });
});
