import { writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { AiteError } from '../../errors/AiteError.js';
import type { Rect } from '../../protocol/index.js';
import { makeFolder } from '../../system/folders.js';
import { sessionOf } from '../../launch/pages.js';

/**
 * A PNG of a page over the pipe: the viewport, the whole page (`fullPage`), or one box of it
 * (`clip`, in page CSS pixels, as a descriptor's `rect`; it may lie outside the viewport). The
 * tab is brought to the front first: a background tab does not paint. With `maxSide`, a picture
 * that would be wider or taller than that many pixels is painted smaller, its aspect kept, and
 * `scaled` says from what size.
 */
export async function capture(page: Page, options: { clip?: Rect; fullPage?: boolean; maxSide?: number }): Promise<{ png: Uint8Array; scaled?: Scaled }> {
  await page.bringToFront();
  const session = sessionOf(page.target());
  if (options.maxSide !== undefined && session) {
    const fit = fitting(await session.send('Page.getLayoutMetrics'), options, options.maxSide);
    if (fit) {
      const png = await page.screenshot({ type: 'png', clip: { ...fit.box, scale: fit.scale }, captureBeyondViewport: options.clip !== undefined || options.fullPage === true });
      return { png, scaled: fit.scaled };
    }
  }
  if (options.clip) return { png: await page.screenshot({ type: 'png', clip: pixelBox(options.clip), captureBeyondViewport: true }) };
  return { png: await page.screenshot({ type: 'png', fullPage: options.fullPage === true }) };
}

/** A picture painted smaller than the page: its size at full scale and as painted, in pixels. */
export interface Scaled {
  from: { width: number; height: number };
  to: { width: number; height: number };
}

/** What a picture's box and scale are read from: `Page.getLayoutMetrics`'s answer, over the pipe or the extension's debugger. */
export interface LayoutMetrics {
  layoutViewport: { clientWidth: number };
  cssLayoutViewport: { clientWidth: number };
  cssVisualViewport: { pageX: number; pageY: number; clientWidth: number; clientHeight: number };
  cssContentSize: { width: number; height: number };
}

/** The page box a picture covers, in CSS pixels: `clip`, the whole page (`fullPage`), or the viewport. */
export function pictureBox(m: LayoutMetrics, options: { clip?: Rect; fullPage?: boolean }): ReturnType<typeof pixelBox> {
  if (options.clip) return pixelBox(options.clip);
  if (options.fullPage) return { x: 0, y: 0, width: Math.max(1, Math.ceil(m.cssContentSize.width)), height: Math.max(1, Math.ceil(m.cssContentSize.height)) };
  const v = m.cssVisualViewport;
  return pixelBox({ x: v.pageX, y: v.pageY, width: v.clientWidth, height: v.clientHeight });
}

/** The box and scale that fit a picture into `maxSide`, or undefined when it fits as it is. */
export function fitting(m: LayoutMetrics, options: { clip?: Rect; fullPage?: boolean }, maxSide: number): { box: ReturnType<typeof pixelBox>; scale: number; scaled: Scaled } | undefined {
  const ratio = m.cssLayoutViewport.clientWidth > 0 ? m.layoutViewport.clientWidth / m.cssLayoutViewport.clientWidth : 1;
  const box = pictureBox(m, options);
  const from = { width: Math.round(box.width * ratio), height: Math.round(box.height * ratio) };
  const scale = maxSide / Math.max(from.width, from.height);
  if (scale >= 1) return undefined;
  return { box, scale, scaled: { from, to: { width: Math.max(1, Math.floor(from.width * scale)), height: Math.max(1, Math.floor(from.height * scale)) } } };
}

/** The warning a step carries when its picture was scaled down to fit `maxSide`. */
export function scaledWarning(scaled: Scaled, maxSide: number): { code: 'screenshot-scaled'; message: string } {
  return {
    code: 'screenshot-scaled',
    message: `The picture was scaled down to ${scaled.to.width}×${scaled.to.height} px to fit maxSide ${maxSide} (the page is ${scaled.from.width}×${scaled.from.height} px): picture one element (target) for its detail.`,
  };
}

/** How long a picture may take: a page that holds its main thread would hold the picture too. */
export const SCREENSHOT_TIMEOUT_MS = 2_000;

/** The whole-pixel box a picture of `rect` takes (at least 1 × 1, never left of or above the page). */
export function pixelBox(rect: Rect): { x: number; y: number; width: number; height: number } {
  const { x, y, width, height } = rect;
  const left = Math.max(0, Math.floor(x));
  const top = Math.max(0, Math.floor(y));
  return { x: left, y: top, width: Math.max(1, Math.ceil(x + width) - left), height: Math.max(1, Math.ceil(y + height) - top) };
}

/**
 * Writes a picture where the caller asked (relative to the working directory), making its folder.
 * A place that cannot be written is an `unsupported` error that carries the picture
 * (`error.screenshot`): it was taken, and is not lost.
 */
export async function writePicture(path: string, png: Uint8Array): Promise<string> {
  const target = resolve(path);
  try {
    await makeFolder(dirname(target));
    await writeFile(target, png);
  } catch (error) {
    const failure = new AiteError('unsupported', `screenshot: the picture was taken but cannot be written to ${target} (${error instanceof Error ? error.message : String(error)}). Name a file in a folder you can write; the error's \`screenshot\` holds the picture.`, {
      command: 'screenshot',
      cause: error,
    });
    failure.screenshot = png;
    throw failure;
  }
  return target;
}
