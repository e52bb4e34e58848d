import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { AiteError } from '../../../src/sdk/index.js';
import { BridgeProtocol } from '../../../src/sdk/bridge/BridgeProtocol.js';
import type { Transport } from '../../../src/sdk/bridge/Transport.js';
import { linkedPair } from '../../support/InMemoryTransport.js';

// The protocol alone, over in-memory links: no server, no socket, no port.
const token = 'ab'.repeat(16);
let protocol: BridgeProtocol;
afterEach(() => protocol?.close());

function start(overrides: Partial<ConstructorParameters<typeof BridgeProtocol>[0]> = {}): BridgeProtocol {
  protocol = new BridgeProtocol({
    token,
    runId: 'run-1',
    helloTimeoutMs: 1_000,
    pingIntervalMs: 60_000,
    pongTimeoutMs: 120_000,
    defaultTimeoutMs: 1_000,
    answerGraceMs: 500,
    maxPendingSockets: 4,
    lostActWaitMs: 2_000,
    ...overrides,
  });
  return protocol;
}

/** The extension's end of a new link: what it received, and a way to answer. */
function extension(onRequest: (request: Record<string, unknown>) => unknown = () => undefined) {
  const [runner, ext] = linkedPair();
  const received: Array<Record<string, unknown>> = [];
  let closed: { code: number; reason: string } | undefined;
  ext.onmessage = (text) => {
    const message = JSON.parse(text!) as Record<string, unknown>;
    received.push(message);
    if ('cmd' in message) {
      const answer = onRequest(message);
      if (answer !== undefined) ext.send(JSON.stringify(answer));
    }
  };
  ext.onclose = (code, reason) => (closed = { code, reason });
  protocol.accept(runner);
  const hello = (extra: Record<string, unknown> = {}) => ext.send(JSON.stringify({ type: 'hello', extVersion: '0.1.0', chrome: '156', profile: 'test', ...extra }));
  return { ext: ext as Transport, received, hello, closed: () => closed };
}

const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
};

/** A connected extension that answers every read, and the message a read of `target` is refused with. */
async function readRefusals() {
  start();
  const link = extension((request) => ({ id: request.id, ok: true, text: 'x' }));
  link.hello();
  await protocol.waitForExtension(1_000);
  const message = async (target: Record<string, unknown>): Promise<string> =>
    ((await protocol.request({ cmd: 'read', target: target as never }).catch((e: unknown) => e)) as AiteError).message;
  return { link, message };
}

