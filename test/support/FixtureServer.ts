// Serves test/fixtures/pages on 127.0.0.1 for the end-to-end tests, plus a few dynamic routes:
//
//   /slow?ms=N        answers 200 "slow N ms" after N ms (at most 30 s): keeps the network busy
//   /redirect?to=URL  answers 302 to URL (any origin: used to leave the allow list)
//   /status/CODE      answers with that status (200-599) and a small HTML page naming it;
//                     ?ms=N answers after N ms (at most 30 s)
//   /no-framing?by=xfo|csp  a small page that refuses to be framed: X-Frame-Options: DENY, or
//                     Content-Security-Policy: frame-ancestors 'none'
//   /lib/PKG/PATH     a file of one of the widget libraries installed as devDependencies
//                     (WIDGET_PACKAGES), from node_modules: the widget pages load them from here
//
// Every answer carries `cache-control: no-store`, so a page is fetched afresh each time.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A running fixture server. */
export interface FixtureServer {
  /** `http://<host>:<port>/` (host 127.0.0.1 unless told) */
  url: string;
  /** `http://<host>:<port>`: what an allow list names. */
  origin: string;
  port: number;
  /** Stops listening, drops open connections and cancels pending slow answers. */
  close(): Promise<void>;
}

export interface FixtureServerOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /**
   * The loopback address to listen on (default 127.0.0.1). Another one (127.0.0.2) is another
   * site to the browser, with its own process for its frames: a third site next to 127.0.0.1
   * and localhost.
   */
  host?: string;
  /**
   * The repository's root, when this file is bundled elsewhere (the bench): the pages and
   * node_modules are found from it rather than from this file's own place.
   */
  root?: string;
}

const PAGES = fileURLToPath(new URL('../fixtures/pages/', import.meta.url));
const NODE_MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url));
const MAX_SLOW_MS = 30_000;

/** The widget libraries the widget suite drives (devDependencies), served under /lib/. */
export const WIDGET_PACKAGES = ['tinymce', 'flatpickr', 'tom-select', 'sweetalert2', 'sortablejs', 'dropzone', 'shoelace', 'choices', 'quill'] as const;

/** Where a widget library lies under node_modules, when not under its own name. */
const PACKAGE_FOLDERS: Partial<Record<(typeof WIDGET_PACKAGES)[number], string>> = { shoelace: '@shoelace-style/shoelace', choices: 'choices.js' };

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

export async function startFixtureServer(opts: FixtureServerOptions = {}): Promise<FixtureServer> {
  const pending = new Set<NodeJS.Timeout>();

  const dirs = opts.root ? { pages: join(opts.root, 'test/fixtures/pages'), modules: join(opts.root, 'node_modules') } : { pages: PAGES, modules: NODE_MODULES };
  const server = createServer((req, res) => {
    handle(req, res, pending, dirs).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      send(res, 500, 'text/plain; charset=utf-8', `fixture server: ${String(error)}`);
    });
  });

  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  });

  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fixture server: no TCP address');
  const origin = `http://${opts.host ?? '127.0.0.1'}:${address.port}`;
  return {
    url: `${origin}/`,
    origin,
    port: address.port,
    close: () =>
      new Promise<void>((resolveClose, rejectClose) => {
        for (const timer of pending) clearTimeout(timer);
        pending.clear();
        server.close((error) => (error ? rejectClose(error) : resolveClose()));
        server.closeAllConnections();
      }),
  };
}

/** Answers after `ms` (at once for 0), unless the client went away first; the server's close clears what is pending. */
function later(res: ServerResponse, pending: Set<NodeJS.Timeout>, ms: number, answer: () => void): void {
  if (ms === 0) return answer();
  const timer = setTimeout(() => {
    pending.delete(timer);
    answer();
  }, ms);
  pending.add(timer);
  res.once('close', () => {
    clearTimeout(timer);
    pending.delete(timer);
  });
}

