import { EventEmitter } from 'node:events';
import { createHmac } from 'node:crypto';
import { AiteError } from '../errors/AiteError.js';
import type { TypedEmitterClass } from '../events/TypedEmitter.js';
import { issuesFromZod } from '../errors/zodIssues.js';
import {
  AnswerEnvelopeSchema,
  AnswerSchemas,
  CloseCode,
  EventSchema,
  FailureSchema,
  HelloSchema,
  IDEMPOTENT_COMMANDS,
  isPageCommand,
  NAVIGATION_RESEND_COMMANDS,
  navigatedDuring,
  type Command,
  MAX_MESSAGE_BYTES,
  PROTOCOL_VERSION,
  parseRequest,
  type ActDispatched,
  type AnswerOf,
  type Cancel,
  type Hello,
  type Request,
  type RequestInput,
} from '../protocol/index.js';
import type { BridgeEvents, Rejection } from './BridgeEvents.js';
import { PendingRequests, type PendingRequest } from './PendingRequests.js';
import { RequestQueue } from './RequestQueue.js';
import type { Transport } from './Transport.js';

/** The protocol's timing and limits, every one set (the bridge fills in the defaults). */
export interface ProtocolOptions {
  /** The run token: the hello's nonce is answered with its HMAC. */
  token: string;
  runId: string;
  helloTimeoutMs: number;
  pingIntervalMs: number;
  pongTimeoutMs: number;
  defaultTimeoutMs: number;
  answerGraceMs: number;
  maxPendingSockets: number;
  lostActWaitMs: number;
}

/**
 * What a {@link PageShortcut} made of a request: the extension's answer (checked as one from
 * the socket); the socket is to carry it after all (`via`: it never reached the page); or it
 * reached a page that went away under it (`navigated`: why). The bridge alone decides what a lost
 * one becomes: sent again over the socket, counted, when the extension would send it again after
 * a navigation (NAVIGATION_RESEND_COMMANDS), else failed `navigation`; an act never goes twice.
 * @internal
 */
export type ShortcutOutcome = { answer: unknown } | { via: 'socket' } | { navigated: string };

/**
 * Another way to the extension's answer than its socket (launch mode: the content script over
 * the debugging pipe). `run` answers undefined when it cannot carry the request now.
 * @internal
 */
/**
 * How {@link Bridge.request} sends one request.
 *
 * @example
 * ```ts
 * import type { Bridge, RequestOptions } from 'aite';
 *
 * declare const bridge: Bridge;
 * // Stop waiting for a load you know will not come (the page asked to stay).
 * const leave = new AbortController();
 * const options: RequestOptions = { signal: leave.signal };
 * const loading = bridge.request({ cmd: 'navigate', url: 'https://example.com/next', tab: 7 }, options);
 * leave.abort('the page stayed');
 * await loading.catch((error) => console.log(error.detail?.cancelled)); // true
 * ```
 * @public
 */
export interface RequestOptions {
  /** Extra time the bridge waits for the extension's own answer after the request's timeout (default {@link BridgeOptions.answerGraceMs}). */
  graceMs?: number;
  /**
   * Ends the wait of a `navigate` or `history` request sent and not yet answered: the extension
   * answers it at once, failed `navigation` with `detail.cancelled`, its words the signal's
   * reason. Other requests answer as usual.
   */
  signal?: AbortSignal;
}

export interface PageShortcut {
  run(request: Request): Promise<ShortcutOutcome> | undefined;
}

/**
 * The runner's side of protocol v1 over whatever {@link Transport} it is handed: the hello and
 * welcome (a newer link replaces the older), keepalive pings, one request at a time with its
 * deadline in the pending registry, answers checked against their schemas, idempotent requests
 * re-sent after a reconnect, and a lost act never re-sent but asked about (`actStatus`).
 */
export class BridgeProtocol extends (EventEmitter as TypedEmitterClass<BridgeEvents>) {
  readonly #options: ProtocolOptions;
  readonly #pending = new PendingRequests();
  readonly #queue = new RequestQueue();
  /** Links that have not said hello yet, oldest first. */
  readonly #waiting = new Set<Transport>();
  /** Lost acts not yet asked about, with why each was lost. */
  readonly #lostActs = new Map<number, string>();
  #link: Transport | undefined;
  /** The command whose answer the bridge waits for now (the others wait for their turn). */
  #current: Command | undefined;
  #shortcut: PageShortcut | undefined;
  #hello: Hello | undefined;
  #lastHeard = 0;
  #lastTick = Date.now();
  readonly #pingTimer: NodeJS.Timeout;
  #closed = false;
  /** Ends each pending {@link BridgeProtocol.waitForExtension} when the bridge closes. */
  readonly #connectWaiters = new Set<() => void>();

