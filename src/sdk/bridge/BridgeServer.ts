import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { CloseCode, MAX_MESSAGE_BYTES } from '../protocol/index.js';
import type { Rejection } from './BridgeEvents.js';
import type { Transport } from './Transport.js';
import { UpgradeGuard } from './UpgradeGuard.js';
import { AiteError } from '../errors/AiteError.js';

/** What the server needs to know of the protocol above it. */
export interface ServerHandlers {
  /** A socket passed the upgrade checks and its token is right: the protocol takes it from here. */
  accept(transport: Transport): void;
  /** A connection was refused (with why), or a socket with a wrong token was closed. */
  rejected(rejection: Rejection): void;
  /** Whether the bridge is closed (new sockets get 503). */
  closed(): boolean;
}

/**
 * The bridge's HTTP edge on 127.0.0.1: plain requests get 404 or 426; an upgrade must pass the
 * {@link UpgradeGuard} (path, host, origin, token) and then becomes a {@link Transport} for the
 * protocol. Nothing here knows a message of the protocol.
 */
export class BridgeServer {
  readonly #server: Server;
  readonly #wss: WebSocketServer;
  readonly #sockets = new Set<WebSocket>();

  private constructor(
    server: Server,
    wss: WebSocketServer,
    readonly port: number,
  ) {
    this.#server = server;
    this.#wss = wss;
  }

  /** Listens on 127.0.0.1 (`port` 0: a free one); sockets whose upgrade passes go to `handlers`. */
  static async listen(options: { port?: number; token: string; allowedOrigins: readonly string[]; headersTimeoutMs: number }, handlers: ServerHandlers): Promise<BridgeServer> {
    // A client that never finishes its upgrade request is dropped; the check runs every second.
    const headersTimeout = options.headersTimeoutMs;
    const http = createServer({ headersTimeout, requestTimeout: headersTimeout, connectionsCheckingInterval: Math.min(1_000, headersTimeout) });
    const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      http.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, options.port ?? 0)));
      http.listen(options.port ?? 0, '127.0.0.1', () => {
        http.off('error', reject);
        resolve();
      });
    });
    const address = http.address();
    const server = new BridgeServer(http, wss, typeof address === 'object' && address ? address.port : 0);
    server.#route(new UpgradeGuard(options.token, () => server.port, options.allowedOrigins), handlers);
    return server;
  }

  /** Drops every socket and stops listening. */
  async close(): Promise<void> {
    for (const ws of this.#sockets) ws.terminate();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #route(guard: UpgradeGuard, handlers: ServerHandlers): void {
    this.#server.on('request', (req, res) => {
      const isExt = (req.url ?? '').split('?')[0] === '/ext';
      const status = isExt ? 426 : 404;
      res.writeHead(status, { 'content-type': 'text/plain', connection: 'close' });
      res.end(isExt ? 'Upgrade Required\n' : 'Not Found\n');
    });
    this.#server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => socket.destroy());
      const verdict = guard.check(req);
      if (!verdict.ok) {
        handlers.rejected({ cause: verdict.cause, status: verdict.status, message: verdict.message });
        refuse(socket, verdict.status);
        return;
      }
      if (handlers.closed()) {
        refuse(socket, 503);
        return;
      }
      this.#wss.handleUpgrade(req, socket, head, (ws) => {
        ws.on('error', () => ws.terminate());
        // The token is checked after the upgrade, so the extension can read the 4401 and retry.
        if (!verdict.tokenValid) {
          handlers.rejected({ cause: 'token', code: CloseCode.WrongToken, message: 'socket closed: wrong token' });
          ws.close(CloseCode.WrongToken, 'wrong token');
          return;
        }
        this.#sockets.add(ws);
        ws.on('close', () => this.#sockets.delete(ws));
        handlers.accept(transportOf(ws));
      });
    });
  }
}

function transportOf(ws: WebSocket): Transport {
  const transport: Transport = {
    send: (text) => ws.send(text),
    close: (code, reason) => ws.close(code, reason),
    terminate: () => ws.terminate(),
  };
  ws.on('message', (data, isBinary) => transport.onmessage?.(isBinary ? undefined : data.toString()));
  ws.on('close', (code, reason) => transport.onclose?.(code, reason.toString()));
  return transport;
}

function refuse(socket: Duplex, status: number): void {
  const text = { 403: 'Forbidden', 404: 'Not Found', 503: 'Service Unavailable' }[status] ?? 'Bad Request';
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${text.length + 1}\r\n\r\n${text}\n`);
}

/** Why the bridge could not listen, said so a person can act on it (a port taken, one not allowed). */
function listenError(error: NodeJS.ErrnoException, port: number): Error {
  const why =
    error.code === 'EADDRINUSE'
      ? `port ${port} of 127.0.0.1 is already in use (another bridge, or another program)`
      : error.code === 'EACCES'
        ? `port ${port} of 127.0.0.1 may not be opened by this user`
        : `listening on 127.0.0.1:${port} failed (${error.message})`;
  return new AiteError('unsupported', `The bridge cannot start: ${why}. Pass another port, or 0 (the default) for any free one.`, { cause: error, detail: { port, code: error.code } });
}
