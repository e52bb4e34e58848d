import { describe, expect, it } from 'vitest';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';

// The requests of a page's frames: a same-origin one, and a cross-site one (localhost while the
// page is on 127.0.0.1: Chromium runs it in another process, with its own debugging session).
const ctx = useSession({ extraAllow: () => [ctx.server.origin.replace('127.0.0.1', 'localhost')] });

/** frame-set.html holding slow.html (which fetches /slow?ms=`ms` after its load) as the iframe "report". */
function page(origin: 'same' | 'other', ms: number): string {
  const src = `${origin === 'other' ? '{other}/' : ''}slow.html?ms=${ms}`;
  return ctx.page(`frame-set.html?html=${encodeURIComponent(`<iframe name="report" src="${src}"></iframe>`)}`);
}

describe('network idle and frames', () => {
  for (const origin of ['same', 'other'] as const) {
    it(`[NET-IDLE-OOPIF] waitForNetworkIdle waits for a request of a ${origin === 'same' ? 'same-origin' : 'cross-site (out-of-process)'} iframe`, async () => {
      await ctx.session.tab.navigate(page(origin, 3_000));
      const started = Date.now();
      await ctx.session.waitForNetworkIdle({ idleMs: 200, timeoutMs: 10_000 });
      const waited = Date.now() - started;
      // The frame's fetch had ended when the wait did: its page says so at once (within a second
      // for a busy machine; an idle that passed over the fetch would leave it two more to go).
      await ctx.session.verify.text('Done', { within: { css: 'body', frame: 'report' }, timeoutMs: 1_000 });
      // On a loaded machine navigate can return a second or more into the fetch: what is left of
      // it is still well over half a second.
      expect(waited).toBeGreaterThan(500);
    });
    it(`[NET-IDLE-FRAME-REMOVED] a ${origin === 'same' ? 'same-origin' : 'cross-site (out-of-process)'} iframe removed while its request hangs is not waited for`, async () => {
      await ctx.session.tab.navigate(page(origin, 30_000));
      // The frame's request is in flight: the network is not idle.
      const busy = await failure(ctx.session.waitForNetworkIdle({ idleMs: 200, timeoutMs: 1_000 }));
      expect(busy.message).toMatch(/did not go idle within 1000 ms \(1 in flight: .*\/slow\?ms=30000\)/);
      await ctx.session.evaluate(`document.querySelector('iframe').remove()`);
      const started = Date.now();
      await ctx.session.waitForNetworkIdle({ idleMs: 200, timeoutMs: 5_000 });
      expect(Date.now() - started).toBeLessThan(3_000);
    });
  }

  it('[NET-IDLE-TABS] a request in flight in another tab is not the run tab\'s: waitForNetworkIdle ends without it', async () => {
    await ctx.session.tab.navigate(ctx.page('counter.html'));
    // A tab the page opens, whose fetch hangs; the run stays in its own tab.
    await ctx.session.evaluate(`void window.open(${JSON.stringify(ctx.page('slow.html?ms=30000'))}, '_blank')`);
    await expect.poll(async () => (await ctx.session.tab.list()).length, { timeout: 5_000 }).toBe(2);
    const other = await ctx.session.browser!.waitForTarget((t) => t.url().includes('slow.html'), { timeout: 5_000 });
    await (await other.page())!.waitForFunction(() => document.readyState === 'complete');
    const started = Date.now();
    await ctx.session.waitForNetworkIdle({ idleMs: 200, timeoutMs: 5_000 });
    expect(Date.now() - started).toBeLessThan(3_000);
    await (await other.page())!.close();
  });
});
