import { createServer, type Server } from 'node:http';
import { build } from 'esbuild';

/**
 * A page whose app is a JSX file of test/fixtures bundled with the registry's packages it
 * imports (React and a widget library), served at `/` of a server of its own on 127.0.0.1.
 */
export class BundledPage {
  private constructor(
    private readonly server: Server,
    /** The server's origin: the page is at `${origin}/`. */
    readonly origin: string,
  ) {}

  /** Bundles `entry` (a path from test/fixtures) and serves it in a page titled `title`. */
  static async start(entry: string, title: string): Promise<BundledPage> {
    const bundle = await build({
      entryPoints: [new URL(`../fixtures/${entry}`, import.meta.url).pathname],
      bundle: true,
      write: false,
      minify: true,
      jsx: 'automatic',
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'silent',
    });
    const app = bundle.outputFiles[0]!.contents;
    const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="data:,"></head><body><div id="root"></div><script src="/app.js"></script></body></html>`;
    const server = createServer((req, res) => {
      if (req.url === '/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(app);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new BundledPage(server, `http://127.0.0.1:${(server.address() as { port: number }).port}`);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
