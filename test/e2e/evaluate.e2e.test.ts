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

  it('[EVAL-PAGE-JSON] a page that put toJSON on Array and String (Prototype.js) or replaced JSON gets real values and arguments back, as JSON writes them', async () => {
    await ctx.session.tab.navigate(ctx.page('hostile-globals.html?k=prototypejs'));
    expect(await ctx.session.evaluate(() => ({ items: [1, 2, 3], names: ['a', 'b'] }))).toEqual({ items: [1, 2, 3], names: ['a', 'b'] });
    expect(await ctx.session.evaluate((arg: { list: number[] }) => (Array.isArray(arg.list) ? arg.list.length : typeof arg.list), { list: [1, 2] })).toBe(2);
    // What JSON writes: a Date's own toJSON, undefined left out of objects and null in arrays, escapes kept.
    expect(
      await ctx.session.evaluate(() => ({ when: new Date(0), gone: undefined, holes: [undefined, NaN, () => 1], text: 'a"b\\c\n\u0001\ud83d\ude00', n: new Number(4), nested: { ok: true } })),
    ).toEqual({ when: '1970-01-01T00:00:00.000Z', holes: [null, null, null], text: 'a"b\\c\n\u0001\ud83d\ude00', n: 4, nested: { ok: true } });
    await ctx.session.tab.navigate(ctx.page('hostile-globals.html?k=json'));
    expect(await ctx.session.evaluate(() => [1 + 1, document.title])).toEqual([2, 'Hostile globals']);
    expect(await ctx.session.evaluate((a: { n: number }) => a.n * 2, { n: 21 })).toBe(42);
    const cyclic = await failure(ctx.session.evaluate('(() => { const a = {}; a.a = a; return a; })()'));
    expect(cyclic.message).toMatch(/cannot be sent as JSON \(Converting circular structure to JSON\)/);
  });

  it('[EVAL-CSP] a page whose CSP forbids eval refuses evaluate naming the directive, and says what works instead; read and verify still do', async () => {
    await ctx.session.tab.navigate(ctx.page('csp-eval.html'));
    const refused = await failure(ctx.session.evaluate(() => document.title));
    expect(refused.reason).toBe('unsupported');
    expect(refused.message.split('\n')[0]).toBe(
      "evaluate cannot run here: the page's Content-Security-Policy (script-src 'self') forbids evaluating code. Read what the page shows with `locator.read` or check it with `verify` (neither evaluates code), or act through the page with click, fill and press.",
    );
    expect((await ctx.session.locator.read({ css: '#total' })).text).toBe('Total: 42');
  });
});

