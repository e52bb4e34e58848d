import { describe, expect, it } from 'vitest';
import {
  AnswerSchemas,
  BridgeConfigSchema,
  COMMANDS,
  CommandFailure,
  DEFAULT_TIMEOUT_MS,
  defaultTimeoutOf,
  DescriptorSchema,
  EventSchema,
  FailureSchema,
  HelloSchema,
  IDEMPOTENT_COMMANDS,
  isPageCommand,
  NAVIGATE_TIMEOUT_MS,
  NAVIGATION_RESEND_COMMANDS,
  PAGE_COMMANDS,
  REASONS,
  TargetSchema,
  flattenFrames,
  frameKey,
  framePath,
  pagePathOf,
  WelcomeSchema,
  parseRequest,
} from '../../src/sdk/protocol/index.js';

const descriptor = { v: 1, tag: 'button', xpath: '/html/body/button[1]' };

describe('protocol schemas', () => {
  it('knows every command of protocol v1, plus actStatus, guard and the real-pages commands (debugger among them) beyond it, and an answer schema for each', () => {
    expect([...COMMANDS].sort()).toEqual(
      ['act', 'actStatus', 'closeTab', 'guard', 'locate', 'navigate', 'outline', 'read', 'resolve', 'switchTab', 'tabs', 'verify', 'wait', 'snapshot', 'history', 'evaluate', 'scroll', 'debugger'].sort(),
    );
    for (const cmd of COMMANDS) expect(AnswerSchemas[cmd]).toBeDefined();
  });

  it('[RQ-REASONS] has exactly the reasons of the spec', () => {
    expect(REASONS).toEqual([
      'not-found', 'ambiguous', 'not-visible', 'not-enabled', 'timeout', 'mismatch', 'drifted', 'navigation',
      'load-failed', 'tab-closed', 'connection-lost', 'unsupported', 'pre-state', 'internal',
    ]);
    expect(FailureSchema.safeParse({ id: 1, ok: false, reason: 'exploded' }).success).toBe(false);
  });

  it('re-sends only the idempotent commands', () => {
    // actStatus only asks (and fences an act that has not dispatched): asking twice is harmless.
    expect([...IDEMPOTENT_COMMANDS].sort()).toEqual(['actStatus', 'locate', 'read', 'resolve', 'snapshot', 'tabs', 'verify', 'wait']);
  });

  it('parses the examples of the spec', () => {
    expect(HelloSchema.parse({ type: 'hello', extVersion: '0.1.0', chrome: '154.0.0.0', profile: 'test-qian' })).toBeTruthy();
    expect(WelcomeSchema.parse({ type: 'welcome', runId: '2026-10-09T13-00-00Z-ab12', protocol: 1 })).toBeTruthy();
    const requests = [
      { id: 7, cmd: 'resolve', target: { text: 'Send' }, timeoutMs: 5000, tab: 123 },
      { id: 8, cmd: 'act', action: 'click', descriptor },
      { id: 9, cmd: 'verify', kind: 'text', value: '1 MALLBUCKS', within: 'Review send', timeoutMs: 5000 },
      { id: 11, cmd: 'tabs' },
      { id: 12, cmd: 'navigate', tab: 123, url: 'https://example.test/' },
      { id: 13, cmd: 'outline', items: [{ xpath: '/html/body/a', label: 'possible match 0.74', tone: 'candidate' }] },
      { id: 14, cmd: 'outline', clear: true },
      { id: 13, cmd: 'switchTab', match: { urlContains: '/pay' }, tab: 123, timeoutMs: 5000 },
      { id: 13, cmd: 'switchTab', match: { new: true }, tab: 123 },
      { id: 14, cmd: 'closeTab', tab: 124 },
      { id: 20, cmd: 'locate', descriptor, timeoutMs: 5000 },
      { id: 21, cmd: 'read', target: { css: '.balance' } },
      { id: 22, cmd: 'verify', kind: 'targetText', target: { text: 'x' }, value: 'y', negate: true, within: 'z' },
      { id: 23, cmd: 'wait', kind: 'url', contains: '/done' },
      { id: 24, cmd: 'act', action: 'select', descriptor, option: 'Dark blue' },
    ];
    for (const request of requests) expect(parseRequest(request).success, JSON.stringify(request)).toBe(true);
    expect(AnswerSchemas.resolve.parse({ id: 7, ok: true, descriptor, matches: 1, repaired: false, via: 'exact' })).toBeTruthy();
    expect(AnswerSchemas.closeTab.parse({ id: 14, ok: true, closed: 124, tab: null, alreadyClosed: true })).toBeTruthy();
    expect(EventSchema.parse({ type: 'event', kind: 'console', tab: 123, level: 'error', text: 'boom' })).toBeTruthy();
  });

  it('refuses malformed requests with a message naming the field', () => {
    const bad = parseRequest({ id: 1, cmd: 'act', action: 'type', descriptor });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toMatch(/type needs `text`/);
    expect(parseRequest({ id: 1, cmd: 'launchMissiles' }).success).toBe(false);
    expect(parseRequest({ id: 1, cmd: 'outline', items: [], clear: true }).success).toBe(false);
    expect(parseRequest({ id: 1, cmd: 'switchTab', match: { urlContains: 'a', new: true } }).success).toBe(false);
  });

  it('requires a target to name something, and allows nested regions', () => {
    expect(TargetSchema.safeParse({ nth: 1 }).success).toBe(false);
    expect(TargetSchema.safeParse({ text: 'Save', within: { role: 'region', name: 'Billing', within: 'Main' } }).success).toBe(true);
    expect(TargetSchema.safeParse({ text: 'Save', bogus: 1 }).success).toBe(false);
  });

  it('keeps unknown descriptor fields, so newer descriptors survive', () => {
    expect(DescriptorSchema.parse({ ...descriptor, future: 42 })).toMatchObject({ future: 42 });
    expect(DescriptorSchema.safeParse({ ...descriptor, v: 2 }).success).toBe(false);
  });
});

