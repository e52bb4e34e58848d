import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { GUARD_VERDICT_BINDING } from '../../src/sdk/protocol/index.js';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';
import { runPage } from './support/runPage.js';

// The hit-target guard's verdict, sent one way over the pipe the moment a click's (or a fill's
// text's) last event reaches the element's window (content/guard.ts, pipe/GuardVerdicts.ts): no
// disarm round trip when it came, the disarm when it did not, and never a verdict believed from
// anywhere but the extension's own world.
const ctx = useSession({ timeoutMs: 4_000 });

/** The bridge requests (`cmd` or `cmd.op`) sent while `work` runs; `onResolve` sees each resolve first. */
async function requests<T>(work: () => Promise<T>, onResolve?: (request: { verdict?: { token: string } }) => Promise<void>): Promise<{ value: T; sent: string[] }> {
  const bridge = ctx.session.bridge;
  const sent: string[] = [];
  const original = bridge.request;
  bridge.request = (async (request: { cmd: string; op?: string }) => {
    sent.push(request.op ? `${request.cmd}.${request.op}` : request.cmd);
    if (request.cmd === 'resolve') await onResolve?.(request as never);
    return original.call(bridge, request as never);
  }) as typeof bridge.request;
  try {
    return { value: await work(), sent };
  } finally {
    bridge.request = original;
  }
}

/** The guard requests among them (other requests, such as the run tab's first look for its page, are not these tests' concern). */
/** The runner's own CDP session of `page` (the one the guard's binding was added on). */
const sessionOfPage = (page: Page) => (page as unknown as { _client(): { send(method: string, params: object): Promise<unknown> } })._client();

const guardOps = (sent: string[]): string[] => sent.filter((cmd) => cmd.startsWith('guard'));

const counts = (page: Page) =>
  page.evaluate(() => ({
    saves: (window as unknown as { __saves: number }).__saves,
    deletes: (window as unknown as { __deletes: number }).__deletes,
    pin: (document.getElementById('pin') as HTMLInputElement).value,
  }));

