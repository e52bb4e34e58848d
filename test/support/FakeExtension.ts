import { createHmac } from 'node:crypto';
import WebSocket from 'ws';
import type { Bridge } from '../../src/sdk/bridge/Bridge.js';
import { AITE_EXTENSION_ORIGIN } from '../../src/sdk/identity/ExtensionIdentity.js';

/**
 * A scripted stand-in for the extension's worker, for unit tests of the bridge's edge only.
 * End-to-end tests use the real extension in real Chromium.
 */
export class FakeExtension {
  readonly received: Array<Record<string, unknown>> = [];
  welcome: Record<string, unknown> | undefined;
  closed: Promise<{ code: number; reason: string }>;
  onRequest: (request: Record<string, unknown>) => unknown = (request) => ({ id: request.id, ok: true, tabs: [] });
  answerPings = true;

  private constructor(readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as Record<string, unknown>;
      if (message.type === 'welcome') {
        this.welcome = message;
        return;
      }
      if (message.type === 'ping') {
        if (this.answerPings) ws.send(JSON.stringify({ type: 'pong' }));
        return;
      }
      this.received.push(message);
      const answer = this.onRequest(message);
      if (answer !== undefined) ws.send(JSON.stringify(answer));
    });
  }

  static open(bridge: Bridge, options: { token?: string; origin?: string; host?: string; path?: string } = {}): FakeExtension {
    const url = `ws://127.0.0.1:${bridge.port}${options.path ?? '/ext'}?token=${options.token ?? bridge.token}`;
    const headers: Record<string, string> = {};
    if (options.host) headers.host = options.host;
    return new FakeExtension(new WebSocket(url, { origin: options.origin ?? AITE_EXTENSION_ORIGIN, headers }));
  }

  /** Opens, says hello, and waits for the welcome. */
  static async connect(
    bridge: Bridge,
    hello: Record<string, unknown> = {},
    onRequest?: (request: Record<string, unknown>) => unknown,
  ): Promise<FakeExtension> {
    const fake = FakeExtension.open(bridge);
    // Set before the hello: the bridge may send a request (actStatus) as soon as it welcomes.
    if (onRequest) fake.onRequest = onRequest;
    await new Promise<void>((resolve, reject) => {
      fake.ws.once('open', () => resolve());
      fake.ws.once('error', reject);
    });
    fake.ws.send(JSON.stringify({ type: 'hello', extVersion: '0.1.0', chrome: '156', profile: 'test', ...hello }));
    await until(() => fake.welcome !== undefined);
    return fake;
  }

  static proof(token: string, nonce: string): string {
    return createHmac('sha256', token).update(nonce).digest('hex');
  }
}

/** Resolves when `condition` holds, checked on each turn of the event loop (bounded). */
export async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
