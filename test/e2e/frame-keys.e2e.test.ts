import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { startFixtureServer, type FixtureServer } from '../support/FixtureServer.js';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';
import { clicks, frameNamed } from './support/nestFrames.js';
import { runPage } from './support/runPage.js';

// Which iframe a target's `frame` names, and the frames aite cannot enter. The page is on
// 127.0.0.1; localhost (the same server) is another site, allowed; 127.0.0.3 is outside the
// allow list. Pages are frame-set.html with their iframes in ?html=, `{other}` standing for
// localhost, and nest.html pages that name themselves (?name=) and count the clicks they get.
let foreign: FixtureServer;
beforeAll(async () => {
  foreign = await startFixtureServer({ host: '127.0.0.3' });
});
const ctx = useSession({ extraAllow: () => [ctx.server.origin.replace('127.0.0.1', 'localhost')] });
afterAll(async () => {
  await foreign?.close();
});

async function open(html: string): Promise<Page> {
  await ctx.session.tab.navigate(ctx.page(`frame-set.html?html=${encodeURIComponent(html)}`));
  return runPage(ctx.session);
}

/** How long a call took to fail, and its failure. */
async function timed(promise: Promise<unknown>): Promise<{ ms: number; error: Awaited<ReturnType<typeof failure>> }> {
  const started = Date.now();
  const error = await failure(promise);
  return { ms: Date.now() - started, error };
}

const PRESS = { css: '#press' };

describe('a frame key that names several iframes', () => {
  it('[FRAME-AMBIGUOUS] two iframes with the same name: ambiguous at once, naming each (src, title, index) with a key that picks it; nothing is clicked; the key picks it', async () => {
    const page = await open('<iframe name="pay" title="Card" src="nest.html?name=A"></iframe><iframe name="pay" title="Wallet" src="{other}/nest.html?name=B"></iframe>');
    await frameNamed(page, 'B');
    const { ms, error } = await timed(ctx.session.click({ ...PRESS, frame: 'pay' }, { timeoutMs: 8_000 }));
    expect(error.reason).toBe('ambiguous');
    expect(ms).toBeLessThan(3_000);
    expect(error.message).toMatch(/2 iframes/);
    expect(error.message).toContain('nest.html?name=A');
    expect(error.message).toContain('//localhost:');
    expect(error.message).toMatch(/"Card"/);
    expect(error.message).toMatch(/"Wallet"/);
    const frames = (error.detail as { frames: Array<{ index: number; src: string; title?: string; key: string }> }).frames;
    expect(frames.map((f) => [f.index, f.title])).toEqual([
      [0, 'Card'],
      [1, 'Wallet'],
    ]);
    for (const f of frames) expect(error.message).toContain(f.key);
    expect(await clicks(page, ['A', 'B'])).toEqual({ A: 0, B: 0 });
    // A read is refused the same way, and a check that something is absent does not pass on it.
    expect((await failure(ctx.session.locator.read({ ...PRESS, frame: 'pay' }, { timeoutMs: 2_000 }))).reason).toBe('ambiguous');
    expect((await failure(ctx.session.verify.state({ ...PRESS, frame: 'pay' }, 'hidden', { timeoutMs: 2_000 }))).reason).toBe('ambiguous');

    // Each key it offers names its frame alone.
    await ctx.session.click({ ...PRESS, frame: frames[1]!.key });
    expect(await clicks(page, ['A', 'B'])).toEqual({ A: 0, B: 1 });
    await ctx.session.click({ ...PRESS, frame: frames[0]!.key });
    expect(await clicks(page, ['A', 'B'])).toEqual({ A: 1, B: 1 });
  });

  it('[FRAME-AMBIGUOUS] two iframes with the same id, or a css that matches both, are ambiguous too; in a frame path as well', async () => {
    const page = await open('<iframe id="w" src="nest.html?name=A"></iframe><iframe id="w" src="nest.html?name=B"></iframe>');
    await frameNamed(page, 'B');
    expect(await clicks(page, ['A', 'B'])).toEqual({ A: 0, B: 0 });
    const byId = await failure(ctx.session.click({ ...PRESS, frame: 'w' }, { timeoutMs: 2_000 }));
    expect(byId.reason).toBe('ambiguous');
    expect(byId.message).toMatch(/2 iframes have the id "w"/);
    const byCss = await failure(ctx.session.locator.resolve({ ...PRESS, frame: 'iframe[src*="nest"]' }, { timeoutMs: 2_000 }));
    expect(byCss.reason).toBe('ambiguous');
    expect(byCss.message).toMatch(/2 iframes match the css/);
    // One level down: the outer frame is one, its two inner frames share a name.
    await open(`<iframe name="outer" src="frame-set.html?html=${encodeURIComponent('<iframe name="twin" src="nest.html?name=E"></iframe><iframe name="twin" src="nest.html?name=F"></iframe>')}"></iframe>`);
    const deep = await failure(ctx.session.click({ ...PRESS, frame: ['outer', 'twin'] }, { timeoutMs: 2_000 }));
    expect(deep.reason).toBe('ambiguous');
    expect(deep.message).toContain('name=E');
    expect(deep.message).toContain('name=F');
    expect(deep.detail).toMatchObject({ frame: ['outer', 'twin'], matches: 2 });
  });
});