describe('the guard\u2019s verdict over the pipe', () => {
  it('[GUARD-VERDICT] a click and a fill end on the guard\u2019s verdict: no disarm request, the same outcome; the page\u2019s own world has no such function', async () => {
    await ctx.session.tab.navigate(ctx.page('hijack.html?overlay=0&steal=0'));
    const page = await runPage(ctx.session);
    // A verdict that trails the input's acknowledgement by more than the grace (a loaded
    // machine) is asked for with a disarm, which must be rare: five of each, at least one ends
    // on the verdict alone, and every one lands once.
    const ended: Record<string, string[][]> = { click: [], fill: [] };
    for (let i = 1; i <= 5; i++) {
      ended.click!.push(guardOps((await requests(() => ctx.session.click({ text: 'Save settings' }))).sent));
      ended.fill!.push(guardOps((await requests(() => ctx.session.fill({ label: 'PIN' }, `${i}321`))).sent));
    }
    for (const [step, ops] of Object.entries(ended)) {
      expect(ops.filter((o) => o.length === 0).length, step).toBeGreaterThan(0);
      for (const o of ops) expect(o.length === 0 || o.join() === 'guard.disarm', step).toBe(true);
    }
    expect(await counts(page)).toEqual({ saves: 5, deletes: 0, pin: '5321' });
    expect(await page.evaluate((name) => typeof (window as unknown as Record<string, unknown>)[name], GUARD_VERDICT_BINDING)).toBe('undefined');
    // A click the guard stopped is reported by its verdict too: stopped, and (counted) found
    // again, where `locate` names what still covers it.
    await ctx.session.tab.navigate(ctx.page('hijack.html'));
    const hostile = await runPage(ctx.session);
    const acts = ctx.session.retries.byCommand.act ?? 0;
    const stopped = await requests(() => failure(ctx.session.click({ text: 'Save settings' }, { timeoutMs: 1_000 })));
    expect(stopped.value.reason).toBe('not-visible');
    expect(stopped.value.message).toContain('Delete everything');
    expect(stopped.sent.filter((cmd) => cmd !== 'tabs').slice(0, 2)).toEqual(['resolve', 'locate']);
    expect(guardOps(stopped.sent)).toEqual([]);
    expect((ctx.session.retries.byCommand.act ?? 0) - acts).toBe(1);
    expect(await counts(hostile)).toMatchObject({ saves: 0, deletes: 0 });
  });

  it('[GUARD-VERDICT-FALLBACK] a click whose last event the guard never sees (the browser sends none) is judged by the disarm, as before', async () => {
    await ctx.session.tab.navigate(ctx.page('hijack.html?overlay=0&steal=0'));
    const page = await runPage(ctx.session);
    // The page disables the button as it is pressed: the guard sees the press, and the browser
    // sends no click to a disabled button.
    await page.evaluate(() => document.getElementById('save')!.addEventListener('mousedown', (event) => {
      if (event.isTrusted) (event.currentTarget as HTMLButtonElement).disabled = true;
    }));
    const click = await requests(() => ctx.session.click({ text: 'Save settings' }));
    expect(guardOps(click.sent)).toEqual(['guard.disarm']);
    expect(click.value.retries).toBe(0);
    // The page stopped its own click: the button's handler never ran, and nothing was sent twice.
    expect(await counts(page)).toMatchObject({ saves: 0, deletes: 0 });
  });

  it('[GUARD-VERDICT-FORGED] [FAULT-49] a verdict from the page\u2019s main world is not believed, even with the step\u2019s token', async () => {
    await ctx.session.tab.navigate(ctx.page('hijack.html?steal=0'));
    const page = await runPage(ctx.session);
    // A page that had a function of that name, wired to the runner's own session: its calls
    // reach the runner, from the main world. (This and the next test change the session's binding: last in the file.)
    const client = sessionOfPage(page);
    await client.send('Runtime.addBinding', { name: GUARD_VERDICT_BINDING });
    expect(await page.evaluate((name) => typeof (window as unknown as Record<string, unknown>)[name], GUARD_VERDICT_BINDING)).toBe('function');
    // The page learns the step's token (it never can: the test tells it) and, on the first move
    // over the button (when it shows its overlay), says all went well.
    const stopped = await requests(
      () => failure(ctx.session.click({ text: 'Save settings' }, { timeoutMs: 1_000 })),
      async (request) => {
        if (!request.verdict) return;
        await page.evaluate(
          (name, token) => {
            const forge = (window as unknown as Record<string, (json: string) => void>)[name]!;
            document.getElementById('save')!.addEventListener(
              'mousemove',
              () => forge(JSON.stringify({ token, state: { armed: true, focused: false, pressed: true, hovered: true } })),
              { once: true },
            );
          },
          GUARD_VERDICT_BINDING,
          request.verdict.token,
        );
      },
    );
    expect(stopped.value.reason).toBe('not-visible');
    expect(stopped.value.message).toContain('Delete everything');
    expect(await counts(page)).toMatchObject({ saves: 0, deletes: 0 });
  });

  it('[GUARD-VERDICT-FALLBACK] a verdict sent that never reaches the runner: the disarm answers what the guard reported, so a stopped click stays stopped', async () => {
    await ctx.session.tab.navigate(ctx.page('hijack.html?steal=0'));
    const page = await runPage(ctx.session);
    // The runner's session stops hearing the binding; the guard still calls it, and disarms.
    const client = sessionOfPage(page);
    await client.send('Runtime.removeBinding', { name: GUARD_VERDICT_BINDING });
    const stopped = await requests(() => failure(ctx.session.click({ text: 'Save settings' }, { timeoutMs: 1_000 })));
    expect(stopped.value.reason).toBe('not-visible');
    expect(stopped.value.message).toContain('Delete everything');
    expect(guardOps(stopped.sent)).toEqual(['guard.disarm']);
    expect(await counts(page)).toMatchObject({ saves: 0, deletes: 0 });
  });
});
