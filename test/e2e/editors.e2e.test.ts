import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, type Session } from '../../src/sdk/index.js';
import { BundledPage } from '../support/BundledPage.js';

// CodeMirror 6, bundled from the registry's package for this file. One Chrome for the file.
let page: BundledPage;
let session: Session;

beforeAll(async () => {
  page = await BundledPage.start('editors/codemirror.js', 'CodeMirror');
  session = await launch({ allow: [page.origin], timeoutMs: 4000 });
}, 60_000);
afterAll(async () => {
  await session?.close();
  await page?.close();
});

const doc = (): Promise<string> => session.evaluate(() => (window as unknown as { editor: { state: { doc: { toString(): string } } } }).editor.state.doc.toString());

describe('CodeMirror 6: an editor that keeps its own selection', () => {
  it('[FOCUS-EMULATED] the page has the focus before any input; fill on an editor never focused replaces its text (five fresh pages)', async () => {
    for (let i = 0; i < 5; i++) {
      await session.tab.navigate(`${page.origin}/`);
      // The file's first page, before any input: a headless window has none of its own yet.
      if (i === 0) expect(await session.evaluate(() => document.hasFocus())).toBe(true);
      await session.fill({ role: 'textbox', name: 'Code' }, 'X()');
      // As in Playwright, the editor may keep its last empty line.
      expect((await doc()).trimEnd()).toBe('X()');
    }
  });

  it('[TYPE-FOCUSED] Control+A, then type, replaces what the editor holds; type goes on where its caret is', async () => {
    await session.tab.navigate(`${page.origin}/`);
    await session.type({ role: 'textbox', name: 'Code' }, 'let b;');
    await session.press('Control+A', { role: 'textbox', name: 'Code' });
    await session.type({ role: 'textbox', name: 'Code' }, 'first()');
    expect(await doc()).toBe('first()');
    await session.type({ role: 'textbox', name: 'Code' }, '; second()');
    expect(await doc()).toBe('first(); second()');
  });
});
