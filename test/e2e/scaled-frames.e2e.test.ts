import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Frame, Page } from 'puppeteer-core';
import { startFixtureServer, type FixtureServer } from '../support/FixtureServer.js';
import { useSession } from './support/harness.js';
import { runPage } from './support/runPage.js';

// Iframes drawn scaled: by a transform on what holds them, by CSS zoom on them or around them.
// A scaled frame's document keeps its own CSS pixels, fewer (or more) of the page's: a point in
// it is placed on the page by the frame's offset and its scale. The top page is on 127.0.0.1;
// localhost (the same server) is a second site and 127.0.0.2 a third, so those frames are
// out-of-process frames of the one above.
let third: FixtureServer;
beforeAll(async () => {
  third = await startFixtureServer({ host: '127.0.0.2' });
});
const ctx = useSession({ extraAllow: () => [ctx.server.origin.replace('127.0.0.1', 'localhost'), third.origin] });
afterAll(async () => {
  await third?.close();
});

const second = (): string => ctx.server.origin.replace('127.0.0.1', 'localhost');

const HALF = 'transform: scale(0.5); transform-origin: 0 0';

/** The nest.html page on `origin` named `name`, holding `child` (an iframe named `childName`, with `style` on it and `wrap` on what holds it) if given. */
function nest(origin: string, name: string, child?: { url: string; name: string; style?: string; wrap?: string }): string {
  const q = new URLSearchParams({ name });
  if (child) {
    q.set('child', child.url);
    q.set('childName', child.name);
    if (child.style) q.set('childStyle', child.style);
    if (child.wrap) q.set('childWrap', child.wrap);
  }
  return `${origin}/nest.html?${q}`;
}

