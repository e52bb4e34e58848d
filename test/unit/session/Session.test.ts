import { afterEach, describe, expect, it } from 'vitest';
import { Bridge, Session, type StepRecord } from '../../../src/sdk/index.js';
import { FakeExtension } from '../../support/FakeExtension.js';
import { failure } from '../../e2e/support/failure.js';

// A Session without a debugging pipe (attach mode) over a real bridge and socket; the extension
// is scripted, so the order in which answers arrive is the test's to choose.
let bridge: Bridge | undefined;
let fake: FakeExtension | undefined;
afterEach(async () => {
  fake?.ws.close();
  await bridge?.close();
});

async function sessionWith(onRequest: (request: Record<string, unknown>) => unknown): Promise<Session> {
  bridge = await Bridge.start({ profile: 'test' });
  const ready = bridge.waitForExtension(5_000);
  fake = await FakeExtension.connect(bridge, {}, onRequest);
  await ready;
  const own = bridge;
  return new Session({ bridge: own, browser: undefined, profile: 'test', timeoutMs: 2_000, close: () => own.close() });
}

const descriptorOf = (text: string) => ({ v: 1, tag: 'button', xpath: `//button[.='${text}']`, text });

describe('Session steps', () => {
  it('[STEP-OWN-LOG] two overlapping calls keep separate call logs', async () => {
    const session = await sessionWith((request) => {
      const target = request.target as { text?: string } | undefined;
      if (request.cmd === 'resolve') return { id: request.id, ok: true, descriptor: descriptorOf(target!.text!), matches: 1, repaired: false, via: 'exact' };
      return { id: request.id, ok: false, reason: 'not-enabled', message: `${(request.descriptor as { text: string }).text} is disabled.` };
    });
    const records: StepRecord[] = [];
    session.on('step', (record) => records.push(record));
    // Both start before either has its first answer: their requests interleave on the one bridge.
    const [a, b] = await Promise.all([failure(session.click('Alpha')), failure(session.click('Beta'))]);
    expect(a.callLog[0]).toBe('click {"text":"Alpha"}');
    expect(b.callLog[0]).toBe('click {"text":"Beta"}');
    expect(a.callLog.slice(1).join('\n')).toMatch(/resolve .*Alpha[\s\S]*act /);
    expect(a.callLog.join('\n')).not.toContain('Beta');
    expect(b.callLog.slice(1).join('\n')).toMatch(/resolve .*Beta[\s\S]*act /);
    expect(b.callLog.join('\n')).not.toContain('Alpha');
    expect(a.callLog.filter((line) => line.trim().startsWith('act'))).toHaveLength(1);
    expect(b.callLog.filter((line) => line.trim().startsWith('act'))).toHaveLength(1);
    expect(records.map((r) => [r.name, r.target, r.ok])).toEqual(
      expect.arrayContaining([
        ['click', { text: 'Alpha' }, false],
        ['click', { text: 'Beta' }, false],
      ]),
    );
  });

  it('[STEP-OWN-LOG] a verify, a tab and a locator call are steps too: reported, with a call log when they fail', async () => {
    const session = await sessionWith((request) => {
      if (request.cmd === 'tabs') return { id: request.id, ok: true, tabs: [] };
      if (request.cmd === 'read') return { id: request.id, ok: true, text: 'four' };
      return { id: request.id, ok: false, reason: 'mismatch', message: 'The page does not show "5".', detail: { expected: '5', found: '4' } };
    });
    const records: StepRecord[] = [];
    session.on('step', (record) => records.push(record));
    expect(await session.tab.list()).toEqual([]);
    expect((await session.locator.read({ css: '#n' })).text).toBe('four');
    const error = await failure(session.verify.text('5'));
    expect(error.reason).toBe('mismatch');
    expect(error.callLog[0]).toBe('verify');
    expect(error.callLog[1]).toMatch(/^ {2}verify \{"kind":"text","value":"5"/);
    // Attach mode has no pipe: no picture, and the error says what it found.
    expect(error.screenshot).toBeUndefined();
    expect(records.map((r) => [r.name, r.ok, r.reason])).toEqual([
      ['tabs', true, undefined],
      ['read', true, undefined],
      ['verify', false, 'mismatch'],
    ]);
    expect(records[1]!.target).toEqual({ css: '#n' });
  });

  it('[BUSY-STEP-BUDGET] a composed step\u2019s requests share its one timeout: the act gets what the resolve left; an outline carries a timeout too', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const session = await sessionWith((request) => {
      sent.push(request);
      if (request.cmd !== 'resolve') return { id: request.id, ok: true };
      // The page takes 1200 ms of the step's 2000 to answer.
      setTimeout(() => fake!.ws.send(JSON.stringify({ id: request.id, ok: true, descriptor: descriptorOf('Slow'), matches: 1, repaired: false, via: 'exact' })), 1_200);
      return undefined;
    });
    await session.click('Slow', { timeoutMs: 2_000 });
    const act = sent.find((request) => request.cmd === 'act')!;
    expect(act.timeoutMs).toBeGreaterThan(0);
    expect(act.timeoutMs).toBeLessThanOrEqual(800);
    await session.locator.outline([]);
    expect(sent.find((request) => request.cmd === 'outline')!.timeoutMs).toBe(2_000);
  });
});
