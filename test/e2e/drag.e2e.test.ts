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

describe('drags whose ends are apart', () => {
  for (const mode of ['', '&fallback=1']) {
    const how = mode ? 'pointer-event fallback' : 'HTML5 drag and drop';
    it(`[DRAG-APART] SortableJS lanes (${how}): a target a window below the source is scrolled to with the drag held, and the card lands there`, async () => {
      await ctx.session.tab.navigate(ctx.page(`lanes.html?gap=far${mode}`));
      const page = await runPage(ctx.session);
      expect(await page.evaluate(() => innerHeight < document.getElementById('done')!.getBoundingClientRect().bottom - document.getElementById('backlog')!.getBoundingClientRect().top)).toBe(true);
      const step = await ctx.session.drag('Alpha', { css: '#done' });
      expect(step.retries).toBe(0);
      await ctx.session.verify.targetText({ label: 'Done order' }, 'Alpha');
      await ctx.session.verify.count({ role: 'listitem', within: 'Backlog' }, 1);
    });

    it(`[DRAG-APART] SortableJS lanes (${how}): ends that fit in the window together are not scrolled before the press`, async () => {
      await ctx.session.tab.navigate(ctx.page(`lanes.html?gap=near${mode}`));
      const page = await runPage(ctx.session);
      await page.evaluate(() => scrollTo(0, 40));
      await ctx.session.drag('Beta', { text: 'Gamma', within: 'Done' });
      await ctx.session.verify.targetText({ label: 'Done order' }, 'Beta');
      await ctx.session.verify.targetText({ label: 'Scrolled at the press' }, '40', { exact: true });
    });
  }

  it('[DRAG-POSITION] sourcePosition and targetPosition press and let go at those points of each element, from its padding box\u2019s corner: a slider goes to its ends', async () => {
    await ctx.session.tab.navigate(ctx.page('slider.html'));
    await ctx.session.drag({ role: 'slider', name: 'Volume' }, { testid: 'track' }, { targetPosition: { x: 300, y: 5 } });
    await ctx.session.verify.targetText({ label: 'Value' }, '100');
    await ctx.session.drag({ role: 'slider', name: 'Volume' }, { testid: 'track' }, { sourcePosition: { x: 3, y: 10 }, targetPosition: { x: 0, y: 5 } });
    await ctx.session.verify.targetText({ label: 'Value' }, '0');
    await ctx.session.verify.targetText({ label: 'Grabbed at' }, '3');
    await ctx.session.drag({ role: 'slider', name: 'Volume' }, { testid: 'track' }, { targetPosition: { x: 75, y: 5 } });
    await ctx.session.verify.targetText({ label: 'Value' }, '25');
  });

  it('[DRAG-POSITION] [STEP-ARGS] a position that is no point is refused before anything is sent, naming the field', async () => {
    await ctx.session.tab.navigate(ctx.page('slider.html'));
    const error = await ctx.session.drag({ role: 'slider', name: 'Volume' }, { testid: 'track' }, { targetPosition: { x: 10 } as never }).then(
      () => undefined,
      (failed: unknown) => failed as { reason: string; message: string },
    );
    expect(error?.reason).toBe('unsupported');
    expect(error?.message).toMatch(/targetPosition\.y/);
    await ctx.session.verify.targetText({ label: 'Grabbed at' }, '-');
  });

  it('[FILL-PICKED] fill sets the value of a slider, a date and a colour input, with their input and change events, as Playwright\u2019s fill; a value one does not take is refused, and nothing changes', async () => {
    await ctx.session.tab.navigate(ctx.page('slider.html'));
    await ctx.session.fill({ label: 'Level' }, '8');
    await ctx.session.fill({ label: 'Due' }, '2024-03-05');
    await ctx.session.fill({ label: 'Tint' }, '#336699');
    await ctx.session.verify.value({ label: 'Level' }, '8');
    await ctx.session.verify.value({ label: 'Due' }, '2024-03-05');
    await ctx.session.verify.value({ label: 'Tint' }, '#336699');
    await ctx.session.verify.targetText({ label: 'Events' }, 'level:input level:change due:input due:change tint:input tint:change', { exact: true });
    const error = await ctx.session.fill({ label: 'Due' }, '2024-13-45').then(
      () => undefined,
      (failed: unknown) => failed as { reason: string; message: string },
    );
    expect(error?.reason).toBe('unsupported');
    expect(error?.message).toMatch(/does not take "2024-13-45".*A date takes yyyy-mm-dd/);
    await ctx.session.verify.value({ label: 'Due' }, '2024-03-05');
    await ctx.session.verify.targetText({ label: 'Events' }, 'level:input level:change due:input due:change tint:input tint:change', { exact: true });
  });
});