describe('protocol facts, shared by both ends', () => {
  it('says where each command runs and which timeout it gets when it names none', () => {
    expect(PAGE_COMMANDS).toEqual(['resolve', 'locate', 'read', 'verify', 'wait', 'act', 'outline', 'snapshot', 'scroll', 'guard']);
    expect(COMMANDS.filter((cmd) => isPageCommand(cmd))).toEqual(PAGE_COMMANDS);
    expect([...NAVIGATION_RESEND_COMMANDS].sort()).toEqual(['resolve', 'verify']);
    expect(defaultTimeoutOf('verify')).toBe(DEFAULT_TIMEOUT_MS);
    expect(defaultTimeoutOf('verify', 12_000)).toBe(12_000);
    expect(defaultTimeoutOf('navigate')).toBe(NAVIGATE_TIMEOUT_MS);
    expect(defaultTimeoutOf('navigate', 60_000)).toBe(60_000);
    expect(defaultTimeoutOf('tabs')).toBeUndefined();
    expect(defaultTimeoutOf('outline')).toBeUndefined();
    expect(defaultTimeoutOf('history')).toBe(NAVIGATE_TIMEOUT_MS);
    expect(defaultTimeoutOf('guard')).toBeUndefined();
  });

  it('[SEC-BRIDGE-JSON] bridge.json has one schema: a loopback bridge, a token, a profile (default "default")', () => {
    const token = 'a'.repeat(32);
    expect(BridgeConfigSchema.parse({ url: 'ws://127.0.0.1:4000/ext', token })).toEqual({ url: 'ws://127.0.0.1:4000/ext', token, profile: 'default' });
    const remote = BridgeConfigSchema.safeParse({ url: 'ws://10.0.0.2:4000/ext', token, profile: 'p' });
    expect(remote.success).toBe(false);
    expect(remote.error?.issues[0]?.message).toMatch(/not on 127\.0\.0\.1/);
    expect(BridgeConfigSchema.safeParse({ url: 'ws://127.0.0.1:4000/ext', token, profile: 'p'.repeat(201) }).success).toBe(false);
    expect(HelloSchema.safeParse({ type: 'hello', extVersion: '1', chrome: '1', profile: 'p'.repeat(201) }).success).toBe(false);
  });

  it('[RQ-FAILURE] one failure class turns into the wire failure, re-sends counted', () => {
    const failure = new CommandFailure('not-enabled', 'Send is disabled.', { why: 'disabled' });
    expect(FailureSchema.parse(failure.toAnswer(7, 2))).toEqual({ id: 7, ok: false, reason: 'not-enabled', message: 'Send is disabled.', detail: { why: 'disabled' }, retries: 2 });
    expect(failure.toAnswer(8)).not.toHaveProperty('retries');
  });
});

