import { createServer } from 'node:http';

/** A loopback server of small pages: each path answers the body `bodyOf` gives it, or a 404. */
export interface PageServer {
  origin: string;
  close(): Promise<void>;
}

/** Serves `<body>` markup per path (without the leading slash) on 127.0.0.1. */
export async function servePages(bodyOf: (path: string) => string | undefined): Promise<PageServer> {
  const server = createServer((req, res) => {
    const body = bodyOf((req.url ?? '/').slice(1));
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html' }).end(`<!doctype html><title>t</title><body>${body ?? 'none'}</body>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
