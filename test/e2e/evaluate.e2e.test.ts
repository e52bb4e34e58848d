import { describe, expect, it } from 'vitest';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';

const ctx = useSession();

describe('session.evaluate()', () => {
  it('[EVAL-MAIN-WORLD, EVAL-JSON] an expression and a function with an argument answer objects, from the page\'s main world', async () => {
    await ctx.session.tab.navigate(ctx.page('evaluate.html'));
    expect(await ctx.session.evaluate('({ title: document.title, state: window.appState })')).toEqual({
      title: 'Evaluate',
      state: { user: 'ana', items: [1, 2, 3] },
    });
    const sum = await ctx.session.evaluate((arg: { add: number }) => ({ total: (window as unknown as { appState: { items: number[] } }).appState.items.reduce((a, b) => a + b, arg.add) }), { add: 10 });
    expect(sum).toEqual({ total: 16 });
    // A promise is awaited; undefined comes back as undefined.
    expect(await ctx.session.evaluate('new Promise((r) => setTimeout(() => r([document.readyState]), 20))')).toEqual(['complete']);
    expect(await ctx.session.evaluate('void 0')).toBeUndefined();
  });

  it('[EVAL-EXCEPTION] a page exception, thrown or rejected, is an AiteError with the exception', async () => {
    const thrown = await failure(
      ctx.session.evaluate(() => {
        throw new TypeError('the cart is empty');
      }),
    );
    expect(thrown.command).toBe('evaluate');
    expect(thrown.message.split('\n')[0]).toBe('The page threw during evaluate: TypeError: the cart is empty');
    expect(thrown.detail.exception).toMatchObject({ name: 'TypeError', message: 'the cart is empty' });
    const rejected = await failure(ctx.session.evaluate('Promise.reject(new RangeError("no such row"))'));
    expect(rejected.message).toMatch(/RangeError: no such row/);
    const syntax = await failure(ctx.session.evaluate('document.title +'));
    expect(syntax.detail.exception).toMatchObject({ name: 'SyntaxError' });
  });

  it('[EVAL-TIMEOUT, EVAL-JSON] code that never finishes times out; a result that is not JSON and a bad argument are refused clearly', async () => {
    const started = Date.now();
    const late = await failure(ctx.session.evaluate('new Promise(() => {})', undefined, { timeoutMs: 400 }));
    expect(late.reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(3_000);
    const cyclic = await failure(ctx.session.evaluate('(() => { const a = {}; a.a = a; return a; })()'));
    expect(cyclic.reason).toBe('unsupported');
    expect(cyclic.message).toMatch(/^evaluate ran, but its result cannot be sent as JSON \(.*circular.*\); return plain data .*, or nothing \(`void …`\) when the code runs for what it does\./s);
    expect(cyclic.detail.ran).toBe(true);
    const big = { n: 1n };
    const badArg = await failure(ctx.session.evaluate((x: unknown) => x, big));
    expect(badArg.message).toMatch(/argument cannot be sent as JSON/);
    // The page is still fine.
    expect(await ctx.session.evaluate('document.title')).toBe('Evaluate');
  });

  it('[EVAL-NAVIGATED] code whose page navigates away while it awaits fails navigation at once, naming where the page went; the next evaluate runs in the new page', async () => {
    const started = Date.now();
    const lost = await failure(
      ctx.session.evaluate(
        (to: string) => {
          location.href = to;
          return new Promise(() => undefined);
        },
        ctx.page('evaluate.html?next'),
        { timeoutMs: 4_000 },
      ),
    );
    expect(lost.reason).toBe('navigation');
    expect(lost.message.split('\n')[0]).toBe(`The page navigated (to ${ctx.page('evaluate.html?next')}) while evaluate ran: its result is lost. The code ran until then.`);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await ctx.session.evaluate('location.search')).toBe('?next');
  });
});
