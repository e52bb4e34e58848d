/**
 * The page's uncaught errors, relayed to the content script.
 *
 * Measured in Chromium 156 (test/page/console.page.test.ts): a content script in its isolated
 * world receives NO `error` or `unhandledrejection` event for exceptions of the page's own
 * scripts: Chrome reports an exception only to listeners of the world it happened in. So the
 * listeners must run in the page's main world, and pass each error on as a DOM event, which
 * both worlds see. Only a string crosses (an object in `detail` would arrive as null).
 *
 * In the main world the error event has everything: `message` ("Uncaught Error: boom"),
 * filename, line, column, and `error.stack` (measured). Errors of cross-origin scripts loaded
 * without CORS arrive as "Script error." with no location or stack (the browser hides them);
 * so do errors of code an automation tool evaluates in the page (puppeteer's `evaluate`).
 * A page can dispatch the same DOM event itself; the worst it can do is add lines to the
 * run's console list, which it can do with real errors anyway.
 */
export const PAGE_ERROR_EVENT = 'aite:page-error';

/**
 * Installs the main-world listeners. Self-contained on purpose: the worker may pass it to
 * `chrome.scripting.executeScript({ world: 'MAIN', func: installPageErrorRelay })`, which runs
 * its source text in the page (no imports, no outer variables), and `mainWorld.ts` runs it
 * as a MAIN-world content script. Idempotent per document.
 */
export function installPageErrorRelay(): void {
  const flag = '__aitePageErrorRelay';
  const w = window as unknown as Record<string, unknown>;
  if (w[flag]) return;
  Object.defineProperty(w, flag, { value: true });
  const send = (text: string): void => {
    window.dispatchEvent(new CustomEvent('aite:page-error', { detail: text.slice(0, 10_000) }));
  };
  const stackTail = (value: unknown): string => {
    const stack = value && typeof (value as { stack?: unknown }).stack === 'string' ? (value as { stack: string }).stack : '';
    const lines = stack.split('\n').slice(1); // the first line repeats the message
    return lines.length > 0 ? `\n${lines.join('\n')}` : '';
  };
  window.addEventListener('error', (e: Event) => {
    // Failed loads of images and scripts are plain Events that do not reach a bubbling listener; only script errors are ErrorEvents.
    if (!(e instanceof ErrorEvent)) return;
    const where = e.filename ? ` (${e.filename}:${e.lineno}:${e.colno})` : '';
    send(`${e.message || 'Uncaught error'}${where}${stackTail(e.error)}`);
  });
  window.addEventListener('unhandledrejection', (e: PromiseRejectionEvent) => {
    let reason: string;
    try {
      const r: unknown = e.reason;
      reason = r instanceof Error ? `${r.name}: ${r.message}${stackTail(r)}` : typeof r === 'string' ? r : JSON.stringify(r) ?? String(r);
    } catch {
      reason = '(a value that cannot be shown)';
    }
    send(`Uncaught (in promise) ${reason}`);
  });
}
