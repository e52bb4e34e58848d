import { EventEmitter } from 'node:events';
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type TypedEmitter from 'typed-emitter';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { AiteError } from '../errors/AiteError.js';
import {
  AnswerEnvelopeSchema,
  AnswerSchemas,
  CloseCode,
  DEFAULT_TIMEOUT_MS,
  EventSchema,
  FailureSchema,
  HelloSchema,
  IDEMPOTENT_COMMANDS,
  MAX_MESSAGE_BYTES,
  PING_INTERVAL_MS,
  PROTOCOL_VERSION,
  parseRequest,
  type ActDispatched,
  type AnswerOf,
  type Command,
  type Hello,
  type Request,
  type RequestInput,
} from '../protocol/index.js';
import { AITE_EXTENSION_ORIGIN } from '../identity/ExtensionIdentity.js';
import type { BridgeEvents } from './BridgeEvents.js';
import { PendingRequests, type PendingRequest } from './PendingRequests.js';
import { RequestQueue } from './RequestQueue.js';
import { UpgradeGuard } from './UpgradeGuard.js';

/**
 * Options of {@link Bridge.start}.
 *
 * @example
 * ```ts
 * import { Bridge, type BridgeOptions } from 'aite';
 *
 * const options: BridgeOptions = { profile: 'ana', defaultTimeoutMs: 10_000 };
 * const bridge = await Bridge.start(options);
 * console.log(bridge.url.replace(/\?.*$/, '')); // ws://127.0.0.1:<port>/ext, without the token
 * await bridge.close();
 * ```
 * @public
 */
export interface BridgeOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** The run token, 32 hex characters; default: 128 fresh random bits. */
  token?: string;
  /** Profile name, for messages. */
  profile?: string;
  /** How long an upgraded socket may stay silent before its hello. Default 10 000. */
  helloTimeoutMs?: number;
  /** Application-level ping interval (keeps the MV3 worker alive). Default 15 000. */
  pingIntervalMs?: number;
  /** Close with 4410 when nothing was heard for this long. Default 30 000. */
  pongTimeoutMs?: number;
  /** Default `timeoutMs` of a request that names none. Default 5 000. */
  defaultTimeoutMs?: number;
  /** Extra time the bridge waits beyond a request's own `timeoutMs` before giving up on it. Default 10 000. */
  answerGraceMs?: number;
  /** Origins allowed to connect. Default: the aite extension's. */
  allowedOrigins?: readonly string[];
  /** Upgraded sockets that have not said hello yet, at most; the oldest is dropped for a new one. Default 16. */
  maxPendingSockets?: number;
  /** A client must finish its HTTP upgrade request within this time. Default 5 000. */
  headersTimeoutMs?: number;
  /**
   * How long an act whose answer was lost with its connection waits for the extension to come
   * back and say whether the act dispatched its input; after that it fails with
   * `dispatched: "unknown"`. Default 15 000.
   */
  lostActWaitMs?: number;
}

type Emitter = new () => TypedEmitter<BridgeEvents>;

/**
 * The runner's end of the protocol: a WebSocket server on 127.0.0.1 that the aite extension
 * connects to. It authenticates the extension, keeps its worker alive, and sends requests one
 * at a time, re-sending only idempotent ones after a reconnect.
 *
 * @example
 * ```ts
 * import { Bridge } from 'aite';
 *
 * // The low level under Session: one socket to the extension, one request at a time.
 * const bridge = await Bridge.start({ profile: 'default' });
 * // ...write bridge.url and bridge.token into the extension's bridge.json, start Chrome...
 * await bridge.waitForExtension(30_000);
 * const tabs = await bridge.request({ cmd: 'tabs' });
 * console.log(tabs.tabs.map((tab) => tab.url));
 * await bridge.close();
 * ```
 * @public
 */
export class Bridge extends (EventEmitter as Emitter) {
  /** `ws://127.0.0.1:<port>/ext` (the token is not part of it). */
  readonly url: string;
  /** The port it listens on, on 127.0.0.1. */
  readonly port: number;
  /** The run token (32 hex characters). Never logged. */
  readonly token: string;
  /** The profile it serves; the extension's hello names it. */
  readonly profile: string;
  /** This run's id, sent in `welcome`. */
  readonly runId: string;

