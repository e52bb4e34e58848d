import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AiteError, launch, type Session } from '../../src/sdk/index.js';
import { BundledPage } from '../support/BundledPage.js';

// @hello-pangea/dnd's board, bundled from the registry's package for this file. One Chrome for the file.
let page: BundledPage;
let session: Session;

beforeAll(async () => {
  page = await BundledPage.start('react/board.jsx', 'Board');
  session = await launch({ allow: [page.origin], timeoutMs: 4000 });
}, 60_000);
afterAll(async () => {
  await session?.close();
  await page?.close();
});

const columns = async (): Promise<unknown> => JSON.parse((await session.locator.read({ label: 'Columns' })).text);

describe('Drags in a sortable list (@hello-pangea/dnd)', () => {
  it('[DRAG-SORTABLE] a card dragged onto a card lands there, though the cards step out of its way before the release', async () => {
    await session.tab.navigate(`${page.origin}/`);
    // Into the other column, onto its card.
    await session.drag('Write spec', 'Plan sprint');
    await session.verify.targetText({ label: 'Drags' }, '1');
    expect(await columns()).toEqual({ todo: ['Fix bug', 'Deploy'], done: expect.arrayContaining(['Write spec', 'Plan sprint']) });
    // Within a column, onto a card above.
    await session.drag('Deploy', 'Fix bug');
    await session.verify.targetText({ label: 'Drags' }, '2');
    expect(await columns()).toMatchObject({ todo: ['Deploy', 'Fix bug'] });
    // The next step meets no drag still held.
    await session.click({ role: 'button', name: 'Fix bug' });
  });

  it('[DRAG-SORTABLE] a release something else took is stopped, and Escape ends the drag the page began: nothing moves and the page goes on', async () => {
    await session.tab.navigate(`${page.origin}/`);
    await session.click('Lock the board while dragging');
    const error = await session.drag('Fix bug', 'Plan sprint').then(
      () => undefined,
      (failed: unknown) => failed as AiteError,
    );
    expect(error).toBeInstanceOf(AiteError);
    expect(error!.reason).toBe('not-visible');
    expect(error!.detail).toMatchObject({ escaped: true, coveredBy: { element: expect.stringContaining('Locked') } });
    expect(error!.message).toMatch(/stopped the release before the page saw it.*aite then pressed Escape/);
    // The page's drag ended (pangea calls onDragEnd with no destination), and nothing moved.
    await session.verify.targetText({ label: 'Drags' }, '1');
    expect(await columns()).toEqual({ todo: ['Write spec', 'Fix bug', 'Deploy'], done: ['Plan sprint'] });
    await session.evaluate(() => {
      document.getElementById('veil')!.hidden = true;
    });
    await session.drag('Fix bug', 'Plan sprint');
    await session.verify.targetText({ label: 'Drags' }, '2');
    expect(await columns()).toMatchObject({ todo: ['Write spec', 'Deploy'] });
  });
});
