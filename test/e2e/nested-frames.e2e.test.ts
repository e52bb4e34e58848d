import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Frame, Page } from 'puppeteer-core';
import { startFixtureServer, type FixtureServer } from '../support/FixtureServer.js';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';
import { refOf } from './support/refOf.js';
import { clicks, frameNamed } from './support/nestFrames.js';
import { runPage } from './support/runPage.js';

// Nested frames on several sites. The top page is on 127.0.0.1; localhost (the same server) is
// a second site and 127.0.0.2 a third, both allowed; 127.0.0.3 is a site outside the allow list.
// Chromium puts each site's frames in their own process, so every cross-site frame here is an
// out-of-process frame of the one above it.
let third: FixtureServer;
let foreign: FixtureServer;
beforeAll(async () => {
  third = await startFixtureServer({ host: '127.0.0.2' });
  foreign = await startFixtureServer({ host: '127.0.0.3' });
});
const ctx = useSession({ extraAllow: () => [ctx.server.origin.replace('127.0.0.1', 'localhost'), third.origin] });
afterAll(async () => {
  await third?.close();
  await foreign?.close();
});

const second = (): string => ctx.server.origin.replace('127.0.0.1', 'localhost');

/** The nest.html page on `origin` named `name`, holding `child` (an iframe named `childName`) if given. */
function nest(origin: string, name: string, child?: { url: string; name: string }): string {
  const q = new URLSearchParams({ name });
  if (child) {
    q.set('child', child.url);
    q.set('childName', child.name);
  }
  return `${origin}/nest.html?${q}`;
}

/** The page's frame whose url names the nest page `name`, once it has loaded. */
async function open(url: string, innermost: string): Promise<Page> {
  await ctx.session.tab.navigate(url);
  const page = await runPage(ctx.session);
  await frameNamed(page, innermost);
  return page;
}

