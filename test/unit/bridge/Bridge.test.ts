import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { request as httpRequest } from 'node:http';
import { AiteError, Bridge } from '../../../src/sdk/index.js';
import { FakeExtension, until } from '../../support/FakeExtension.js';

let bridge: Bridge;
afterEach(async () => {
  await bridge?.close();
});

function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('open', () => {
      resolve(101);
      ws.close();
    });
    ws.on('error', (error) => (/Unexpected server response/.test(error.message) ? undefined : reject(error)));
  });
}

function httpStatus(port: number, method: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('Bridge edge', () => {
  it('[T-URL, T-LOOPBACK, SEC-TOKEN] listens on 127.0.0.1 with a 128-bit token and path /ext', async () => {
    bridge = await Bridge.start();
    expect(bridge.url).toBe(`ws://127.0.0.1:${bridge.port}/ext`);
    expect(bridge.token).toMatch(/^[0-9a-f]{32}$/);
    const other = await Bridge.start();
    expect(other.token).not.toBe(bridge.token);
    await other.close();
  });

  it('[STEP-ARGS] a port already taken is an error that names it and says what to pass, not a bare EADDRINUSE', async () => {
    bridge = await Bridge.start();
    const error = await Bridge.start({ port: bridge.port }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AiteError);
    expect((error as AiteError).reason).toBe('unsupported');
    expect((error as AiteError).message).toBe(`The bridge cannot start: port ${bridge.port} of 127.0.0.1 is already in use (another bridge, or another program). Pass another port, or 0 (the default) for any free one.`);
  });

  it('[T-TOKEN] row 3: closes a socket with a wrong token with 4401, and never puts the token in the rejection', async () => {
    bridge = await Bridge.start();
    const messages: string[] = [];
    bridge.on('rejected', (r) => messages.push(r.message));
    for (const token of ['0'.repeat(32), '', 'abc', `${bridge.token}&token=${bridge.token}`]) {
      const fake = FakeExtension.open(bridge, { token });
      expect((await fake.closed).code).toBe(4401);
    }
    expect(messages.length).toBe(4);
    expect(messages.join('\n')).not.toContain(bridge.token);
  });

  it('row 2: refuses a foreign, missing or null Origin, and a forged Host, with 403 before the upgrade', async () => {
    bridge = await Bridge.start();
    const url = `ws://127.0.0.1:${bridge.port}/ext?token=${bridge.token}`;
    expect(await upgradeStatus(url, { origin: 'http://127.0.0.1:8080' })).toBe(403);
    expect(await upgradeStatus(url, { origin: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop' })).toBe(403);
    expect(await upgradeStatus(url, { origin: 'null' })).toBe(403);
    expect(await upgradeStatus(url, {})).toBe(403);
    expect(await upgradeStatus(url, { origin: `chrome-extension://${(await import('../../../src/sdk/index.js')).AITE_EXTENSION_ID}`, host: 'evil.example:80' })).toBe(403);
  });

  it('row 4: answers a wrong path with 404 and a plain GET with 426, with no secret in the body', async () => {
    bridge = await Bridge.start();
    const notFound = await httpStatus(bridge.port, 'GET', `/nope?token=${bridge.token}`);
    expect(notFound.status).toBe(404);
    const plain = await httpStatus(bridge.port, 'GET', '/ext');
    expect(plain.status).toBe(426);
    const post = await httpStatus(bridge.port, 'POST', '/ext');
    expect(post.status).toBe(426);
    expect(notFound.body + plain.body + post.body).not.toContain(bridge.token);
  });

  it('[KA-4408] row 7: closes with 4408 when no hello comes in time', async () => {
    bridge = await Bridge.start({ helloTimeoutMs: 100 });
    const fake = FakeExtension.open(bridge);
    expect((await fake.closed).code).toBe(4408);
  });

  it('[H-WELCOME] welcomes a hello with runId and protocol 1, and proves the token when asked', async () => {
    bridge = await Bridge.start();
    const fake = await FakeExtension.connect(bridge, { nonce: 'n0nce' });
    expect(fake.welcome).toMatchObject({ type: 'welcome', runId: bridge.runId, protocol: 1 });
    expect(fake.welcome?.proof).toBe(FakeExtension.proof(bridge.token, 'n0nce'));
    expect(bridge.connected).toBe(true);
    fake.ws.close();
  });

  it('[H-MISMATCH] row 9: closes a hello with another protocol number with 4426', async () => {
    bridge = await Bridge.start();
    const fake = FakeExtension.open(bridge);
    await new Promise((resolve) => fake.ws.once('open', resolve));
    fake.ws.send(JSON.stringify({ type: 'hello', extVersion: '9', chrome: '1', profile: 'p', protocol: 2 }));
    expect((await fake.closed).code).toBe(4426);
  });

  it('[KA-4409] row 15: replaces an older connection with 4409', async () => {
    bridge = await Bridge.start();
    const first = await FakeExtension.connect(bridge);
    const second = await FakeExtension.connect(bridge);
    expect((await first.closed).code).toBe(4409);
    expect(await bridge.request({ cmd: 'tabs' })).toMatchObject({ ok: true });
    expect(second.received.length).toBe(1);
    second.ws.close();
  });

  it('[DL-SIZE] row 11: closes with 1009 on a message over 8 MiB and accepts one of exactly 8 MiB', async () => {
    bridge = await Bridge.start();
    const fake = await FakeExtension.connect(bridge);
    const warnings: string[] = [];
    bridge.on('warning', (w) => warnings.push(w));
    fake.ws.send(Buffer.alloc(8 * 1024 * 1024, 0x20).toString());
    await until(() => warnings.length === 1);
    expect(bridge.connected).toBe(true);
    fake.ws.send(Buffer.alloc(8 * 1024 * 1024 + 1, 0x20).toString());
    expect((await fake.closed).code).toBe(1009);
  });

  it('[DL-ONE-AT-A-TIME, RQ-ID] row 32: sends one request at a time: N+1 waits for answer N', async () => {
    bridge = await Bridge.start();
    const fake = await FakeExtension.connect(bridge);
    const held: Array<() => void> = [];
    fake.onRequest = (request) => {
      held.push(() => fake.ws.send(JSON.stringify({ id: request.id, ok: true, tabs: [] })));
      return undefined;
    };
    const a = bridge.request({ cmd: 'tabs' });
    const b = bridge.request({ cmd: 'tabs' });
    await until(() => fake.received.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.received.length).toBe(1);
    held.shift()!();
    await a;
    await until(() => fake.received.length === 2);
    expect(fake.received.map((r) => r.id)).toEqual([1, 2]);
    held.shift()!();
    await b;
    fake.ws.close();
  });

  it('[DL-RESEND-IDEMPOTENT, RT-FIELD] row 26: re-sends an idempotent request after a reconnect, counted in retries', async () => {
    bridge = await Bridge.start();
    const retries: number[] = [];
    bridge.on('retry', (info) => retries.push(info.retries));
    const first = await FakeExtension.connect(bridge);
    first.onRequest = () => undefined;
    const answer = bridge.request({ cmd: 'tabs' });
    await until(() => first.received.length === 1);
    first.ws.terminate();
    await until(() => !bridge.connected);
    const second = await FakeExtension.connect(bridge, { resume: bridge.runId });
    expect(await answer).toMatchObject({ ok: true, retries: 1 });
    expect(second.received[0]).toMatchObject({ cmd: 'tabs', id: first.received[0]!.id });
    expect(retries).toEqual([1]);
    second.ws.close();
  });

  const descriptor = { v: 1 as const, tag: 'button', xpath: '/html/body/button' };

  /** An act sent to a first fake extension that drops its socket without answering. */
  async function loseAnAct(options: { lostActWaitMs?: number } = {}): Promise<{ act: Promise<unknown>; id: unknown }> {
    bridge = await Bridge.start(options);
    const first = await FakeExtension.connect(bridge);
    first.onRequest = () => undefined;
    const act = bridge.request({ cmd: 'act', action: 'click', descriptor, tab: 7 }).then(() => undefined, (e: unknown) => e);
    await until(() => first.received.length === 1);
    first.ws.terminate();
    await until(() => !bridge.connected);
    return { act, id: first.received[0]!.id };
  }

  for (const dispatched of [true, false, 'unknown'] as const) {
    it(`[DL-ACT-LOST, DL-ACT-STATUS] row 26: an act whose answer was lost is asked about after the reconnect, never sent again, and fails with dispatched: ${dispatched}`, async () => {
      const { act, id } = await loseAnAct();
      const second = await FakeExtension.connect(bridge, { resume: bridge.runId }, (r) =>
        r.cmd === 'actStatus' ? { id: r.id, ok: true, dispatched, ...(dispatched === 'unknown' ? { why: 'tab 7 is closed' } : {}) } : { id: r.id, ok: true, tabs: [] },
      );
      const error = (await act) as AiteError;
      expect(error).toBeInstanceOf(AiteError);
      expect(error.reason).toBe('connection-lost');
      expect(error.detail).toEqual({ dispatched });
      expect(error.message).toMatch(dispatched === true ? /was dispatched/ : dispatched === false ? /not dispatched/ : /unknown: tab 7 is closed/);
      expect(second.received[0]).toMatchObject({ cmd: 'actStatus', act: id, tab: 7 });
      await bridge.request({ cmd: 'tabs' });
      expect(second.received.map((r) => r.cmd)).toEqual(['actStatus', 'tabs']);
      second.ws.close();
    });
  }

  it('[DL-ACT-LOST, DL-ACT-STATUS] row 26: a lost act fails with dispatched "unknown" when the extension does not come back in time', async () => {
    const started = Date.now();
    const { act } = await loseAnAct({ lostActWaitMs: 300 });
    const error = (await act) as AiteError;
    expect(error.reason).toBe('connection-lost');
    expect(error.detail).toEqual({ dispatched: 'unknown' });
    expect(error.message).toMatch(/did not come back and tell within 300 ms/);
    expect(Date.now() - started).toBeLessThan(3_000);
    // A late extension is not asked about an act that has already failed, and the act is not sent.
    const late = await FakeExtension.connect(bridge);
    await bridge.request({ cmd: 'tabs' });
    expect(late.received.map((r) => r.cmd)).toEqual(['tabs']);
    late.ws.close();
  });

  it('[DL-ACT-LOST, DL-ACT-STATUS] row 26: an extension that only speaks v1 refuses actStatus; the lost act fails with dispatched "unknown"', async () => {
    const { act } = await loseAnAct();
    const v1 = await FakeExtension.connect(bridge, {}, (r) =>
      r.cmd === 'actStatus' ? { id: r.id, ok: false, reason: 'unsupported', message: 'The extension cannot read this request: cmd: Invalid option.' } : { id: r.id, ok: true, tabs: [] },
    );
    const error = (await act) as AiteError;
    expect(error.detail).toEqual({ dispatched: 'unknown' });
    expect(error.message).toMatch(/asking the extension failed \(The extension cannot read this request/);
    expect(v1.received.map((r) => r.cmd)).toEqual(['actStatus']);
    v1.ws.close();
  });

  it('[DL-ACT-LOST, DL-ACT-STATUS] row 26: the status question is itself re-sent when the extension drops again before answering', async () => {
    const { act } = await loseAnAct();
    const second = await FakeExtension.connect(bridge, {}, () => undefined);
    await until(() => second.received.length === 1);
    second.ws.terminate();
    const third = await FakeExtension.connect(bridge, {}, (r) => ({ id: r.id, ok: true, dispatched: false }));
    const error = (await act) as AiteError;
    expect(error.detail).toEqual({ dispatched: false });
    expect(third.received.map((r) => r.cmd)).toEqual(['actStatus']);
    expect(third.received[0]!.id).toBe(second.received[0]!.id);
    third.ws.close();
  });

  it('[KA-4410] row 27: closes with 4410 when pings go unanswered', async () => {
    bridge = await Bridge.start({ pingIntervalMs: 20, pongTimeoutMs: 100 });
    const fake = await FakeExtension.connect(bridge);
    fake.answerPings = false;
    expect((await fake.closed).code).toBe(4410);
  });

  it('row 13, row 14: drops answers with unknown ids and malformed JSON with a warning, and keeps serving', async () => {
    bridge = await Bridge.start();
    const fake = await FakeExtension.connect(bridge);
    const warnings: string[] = [];
    bridge.on('warning', (w) => warnings.push(w));
    fake.ws.send(JSON.stringify({ id: 999, ok: true }));
    fake.ws.send('{not json');
    fake.ws.send(JSON.stringify({ __proto__: { polluted: true }, id: 5, ok: true }));
    await until(() => warnings.length === 3);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await bridge.request({ cmd: 'tabs' })).toMatchObject({ ok: true });
    fake.ws.close();
  });

  it('[DL-SIZE] row 12: refuses locally a request over 8 MB and one that is not valid protocol', async () => {
    bridge = await Bridge.start();
    const fake = await FakeExtension.connect(bridge);
    const big = bridge.request({ cmd: 'navigate', url: `http://127.0.0.1/${'a'.repeat(8 * 1024 * 1024)}` });
    await expect(big).rejects.toMatchObject({ reason: 'unsupported' });
    await expect(bridge.request({ cmd: 'verify', kind: 'count', target: { text: 'x' }, value: -1 } as never)).rejects.toThrow(/value/);
    expect(fake.received.length).toBe(0);
    fake.ws.close();
  });

  it('[RQ-FAILURE, RQ-REASONS] turns a failure answer into an AiteError with reason, detail and retries', async () => {
    bridge = await Bridge.start();
    const fake = await FakeExtension.connect(bridge);
    fake.onRequest = (r) => ({ id: r.id, ok: false, reason: 'mismatch', detail: { expected: '1 MALLBUCKS', found: '1 MUCK' }, retries: 2 });
    const error = (await bridge.request({ cmd: 'verify', kind: 'text', value: '1 MALLBUCKS' }).catch((e: unknown) => e)) as AiteError;
    expect(error.reason).toBe('mismatch');
    expect(error.detail).toEqual({ expected: '1 MALLBUCKS', found: '1 MUCK' });
    expect(error.retries).toBe(2);
    expect(error.message).toContain('1 MUCK');
    fake.ws.close();
  });

  it('row 6: drops a client that never finishes its upgrade request', async () => {
    bridge = await Bridge.start({ headersTimeoutMs: 300 });
    const { connect } = await import('node:net');
    const socket = connect(bridge.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /ext HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    const closed = await new Promise<boolean>((resolve) => {
      socket.once('close', () => resolve(true));
      socket.once('error', () => resolve(true));
    });
    expect(closed).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).not.toContain(bridge.token);
  });

  it('row 8: hundreds of idle sockets do not keep the extension out', async () => {
    bridge = await Bridge.start({ maxPendingSockets: 8 });
    const { connect } = await import('node:net');
    const idle = Array.from({ length: 300 }, () => connect(bridge.port, '127.0.0.1'));
    const silent = Array.from({ length: 20 }, () => FakeExtension.open(bridge));
    await Promise.all(silent.map((f) => new Promise((resolve) => f.ws.once('open', resolve))));
    const fake = await FakeExtension.connect(bridge);
    expect(fake.welcome?.runId).toBe(bridge.runId);
    const evicted = await Promise.all(silent.slice(0, 12).map((f) => f.closed));
    expect(evicted.every((c) => c.code === 4408)).toBe(true);
    for (const socket of idle) socket.destroy();
    for (const f of silent) f.ws.terminate();
    fake.ws.close();
  });

  it('row 10: a request-shaped message before hello closes the socket, and nothing acts', async () => {
    bridge = await Bridge.start();
    const fake = FakeExtension.open(bridge);
    await new Promise((resolve) => fake.ws.once('open', resolve));
    fake.ws.send(JSON.stringify({ id: 1, ok: true, tabs: [] }));
    expect((await fake.closed).code).toBe(4426);
    expect(bridge.connected).toBe(false);
  });

  it('row 13: binary frames, deep nesting and invalid UTF-8 are dropped or closed, and the bridge serves the next connection', async () => {
    bridge = await Bridge.start();
    const warnings: string[] = [];
    bridge.on('warning', (w) => warnings.push(w));
    const fake = await FakeExtension.connect(bridge);
    fake.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    fake.ws.send('['.repeat(200_000) + ']'.repeat(200_000));
    await until(() => warnings.length === 2);
    expect(bridge.connected).toBe(true);
    fake.ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    expect((await fake.closed).code).toBe(1007);
    const next = await FakeExtension.connect(bridge);
    expect(await bridge.request({ cmd: 'tabs' })).toMatchObject({ ok: true });
    next.ws.close();
  });

  it('row 14: a duplicate answer and an answer after the request timed out are dropped, never settling another request', async () => {
    bridge = await Bridge.start({ answerGraceMs: 0 });
    const fake = await FakeExtension.connect(bridge);
    const warnings: string[] = [];
    bridge.on('warning', (w) => warnings.push(w));
    fake.onRequest = (r) => (r.cmd === 'tabs' ? [{ id: r.id, ok: true, tabs: [] }] : undefined);
    fake.onRequest = (r) => {
      if (r.cmd === 'wait') return undefined; // never answered in time
      fake.ws.send(JSON.stringify({ id: r.id, ok: true, tabs: [] }));
      return { id: r.id, ok: true, tabs: [{ id: 1, url: 'dup', title: '', active: true }] };
    };
    const first = await bridge.request({ cmd: 'tabs' });
    expect(first.tabs).toEqual([]);
    await expect(bridge.request({ cmd: 'wait', kind: 'url', contains: 'x', timeoutMs: 50 })).rejects.toMatchObject({ reason: 'timeout' });
    const waitId = fake.received.find((r) => r.cmd === 'wait')!.id;
    fake.ws.send(JSON.stringify({ id: waitId, ok: true }));
    const next = await bridge.request({ cmd: 'tabs' });
    expect(next.tabs).toEqual([]);
    await until(() => warnings.length >= 2);
    expect(warnings.every((w) => /unknown or finished request/.test(w))).toBe(true);
    fake.ws.close();
  });

  it('[DLG-BEFOREUNLOAD] an aborted signal sends a cancel naming the request in flight, beside the queue; one already answered sends none', async () => {
    bridge = await Bridge.start();
    const fake = await FakeExtension.connect(bridge, {}, (request) => {
      if (request.type === 'cancel') return { id: request.id, ok: false, reason: 'navigation', message: `Stopped: ${String(request.why)}.`, detail: { cancelled: true } };
      return request.cmd === 'navigate' ? undefined : { id: request.id, ok: true, tabs: [] };
    });
    const controller = new AbortController();
    const navigating = bridge.request({ cmd: 'navigate', url: 'http://127.0.0.1:1/', tab: 7, timeoutMs: 20_000 }, { signal: controller.signal });
    await until(() => fake.received.some((r) => r.cmd === 'navigate'));
    controller.abort('the page stayed');
    const error = await navigating.then(
      () => undefined,
      (failed: unknown) => failed as AiteError,
    );
    expect(error).toMatchObject({ reason: 'navigation', detail: { cancelled: true }, message: 'Stopped: the page stayed.' });
    const navigateId = fake.received.find((r) => r.cmd === 'navigate')!.id;
    expect(fake.received.filter((r) => r.type === 'cancel')).toEqual([{ type: 'cancel', id: navigateId, why: 'the page stayed' }]);
    // Answered first: the abort has nothing to cancel, and says nothing.
    const late = new AbortController();
    await bridge.request({ cmd: 'tabs' }, { signal: late.signal });
    late.abort('too late');
    await bridge.request({ cmd: 'tabs' });
    expect(fake.received.filter((r) => r.type === 'cancel')).toHaveLength(1);
    fake.ws.close();
  });

  it('[KA-PING] keeps a connection that answers pings', async () => {
    bridge = await Bridge.start({ pingIntervalMs: 20, pongTimeoutMs: 100 });
    const fake = await FakeExtension.connect(bridge);
    const pings = fake.received.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(bridge.connected).toBe(true);
    expect(pings).toBe(0);
    fake.ws.close();
  });

  it('row 29: a runner whose event loop was blocked does not close a healthy link', async () => {
    bridge = await Bridge.start({ pingIntervalMs: 50, pongTimeoutMs: 150 });
    const fake = await FakeExtension.connect(bridge);
    const until = Date.now() + 600;
    while (Date.now() < until) {
      // blocked on purpose
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(bridge.connected).toBe(true);
    fake.ws.close();
  });
});