  constructor(options: ProtocolOptions) {
    super();
    this.#options = options;
    this.#pingTimer = setInterval(() => this.#keepAlive(), options.pingIntervalMs);
    this.#pingTimer.unref();
  }

  get connected(): boolean {
    return this.#link !== undefined;
  }

  get hello(): Hello | undefined {
    return this.#hello;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Takes a new authenticated link: it must say hello in time, and then replaces the current one. */
  accept(link: Transport): void {
    if (this.#closed) {
      link.close(CloseCode.Replaced, 'the bridge is closed');
      return;
    }
    // Silent links must not lock the extension out: the oldest one makes room.
    if (this.#waiting.size >= this.#options.maxPendingSockets) {
      const oldest = this.#waiting.values().next().value;
      if (oldest) {
        this.#waiting.delete(oldest);
        this.#reject({ cause: 'capacity', code: CloseCode.HelloTimeout, message: 'socket closed: too many sockets waiting for hello' });
        oldest.close(CloseCode.HelloTimeout, 'too many sockets waiting for hello');
      }
    }
    this.#waiting.add(link);
    const helloTimer = setTimeout(() => {
      this.#reject({ cause: 'hello-timeout', code: CloseCode.HelloTimeout, message: 'socket closed: no hello in time' });
      link.close(CloseCode.HelloTimeout, 'no hello in time');
    }, this.#options.helloTimeoutMs);
    link.onclose = () => {
      clearTimeout(helloTimer);
      this.#waiting.delete(link);
    };
    link.onmessage = (text) => {
      clearTimeout(helloTimer);
      this.#waiting.delete(link);
      link.onmessage = undefined;
      const hello = text === undefined ? undefined : HelloSchema.safeParse(parseJson(text));
      if (!hello?.success) {
        this.#reject({ cause: 'hello', code: CloseCode.ProtocolMismatch, message: 'socket closed: first message was not a valid hello' });
        link.close(CloseCode.ProtocolMismatch, 'expected hello');
        return;
      }
      if ((hello.data.protocol ?? PROTOCOL_VERSION) !== PROTOCOL_VERSION) {
        this.#reject({ cause: 'protocol', code: CloseCode.ProtocolMismatch, message: `socket closed: protocol ${hello.data.protocol} is not ${PROTOCOL_VERSION}` });
        link.close(CloseCode.ProtocolMismatch, 'protocol mismatch');
        return;
      }
      this.#welcome(link, hello.data);
    };
  }

  /** A refusal at the edge, reported like the protocol's own. */
  rejected(rejection: Rejection): void {
    this.#reject(rejection);
  }

  /** Resolves once the extension is connected; `timeout` if it does not connect in time. */
  async waitForExtension(timeoutMs: number): Promise<void> {
    if (this.#link) return;
    if (this.#closed) throw new AiteError('connection-lost', 'The bridge is closed.');
    await new Promise<void>((resolve, reject) => {
      const settle = (error?: AiteError): void => {
        clearTimeout(timer);
        this.off('connected', onConnected);
        this.#connectWaiters.delete(onClosed);
        if (error) reject(error);
        else resolve();
      };
      const timer = setTimeout(
        () => settle(new AiteError('timeout', `The aite extension did not connect to the bridge within ${timeoutMs} ms. Check that Chrome loaded the extension (run \`aite doctor\`).`)),
        timeoutMs,
      );
      const onConnected = (): void => settle();
      // A closed bridge ends the wait at once: its timer must not keep the process alive.
      const onClosed = (): void => settle(new AiteError('connection-lost', 'The bridge was closed before the aite extension connected.'));
      this.once('connected', onConnected);
      this.#connectWaiters.add(onClosed);
    });
  }

  /** Carries the requests `shortcut` can carry that way from now on (undefined: all over the socket); answers the one before. */
  useShortcut(shortcut: PageShortcut | undefined): PageShortcut | undefined {
    const before = this.#shortcut;
    this.#shortcut = shortcut;
    return before;
  }

  /**
   * Sends one request once the earlier ones are answered, and resolves with its answer. Its
   * deadline counts from this call: a request still waiting for its turn when it passes is never
   * sent (see {@link Bridge.request}).
   */
  request<R extends RequestInput>(input: R, options: RequestOptions = {}): Promise<AnswerOf<R['cmd']>> {
    const deadline = this.#deadline(input, options.graceMs);
    return new Promise((resolve, reject) => {
      let gaveUp = false;
      let started = false;
      const timer = setTimeout(() => {
        if (started) return;
        gaveUp = true;
        reject(notSent(input.cmd, deadline.waitMs, this.#current));
      }, deadline.waitMs);
      timer.unref?.();
      void this.#queue.run(async () => {
        if (gaveUp) return;
        started = true;
        clearTimeout(timer);
        this.#current = input.cmd;
        try {
          resolve((await this.#send(input, deadline, options.signal)) as AnswerOf<R['cmd']>);
        } catch (error) {
          reject(error);
        } finally {
          this.#current = undefined;
        }
      });
    });
  }

  /** Fails every request in flight with `connection-lost`. */
  failPending(message: string): void {
    this.#pending.clear((entry) => connectionLost(entry, message));
  }

  /** Fails what is in flight and drops every link. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const end of [...this.#connectWaiters]) end();
    clearInterval(this.#pingTimer);
    this.#pending.clear((entry) => connectionLost(entry, 'the bridge was closed'));
    for (const link of [...this.#waiting, ...(this.#link ? [this.#link] : [])]) link.terminate();
    this.#waiting.clear();
    this.#link = undefined;
  }

  // -------------------------------------------------------------------------------------------

  #reject(rejection: Rejection): void {
    this.emit('rejected', rejection);
  }

  #welcome(link: Transport, hello: Hello): void {
    const previous = this.#link;
    this.#link = link;
    this.#hello = hello;
    this.#lastHeard = Date.now();
    if (previous) previous.close(CloseCode.Replaced, 'replaced by a newer connection');
    const proof = hello.nonce ? createHmac('sha256', this.#options.token).update(hello.nonce).digest('hex') : undefined;
    link.send(JSON.stringify({ type: 'welcome', runId: this.#options.runId, protocol: PROTOCOL_VERSION, ...(proof ? { proof } : {}) }));
    link.onmessage = (text) => this.#onMessage(link, text);
    link.onclose = (code, reason) => this.#onClose(link, code, reason);
    this.emit('hello', hello);
    this.emit('connected', { resumed: hello.resume !== undefined });
    // Requests that waited for a connection (or lost theirs) go out now.
    for (const entry of this.#pending.all()) if (!entry.sent && !entry.shortcut) this.#transmit(entry);
    // An act is never sent again; the extension is asked what became of it instead.
    for (const [id, why] of [...this.#lostActs]) {
      this.#lostActs.delete(id);
      void this.#settleLostAct(id, why);
    }
  }

  #onMessage(link: Transport, text: string | undefined): void {
    if (link !== this.#link) return;
    this.#lastHeard = Date.now();
    if (text === undefined) {
      this.emit('warning', 'dropped a binary frame from the extension');
      return;
    }
    const message = parseJson(text);
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
    this.#settleAnswer(entry, answer);
  }

  /** What the shortcut made of a request: its answer, checked as the socket's, or the socket carries it. */
  #afterShortcut(id: number, outcome: ShortcutOutcome): void {
    const entry = this.#pending.get(id);
    // Timed out meanwhile, or failed with everything else in flight.
    if (!entry) return;
    entry.shortcut = false;
    if ('answer' in outcome) {
      const envelope = AnswerEnvelopeSchema.safeParse(outcome.answer);
      if (!envelope.success || envelope.data.id !== id) {
        this.#pending.settle(id, { error: new AiteError('internal', `The content script's answer to ${entry.cmd} is malformed.`, { command: entry.cmd }) });
        return;
      }
      this.#settleAnswer(entry, envelope.data);
      return;
    }
    if ('navigated' in outcome) {
      // Only what the worker too sends again to the new page: never an act, nor what may have changed it.
      if (!NAVIGATION_RESEND_COMMANDS.has(entry.cmd)) {
        this.#pending.settle(id, { error: navigatedUnder(entry, outcome.navigated) });
        return;
      }
      // Counted, and with what is left of its time, as the worker's re-send to the new page is.
      entry.resends += 1;
      entry.request = withTimeLeft(entry.request, entry.due);
      this.emit('retry', { id, cmd: entry.cmd, retries: entry.resends, why: 'navigation' });
    }
    if (this.#link) this.#transmit(entry);
  }

  #settleAnswer(entry: PendingRequest, answer: { id: number; ok: boolean } & Record<string, unknown>): void {
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

  #onClose(link: Transport, code: number, reason: string): void {
    if (link !== this.#link) return;
    this.#link = undefined;
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
      const ask = { cmd: 'actStatus' as const, act: id, tab: request.tab, timeoutMs: this.#options.defaultTimeoutMs };
      const status = (await this.#send(ask, this.#deadline(ask))) as AnswerOf<'actStatus'>;
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

  /** When the answer to `input` is due, counted from now: its own timeout and the grace after it. */
  #deadline(input: RequestInput, graceMs = this.#options.answerGraceMs): RequestDeadline {
    const asked = (input as { timeoutMs?: number }).timeoutMs;
    // A timeout given wrong is the schema's to refuse when the request's turn comes, not a deadline.
    const waitMs = (Number.isInteger(asked) && asked! > 0 ? asked! : this.#options.defaultTimeoutMs) + graceMs;
    return { at: performance.now() + waitMs, waitMs, graceMs };
  }

  async #send(input: RequestInput, deadline: RequestDeadline, signal?: AbortSignal): Promise<Record<string, unknown>> {
    if (this.#closed) throw new AiteError('connection-lost', 'The bridge is closed.', { command: input.cmd });
    const leftMs = deadline.at - performance.now();
    // The time spent waiting for its turn comes off the request's own timeout: its answer is due
    // when it was due, and the extension's own failure must still come before the bridge gives up.
    const asked = (input as { timeoutMs?: number }).timeoutMs;
    const rest = Math.floor(leftMs - deadline.graceMs);
    const timeoutMs = asked === undefined || rest > asked - TURN_TOLERANCE_MS ? asked : rest;
    // (A timeout the caller gave wrong goes as it is: the request's schema says what is wrong with it.)
    if (timeoutMs !== asked && timeoutMs! < 1) throw notSent(input.cmd, deadline.waitMs, undefined);
    const id = this.#pending.nextId();
    const parsed = parseRequest({ ...input, ...(timeoutMs !== undefined ? { timeoutMs } : {}), id });
    if (!parsed.success) {
      // The same sentences a bad script gets: the field, what was expected and found, a "did you mean".
      const said = issuesFromZod(parsed.error, { file: `${String(input.cmd)} request`, base: [] })
        .map((issue) => `${issue.field ? `${issue.field}: ` : ''}${issue.message}`)
        .join(' ');
      throw new AiteError(
        'unsupported',
        `Invalid ${String(input.cmd)} request: ${said}`,
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
    const due = { at: deadline.at, graceMs: deadline.graceMs };
    // Whatever ends it, its re-sends so far are in its error: every re-send is counted.
    const promise = this.#pending.add({ id, cmd: request.cmd, request, due, resends: 0, attempts: 0, sent: false }, Math.max(1, Math.ceil(leftMs)), (entry) =>
      this.#link
        ? noAnswer(request.cmd, deadline, entry.resends)
        : new AiteError('timeout', `No answer to ${request.cmd} within ${deadline.waitMs} ms: the extension is not connected.`, { command: request.cmd, retries: entry.resends }),
    );
    const entry = this.#pending.get(id)!;
    let shortcut: Promise<ShortcutOutcome> | undefined;
    try {
      shortcut = this.#shortcut?.run(request);
    } catch (error) {
      shortcut = Promise.reject(error);
    }
    if (shortcut) {
      entry.shortcut = true;
      shortcut.then(
        (outcome) => this.#afterShortcut(id, outcome),
        (error: unknown) =>
          this.#pending.settle(id, { error: new AiteError('internal', `${request.cmd} failed over the debugging pipe: ${error instanceof Error ? error.message : String(error)}.`, { command: request.cmd }) }),
      );
    } else if (this.#link) this.#transmit(entry);
    if (signal) {
      const cancel = (): void => this.#cancel(id, String(signal.reason));
      signal.addEventListener('abort', cancel, { once: true });
      const done = (): void => signal.removeEventListener('abort', cancel);
      promise.then(done, done);
    }
    return promise;
  }

  /** Tells the extension that request `id`, sent and not answered, will not get what it waits for. */
  #cancel(id: number, why: string): void {
    const entry = this.#pending.get(id);
    if (!entry?.sent || entry.shortcut || !this.#link) return;
    this.#link.send(JSON.stringify({ type: 'cancel', id, why } satisfies Cancel));
  }

  #transmit(entry: PendingRequest): void {
    const link = this.#link;
    if (!link) return;
    if (entry.attempts > 0) {
      entry.resends += 1;
      this.emit('retry', { id: entry.id, cmd: entry.cmd, retries: entry.resends, why: 'reconnect' });
    }
    entry.attempts += 1;
    entry.sent = true;
    link.send(JSON.stringify(entry.request satisfies Request));
  }

  #keepAlive(): void {
    const now = Date.now();
    const late = now - this.#lastTick > this.#options.pingIntervalMs * 1.5;
    this.#lastTick = now;
    const link = this.#link;
    if (!link) return;
    // When our own event loop was blocked, pongs may be waiting unread: judge the link on the next tick.
    if (late) this.#lastHeard = now;
    if (now - this.#lastHeard > this.#options.pongTimeoutMs) {
      this.#reject({ cause: 'ping', code: CloseCode.PingTimeout, message: 'socket closed: no answer to pings' });
      link.close(CloseCode.PingTimeout, 'no answer to pings');
      // A half-open link may never finish the closing handshake.
      setTimeout(() => link.terminate(), 1_000).unref();
      this.#onClose(link, CloseCode.PingTimeout, 'no answer to pings');
      return;
    }
    link.send(JSON.stringify({ type: 'ping' }));
  }
}

/**
 * A turn that came within this is no wait: the request keeps the timeoutMs its caller gave (the
 * number its failure names), and its answer is still due within the grace.
 */
const TURN_TOLERANCE_MS = 50;

/** When a request's answer is due (performance.now() ms), how long that was from the call, and the grace past its own timeout. */
interface RequestDeadline {
  at: number;
  waitMs: number;
  graceMs: number;
}

/**
 * A request sent whose answer never came: the extension's own deadline would have answered within
 * the grace, so what it asked did not answer at all. An act may have run: it is never sent again.
 */
function noAnswer(cmd: Command, deadline: RequestDeadline, retries: number): AiteError {
  const act = cmd === 'act' ? ' Whether its input was dispatched is unknown (the page may run it once it is free); it is not sent again: check the page before repeating it.' : '';
  return new AiteError(
    'timeout',
    `${cmd} got no answer within ${deadline.waitMs} ms (its timeout and ${deadline.graceMs} ms more): the page did not respond, most likely because its main thread was busy (a long-running script, such as a loop in an event handler), or the extension stopped answering.${act} Look for what holds the page; raise timeoutMs only if the page is meant to be busy that long.`,
    { command: cmd, detail: { answered: false, ...(cmd === 'act' ? { dispatched: 'unknown' } : {}) }, retries },
  );
}

/** A request whose page went away under the shortcut, not to be sent again: as the worker's failure says it. */
function navigatedUnder(entry: PendingRequest, why: string): AiteError {
  const message = isPageCommand(entry.cmd) ? navigatedDuring(entry.cmd) : `The page navigated during ${entry.cmd}.`;
  return new AiteError('navigation', message, { command: entry.cmd, detail: { tab: (entry.request as { tab?: number }).tab, error: why }, retries: entry.resends });
}

/** `request` with its timeout cut to what is left before its answer is due: a re-send gets what is left of its own time, not a fresh one. */
function withTimeLeft(request: Request, due: { at: number; graceMs: number }): Request {
  const asked = (request as { timeoutMs?: number }).timeoutMs;
  if (asked === undefined) return request;
  const left = Math.max(1, Math.floor(due.at - performance.now() - due.graceMs));
  return left < asked ? ({ ...request, timeoutMs: left } as Request) : request;
}

/** A request whose deadline passed while an earlier one still waited for its answer: nothing of it went out. */
function notSent(cmd: Command, waitMs: number, ahead: Command | undefined): AiteError {
  const behind = ahead ? `the ${ahead} request before it still had no answer` : 'the requests before it took its time';
  return new AiteError(
    'timeout',
    `${cmd} was not sent within its ${waitMs} ms: ${behind} (the page did not respond, most likely because its main thread was busy with a long-running script). Nothing of it reached the page.`,
    { command: cmd, detail: { answered: false, sent: false } },
  );
}

function connectionLost(entry: PendingRequest, why: string, dispatched: ActDispatched = 'unknown'): AiteError {
  return new AiteError('connection-lost', `${entry.cmd} got no answer: ${why}.`, {
    command: entry.cmd,
    detail: entry.cmd === 'act' ? { dispatched } : {},
    retries: entry.resends,
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
