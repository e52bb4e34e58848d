import {
  BRIDGE_CONFIG_FILE,
  BridgeConfigSchema,
  CloseCode,
  MAX_MESSAGE_BYTES,
  PROTOCOL_VERSION,
  WelcomeSchema,
  type BridgeConfig,
  type Welcome,
} from '../../sdk/protocol/index.js';
import { Backoff } from './Backoff.js';
import { Badge } from './Badge.js';

type State = 'idle' | 'connecting' | 'open' | 'stopped';

export interface ConnectionHandlers {
  /** Handles one message after the welcome (a request or a ping); returns what to send back. */
  onMessage(message: unknown): Promise<unknown>;
  /** The runId of the run this worker was in, for `resume`. */
  lastRunId(): Promise<string | undefined>;
  onWelcome(welcome: Welcome, resumed: boolean): Promise<void>;
  /** A welcomed connection closed. */
  onClose?(): void;
}

/**
 * The worker's socket to the bridge: reads bridge.json each time it connects (a new run
 * rewrites it), proves the bridge knows the token, reconnects with the spec's backoff, and
 * never opens two sockets at once.
 */
export class BridgeConnection {
  #state: State = 'idle';
  #ws: WebSocket | undefined;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #backoff = new Backoff();

  constructor(private readonly handlers: ConnectionHandlers) {}

  get isOpen(): boolean {
    return this.#state === 'open';
  }

  /** Connects unless already connecting, connected, or stopped by a 4409. Safe to call often. */
  connect(): void {
    if (this.#state !== 'idle') return;
    clearTimeout(this.#retryTimer);
    this.#state = 'connecting';
    void this.#open().catch(() => this.#retry());
  }

  send(message: unknown): void {
    const ws = this.#ws;
    if (!ws || this.#state !== 'open') return;
    let text = JSON.stringify(message);
    if (text.length * 3 > MAX_MESSAGE_BYTES && new TextEncoder().encode(text).byteLength > MAX_MESSAGE_BYTES) {
      const id = (message as { id?: unknown }).id;
      text = JSON.stringify({
        id,
        ok: false,
        reason: 'internal',
        message: 'The answer is over the protocol\u2019s 8 MB limit, so the extension sent this error instead.',
      });
    }
    ws.send(text);
  }

  async #open(): Promise<void> {
    // bridge.json and the last run's id (storage.session) are read at once, not one after the other.
    const [config, resume] = await Promise.all([readBridgeConfig(), this.handlers.lastRunId()]);
    const nonce = randomHex(16);
    const ws = new WebSocket(`${config.url}?token=${encodeURIComponent(config.token)}`);
    this.#ws = ws;
    let welcomed = false;
    let welcoming: Promise<void> = Promise.resolve();
    ws.onopen = () => {
      ws.send(
        JSON.stringify({
          type: 'hello',
          extVersion: chrome.runtime.getManifest().version,
          chrome: /Chrome\/([\d.]+)/.exec(navigator.userAgent)?.[1] ?? 'unknown',
          profile: config.profile,
          nonce,
          protocol: PROTOCOL_VERSION,
          ...(resume ? { resume } : {}),
        }),
      );
    };
    ws.onmessage = async (event) => {
      if (typeof event.data !== 'string' || event.data.length > MAX_MESSAGE_BYTES) return;
      let message: unknown;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (!welcomed) {
        const welcome = WelcomeSchema.safeParse(message);
        if (!welcome.success) return ws.close(CloseCode.ProtocolMismatch, 'expected welcome');
        if (welcome.data.protocol !== PROTOCOL_VERSION) {
          Badge.error(`the runner speaks protocol ${welcome.data.protocol}, this extension ${PROTOCOL_VERSION}`);
          return ws.close(CloseCode.ProtocolMismatch, 'protocol mismatch');
        }
        // A process squatting on the port after the runner died cannot know the token.
        if (welcome.data.proof !== (await hmacHex(config.token, nonce))) {
          Badge.error('the bridge could not prove it knows the run token');
          return ws.close(CloseCode.WrongToken, 'bad proof');
        }
        welcomed = true;
        this.#state = 'open';
        this.#backoff.reset();
        Badge.ok();
        // Requests that come meanwhile wait for it: a new run's begin would undo what they set
        // (the debugger wanted, the dialog answers armed).
        welcoming = this.handlers.onWelcome(welcome.data, resume === welcome.data.runId).catch(() => undefined);
        await welcoming;
        return;
      }
      await welcoming;
      const reply = await this.handlers.onMessage(message);
      if (reply !== undefined) this.send(reply);
    };
    ws.onclose = (event) => {
      if (this.#ws !== ws) return;
      this.#ws = undefined;
      if (welcomed) this.handlers.onClose?.();
      if (event.code === CloseCode.Replaced) {
        // Another extension has taken over this bridge: stop until the worker restarts.
        Badge.error('replaced by another connection (4409); restart the extension to reconnect');
        this.#state = 'stopped';
        return;
      }
      if (event.code === CloseCode.WrongToken) Badge.error('wrong token (4401); waiting for a new bridge.json');
      this.#retry();
    };
  }

  #retry(): void {
    if (this.#state === 'stopped') return;
    this.#state = 'idle';
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => this.connect(), this.#backoff.next());
  }
}

async function readBridgeConfig(): Promise<BridgeConfig> {
  const response = await fetch(chrome.runtime.getURL(BRIDGE_CONFIG_FILE), { cache: 'no-store' });
  if (!response.ok) throw new Error(`${BRIDGE_CONFIG_FILE} is missing: no run is active`);
  const parsed = BridgeConfigSchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${BRIDGE_CONFIG_FILE} is malformed: ${issue?.path.join('.') || '(root)'} ${issue?.message}`);
  }
  return parsed.data;
}

function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function hmacHex(key: string, message: string): Promise<string> {
  const encoder = new TextEncoder();
  const cryptoKey = await crypto.subtle.importKey('raw', encoder.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signature = await crypto.subtle.sign('HMAC', cryptoKey, encoder.encode(message));
  return [...new Uint8Array(signature)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
