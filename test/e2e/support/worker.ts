import type { Browser, WebWorker } from 'puppeteer-core';
import { AITE_EXTENSION_ID } from '../../../src/sdk/index.js';

/** The aite extension's service worker, to look inside it. */
export async function extensionWorker(browser: Browser): Promise<WebWorker> {
  const target = await browser.waitForTarget(
    (t) => t.type() === 'service_worker' && t.url().startsWith(`chrome-extension://${AITE_EXTENSION_ID}/`),
    { timeout: 20_000 },
  );
  const worker = await target.worker();
  if (!worker) throw new Error('the extension worker has no WebWorker handle');
  return worker;
}

/** Stops the extension's service worker the way Chrome does when it is idle (FAULTS row 23). */
export async function stopWorker(browser: Browser): Promise<void> {
  const cdp = await browser.target().createCDPSession();
  try {
    const { targetInfos } = await cdp.send('Target.getTargets');
    const worker = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${AITE_EXTENSION_ID}/`));
    if (!worker) throw new Error('no extension worker is running');
    await cdp.send('Target.closeTarget', { targetId: worker.targetId });
  } finally {
    await cdp.detach();
  }
}

/**
 * Reloads the extension the way a developer's "reload" does (FAULTS row 41): its worker, socket
 * and storage.session go. Evaluated over a raw CDP session: puppeteer's WebWorker handle of a
 * worker that came back from an earlier reload never answers.
 */
export async function reloadExtension(browser: Browser): Promise<void> {
  const cdp = await browser.target().createCDPSession();
  try {
    const { targetInfos } = await cdp.send('Target.getTargets');
    const worker = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${AITE_EXTENSION_ID}/`));
    if (!worker) throw new Error('no extension worker is running');
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: worker.targetId, flatten: true });
    const session = cdp.connection()!.session(sessionId)!;
    // Deferred so that the evaluation answers before the worker goes away.
    await session.send('Runtime.evaluate', { expression: 'setTimeout(() => chrome.runtime.reload(), 10), 0' });
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}