async function handle(req: IncomingMessage, res: ServerResponse, pending: Set<NodeJS.Timeout>, dirs: { pages: string; modules: string }): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    return send(res, 405, 'text/plain; charset=utf-8', `${req.method ?? '?'} is not allowed`);
  }

  // `?ms=N`: how long /slow and /status/CODE hold their answer.
  const ms = Math.min(Math.max(Number(url.searchParams.get('ms') ?? 0) || 0, 0), MAX_SLOW_MS);
  if (url.pathname === '/slow') return later(res, pending, ms, () => send(res, 200, 'text/plain; charset=utf-8', `slow ${ms} ms`, req.method === 'HEAD'));

  if (url.pathname === '/redirect') {
    const to = url.searchParams.get('to');
    if (!to) return send(res, 400, 'text/plain; charset=utf-8', 'redirect needs ?to=URL');
    res.setHeader('location', to);
    return send(res, 302, 'text/plain; charset=utf-8', `redirecting to ${to}`, req.method === 'HEAD');
  }

  const status = /^\/status\/(\d{3})$/.exec(url.pathname);
  if (status) {
    const code = Number(status[1]);
    if (code < 200 || code > 599) return send(res, 400, 'text/plain; charset=utf-8', 'status must be 200-599');
    const body = `<!doctype html><meta charset="utf-8"><title>Status ${code}</title><h1>Status ${code}</h1>`;
    return later(res, pending, ms, () => send(res, code, 'text/html; charset=utf-8', code === 204 || code === 304 ? '' : body, req.method === 'HEAD'));
  }

  if (url.pathname === '/no-framing') {
    const by: Record<string, string> = url.searchParams.get('by') === 'csp' ? { 'content-security-policy': "frame-ancestors 'none'" } : { 'x-frame-options': 'DENY' };
    const body = '<!doctype html><meta charset="utf-8"><title>Not framed</title><button type="button">Never framed</button>';
    return send(res, 200, 'text/html; charset=utf-8', body, req.method === 'HEAD', by);
  }

  // HTTP Basic authentication: the user "aite", password "secret".
  if (url.pathname === '/login-required') {
    if (req.headers.authorization === `Basic ${Buffer.from('aite:secret').toString('base64')}`) {
      return send(res, 200, 'text/html; charset=utf-8', '<!doctype html><meta charset="utf-8"><title>Members</title><h1>Members only</h1>', req.method === 'HEAD');
    }
    return send(res, 401, 'text/html; charset=utf-8', '<!doctype html><title>Denied</title><h1>Denied</h1>', req.method === 'HEAD', { 'www-authenticate': 'Basic realm="aite fixtures"' });
  }

  if (url.pathname === '/favicon.ico') return send(res, 204, 'image/x-icon', '');

  const lib = /^\/lib\/([^/]+)(\/.*)$/.exec(url.pathname);
  if (lib) {
    if (!(WIDGET_PACKAGES as readonly string[]).includes(lib[1]!)) return send(res, 404, 'text/plain; charset=utf-8', `no widget library ${lib[1]}`);
    return serveFile(req, res, lib[2]!, join(dirs.modules, PACKAGE_FOLDERS[lib[1] as (typeof WIDGET_PACKAGES)[number]] ?? lib[1]!));
  }

  return serveFile(req, res, url.pathname, dirs.pages);
}

async function serveFile(req: IncomingMessage, res: ServerResponse, pathname: string, from: string): Promise<void> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return send(res, 400, 'text/plain; charset=utf-8', 'malformed path');
  }
  const file = resolve(join(from, decoded.endsWith('/') ? `${decoded}index.html` : decoded));
  const root = resolve(from);
  const inside = file.startsWith(root + sep);
  const info = inside ? await stat(file).catch(() => null) : null;
  if (!info?.isFile()) return send(res, 404, 'text/plain; charset=utf-8', `no fixture ${pathname}`);
  const body = await readFile(file);
  send(res, 200, CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream', body, req.method === 'HEAD');
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, headOnly = false, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const empty = status === 204 || status === 304;
  res.writeHead(status, {
    'content-type': type,
    ...(empty ? {} : { 'content-length': bytes.length }),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(headOnly || empty ? undefined : bytes);
}
