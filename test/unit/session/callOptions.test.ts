import { afterEach, describe, expect, it } from 'vitest';
import { AiteError, Bridge, Session } from '../../../src/sdk/index.js';
import { FakeExtension } from '../../support/FakeExtension.js';
import { failure } from '../../e2e/support/failure.js';

// Options of the SDK's calls other than the composed steps, given by a script without types: a
// name aite does not take is refused before anything is sent, as a step's is.
let bridge: Bridge | undefined;
let fake: FakeExtension | undefined;
afterEach(async () => {
  fake?.ws.close();
  await bridge?.close();
});

/** A Session over a real bridge whose scripted extension records every request it receives and answers none of them well. */
async function recordingSession(): Promise<{ session: Session; received: Array<Record<string, unknown>> }> {
  const received: Array<Record<string, unknown>> = [];
  bridge = await Bridge.start({ profile: 'test' });
  const ready = bridge.waitForExtension(5_000);
  fake = await FakeExtension.connect(bridge, {}, (request) => {
    received.push(request);
    return { id: request.id, ok: false, reason: 'internal', message: 'not expected in this test' };
  });
  await ready;
  const own = bridge;
  return { session: new Session({ bridge: own, browser: undefined, profile: 'test', timeoutMs: 2_000, close: () => own.close() }), received };
}

const target = { text: 'Save' };
const descriptor = { v: 1, tag: 'button', xpath: '/html/body/button' };

