// The MallBucks demo backend: serves the static app and a tiny JSON API whose state lives in
// memory. Plain Node (node:http), no dependencies, so the demo runs from a fresh checkout.
//
//   node examples/demo/server.mjs [port]      serves on http://127.0.0.1:4173/ by default
//
//   GET  /api/balance   -> { balance: 5, currency: "MALLBUCKS" }
//   GET  /api/activity  -> { items: [ { to, amount, at } ] }      newest first
//   POST /api/send      { to, amount } -> { ok: true, balance, sent: { to, amount, at } }
//                       400 { error } when the body, recipient or amount is not acceptable
//   POST /api/reset     -> { ok: true, balance: 5 }                 back to the starting state
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const STARTING_BALANCE = 5;
const CURRENCY = 'MALLBUCKS';
const MAX_BODY_BYTES = 16 * 1024;
const DEFAULT_ROOT = fileURLToPath(new URL('./app/', import.meta.url));

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * Starts the demo server on 127.0.0.1 (by default on a free port).
 * @param {{ port?: number, host?: string, root?: string }} [options]
 */
export async function startDemoServer({ port = 0, host = '127.0.0.1', root = DEFAULT_ROOT } = {}) {
  const appRoot = resolve(root);
  const wallet = { balance: STARTING_BALANCE, activity: [] };
  const reset = () => {
    wallet.balance = STARTING_BALANCE;
    wallet.activity = [];
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      const status = error instanceof HttpError ? error.status : 500;
      if (status === 500) console.error(error);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendJson(res, status, { error: status === 500 ? 'Something went wrong on the server.' : error.message });
    });
  });

  async function handle(req, res) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname.startsWith('/api/')) return handleApi(req, res, url.pathname);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      throw new HttpError(405, `${req.method} is not allowed here.`);
    }
    return serveFile(req, res, url.pathname);
  }

  async function handleApi(req, res, path) {
    const route = `${req.method} ${path}`;
    switch (route) {
      case 'GET /api/balance':
        return sendJson(res, 200, { balance: wallet.balance, currency: CURRENCY });
      case 'GET /api/activity':
        return sendJson(res, 200, { items: wallet.activity });
      case 'POST /api/send': {
        const { to, amount } = parseTransfer(await readJson(req));
        if (amount > wallet.balance) {
          throw new HttpError(400, `You can send at most ${wallet.balance} ${CURRENCY}.`);
        }
        wallet.balance = Math.round((wallet.balance - amount) * 100) / 100;
        const sent = { to, amount, at: new Date().toISOString() };
        wallet.activity.unshift(sent);
        return sendJson(res, 200, { ok: true, balance: wallet.balance, sent });
      }
      case 'POST /api/reset':
        reset();
        return sendJson(res, 200, { ok: true, balance: wallet.balance });
      default:
        throw new HttpError(404, `No API route ${route}.`);
    }
  }

  async function serveFile(req, res, pathname) {
    let decoded;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      throw new HttpError(400, 'Malformed path.');
    }
    const relative = decoded.endsWith('/') ? `${decoded}index.html` : decoded;
    const file = resolve(join(appRoot, relative));
    if (file !== appRoot && !file.startsWith(appRoot + sep)) throw new HttpError(404, 'Not found.');
    let info;
    try {
      info = await stat(file);
    } catch {
      info = null;
    }
    if (!info?.isFile()) throw new HttpError(404, `No file ${pathname}.`);
    const body = await readFile(file);
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'content-length': body.length,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  await new Promise((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(port, host, () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  });

  const address = server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${boundPort}/`,
    port: boundPort,
    reset,
    close: () =>
      new Promise((resolveClose, rejectClose) => {
        server.close((error) => (error ? rejectClose(error) : resolveClose()));
        server.closeAllConnections();
      }),
  };
}

function parseTransfer(body) {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'Send a JSON object: { "to": "...", "amount": 1 }.');
  }
  const to = typeof body.to === 'string' ? body.to.trim() : '';
  if (!to) throw new HttpError(400, 'Enter who to send to.');
  if (to.length > 100) throw new HttpError(400, 'The recipient is too long.');
  const amount = typeof body.amount === 'string' && body.amount.trim() !== '' ? Number(body.amount) : body.amount;
  if (typeof amount !== 'number' || !Number.isFinite(amount)) throw new HttpError(400, 'The amount must be a number.');
  if (amount <= 0) throw new HttpError(400, 'The amount must be more than 0.');
  if (Math.round(amount * 100) !== amount * 100) throw new HttpError(400, 'Use at most two decimal places.');
  return { to, amount };
}

async function readJson(req) {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) throw new HttpError(415, 'Send the body as application/json.');
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, 'The request body is too large.');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON.');
  }
}

function sendJson(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(body);
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) {
  const arg = process.argv[2];
  const port = arg === undefined ? 4173 : Number(arg);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`Usage: node examples/demo/server.mjs [port]   (got port "${arg}")`);
    process.exit(2);
  }
  try {
    const demo = await startDemoServer({ port });
    console.log(`MallBucks demo at ${demo.url}  (Ctrl+C to stop)`);
    const stop = () => {
      demo.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (error) {
    console.error(`Could not start the demo server: ${error.message}`);
    process.exit(1);
  }
}