describe('frames named by their title', () => {
  it('[FRAME-TITLE] an iframe is named by its title too, a cross-site one as well; a name or id of another iframe comes first', async () => {
    const page = await open('<iframe name="Billing" src="nest.html?name=A"></iframe><iframe title="Billing" src="nest.html?name=B"></iframe><iframe title="Shipping" src="{other}/nest.html?name=C"></iframe>');
    await frameNamed(page, 'C');
    const shipping = await ctx.session.locator.resolve({ ...PRESS, frame: 'Shipping' });
    expect(shipping.descriptor).toMatchObject({ text: 'Press C', frame: 'Shipping' });
    await ctx.session.click({ ...PRESS, frame: 'Shipping' });
    // The name wins over the other iframe's title: not ambiguous.
    expect((await ctx.session.locator.read({ css: 'h2', frame: 'Billing' })).text).toBe('Frame A');
    expect(await clicks(page, ['A', 'B', 'C'])).toEqual({ A: 0, B: 0, C: 1 });
    const missing = await failure(ctx.session.locator.resolve({ ...PRESS, frame: 'Nope' }, { timeoutMs: 300 }));
    expect(missing.message).toMatch(/No iframe has the name, id, title or css "Nope"/);
  });
});

describe('frames aite cannot enter', () => {
  it('[FRAME-UNREACHABLE] a sandboxed iframe with an opaque srcdoc fails at once, saying so; one that shows an allowed page is entered', async () => {
    await open('<iframe name="boxed" sandbox="" srcdoc="<button id=press>Press S</button>"></iframe><iframe name="walled" sandbox="" src="fresh.html"></iframe>');
    const { ms, error } = await timed(ctx.session.click({ ...PRESS, frame: 'boxed' }, { timeoutMs: 8_000 }));
    expect(error.reason).toBe('unsupported');
    expect(ms).toBeLessThan(3_000);
    expect(error.message).toMatch(/"boxed"/);
    expect(error.message).toMatch(/sandbox/);
    expect(error.message).toMatch(/allow-same-origin/);
    // Chrome runs the extension in a sandboxed page of an allowed origin, scripts allowed or not.
    expect((await ctx.session.locator.read({ css: '#load', frame: 'walled' }, { timeoutMs: 3_000 })).text).toBe('Load job');
  });

  it('[FRAME-UNREACHABLE] an iframe showing a data: URL fails at once, saying so', async () => {
    await open('<iframe name="inline" src="data:text/html,<button id=press>Press D</button>"></iframe>');
    const { ms, error } = await timed(ctx.session.click({ ...PRESS, frame: 'inline' }, { timeoutMs: 8_000 }));
    expect(error.reason).toBe('unsupported');
    expect(ms).toBeLessThan(3_000);
    expect(error.message).toMatch(/"inline"/);
    expect(error.message).toMatch(/data: URL/);
  });

  it('[FRAME-UNREACHABLE] an iframe whose page refused to be framed (X-Frame-Options, CSP frame-ancestors) fails soon, saying so', async () => {
    await open('<iframe name="denied" src="no-framing?by=xfo"></iframe><iframe name="refused" src="{other}/no-framing?by=csp"></iframe>');
    for (const name of ['denied', 'refused']) {
      const { ms, error } = await timed(ctx.session.click({ text: 'Never framed', frame: name }, { timeoutMs: 8_000 }));
      expect(error.reason).toBe('load-failed');
      expect(ms).toBeLessThan(3_000);
      expect(error.message).toContain(`"${name}"`);
      expect(error.message).toMatch(/refused to be framed \(its X-Frame-Options or Content-Security-Policy frame-ancestors header/);
    }
  });

  it('[FRAME-UNREACHABLE] an iframe that went on to an origin outside the allow list fails soon, naming the origin', async () => {
    const target = `${foreign.origin}/nest.html?name=F`;
    await open(`<iframe name="moved" src="redirect?to=${encodeURIComponent(target)}"></iframe>`);
    const { ms, error } = await timed(ctx.session.click({ ...PRESS, frame: 'moved' }, { timeoutMs: 8_000 }));
    expect(error.reason).toBe('unsupported');
    expect(ms).toBeLessThan(3_000);
    expect(error.message).toContain(foreign.origin);
    expect(error.message).toMatch(/allow/);
  });
});