describe('frame paths', () => {
  it('[FR-XSITE-RESOLVE] a target\u2019s frame is one iframe or a path of nested ones; a descriptor keeps either', () => {
    expect(TargetSchema.safeParse({ text: 'Pay', frame: 'checkout' }).success).toBe(true);
    expect(TargetSchema.safeParse({ text: 'Pay', frame: ['checkout', 'card'] }).success).toBe(true);
    for (const bad of [[], [''], '', ['a', 2], Array.from({ length: 9 }, (_, i) => `f${i}`)]) {
      expect(TargetSchema.safeParse({ text: 'Pay', frame: bad }).success, JSON.stringify(bad)).toBe(false);
    }
    expect(DescriptorSchema.safeParse({ ...descriptor, frame: ['checkout', 'card'] }).success).toBe(true);
    expect(framePath(undefined)).toEqual([]);
    expect(framePath('checkout')).toEqual(['checkout']);
    expect(framePath(['checkout', 'card'])).toEqual(['checkout', 'card']);
  });

  it('[FR-XSITE-WITHIN] a within that names a frame is part of the command\u2019s frame path, after the target\u2019s own frame, and taken out of the regions', () => {
    expect(flattenFrames({ text: 'Paid' }, { css: 'body', frame: 'pay' })).toEqual({ path: ['pay'], target: { text: 'Paid' }, within: { css: 'body' } });
    expect(flattenFrames({ text: 'Pay', frame: 'shop', within: { css: 'form', frame: ['pay', 'card'] } })).toEqual({
      path: ['shop', 'pay', 'card'],
      target: { text: 'Pay', within: { css: 'form' } },
      within: undefined,
    });
    expect(flattenFrames(undefined, 'Billing')).toEqual({ path: [], target: undefined, within: 'Billing' });
    expect(pagePathOf({ id: 1, cmd: 'verify', kind: 'text', value: 'Paid', within: { css: 'body', frame: ['pay', 'receipt'] } })).toEqual(['pay', 'receipt']);
    expect(pagePathOf({ id: 2, cmd: 'read', target: { css: '#total', within: { css: 'main', frame: 'pay' } } })).toEqual(['pay']);
    expect(pagePathOf({ id: 3, cmd: 'read', target: { ref: 'e4' } })).toEqual([]);
    expect(frameKey([])).toBeUndefined();
    expect(frameKey(['pay'])).toBe('pay');
    expect(frameKey(['pay', 'card'])).toEqual(['pay', 'card']);
  });
});

describe('patterns in targets', () => {
  it('[TARGET-REGEX] a RegExp in text, name, label or placeholder (its region too) goes on the wire and into the lock file as { regex, flags }, g and y dropped', async () => {
    const { toTarget } = await import('../../src/sdk/session/types.js');
    const { LockFile } = await import('../../src/sdk/lock/LockFile.js');
    const target = toTarget({ role: 'button', name: /^sign (in|up)$/giy, within: { text: /Account/ } });
    expect(target).toEqual({ role: 'button', name: { regex: '^sign (in|up)$', flags: 'i' }, within: { text: { regex: 'Account' } } });
    expect(TargetSchema.safeParse(target).success).toBe(true);
    expect(JSON.parse(JSON.stringify(target))).toEqual(target);
    // Two patterns are two lock entries, never one key for every RegExp.
    const a = LockFile.key(toTarget({ name: /Save/ }), 'http://127.0.0.1/x');
    const b = LockFile.key(toTarget({ name: /Send/ }), 'http://127.0.0.1/x');
    expect(a).not.toBe(b);
    expect(a).toContain('"regex":"Save"');
    // Words stay words; a key that takes no pattern refuses one, and so does a source JavaScript cannot read.
    expect(toTarget({ text: 'Send' })).toEqual({ text: 'Send' });
    expect(TargetSchema.safeParse({ css: { regex: 'x' } }).success).toBe(false);
    expect(TargetSchema.safeParse({ text: { regex: '(' } }).success).toBe(false);
    expect(TargetSchema.safeParse({ text: { regex: 'x', flags: 'q' } }).success).toBe(false);
    expect(TargetSchema.safeParse({ text: { regex: 'x', flags: 'ii' } }).success).toBe(false);
  });
});
