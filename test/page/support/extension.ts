import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { extensionZod } from '../../../build/extensionZodPlugin.js';
import { REPO } from './harness.js';

// A minimal extension around the real content-script bundles, for testing main.ts: the test
// worker only records the content script's events and forwards requests from the test.
const TEST_WORKER = `
self.events = [];
chrome.runtime.onMessage.addListener((message, sender) => {
  if (message && message.aite === 1 && message.event) self.events.push({ ...message.event, tab: sender.tab && sender.tab.id });
});
self.tabIdOf = async (urlPart) => (await chrome.tabs.query({})).find((t) => (t.url || '').includes(urlPart)).id;
self.ask = (tabId, message) => chrome.tabs.sendMessage(tabId, message, { frameId: 0 });
self.inject = (tabId) => chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, files: ['content.js'] });
`;

// Measures what an isolated-world content script sees of the page's own errors.
const PROBE = `
let n = 0;
window.addEventListener('error', () => document.documentElement.setAttribute('data-isolated-errors', String(++n)));
window.addEventListener('unhandledrejection', () => document.documentElement.setAttribute('data-isolated-errors', String(++n)));
`;

/** Writes the test extension into `dir` and returns it. */
export async function writeTestExtension(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const bundle = async (entry: string, out: string): Promise<void> => {
    await build({ entryPoints: [join(REPO, entry)], outfile: join(dir, out), bundle: true, format: 'iife', platform: 'browser', target: 'chrome120', logLevel: 'silent', plugins: [extensionZod] });
  };
  await bundle('src/extension/content/main.ts', 'content.js');
  await bundle('src/extension/content/guardStart.ts', 'guard-start.js');
  await bundle('src/extension/content/mainWorld.ts', 'page-errors.js');
  writeFileSync(join(dir, 'worker.js'), TEST_WORKER);
  writeFileSync(join(dir, 'probe.js'), PROBE);
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({
      manifest_version: 3,
      name: 'aite content-script test',
      version: '0.0.1',
      background: { service_worker: 'worker.js' },
      permissions: ['scripting', 'tabs'],
      host_permissions: ['http://127.0.0.1/*'],
      content_scripts: [
        { matches: ['http://127.0.0.1/*'], js: ['content.js', 'probe.js'], run_at: 'document_idle' },
        { matches: ['http://127.0.0.1/*'], js: ['guard-start.js'], run_at: 'document_start' },
        { matches: ['http://127.0.0.1/*'], js: ['page-errors.js'], run_at: 'document_start', world: 'MAIN' },
      ],
    }),
  );
  return dir;
}
