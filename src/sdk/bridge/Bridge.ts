import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import { AiteError } from '../errors/AiteError.js';
import type { TypedEmitterClass } from '../events/TypedEmitter.js';
import { AITE_EXTENSION_ORIGIN } from '../identity/ExtensionIdentity.js';
import { ANSWER_SLACK_MS, DEFAULT_TIMEOUT_MS, PING_INTERVAL_MS, type AnswerOf, type Hello, type RequestInput } from '../protocol/index.js';
import { BridgeEvent, type BridgeEvents } from './BridgeEvents.js';
import { BridgeProtocol, type PageShortcut, type RequestOptions } from './BridgeProtocol.js';
import { BridgeServer } from './BridgeServer.js';

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
  /**
   * Extra time the bridge waits beyond a request's own `timeoutMs` (counted from the call, a wait
   * behind an earlier request included) before giving up on it: the extension's own failure
   * arrives within it. A page that has not answered by then did not respond (its main thread busy).
   * Default 1 000.
   */
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
export class Bridge extends (EventEmitter as TypedEmitterClass<BridgeEvents>) {
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

  readonly #protocol: BridgeProtocol;
  readonly #server: BridgeServer;

  private constructor(protocol: BridgeProtocol, server: BridgeServer, token: string, runId: string, profile: string) {
    super();
    this.#protocol = protocol;
    this.#server = server;
    this.port = server.port;
    this.url = `ws://127.0.0.1:${server.port}/ext`;
    this.token = token;
    this.runId = runId;
    this.profile = profile;
    for (const name of Object.values(BridgeEvent)) {
      protocol.on(name, (...args: unknown[]) => (this.emit as (event: string, ...a: unknown[]) => boolean)(name, ...args));
    }
  }

  /** Starts a bridge on 127.0.0.1. */
  static async start(options: BridgeOptions = {}): Promise<Bridge> {
    const token = options.token ?? randomBytes(16).toString('hex');
    if (!/^[0-9a-f]{32}$/.test(token)) {
      throw new AiteError('unsupported', 'Bridge token must be 32 lowercase hex characters (128 bits).');
    }
    const runId = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(2).toString('hex')}`;
    const protocol = new BridgeProtocol({
      token,
      runId,
      helloTimeoutMs: options.helloTimeoutMs ?? 10_000,
      pingIntervalMs: options.pingIntervalMs ?? PING_INTERVAL_MS,
      pongTimeoutMs: options.pongTimeoutMs ?? 30_000,
      defaultTimeoutMs: options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS,
      answerGraceMs: options.answerGraceMs ?? ANSWER_SLACK_MS,
      maxPendingSockets: options.maxPendingSockets ?? 16,
      lostActWaitMs: options.lostActWaitMs ?? 15_000,
    });
    try {
      const server = await BridgeServer.listen(
        { port: options.port, token, allowedOrigins: options.allowedOrigins ?? [AITE_EXTENSION_ORIGIN], headersTimeoutMs: options.headersTimeoutMs ?? 5_000 },
        { accept: (link) => protocol.accept(link), rejected: (rejection) => protocol.rejected(rejection), closed: () => protocol.closed },
      );
      return new Bridge(protocol, server, token, runId, options.profile ?? 'default');
    } catch (error) {
      protocol.close();
      throw error;
    }
  }

  /** Whether an extension is connected and welcomed now. */
  get connected(): boolean {
    return this.#protocol.connected;
  }

  /** The last hello the extension sent. */
  get hello(): Hello | undefined {
    return this.#protocol.hello;
  }

  /** Resolves once the extension is connected; `timeout` if it does not connect in time. */
  waitForExtension(timeoutMs = 20_000): Promise<void> {
    return this.#protocol.waitForExtension(timeoutMs);
  }

  /**
   * Sends one request and resolves with its answer; `ok: false` answers throw {@link AiteError}.
   * Requests are serialised: this waits for earlier requests to be answered first, within the
   * request's own deadline: `timeoutMs` (or the default) and `graceMs` (default
   * {@link BridgeOptions.answerGraceMs}), counted from this call. A request still waiting for its
   * turn then is never sent; one sent and not answered by then fails `timeout` with
   * `detail.answered: false` (an `act` also with `detail.dispatched: "unknown"`).
   */
  request<R extends RequestInput>(input: R, options: RequestOptions = {}): Promise<AnswerOf<R['cmd']>> {
    return this.#protocol.request(input, options);
  }

  /**
   * Carries the page commands `shortcut` can carry another way than the extension's socket
   * (launch mode: the debugging pipe); undefined: all over the socket again. Answers the
   * shortcut used until now.
   * @internal
   */
  useShortcut(shortcut: PageShortcut | undefined): PageShortcut | undefined {
    return this.#protocol.useShortcut(shortcut);
  }

  /** Fails every request in flight with `connection-lost` (the browser is gone). */
  failPending(message: string): void {
    this.#protocol.failPending(message);
  }

  /** Closes the extension's socket, every other socket and the server. */
  async close(): Promise<void> {
    if (this.#protocol.closed) return;
    this.#protocol.close();
    await this.#server.close();
  }
}