  readonly #server: Server;
  readonly #wss: WebSocketServer;
  readonly #options: Required<Omit<BridgeOptions, 'port' | 'token' | 'profile'>>;
  readonly #pending = new PendingRequests();
  readonly #queue = new RequestQueue();
  readonly #pendingSockets = new Set<WebSocket>();
  /** Lost acts not yet asked about, with why each was lost. */
  readonly #lostActs = new Map<number, string>();
  #socket: WebSocket | undefined;
  #hello: Hello | undefined;
  #lastHeard = 0;
  #lastTick = Date.now();
  #pingTimer: NodeJS.Timeout | undefined;
  #closed = false;

  private constructor(server: Server, wss: WebSocketServer, port: number, token: string, options: BridgeOptions) {
    super();
    this.#server = server;
    this.#wss = wss;
    this.port = port;
    this.url = `ws://127.0.0.1:${port}/ext`;
    this.token = token;
    this.profile = options.profile ?? 'default';
    this.runId = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(2).toString('hex')}`;
    this.#options = {
      helloTimeoutMs: options.helloTimeoutMs ?? 10_000,
      pingIntervalMs: options.pingIntervalMs ?? PING_INTERVAL_MS,
      pongTimeoutMs: options.pongTimeoutMs ?? 30_000,
      defaultTimeoutMs: options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS,
      answerGraceMs: options.answerGraceMs ?? 10_000,
      allowedOrigins: options.allowedOrigins ?? [AITE_EXTENSION_ORIGIN],
      maxPendingSockets: options.maxPendingSockets ?? 16,
      headersTimeoutMs: options.headersTimeoutMs ?? 5_000,
      lostActWaitMs: options.lostActWaitMs ?? 15_000,
    };
  }

  /** Starts a bridge on 127.0.0.1. */
  static async start(options: BridgeOptions = {}): Promise<Bridge> {
    const token = options.token ?? randomBytes(16).toString('hex');
    if (!/^[0-9a-f]{32}$/.test(token)) {
      throw new AiteError('unsupported', 'Bridge token must be 32 lowercase hex characters (128 bits).');
    }
    // A client that never finishes its upgrade request is dropped; the check runs every second.
    const headersTimeout = options.headersTimeoutMs ?? 5_000;
    const server = createServer({ headersTimeout, requestTimeout: headersTimeout, connectionsCheckingInterval: Math.min(1_000, headersTimeout) });
    const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const bridge = new Bridge(server, wss, port, token, options);
    bridge.#listen();
    return bridge;
  }

  /** Whether an extension is connected and welcomed now. */
  get connected(): boolean {
    return this.#socket !== undefined;
  }

  /** The last hello the extension sent. */
  get hello(): Hello | undefined {
    return this.#hello;
  }

  /** Resolves once the extension is connected; `timeout` if it does not connect in time. */
  async waitForExtension(timeoutMs = 20_000): Promise<void> {
    if (this.#socket) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.off('connected', onConnected);
        reject(
          new AiteError(
            'timeout',
            `The aite extension did not connect to the bridge within ${timeoutMs} ms. Check that Chrome loaded the extension (run \`aite doctor\`).`,
          ),
        );
      }, timeoutMs);
      const onConnected = (): void => {
        clearTimeout(timer);
        resolve();
      };
      this.once('connected', onConnected);
    });
  }

  /**
   * Sends one request and resolves with its answer; `ok: false` answers throw {@link AiteError}.
   * Requests are serialised: this waits for earlier requests to be answered first.
   */
  request<R extends RequestInput>(input: R): Promise<AnswerOf<R['cmd']>> {
    return this.#queue.run(() => this.#send(input)) as Promise<AnswerOf<R['cmd']>>;
  }

  /** Fails every request in flight with `connection-lost` (the browser is gone). */
  failPending(message: string): void {
    this.#pending.clear((entry) => connectionLost(entry, message));
  }

  /** Closes the extension's socket, every other socket and the server. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#pingTimer);
    this.#pending.clear((entry) => connectionLost(entry, 'the bridge was closed'));
    for (const ws of [...this.#pendingSockets, ...(this.#socket ? [this.#socket] : [])]) ws.terminate();
    this.#socket = undefined;
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  // -------------------------------------------------------------------------------------------

  #listen(): void {
    const guard = new UpgradeGuard(this.token, () => this.port, this.#options.allowedOrigins);
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
        this.emit('rejected', { cause: verdict.cause, status: verdict.status, message: verdict.message });
        refuse(socket, verdict.status);
        return;
      }
      if (this.#closed) {
        refuse(socket, 503);
        return;
      }
      // Silent sockets must not lock the extension out: the oldest one makes room.
      if (this.#pendingSockets.size >= this.#options.maxPendingSockets) {
        const oldest = this.#pendingSockets.values().next().value;
        if (oldest) {
          this.#pendingSockets.delete(oldest);
          this.emit('rejected', { cause: 'capacity', code: CloseCode.HelloTimeout, message: 'socket closed: too many sockets waiting for hello' });
          oldest.close(CloseCode.HelloTimeout, 'too many sockets waiting for hello');
        }
      }
      this.#wss.handleUpgrade(req, socket, head, (ws) => this.#onSocket(ws, verdict.tokenValid));
    });
    this.#pingTimer = setInterval(() => this.#keepAlive(), this.#options.pingIntervalMs);
    this.#pingTimer.unref();
  }

  #onSocket(ws: WebSocket, tokenValid: boolean): void {
    ws.on('error', () => ws.terminate());
    if (!tokenValid) {
      this.emit('rejected', { cause: 'token', code: CloseCode.WrongToken, message: 'socket closed: wrong token' });
      ws.close(CloseCode.WrongToken, 'wrong token');
      return;
    }
    this.#pendingSockets.add(ws);
    const helloTimer = setTimeout(() => {
      this.emit('rejected', { cause: 'hello-timeout', code: CloseCode.HelloTimeout, message: 'socket closed: no hello in time' });
      ws.close(CloseCode.HelloTimeout, 'no hello in time');
    }, this.#options.helloTimeoutMs);
    ws.on('close', () => {
      clearTimeout(helloTimer);
      this.#pendingSockets.delete(ws);
    });
    ws.once('message', (data, isBinary) => {
      clearTimeout(helloTimer);
      this.#pendingSockets.delete(ws);
      const hello = isBinary ? undefined : HelloSchema.safeParse(parseJson(data));
      if (!hello?.success) {
        this.emit('rejected', { cause: 'hello', code: CloseCode.ProtocolMismatch, message: 'socket closed: first message was not a valid hello' });
        ws.close(CloseCode.ProtocolMismatch, 'expected hello');
        return;
      }
      if ((hello.data.protocol ?? PROTOCOL_VERSION) !== PROTOCOL_VERSION) {
        this.emit('rejected', { cause: 'protocol', code: CloseCode.ProtocolMismatch, message: `socket closed: protocol ${hello.data.protocol} is not ${PROTOCOL_VERSION}` });
        ws.close(CloseCode.ProtocolMismatch, 'protocol mismatch');
        return;
      }
      this.#accept(ws, hello.data);
    });
  }

  #accept(ws: WebSocket, hello: Hello): void {
    const previous = this.#socket;
    this.#socket = ws;
    this.#hello = hello;
    this.#lastHeard = Date.now();
    if (previous) previous.close(CloseCode.Replaced, 'replaced by a newer connection');
    const proof = hello.nonce ? createHmac('sha256', this.token).update(hello.nonce).digest('hex') : undefined;
    ws.send(JSON.stringify({ type: 'welcome', runId: this.runId, protocol: PROTOCOL_VERSION, ...(proof ? { proof } : {}) }));
    ws.on('message', (data, isBinary) => this.#onMessage(ws, data, isBinary));
    ws.on('close', (code, reason) => this.#onClose(ws, code, reason.toString()));
    this.emit('hello', hello);
    this.emit('connected', { resumed: hello.resume !== undefined });
    // Requests that waited for a connection (or lost theirs) go out now.
    for (const entry of this.#pending.all()) if (!entry.sent) this.#transmit(entry);
    // An act is never sent again; the extension is asked what became of it instead.
    for (const [id, why] of [...this.#lostActs]) {
      this.#lostActs.delete(id);
      void this.#settleLostAct(id, why);
    }
  }

  #onMessage(ws: WebSocket, data: RawData, isBinary: boolean): void {
    if (ws !== this.#socket) return;
    this.#lastHeard = Date.now();
    if (isBinary) {
      this.emit('warning', 'dropped a binary frame from the extension');
      return;
    }
    const message = parseJson(data);
    if (message === undefined || typeof message !== 'object' || message === null) {
      this.emit('warning', 'dropped a message that is not a JSON object');
      return;
    }
    const type = (message as { type?: unknown }).type;
    if (type === 'pong') return;
    if (type === 'event') {
      const event = EventSchema.safeParse(message);
      if (event.success) this.emit('event', event.data);
      else this.emit('warning', `dropped a malformed event: ${event.error.issues[0]?.message ?? ''}`);
      return;
    }
    const envelope = AnswerEnvelopeSchema.safeParse(message);
    if (!envelope.success) {
      this.emit('warning', 'dropped a message that is neither a pong, an event nor an answer');
      return;
    }
    this.#onAnswer(envelope.data);
  }

  #onAnswer(answer: { id: number; ok: boolean } & Record<string, unknown>): void {
    const entry = this.#pending.get(answer.id);
    if (!entry || !entry.sent) {
      this.emit('warning', `dropped an answer for unknown or finished request ${answer.id}`);
      return;
    }
    const resends = entry.resends;
    if (!answer.ok) {
      const failure = FailureSchema.safeParse(answer);
      const error = failure.success
        ? AiteError.fromFailure({ ...failure.data, retries: (failure.data.retries ?? 0) + resends || undefined }, entry.cmd)
        : new AiteError('internal', `The extension sent a malformed failure for ${entry.cmd}.`, { command: entry.cmd });
      this.#pending.settle(entry.id, { error });
      return;
    }
    const parsed = AnswerSchemas[entry.cmd].safeParse(answer);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      this.#pending.settle(entry.id, {
        error: new AiteError('internal', `The extension's answer to ${entry.cmd} is malformed (${issue?.path.join('.')}: ${issue?.message}).`, {
          command: entry.cmd,
        }),
      });
      return;
    }
    const retries = (parsed.data.retries ?? 0) + resends;
    this.#pending.settle(entry.id, { answer: { ...parsed.data, ...(retries > 0 ? { retries } : {}) } });
  }

  #onClose(ws: WebSocket, code: number, reason: string): void {
    if (ws !== this.#socket) return;
    this.#socket = undefined;
    this.emit('disconnected', { code, reason });
    for (const entry of this.#pending.all()) {
      if (!entry.sent || entry.lost) continue;
      const why = `the extension disconnected (close ${code}) before answering; an action is never sent twice`;
      if (IDEMPOTENT_COMMANDS.has(entry.cmd)) {
        entry.sent = false; // goes out again on the next connection
      } else if (entry.cmd === 'act') {
        // Held until the extension is back and says whether the input was dispatched.
        entry.lost = true;
        this.#lostActs.set(entry.id, why);
        const waitMs = this.#options.lostActWaitMs;
        this.#pending.rearm(entry.id, waitMs, () => {
          this.#lostActs.delete(entry.id);
          return connectionLost(entry, `${why}; whether its input was dispatched is unknown: the extension did not come back and tell within ${waitMs} ms`);
        });
      } else {
        this.#pending.settle(entry.id, { error: connectionLost(entry, why) });
      }
    }
  }

  /** Asks the extension whether lost act `id` dispatched its input, and fails the act with what it says. */
  async #settleLostAct(id: number, why: string): Promise<void> {
    const entry = this.#pending.get(id);
    if (!entry) return;
    let dispatched: ActDispatched = 'unknown';
    let note: string;
    try {
      const request = entry.request as Extract<Request, { cmd: 'act' }>;
      const status = (await this.#send({ cmd: 'actStatus', act: id, tab: request.tab, timeoutMs: DEFAULT_TIMEOUT_MS })) as AnswerOf<'actStatus'>;
      dispatched = status.dispatched;
      note =
        dispatched === true
          ? 'the page reports its input was dispatched: check what the page did before repeating it'
          : dispatched === false
            ? 'the page reports its input was not dispatched, and now never will be'
            : `whether its input was dispatched is unknown: ${status.why ?? 'the page cannot tell'}`;
    } catch (error) {
      note = `whether its input was dispatched is unknown: asking the extension failed (${error instanceof Error ? error.message : String(error)})`;
    }
    this.#pending.settle(id, { error: connectionLost(entry, `${why}; ${note}`, dispatched) });
  }

  async #send(input: RequestInput): Promise<Record<string, unknown>> {
    if (this.#closed) throw new AiteError('connection-lost', 'The bridge is closed.', { command: input.cmd });
    const id = this.#pending.nextId();
    const parsed = parseRequest({ ...input, id });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AiteError(
        'unsupported',
        `Invalid ${String(input.cmd)} request: ${issue?.path.join('.') || '(root)'}: ${issue?.message}.`,
        { command: String(input.cmd), detail: { issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) } },
      );
    }
    const request = parsed.data;
    const size = Buffer.byteLength(JSON.stringify(request));
    if (size > MAX_MESSAGE_BYTES) {
      throw new AiteError('unsupported', `The ${request.cmd} request is ${size} bytes, over the protocol's 8 MB limit. Send less.`, {
        command: request.cmd,
      });
    }
    const timeoutMs = (request.timeoutMs ?? this.#options.defaultTimeoutMs) + this.#options.answerGraceMs;
    const promise = this.#pending.add({ id, cmd: request.cmd, request, resends: 0, attempts: 0, sent: false }, timeoutMs, () =>
      new AiteError(
        'timeout',
        this.#socket
          ? `No answer to ${request.cmd} within ${timeoutMs} ms. Raise timeoutMs if the page is slow.`
          : `No answer to ${request.cmd} within ${timeoutMs} ms: the extension is not connected.`,
        { command: request.cmd },
      ),
    );
    if (this.#socket) this.#transmit(this.#pending.get(id)!);
    return promise;
  }

  #transmit(entry: PendingRequest): void {
    const ws = this.#socket;
    if (!ws) return;
    if (entry.attempts > 0) {
      entry.resends += 1;
      this.emit('retry', { id: entry.id, cmd: entry.cmd, retries: entry.resends, why: 'reconnect' });
    }
    entry.attempts += 1;
    entry.sent = true;
    ws.send(JSON.stringify(entry.request satisfies Request));
  }

  #keepAlive(): void {
    const now = Date.now();
    const late = now - this.#lastTick > this.#options.pingIntervalMs * 1.5;
    this.#lastTick = now;
    const ws = this.#socket;
    if (!ws) return;
    // When our own event loop was blocked, pongs may be waiting unread: judge the link on the next tick.
    if (late) this.#lastHeard = now;
    if (now - this.#lastHeard > this.#options.pongTimeoutMs) {
      this.emit('rejected', { cause: 'ping', code: CloseCode.PingTimeout, message: 'socket closed: no answer to pings' });
      ws.close(CloseCode.PingTimeout, 'no answer to pings');
      // A half-open link may never finish the closing handshake.
      setTimeout(() => ws.terminate(), 1_000).unref();
      this.#onClose(ws, CloseCode.PingTimeout, 'no answer to pings');
      return;
    }
    ws.send(JSON.stringify({ type: 'ping' }));
  }
}

function connectionLost(entry: PendingRequest, why: string, dispatched: ActDispatched = 'unknown'): AiteError {
  return new AiteError('connection-lost', `${entry.cmd} got no answer: ${why}.`, {
    command: entry.cmd,
    detail: entry.cmd === 'act' ? { dispatched } : {},
    retries: entry.resends,
  });
}

function refuse(socket: Duplex, status: number): void {
  const text = { 403: 'Forbidden', 404: 'Not Found', 503: 'Service Unavailable' }[status] ?? 'Bad Request';
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${text.length + 1}\r\n\r\n${text}\n`);
}

function parseJson(data: RawData): unknown {
  try {
    return JSON.parse(data.toString());
  } catch {
    return undefined;
  }
}
