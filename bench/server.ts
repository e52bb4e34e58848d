// Serves bench/pages on 127.0.0.1:0 (no-store, like the fixture server).
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export async function startPageServer(root: string): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://127.0.0.1').pathname.slice(1);
    if (!/^[\w-]+\.html$/.test(name)) {
      res.writeHead(name === 'favicon.ico' ? 204 : 404).end();
      return;
    }
    readFile(join(root, name)).then(
      (body) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