describe('BridgeProtocol over an in-memory transport', () => {
  it('[H-HELLO, H-WELCOME] welcomes a hello with the run id and the proof of the token, then answers requests', async () => {
    start();
    const link = extension((request) => ({ id: request.id, ok: true, text: 'Balance: 4' }));
    link.hello({ nonce: 'n0nce' });
    await protocol.waitForExtension(1_000);
    await until(() => link.received.length > 0);
    expect(link.received[0]).toEqual({ type: 'welcome', runId: 'run-1', protocol: 1, proof: createHmac('sha256', token).update('n0nce').digest('hex') });
    const answer = await protocol.request({ cmd: 'read', target: { css: '#balance' } });
    expect(answer.text).toBe('Balance: 4');
    expect(link.received[1]).toMatchObject({ cmd: 'read', id: 1, target: { css: '#balance' } });
  });

  it('[KA-4408, H-MISMATCH] closes a link that says no hello in time, or says something else first', async () => {
    start({ helloTimeoutMs: 30 });
    const silent = extension();
    await until(() => silent.closed() !== undefined);
    expect(silent.closed()?.code).toBe(4408);
    const rude = extension();
    rude.ext.send(JSON.stringify({ type: 'pong' }));
    await until(() => rude.closed() !== undefined);
    expect(rude.closed()?.code).toBe(4426);
  });

  it('[DL-RESEND-IDEMPOTENT, RT-ADD] a read cut by a reconnect goes out again on the new link, and the re-send is counted', async () => {
    start();
    const first = extension(() => undefined);
    first.hello();
    await protocol.waitForExtension(1_000);
    const answer = protocol.request({ cmd: 'read', target: { css: '#v' } });
    await until(() => first.received.some((m) => m.cmd === 'read'));
    first.ext.close(1006, 'worker stopped');
    const second = extension((request) => ({ id: request.id, ok: true, text: 'again' }));
    second.hello({ resume: 'run-1' });
    expect(await answer).toMatchObject({ text: 'again', retries: 1 });
  });

  it('[DL-ACT-LOST, DL-ACT-STATUS] an act cut by a reconnect is never sent again: the extension is asked whether it dispatched', async () => {
    start();
    const first = extension(() => undefined);
    first.hello();
    await protocol.waitForExtension(1_000);
    const act = protocol.request({ cmd: 'act', action: 'click', descriptor: { v: 1, tag: 'button', xpath: '/html/body/button' } });
    await until(() => first.received.some((m) => m.cmd === 'act'));
    first.ext.close(1006, 'worker stopped');
    const second = extension((request) => (request.cmd === 'actStatus' ? { id: request.id, ok: true, dispatched: true } : undefined));
    second.hello();
    const error = await act.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AiteError);
    expect((error as AiteError).reason).toBe('connection-lost');
    expect((error as AiteError).detail.dispatched).toBe(true);
    expect(second.received.filter((m) => m.cmd === 'act')).toEqual([]);
    expect(second.received.filter((m) => m.cmd === 'actStatus')).toHaveLength(1);
  });

  it('[RQ-FAILURE] a failure answer throws its reason; a malformed answer is internal, never trusted', async () => {
    start();
    const link = extension((request) =>
      request.cmd === 'read' ? { id: request.id, ok: false, reason: 'not-found', message: 'No #nope.' } : { id: request.id, ok: true, tabs: 'not a list' },
    );
    link.hello();
    await protocol.waitForExtension(1_000);
    await expect(protocol.request({ cmd: 'read', target: { css: '#nope' } })).rejects.toMatchObject({ reason: 'not-found', message: 'No #nope.' });
    await expect(protocol.request({ cmd: 'tabs' })).rejects.toMatchObject({ reason: 'internal' });
  });
});

