import type { Browser } from 'puppeteer-core';
import { AITE_EXTENSION_ID } from '../identity/ExtensionIdentity.js';
import { openPages } from './pages.js';

/**
 * Starts the extension's service worker over the pipe. Chrome may stop an MV3 worker at any
 * time, and nothing but its 30 s alarm would wake it; the runner, which owns the pipe, need not
 * wait that long. Starting a running worker does nothing.
 */
export async function wakeWorker(browser: Browser): Promise<void> {
  const page = (await openPages(browser))[0];
  if (!page) return;
  const cdp = await page.createCDPSession();
  try {
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.startWorker', { scopeURL: `chrome-extension://${AITE_EXTENSION_ID}/` });
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}