describe('a cross-site frame inside a same-origin frame', () => {
  // top (127.0.0.1) > "same" (127.0.0.1) > "x" (localhost)
  const url = (): string => nest(ctx.server.origin, 'A', { name: 'same', url: nest(ctx.server.origin, 'S', { name: 'x', url: nest(second(), 'X') }) });
  const PATH = ['same', 'x'];

  it('[FR-NESTED-SAME-XSITE] find, read and verify through the same-origin frame; click and fill land in the cross-site one only', async () => {
    const page = await open(url(), 'X');
    expect((await frameNamed(page, 'X')).url()).toContain('//localhost:');
    const press = await ctx.session.locator.resolve({ role: 'button', name: 'Press X', frame: PATH });
    expect(press.descriptor).toMatchObject({ tag: 'button', frame: PATH });
    expect((await ctx.session.locator.read({ css: 'h2', frame: PATH })).text).toBe('Frame X');
    await ctx.session.verify.exists({ text: 'Frame X', frame: PATH });
    await ctx.session.verify.text('Frame X', { within: { css: 'body', frame: PATH } });
    // Not in the same-origin frame's own document.
    expect((await failure(ctx.session.locator.resolve({ role: 'button', name: 'Press X', frame: 'same' }, { timeoutMs: 300 }))).reason).toBe('not-found');

    await ctx.session.click({ role: 'button', name: 'Press X', frame: PATH });
    expect(await clicks(page, ['A', 'S', 'X'])).toEqual({ A: 0, S: 0, X: 1 });
    await ctx.session.verify.targetText({ css: '#pressed', frame: PATH }, '1');
    await ctx.session.fill({ label: 'Note X', frame: PATH }, 'two deep');
    await ctx.session.verify.value({ label: 'Note X', frame: PATH }, 'two deep');
    expect(await (await frameNamed(page, 'X')).evaluate(() => (document.getElementById('note') as HTMLInputElement).value)).toBe('two deep');
    // The region's frame after the target's: the same frame, reached the other way.
    await ctx.session.click({ role: 'button', name: 'Press X', frame: 'same', within: { css: 'body', frame: 'x' } });
    await ctx.session.verify.targetText({ css: '#pressed', frame: PATH }, '2');
    const after = await clicks(page, ['A', 'S']);
    expect(after).toEqual({ A: 0, S: 0 });
  });

  it('[FR-NESTED-SAME-XSITE] below the fold of both the page and the same-origin frame: both are scrolled to it, and the click lands in it', async () => {
    const page = await open(
      `${nest(ctx.server.origin, 'A', { name: 'same', url: `${nest(ctx.server.origin, 'S', { name: 'x', url: nest(second(), 'X') })}&below=500` })}&below=1500`,
      'X',
    );
    await ctx.session.click({ role: 'button', name: 'Press X', frame: PATH });
    await ctx.session.verify.targetText({ css: '#pressed', frame: PATH }, '1');
    expect(await clicks(page, ['A', 'S', 'X'])).toEqual({ A: 0, S: 0, X: 1 });
    // Both documents were scrolled: the point could not be reached otherwise.
    expect(await page.evaluate(() => [window.scrollY > 0, (document.getElementById('same') as HTMLIFrameElement).contentWindow!.scrollY > 0])).toEqual([true, true]);
  });

  it('[FR-NESTED-SNAPSHOT] the snapshot reads it under its iframe line, and its refs act there', async () => {
    const page = await open(url(), 'X');
    await ctx.session.verify.exists({ text: 'Frame X', frame: PATH });
    const text = (await ctx.session.snapshot()).text;
    expect(text).toMatch(/^- iframe "Holds same" \[ref=e\d+\]$/m);
    expect(text).toMatch(/^ {2}- iframe "Holds x" \[ref=e\d+\]\n {4}- heading "Frame X" \[level=2\] \[ref=e\d+\]\n {4}- button "Press X" \[ref=e\d+\]$/m);
    expect(text).not.toContain('not read');
    const refs = [...text.matchAll(/\[ref=(e\d+)\]/g)].map((m) => m[1]);
    expect(new Set(refs).size).toBe(refs.length);
    const ref = refOf(text, /button "Press X"/);
    expect((await ctx.session.locator.resolve({ ref })).descriptor.frame).toEqual(PATH);
    await ctx.session.click({ ref });
    await ctx.session.type({ ref: refOf(text, /textbox "Note X"/) }, 'by ref');
    await ctx.session.verify.value({ label: 'Note X', frame: PATH }, 'by ref');
    expect(await clicks(page, ['A', 'S'])).toEqual({ A: 0, S: 0 });
    expect(await (await frameNamed(page, 'X')).evaluate(() => (window as unknown as { __pressed: number }).__pressed)).toBe(1);
  });

  it('[FR-NESTED-ALLOW] one whose origin is not allowed is refused naming its origin, and the snapshot does not read it', async () => {
    const page = await open(nest(ctx.server.origin, 'A', { name: 'same', url: nest(ctx.server.origin, 'S', { name: 'x', url: nest(foreign.origin, 'X') }) }), 'X');
    const refused = await failure(ctx.session.locator.resolve({ role: 'button', name: 'Press X', frame: PATH }, { timeoutMs: 1500 }));
    expect(refused.reason).toBe('unsupported');
    expect(refused.message).toContain(foreign.origin);
    expect(refused.message).toMatch(/not in the run's allow list.*Add that origin to `allow`/);
    expect((await failure(ctx.session.click({ role: 'button', name: 'Press X', frame: PATH }, { timeoutMs: 1500 }))).message).toContain(foreign.origin);
    const text = (await ctx.session.snapshot()).text;
    expect(text).toContain(`(another origin, ${foreign.origin}: not in the allow list, not read; add it to \`allow\` to read it)`);
    expect(text).not.toContain('Press X');
    expect(await clicks(page, ['A', 'S', 'X'])).toEqual({ A: 0, S: 0, X: 0 });
  });
});

describe('a chain of cross-site frames on three sites', () => {
  // top "A" (127.0.0.1) > "b" (localhost) > "c" (127.0.0.2)
  const chain = (c: string): string => nest(ctx.server.origin, 'A', { name: 'b', url: nest(second(), 'B', { name: 'c', url: c }) });
  const PATH = ['b', 'c'];

  it('[FR-NESTED-CHAIN] find, click, fill, read and verify in the innermost frame: the click reaches C and nothing else', async () => {
    const page = await open(chain(nest(third.origin, 'C')), 'C');
    expect((await frameNamed(page, 'B')).url()).toContain('//localhost:');
    expect((await frameNamed(page, 'C')).url()).toContain('//127.0.0.2:');
    expect((await ctx.session.locator.resolve({ role: 'button', name: 'Press C', frame: PATH })).descriptor.frame).toEqual(PATH);
    expect((await ctx.session.locator.read({ css: 'h2', frame: PATH })).text).toBe('Frame C');
    // B's own document does not hold C's button.
    expect((await failure(ctx.session.locator.resolve({ role: 'button', name: 'Press C', frame: 'b' }, { timeoutMs: 300 }))).reason).toBe('not-found');

    const clicked = await ctx.session.click({ role: 'button', name: 'Press C', frame: PATH });
    expect(clicked.element?.frame).toEqual(PATH);
    expect(await clicks(page, ['A', 'B', 'C'])).toEqual({ A: 0, B: 0, C: 1 });
    await ctx.session.verify.targetText({ css: '#pressed', frame: PATH }, '1');
    await ctx.session.fill({ label: 'Note C', frame: PATH }, 'three sites');
    await ctx.session.verify.value({ label: 'Note C', frame: PATH }, 'three sites');
    await ctx.session.verify.text('Frame C', { within: { css: 'body', frame: PATH } });
    expect((await failure(ctx.session.verify.text('Frame C', { within: { css: 'body', frame: 'b' }, timeoutMs: 300 }))).reason).toBe('mismatch');
    // Scoped step by step, as frameLocator('b').frameLocator('c') would be.
    await ctx.session.click({ role: 'button', name: 'Press C', frame: 'b', within: { css: 'body', frame: 'c' } });
    await ctx.session.verify.targetText({ css: '#pressed', frame: PATH }, '2');
    expect(await (await frameNamed(page, 'C')).evaluate(() => [(window as unknown as { __pressed: number }).__pressed, (document.getElementById('note') as HTMLInputElement).value])).toEqual([2, 'three sites']);
    expect(await clicks(page, ['A', 'B'])).toEqual({ A: 0, B: 0 });
    expect(await (await frameNamed(page, 'B')).evaluate(() => (window as unknown as { __pressed: number }).__pressed)).toBe(0);
  });

  it('[FR-NESTED-SNAPSHOT] the snapshot nests all three documents with one numbering, and C\u2019s refs act in C', async () => {
    const page = await open(chain(nest(third.origin, 'C')), 'C');
    await ctx.session.verify.exists({ text: 'Frame C', frame: PATH });
    const text = (await ctx.session.snapshot()).text;
    expect(text).toMatch(/^- iframe "Holds b" \[ref=e\d+\]\n {2}- heading "Frame B" \[level=2\] \[ref=e\d+\]$/m);
    expect(text).toMatch(/^ {2}- iframe "Holds c" \[ref=e\d+\]\n {4}- heading "Frame C" \[level=2\] \[ref=e\d+\]\n {4}- button "Press C" \[ref=e\d+\]$/m);
    expect(text).not.toContain('not read');
    const refs = [...text.matchAll(/\[ref=(e\d+)\]/g)].map((m) => m[1]);
    expect(new Set(refs).size).toBe(refs.length);
    await ctx.session.click({ ref: refOf(text, /button "Press C"/) });
    await ctx.session.fill({ ref: refOf(text, /textbox "Note C"/) }, 'by ref');
    await ctx.session.verify.value({ label: 'Note C', frame: PATH }, 'by ref');
    expect(await clicks(page, ['A', 'B'])).toEqual({ A: 0, B: 0 });
    expect(await (await frameNamed(page, 'C')).evaluate(() => (window as unknown as { __pressed: number }).__pressed)).toBe(1);
  });

  it('[FR-NESTED-ALLOW] a third site outside the allow list below an allowed one: refused naming its origin, never read or acted in', async () => {
    const page = await open(chain(nest(foreign.origin, 'C')), 'C');
    const refused = await failure(ctx.session.locator.read({ css: 'h2', frame: PATH }, { timeoutMs: 1500 }));
    expect(refused.reason).toBe('unsupported');
    expect(refused.message).toContain(foreign.origin);
    expect(refused.message).toMatch(/not in the run's allow list.*Add that origin to `allow`/);
    const acted = await failure(ctx.session.click({ role: 'button', name: 'Press C', frame: PATH }, { timeoutMs: 1500 }));
    expect(acted.reason).toBe('unsupported');
    expect(acted.message).toContain(foreign.origin);
    const text = (await ctx.session.snapshot()).text;
    expect(text).toMatch(new RegExp(`^ {2}- iframe "Holds c" \\[ref=e\\d+\\] \\(another origin, ${foreign.origin.replace(/[.]/g, '\\.')}: not in the allow list, not read; add it to \`allow\` to read it\\)$`, 'm'));
    expect(text).toContain('Frame B');
    expect(text).not.toContain('Frame C');
    expect(await clicks(page, ['A', 'B', 'C'])).toEqual({ A: 0, B: 0, C: 0 });
  });
});
