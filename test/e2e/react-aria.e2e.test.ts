import { createServer, type Server } from 'node:http';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, type Session } from '../../src/sdk/index.js';

// React Aria's ComboBox and Select, bundled from the registry's packages for this file, on a
// server of its own. One Chrome for the file.
let server: Server;
let origin: string;
let session: Session;

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [new URL('../fixtures/react/combobox.jsx', import.meta.url).pathname],
    bundle: true,
    write: false,
    minify: true,
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const app = bundle.outputFiles[0]!.contents;
  const page = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>React Aria</title><link rel="icon" href="data:,"></head><body><div id="root"></div><script src="/app.js"></script></body></html>';
  server = createServer((req, res) => {
    if (req.url === '/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(app);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  session = await launch({ allow: [origin], timeoutMs: 4000 });
}, 60_000);
afterAll(async () => {
  await session?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('React Aria (react-aria-components): popovers that close when the page scrolls', () => {
  it('[SCROLL-IF-NEEDED] a ComboBox option and a Select option in view are clicked where they are: the list stays open and the choice lands', async () => {
    await session.tab.navigate(`${origin}/`);
    await session.type({ role: 'combobox', name: 'City' }, 'Ber');
    await session.click({ role: 'option', name: 'Bern' });
    await session.verify.targetText({ css: '#city' }, 'Bern', { exact: true });
    await session.click({ role: 'button', name: /Animal/ });
    await session.click({ role: 'option', name: 'Kangaroo' });
    await session.verify.targetText({ css: '#animal' }, 'Kangaroo', { exact: true });
    // Nothing on the way was scrolled: everything was in the window.
    expect(await session.evaluate(() => scrollY)).toBe(0);
  });
});