describe('the options of verify, locator, tab, scroll and screenshot', () => {
  it('[CALL-OPTIONS-STRICT] an option a call does not take is refused before anything is sent, naming it, the options it takes and aite\u2019s name for it', async () => {
    const { session, received } = await recordingSession();
    const steps: string[] = [];
    session.on('step', (record) => steps.push(record.name));
    const o = (options: Record<string, unknown>) => options as never;
    const cases: Array<[string, () => Promise<unknown>, string, string[]]> = [
      ['verify.exists', () => session.verify.exists(target, o({ timeout: 500 })), 'timeout', ['negate', 'timeoutMs', 'within']],
      ['verify.text', () => session.verify.text('Saved', o({ timeout: 500 })), 'timeout', ['negate', 'timeoutMs', 'within']],
      ['verify.targetText', () => session.verify.targetText(target, 'Saved', o({ ignoreCase: true })), 'ignoreCase', ['negate', 'timeoutMs', 'within', 'exact']],
      ['verify.value', () => session.verify.value(target, 'x', o({ within: 'form' })), 'within', ['negate', 'timeoutMs']],
      ['verify.state', () => session.verify.state(target, 'checked', o({ timeout: 1 })), 'timeout', ['negate', 'timeoutMs']],
      ['verify.count', () => session.verify.count(target, 2, o({ not: true })), 'not', ['negate', 'timeoutMs', 'within']],
      ['verify.url', () => session.verify.url('/done', o({ timeout: 1 })), 'timeout', ['negate', 'timeoutMs']],
      ['verify.title', () => session.verify.title('Done', o({ timeout: 1 })), 'timeout', ['negate', 'timeoutMs']],
      ['verify.numberChange', () => session.verify.numberChange(target, { from: 1, by: 1 }, o({ timeout: 1 })), 'timeout', ['negate', 'timeoutMs']],
      ['locator.resolve', () => session.locator.resolve(target, o({ timeout: 1 })), 'timeout', ['descriptor', 'timeoutMs', 'prepare', 'record', 'checkExact']],
      ['locator.locate', () => session.locator.locate(descriptor as never, o({ trial: true })), 'trial', ['timeoutMs']],
      ['locator.read', () => session.locator.read(target, o({ timeout: 1 })), 'timeout', ['timeoutMs']],
      ['locator.act', () => session.locator.act('click', descriptor as never, o({ force: true })), 'force', ['text', 'key', 'option', 'to', 'timeoutMs']],
      ['locator.wait', () => session.locator.wait('visible', o({ target, timeout: 1 })), 'timeout', ['target', 'contains', 'timeoutMs']],
      ['tab.navigate', () => session.tab.navigate('http://127.0.0.1:1/', o({ waitUntil: 'load' })), 'waitUntil', ['tab', 'timeoutMs']],
      ['tab.back', () => session.tab.back(o({ timeout: 1 })), 'timeout', ['timeoutMs']],
      ['tab.forward', () => session.tab.forward(o({ timeout: 1 })), 'timeout', ['timeoutMs']],
      ['tab.reload', () => session.tab.reload(o({ waitUntil: 'load' })), 'waitUntil', ['timeoutMs']],
      ['tab.switchTo', () => session.tab.switchTo({ new: true }, o({ timeout: 1 })), 'timeout', ['timeoutMs']],
      ['tab.close', () => session.tab.close(o({ runBeforeUnload: true })), 'runBeforeUnload', []],
      ['scroll', () => session.scroll(target, o({ delta: 300 })), 'delta', ['deltaY', 'until', 'maxSteps', 'timeoutMs']],
      ['screenshot', () => session.screenshot(o({ clip: { x: 0, y: 0, width: 1, height: 1 } })), 'clip', ['target', 'fullPage', 'path', 'timeoutMs', 'maxSide']],
      ['locator.outline', () => session.locator.outline([{ xpath: '/html/body/button', label: 'Save' }, o({ xpath: '/html/body', color: 'red' })]), 'color', ['xpath', 'label', 'tone']],
      ['evaluate', () => session.evaluate(() => document.title, undefined, o({ timeout: 1 })), 'timeout', ['timeoutMs']],
      ['snapshot', () => session.snapshot(o({ interestingOnly: false })), 'interestingOnly', ['maxLines', 'timeoutMs']],
      ['reset', () => session.reset(o({ clearCookies: true })), 'clearCookies', ['storage']],
    ];
    for (const [call, run, key, accepted] of cases) {
      // A rejected promise, never a throw: `.catch` on the call sees it.
      let promise: Promise<unknown> | undefined;
      expect(() => (promise = run()), call).not.toThrow();
      const error = await failure(promise!);
      expect(error.reason, call).toBe('unsupported');
      expect(error.message, call).toMatch(new RegExp(`^${call.replace('.', '\\.')}: unknown option "${key}"\\.`));
      expect(error.message, call).toContain('Nothing was sent.');
      expect(error.message, call).toContain(accepted.length > 0 ? `Options of ${call}: ${accepted.join(', ')}.` : `${call} takes no options.`);
      expect(error.detail, call).toMatchObject({ unknown: [key], accepted });
    }
    expect(received).toEqual([]);
    expect(steps).toEqual([]);
  });

  it('[CALL-OPTIONS-STRICT] another tool\u2019s option is answered with aite\u2019s name for it, or what to do instead; a typo with the one meant', async () => {
    const { session } = await recordingSession();
    const timeout = await failure(session.verify.text('Saved', { timeout: 500 } as never));
    expect(timeout.message).toMatch(/^verify\.text: unknown option "timeout"\. aite calls it "timeoutMs" \(milliseconds\)\. Nothing was sent\. Options of verify\.text: negate, timeoutMs, within\./);
    expect(timeout.detail).toEqual({ unknown: ['timeout'], accepted: ['negate', 'timeoutMs', 'within'], aiteNames: { timeout: 'timeoutMs' } });
    const waitUntil = await failure(session.tab.navigate('http://127.0.0.1:1/', { waitUntil: 'networkidle' } as never));
    expect(waitUntil.message).toMatch(/unknown option "waitUntil"\. aite always waits for the page's load event/);
    expect(waitUntil.detail.aiteNames).toBeUndefined();
    const clip = await failure(session.screenshot({ clip: {} } as never));
    expect(clip.message).toMatch(/instead of a clip rectangle/);
    const typo = await failure(session.locator.read(target, { timeoutMS: 5 } as never));
    expect(typo.message).toMatch(/^locator\.read: unknown option "timeoutMS"\. Did you mean "timeoutMs"\? Nothing was sent\./);
    // Options that are not an object at all are refused too, and nothing a call takes is touched by the check.
    const number = await failure(session.verify.text('Saved', 500 as never));
    expect(number.message).toMatch(/^verify\.text: expected an object, got the number 500\. Nothing was sent\./);
    expect(number).toBeInstanceOf(AiteError);
  });

  it('[CALL-OPTIONS-STRICT] dialogs.next() refuses a field an answer does not take, at once, arming nothing', async () => {
    const { session } = await recordingSession();
    let thrown: unknown;
    try {
      session.dialogs.next({ accept: true, promptValue: 'Ana' } as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AiteError);
    const error = thrown as AiteError;
    expect(error.reason).toBe('unsupported');
    expect(error.message).toMatch(/^dialogs\.next: unknown option "promptValue"\. Nothing was sent\. Options of dialogs\.next: accept, promptText\./);
    expect(error.detail).toEqual({ unknown: ['promptValue'], accepted: ['accept', 'promptText'] });
  });

  it('[STEP-OPTIONS-STRICT, CALL-OPTIONS-STRICT] a composed step\u2019s unknown option names the options it takes too', async () => {
    const { session, received } = await recordingSession();
    const error = await failure(session.hover('Save', { button: 'right' } as never));
    expect(error.message).toMatch(/^hover: unknown option "button"\. Nothing was sent\. Options of hover: timeoutMs, modifiers, position\./);
    expect(error.detail).toEqual({ unknown: ['button'], accepted: ['timeoutMs', 'modifiers', 'position'] });
    expect(received).toEqual([]);
  });
});