describe('BridgeProtocol deadlines: a page that does not answer holds nothing past its deadline', () => {
  it('[DL-DEADLINE] a request not answered within its timeoutMs and the grace fails timeout, saying the page did not respond; an act may have run', async () => {
    start({ answerGraceMs: 200 });
    const link = extension(() => undefined);
    link.hello();
    await protocol.waitForExtension(1_000);
    const started = performance.now();
    const error = (await protocol.request({ cmd: 'verify', kind: 'text', value: 'done', timeoutMs: 300 }).catch((e: unknown) => e)) as AiteError;
    const took = performance.now() - started;
    expect(error).toBeInstanceOf(AiteError);
    expect(error.reason).toBe('timeout');
    expect(error.detail).toEqual({ answered: false });
    expect(error.message).toMatch(/verify got no answer within 500 ms .*the page did not respond, most likely because its main thread was busy/);
    expect(took).toBeGreaterThanOrEqual(490);
    expect(took).toBeLessThan(1_500);
    const act = (await protocol.request({ cmd: 'act', action: 'click', descriptor: { v: 1, tag: 'button', xpath: '/html/body/button' }, timeoutMs: 100 }).catch((e: unknown) => e)) as AiteError;
    expect(act.detail).toEqual({ answered: false, dispatched: 'unknown' });
    expect(act.message).toMatch(/dispatched is unknown .*not sent again/);
    expect(link.received.filter((m) => m.cmd === 'act')).toHaveLength(1);
  });

  it('[DL-DEADLINE-QUEUED, DL-ONE-AT-A-TIME] a request behind one the page never answers fails by its own deadline and is never sent; one that waited less goes with what is left', async () => {
    start({ answerGraceMs: 100 });
    const link = extension((request) => (request.cmd === 'read' ? undefined : { id: request.id, ok: true, found: 'done' }));
    link.hello();
    await protocol.waitForExtension(1_000);
    const stuck = protocol.request({ cmd: 'read', target: { css: '#out' }, timeoutMs: 600 }).catch((e: unknown) => e);
    const started = performance.now();
    const behind = (await protocol.request({ cmd: 'verify', kind: 'text', value: 'done', timeoutMs: 200 }).catch((e: unknown) => e)) as AiteError;
    expect(performance.now() - started).toBeLessThan(600);
    expect(behind.reason).toBe('timeout');
    expect(behind.detail).toEqual({ answered: false, sent: false });
    expect(behind.message).toMatch(/verify was not sent within its 300 ms: the read request before it still had no answer/);
    // Queued meanwhile with more time: it goes once the read gave up, with what is left of its timeout.
    const later = protocol.request({ cmd: 'verify', kind: 'text', value: 'done', timeoutMs: 1_000 });
    await expect(later).resolves.toMatchObject({ found: 'done' });
    expect(((await stuck) as AiteError).detail).toEqual({ answered: false });
    const sent = link.received.filter((m) => m.cmd === 'verify');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.timeoutMs).toBeLessThan(1_000);
    expect(sent[0]!.timeoutMs).toBeGreaterThan(400);
    // A timeout given wrong is refused as such, not taken for a deadline already past.
    await expect(protocol.request({ cmd: 'verify', kind: 'text', value: 'done', timeoutMs: -5_000 })).rejects.toMatchObject({ reason: 'unsupported', message: expect.stringMatching(/timeoutMs/) });
  });

  it('[TARGET-REGEX] a regular expression where a target takes no pattern (role, css) is refused before sending, saying which keys take one', async () => {
    start();
    const link = extension((request) => ({ id: request.id, ok: true, text: 'x' }));
    link.hello();
    await protocol.waitForExtension(1_000);
    const refused = protocol.request({ cmd: 'read', target: { role: /button|link/ as unknown as string } });
    await expect(refused).rejects.toMatchObject({ reason: 'unsupported' });
    expect(((await refused.catch((e: unknown) => e)) as AiteError).message).toMatch(
      /target\.role: expected a string, got the regular expression \/button\|link\/: only a target's text, name, label and placeholder take a pattern/,
    );
    // A pattern's JSON form with a source JavaScript cannot read is refused too, saying so.
    const unreadable = protocol.request({ cmd: 'read', target: { name: { regex: '(unclosed' } } });
    expect(((await unreadable.catch((e: unknown) => e)) as AiteError).message).toMatch(/target\.name.*not a regular expression JavaScript can read/);
    expect(link.received.filter((m) => m.cmd === 'read')).toHaveLength(0);
  });

  it('[TARGET-FOREIGN-KEYS] a getByRole option a target has no key for (includeHidden) is refused before sending, saying what to write instead', async () => {
    const { link, message } = await readRefusals();
    expect(await message({ role: 'button', includeHidden: true })).toMatch(/unknown field "includeHidden"\. aite finds only what a person can see/);
    expect(link.received.filter((m) => m.cmd === 'read')).toHaveLength(0);
  });

  it('[ROLE-STATES] a role filter (level, checked, pressed, expanded, selected, disabled) on a target without role, or on a role it does not apply to (as Playwright\u2019s getByRole refuses it), is refused before sending', async () => {
    const { link, message } = await readRefusals();
    expect(await message({ text: 'Title', level: 1 })).toMatch(/target\.level: "level" filters the elements of a role, as Playwright's getByRole options do: add the role \(\{ role: 'heading', level: 1 \}\)/);
    for (const state of ['checked', 'pressed', 'expanded', 'selected', 'disabled']) {
      expect(await message({ name: 'Notify', [state]: true })).toMatch(new RegExp(`target\\.${state}: "${state}" filters the elements of a role.*add the role`));
    }
    expect(await message({ role: 'button', name: 'Title', level: 1 })).toMatch(/target\.level: "level" applies to the roles "heading", "listitem", "row", "treeitem" \(as in Playwright's getByRole\), not "button"/);
    expect(await message({ role: 'link', name: 'Home', checked: true })).toMatch(/target\.checked: "checked" applies to the roles "checkbox", .*"treeitem".*not "link"/);
    expect(await message({ role: 'link', name: 'Home', pressed: true })).toMatch(/target\.pressed: "pressed" applies to the roles "button" .*not "link"/);
    expect(await message({ role: 'button', name: 'Home', selected: true })).toMatch(/target\.selected: "selected" applies to the roles "gridcell", .*not "button"/);
    expect(await message({ role: 'heading', level: 0 })).toMatch(/target\.level/);
    expect(await message({ role: 'checkbox', checked: 'yes' })).toMatch(/target\.checked/);
    expect(link.received.filter((m) => m.cmd === 'read')).toHaveLength(0);
    await protocol.request({ cmd: 'read', target: { role: 'checkbox', name: 'Notify', checked: 'mixed', disabled: false } });
    expect(link.received.filter((m) => m.cmd === 'read').map((m) => (m as { target?: unknown }).target)).toEqual([{ role: 'checkbox', name: 'Notify', checked: 'mixed', disabled: false }]);
  });
});

describe('BridgeProtocol with a page shortcut (launch mode: page commands over the pipe)', () => {
  it('[PIPE-PAGE-DIRECT] a request the shortcut carries is answered by it, checked as a socket answer is; the socket sees nothing of it', async () => {
    start();
    const link = extension((request) => (request.cmd === 'tabs' ? { id: request.id, ok: true, tabs: [] } : { id: request.id, ok: true, text: 'over the socket' }));
    link.hello();
    await protocol.waitForExtension(1_000);
    const carried: Array<Record<string, unknown>> = [];
    protocol.useShortcut({
      run: (request) => {
        if (request.cmd !== 'read') return undefined;
        carried.push(request as Record<string, unknown>);
        return Promise.resolve({ answer: { id: request.id, ok: true, text: 'over the pipe' } });
      },
    });
    expect((await protocol.request({ cmd: 'read', target: { css: '#a' } })).text).toBe('over the pipe');
    expect(carried[0]).toMatchObject({ cmd: 'read', id: 1, target: { css: '#a' } });
    expect(await protocol.request({ cmd: 'tabs' })).toMatchObject({ ok: true });
    expect(link.received.filter((m) => 'cmd' in m).map((m) => m.cmd)).toEqual(['tabs']);
    // A failure answer is the same AiteError; a malformed answer is internal.
    protocol.useShortcut({ run: (request) => Promise.resolve({ answer: { id: request.id, ok: false, reason: 'not-found', message: 'No element matches.' } }) });
    await expect(protocol.request({ cmd: 'read', target: { css: '#a' } })).rejects.toMatchObject({ reason: 'not-found', message: 'No element matches.' });
    protocol.useShortcut({ run: (request) => Promise.resolve({ answer: { id: request.id, ok: true } }) });
    await expect(protocol.request({ cmd: 'read', target: { css: '#a' } })).rejects.toMatchObject({ reason: 'internal' });
    protocol.useShortcut({
      run: () => {
        throw new Error('a bug');
      },
    });
    await expect(protocol.request({ cmd: 'read', target: { css: '#a' } })).rejects.toMatchObject({ reason: 'internal', message: expect.stringContaining('a bug') });
  });

  it('[PIPE-PAGE-NAVIGATED] a request whose page went away under the shortcut goes over the socket, counted as a re-send; one that never reached the page, uncounted', async () => {
    start();
    const link = extension((request) => ({ id: request.id, ok: true, text: 'from the new page' }));
    link.hello();
    await protocol.waitForExtension(1_000);
    protocol.useShortcut({ run: () => Promise.resolve({ navigated: 'Execution context was destroyed.' }) });
    await expect(protocol.request({ cmd: 'read', target: { css: '#a' } })).rejects.toMatchObject({ reason: 'navigation', message: 'The page navigated during read.' });
    expect(await protocol.request({ cmd: 'verify', kind: 'text', value: 'Arrived' })).toMatchObject({ retries: 1 });
    protocol.useShortcut({ run: () => Promise.resolve({ via: 'socket' }) });
    const plain = await protocol.request({ cmd: 'read', target: { css: '#a' } });
    expect(plain.retries).toBeUndefined();
    expect(link.received.filter((m) => 'cmd' in m).map((m) => m.cmd)).toEqual(['verify', 'read']);
  });

  it('[PIPE-PAGE-RESEND-COUNTED] a re-send after the page navigated under the shortcut is told as a retry, gets what is left of its time, and is counted in a timeout too', async () => {
    start({ answerGraceMs: 300 });
    const silent = extension(() => undefined);
    silent.hello();
    await protocol.waitForExtension(1_000);
    const retries: unknown[] = [];
    protocol.on('retry', (info) => retries.push(info));
    protocol.useShortcut({ run: () => new Promise((resolve) => setTimeout(() => resolve({ navigated: 'Execution context was destroyed.' }), 200)) });
    const error = (await protocol.request({ cmd: 'verify', kind: 'text', value: 'Arrived', timeoutMs: 600 }).catch((e: unknown) => e)) as AiteError;
    expect(error).toMatchObject({ reason: 'timeout', retries: 1, detail: { answered: false } });
    expect(retries).toEqual([{ id: 1, cmd: 'verify', retries: 1, why: 'navigation' }]);
    const [resent] = silent.received.filter((m) => m.cmd === 'verify');
    expect(resent!.timeoutMs).toBeLessThanOrEqual(400);
    expect(resent!.timeoutMs).toBeGreaterThan(200);
  });

  it('[PIPE-PAGE-RESEND-COUNTED, DL-ACT-LOST] an act whose page went away under the shortcut is never sent again: it fails navigation', async () => {
    start();
    const link = extension((request) => ({ id: request.id, ok: true }));
    link.hello();
    await protocol.waitForExtension(1_000);
    const retries: unknown[] = [];
    protocol.on('retry', (info) => retries.push(info));
    protocol.useShortcut({ run: () => Promise.resolve({ navigated: 'Execution context was destroyed.' }) });
    const act = protocol.request({ cmd: 'act', action: 'click', descriptor: { v: 1, tag: 'button', xpath: '/html/body/button' }, tab: 7 });
    await expect(act).rejects.toMatchObject({ reason: 'navigation', message: expect.stringMatching(/it was not sent again/) });
    expect(link.received.filter((m) => 'cmd' in m)).toEqual([]);
    expect(retries).toEqual([]);
  });

  it('[PIPE-PAGE-RELOAD] a reconnect does not send again what the shortcut is carrying', async () => {
    start();
    const first = extension(() => undefined);
    first.hello();
    await protocol.waitForExtension(1_000);
    let finish: (() => void) | undefined;
    protocol.useShortcut({ run: (request) => new Promise((resolve) => (finish = () => resolve({ answer: { id: request.id, ok: true, text: 'piped' } }))) });
    const reading = protocol.request({ cmd: 'read', target: { css: '#a' } });
    await until(() => finish !== undefined);
    first.ext.close(1001, 'worker stopped');
    await until(() => first.closed() !== undefined);
    const second = extension((request) => ({ id: request.id, ok: true, text: 'socket' }));
    second.hello();
    await until(() => second.received.some((m) => m.type === 'welcome'));
    finish!();
    expect(await reading).toMatchObject({ text: 'piped' });
    expect([...first.received, ...second.received].filter((m) => 'cmd' in m)).toEqual([]);
  });
});
