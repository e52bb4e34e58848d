import { writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { AiteError } from '../../errors/AiteError.js';
import type { Rect } from '../../protocol/index.js';
import { makeFolder } from '../../system/folders.js';

/**
 * A PNG of a page over the pipe: the viewport, the whole page (`fullPage`), or one box of it
 * (`clip`, in page CSS pixels, as a descriptor's `rect`; it may lie outside the viewport). The
 * tab is brought to the front first: a background tab does not paint.
 */
export async function capture(page: Page, options: { clip?: Rect; fullPage?: boolean }): Promise<Uint8Array> {
  await page.bringToFront();
  if (options.clip) return page.screenshot({ type: 'png', clip: pixelBox(options.clip), captureBeyondViewport: true });
  return page.screenshot({ type: 'png', fullPage: options.fullPage === true });
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