/** The page's frame whose url names the nest page `name`, once it has loaded. */
async function frameNamed(page: Page, name: string): Promise<Frame> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const f = page.frames().find((fr) => new URL(fr.url()).searchParams.get('name') === name);
    if (f && (await f.evaluate(() => document.readyState).catch(() => '')) === 'complete') return f;
    if (Date.now() > deadline) throw new Error(`no frame ${name}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What each named document recorded: every click that reached it, its button's presses, its note. */
async function recorded(page: Page, names: string[]): Promise<Record<string, { clicks: number; pressed: number; note: string }>> {
  const out: Record<string, { clicks: number; pressed: number; note: string }> = {};
  for (const n of names) {
    out[n] = await (await frameNamed(page, n)).evaluate(() => {
      const w = window as unknown as { __clicks: number; __pressed: number };
      return { clicks: w.__clicks, pressed: w.__pressed, note: (document.getElementById('note') as HTMLInputElement).value };
    });
  }
  return out;
}

async function open(url: string, innermost: string): Promise<Page> {
  await ctx.session.tab.navigate(url);
  const page = await runPage(ctx.session);
  await frameNamed(page, innermost);
  return page;
}

/** Clicks the frame's button and fills its note, then answers what every document recorded. */
async function clickAndFill(page: Page, frame: string | string[], name: string, names: string[]): Promise<Record<string, { clicks: number; pressed: number; note: string }>> {
  await ctx.session.click({ role: 'button', name: `Press ${name}`, frame }, { timeoutMs: 3000 });
  await ctx.session.fill({ label: `Note ${name}`, frame }, `into ${name}`, { timeoutMs: 3000 });
  await ctx.session.verify.value({ label: `Note ${name}`, frame }, `into ${name}`);
  return recorded(page, names);
}

describe('scaled iframes', () => {
  it('[FR-FRAME-SCALED] a same-origin frame in a box under transform: scale(0.5): the click and the fill land in it', async () => {
    const page = await open(nest(ctx.server.origin, 'A', { name: 's', url: nest(ctx.server.origin, 'S'), wrap: HALF }), 'S');
    expect(await clickAndFill(page, 's', 'S', ['A', 'S'])).toEqual({
      A: { clicks: 0, pressed: 0, note: '' },
      S: { clicks: 1, pressed: 1, note: 'into S' },
    });
  });

  it('[FR-FRAME-SCALED] a click position is in the element\u2019s own pixels: near the right edge of a button in a half-size frame, on it', async () => {
    const page = await open(nest(ctx.server.origin, 'A', { name: 'x', url: nest(second(), 'X'), wrap: HALF }), 'X');
    const width = await (await frameNamed(page, 'X')).evaluate(() => document.getElementById('press')!.offsetWidth);
    await ctx.session.click({ role: 'button', name: 'Press X', frame: 'x' }, { position: { x: width - 6, y: 4 }, timeoutMs: 3000 });
    await ctx.session.verify.targetText({ css: '#pressed', frame: 'x' }, '1');
    expect(await recorded(page, ['A', 'X'])).toEqual({ A: { clicks: 0, pressed: 0, note: '' }, X: { clicks: 1, pressed: 1, note: '' } });
  });

  it('[FR-FRAME-SCALED] a same-origin frame with zoom: 0.8 on it, and one with zoom: 0.5 on the box around it: the click and the fill land in each', async () => {
    const page = await open(nest(ctx.server.origin, 'A', { name: 'z', url: nest(ctx.server.origin, 'Z'), style: 'zoom: 0.8' }), 'Z');
    expect(await clickAndFill(page, 'z', 'Z', ['A', 'Z'])).toEqual({
      A: { clicks: 0, pressed: 0, note: '' },
      Z: { clicks: 1, pressed: 1, note: 'into Z' },
    });
    const around = await open(nest(ctx.server.origin, 'A', { name: 'w', url: nest(ctx.server.origin, 'W'), wrap: 'zoom: 0.5' }), 'W');
    expect(await clickAndFill(around, 'w', 'W', ['A', 'W'])).toEqual({
      A: { clicks: 0, pressed: 0, note: '' },
      W: { clicks: 1, pressed: 1, note: 'into W' },
    });
  });

  it('[FR-FRAME-SCALED] a cross-site frame in a box under transform: scale(0.5): the click and the fill land in it', async () => {
    const page = await open(nest(ctx.server.origin, 'A', { name: 'x', url: nest(second(), 'X'), wrap: HALF }), 'X');
    expect((await frameNamed(page, 'X')).url()).toContain('//localhost:');
    expect(await clickAndFill(page, 'x', 'X', ['A', 'X'])).toEqual({
      A: { clicks: 0, pressed: 0, note: '' },
      X: { clicks: 1, pressed: 1, note: 'into X' },
    });
  });

  it('[FR-FRAME-SCALED] nested scaled frames: a zoomed same-origin frame holding a scaled cross-site one holding a zoomed third site', async () => {
    // top "A" (127.0.0.1) > "s" (127.0.0.1, zoom 0.8 around it) > "x" (localhost, scale 0.5) > "c" (127.0.0.2, zoom 1.5 on it)
    const c = nest(third.origin, 'C');
    const x = nest(second(), 'X', { name: 'c', url: c, style: 'zoom: 1.5' });
    const s = nest(ctx.server.origin, 'S', { name: 'x', url: x, wrap: HALF });
    const page = await open(nest(ctx.server.origin, 'A', { name: 's', url: s, wrap: 'zoom: 0.8' }), 'C');
    expect(await clickAndFill(page, ['s', 'x', 'c'], 'C', ['A', 'S', 'X', 'C'])).toEqual({
      A: { clicks: 0, pressed: 0, note: '' },
      S: { clicks: 0, pressed: 0, note: '' },
      X: { clicks: 0, pressed: 0, note: '' },
      C: { clicks: 1, pressed: 1, note: 'into C' },
    });
    // And in the same-origin frame between them: the offset and scale of one level.
    expect(await clickAndFill(page, 's', 'S', ['A', 'S'])).toEqual({
      A: { clicks: 0, pressed: 0, note: '' },
      S: { clicks: 1, pressed: 1, note: 'into S' },
    });
  });
});
