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

  it('[FOLDERS, PIC-ELEMENT] a path whose folder the system refuses (under /proc) fails at once naming it; the error carries the picture', async () => {
    const error = await failure(ctx.session.screenshot({ target: { css: '#box' }, path: '/proc/aite-none/box.png' }));
    expect(error.reason).toBe('unsupported');
    expect(error.message).toMatch(/the picture was taken but cannot be written to \/proc\/aite-none\/box\.png \(cannot make the folder \/proc\/aite-none: ENOENT/);
    expect(pngSize(error.screenshot!)).toEqual({ width: 200, height: 120 });
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

  it('[PIC-LATE] near the test timeout a failed step throws at once and its picture comes to the failure hook', async () => {
    // A runner's deadline 400 ms away (its timeout 5000 ms): the wait is cut to one look, and no
    // time is left for the picture before the error must go.
    const deadline = { at: Date.now() + 400, timeoutMs: 5_000 };
    ctx.session.endBeforeTestTimeout(() => deadline);
    try {
      const error = await failure(ctx.session.verify.targetText({ css: '#box' }, 'Total: 43', { timeoutMs: 3_000 }));
      expect(error.reason).toBe('mismatch');
      expect(error.screenshot).toBeUndefined();
      expect(error.message).toContain("the failure picture was left to the test runner's failure hook");
      // What a runner helper's failure hook asks for: the same picture, the element outlined.
      const png = await ctx.session.failurePicture(error);
      expect(pngSize(png!).width).toBeGreaterThan(200);
      expect(await ctx.session.evaluate('document.querySelectorAll("[data-aite-overlay]").length')).toBe(0);
    } finally {
      ctx.session.endBeforeTestTimeout(undefined);
    }
  });
});
