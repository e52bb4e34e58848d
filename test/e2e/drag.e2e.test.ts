import { describe, expect, it } from 'vitest';
import { useSession } from './support/harness.js';
import { runPage } from './support/runPage.js';

// Drags that travel, against SortableJS as the registry ships it. One Chrome for the file.
const ctx = useSession({ timeoutMs: 4000 });

describe('drags that travel', () => {
  it('[DRAG-HTML5] SortableJS (HTML5 drag and drop): drag(Alpha, Gamma) gives Beta,Gamma,Alpha', async () => {
    await ctx.session.tab.navigate(ctx.page('sortable.html'));
    await ctx.session.drag('Alpha', 'Gamma');
    await ctx.session.verify.targetText({ label: 'Order' }, 'Beta,Gamma,Alpha');
    await ctx.session.verify.targetText({ label: 'Ends' }, '1');
  });

  it('[DRAG-STEPS] SortableJS on its pointer-event fallback: the moves in between are real, and the order is the same', async () => {
    await ctx.session.tab.navigate(ctx.page('sortable.html?fallback=1'));
    const page = await runPage(ctx.session);
    await page.evaluate(() => {
      (window as unknown as { __moves: number }).__moves = 0;
      document.addEventListener('pointermove', (e) => {
        if (e.isTrusted && e.buttons === 1) (window as unknown as { __moves: number }).__moves += 1;
      });
    });
    await ctx.session.drag('Alpha', 'Gamma');
    await ctx.session.verify.targetText({ label: 'Order' }, 'Beta,Gamma,Alpha');
    expect(await page.evaluate(() => (window as unknown as { __moves: number }).__moves)).toBeGreaterThanOrEqual(5);
  });
});
