import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';

const ctx = useSession();
const dir = await mkdtemp(join(tmpdir(), 'aite-pictures-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Uint8Array): { width: number; height: number } {
  const bytes = Buffer.from(png);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('session.screenshot({ target, fullPage, path })', () => {
  it('[PIC-ELEMENT] pictures one element at its size, also one outside the viewport, and writes it to path', async () => {
    await ctx.session.tab.navigate(ctx.page('pictures.html'));
    const box = await ctx.session.screenshot({ target: { css: '#box' } });
    expect(pngSize(box!)).toEqual({ width: 200, height: 120 });
    const path = join(dir, 'nested', 'far.png');
    const far = await ctx.session.screenshot({ target: { text: 'Far below' }, path });
    expect(pngSize(far!)).toEqual({ width: 150, height: 50 });
    expect(Buffer.compare(await readFile(path), Buffer.from(far!))).toBe(0);
  });

  it('[PIC-FULL-PAGE] a full-page picture is as tall as the page; the viewport one is not', async () => {
    const viewport = pngSize((await ctx.session.screenshot())!);
    const full = pngSize((await ctx.session.screenshot({ fullPage: true }))!);
    expect(full.height).toBeGreaterThanOrEqual(3000);
    expect(viewport.height).toBeLessThan(full.height);
    expect(full.width).toBe(viewport.width);
  });

  it('[PIC-FAILED-VERIFY] a failed verify carries a picture, with the element it looked at outlined, and the page is left clean', async () => {
    const error = await failure(ctx.session.verify.targetText({ css: '#box' }, 'Total: 43', { timeoutMs: 300 }));
    expect(error.reason).toBe('mismatch');
    expect(error.detail.element).toMatchObject({ tag: 'div' });
    expect(pngSize(error.screenshot!).width).toBeGreaterThan(200);
    expect(await ctx.session.evaluate('document.querySelectorAll("[data-aite-overlay]").length')).toBe(0);
    // A failed composed step carries one too.
    const click = await failure(ctx.session.click({ text: 'Nothing like this' }, { timeoutMs: 300 }));
    expect(click.screenshot).toBeDefined();
    const unknown = await failure(ctx.session.screenshot({ target: { css: '#missing' }, timeoutMs: 300 }));
    expect(unknown.reason).toBe('not-found');
  });
});
