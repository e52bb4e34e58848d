import { afterEach, describe, expect, it } from 'vitest';
import { Bridge, Session } from '../../../src/sdk/index.js';
import { parseRequest } from '../../../src/sdk/protocol/index.js';
import { Dialogs, type DialogRecord } from '../../../src/sdk/session/pipe/Dialogs.js';
import { FakeExtension } from '../../support/FakeExtension.js';

describe('attach mode\u2019s debugger command', () => {
  it('[ATT-TRUSTED] takes only the CDP methods the runner needs, and each op its fields', () => {
    expect(parseRequest({ id: 1, cmd: 'debugger', op: 'send', method: 'Input.dispatchMouseEvent', params: { type: 'mousePressed', x: 1, y: 2 } }).success).toBe(true);
    // Nothing else of CDP goes through: no script, no navigation, no other target.
    for (const method of ['Runtime.evaluate', 'Page.navigate', 'Target.attachToTarget', 'Network.getCookies']) {
      expect(parseRequest({ id: 1, cmd: 'debugger', op: 'send', method }).success, method).toBe(false);
    }
    expect(parseRequest({ id: 1, cmd: 'debugger', op: 'send' }).success).toBe(false);
    expect(parseRequest({ id: 1, cmd: 'debugger', op: 'upload', files: ['/tmp/a'] }).success).toBe(false);
    expect(parseRequest({ id: 1, cmd: 'debugger', op: 'upload', files: [], xpath: '/html/body/input', tag: 'input' }).success).toBe(true);
    expect(parseRequest({ id: 1, cmd: 'debugger', op: 'chooser' }).success).toBe(false);
    expect(parseRequest({ id: 1, cmd: 'debugger', op: 'dialogs', policy: 'accept', armed: [{ id: 1, accept: true, promptText: 'x' }] }).success).toBe(true);
    expect(parseRequest({ id: 1, cmd: 'debugger', op: 'steal' }).success).toBe(false);
  });
});

describe('dialogs the extension answered', () => {
  function dialogs(): { dialogs: Dialogs; answered: DialogRecord[] } {
    const answered: DialogRecord[] = [];
    return { dialogs: new Dialogs(undefined, 'dismiss', { pipe: true, tabOf: () => undefined, answered: (r) => answered.push(r) }), answered };
  }

  it('[ATT-DIALOG] the armed answers go out with ids; the one the extension took is used up, the rest stay armed', () => {
    const { dialogs: d, answered } = dialogs();
    const before = d.armedAnswers.changes;
    d.next({ accept: true, promptText: 'Zephyr' });
    d.next({ accept: false });
    const { changes, armed } = d.armedAnswers;
    expect(changes).not.toBe(before);
    expect(armed).toEqual([
      { id: 1, accept: true, promptText: 'Zephyr' },
      { id: 2, accept: false },
    ]);
    d.answeredElsewhere({ dialog: 'prompt', message: 'Your name?', url: 'http://127.0.0.1/', defaultPrompt: 'anon', accepted: true, promptText: 'Zephyr', armed: 1, tab: 7 });
    expect(d.armed).toBe(1);
    expect(d.armedAnswers.armed.map((a) => a.id)).toEqual([2]);
    expect(d.armedAnswers.changes).not.toBe(changes);
    expect(d.seen).toEqual([{ type: 'prompt', message: 'Your name?', defaultPrompt: 'anon', accepted: true, promptText: 'Zephyr', url: 'http://127.0.0.1/', tab: 7, by: 'armed' }]);
    expect(answered).toEqual(d.seen);
  });

  it('[ATT-DIALOG] a dialog the policy answered uses no armed answer', () => {
    const { dialogs: d } = dialogs();
    d.next({ accept: true });
    const { changes } = d.armedAnswers;
    d.answeredElsewhere({ dialog: 'alert', message: 'Saved', url: 'http://127.0.0.1/', accepted: false, tab: 3 });
    expect(d.armed).toBe(1);
    expect(d.armedAnswers.changes).toBe(changes);
    expect(d.seen[0]).toEqual({ type: 'alert', message: 'Saved', accepted: false, url: 'http://127.0.0.1/', tab: 3, by: 'policy' });
  });

  it('[ATT-FALLBACK] without the pipe or the debugger, arming a dialog says why it cannot be answered', () => {
    const d = new Dialogs(undefined, 'dismiss', { pipe: false, tabOf: () => undefined, answered: () => undefined });
    expect(() => d.next({ accept: true })).toThrow(/attach\(\{ debugger: false \}\)/);
  });
});

// A Session in attach mode with the debugger on, over a real bridge and socket; the extension is
// scripted, so the test sees every request the input makes.
let bridge: Bridge | undefined;
let fake: FakeExtension | undefined;
afterEach(async () => {
  fake?.ws.close();
  await bridge?.close();
});

async function attached(onRequest: (request: Record<string, unknown>) => unknown): Promise<Session> {
  bridge = await Bridge.start({ profile: 'test' });
  const ready = bridge.waitForExtension(5_000);
  fake = await FakeExtension.connect(bridge, {}, onRequest);
  await ready;
  const own = bridge;
  return new Session({ bridge: own, browser: undefined, profile: 'test', timeoutMs: 2_000, debugger: true, close: () => own.close() });
}

const button = { v: 1, tag: 'button', xpath: '/html/body/button[1]', text: 'Go' };
const point = { x: 40, y: 20, rect: { x: 10, y: 10, width: 60, height: 20 }, tag: 'button', editable: false };

describe('Session in attach mode with the debugger', () => {
  it('[ATT-TRUSTED] a click is the debugger\u2019s mouse at the point resolve answered; the dialog answers go first, once', async () => {
    const seen: string[] = [];
    const session = await attached((r) => {
      const what = r.cmd === 'debugger' ? `debugger ${String(r.op)}${r.method ? ` ${String(r.method)} ${String((r.params as { type?: string }).type)}` : ''}` : String(r.cmd);
      seen.push(what);
      if (r.cmd === 'resolve') return { id: r.id, ok: true, descriptor: button, matches: 1, repaired: false, via: 'exact', point };
      if (r.cmd === 'guard') return { id: r.id, ok: true, armed: false, focused: false };
      if (r.cmd === 'debugger') return { id: r.id, ok: true, attached: [1], ...(r.op === 'send' ? { result: {} } : {}) };
      return { id: r.id, ok: false, reason: 'unsupported', message: 'not here' };
    });
    session.dialogs.next({ accept: true });
    const result = await session.click('Go');
    expect(result.warnings).toEqual([]);
    expect(seen).toEqual([
      'debugger dialogs',
      'resolve',
      'debugger attach',
      'guard',
      'debugger send Input.dispatchMouseEvent mouseMoved',
      'debugger send Input.dispatchMouseEvent mousePressed',
      'debugger send Input.dispatchMouseEvent mouseReleased',
    ]);
    await session.click('Go');
    expect(seen.filter((s) => s === 'debugger dialogs')).toHaveLength(1);
  });

  it('[ATT-FALLBACK] refused: the step sends one act of plain events, and says so once; nothing was sent twice', async () => {
    const seen: string[] = [];
    const session = await attached((r) => {
      seen.push(`${String(r.cmd)}${r.op ? ` ${String(r.op)}` : ''}${r.action ? ` ${String(r.action)}` : ''}`);
      if (r.cmd === 'resolve') return { id: r.id, ok: true, descriptor: { ...button, tag: 'input' }, matches: 1, repaired: false, via: 'exact', point: { ...point, tag: 'input', editable: true } };
      if (r.cmd === 'debugger' && r.op === 'attach') {
        return { id: r.id, ok: false, reason: 'unsupported', message: "The extension could not attach chrome.debugger to the run's tab: Another debugger is already attached to the tab with id: 1.", detail: { debugger: 'refused', why: 'other-debugger' } };
      }
      if (r.cmd === 'act') return { id: r.id, ok: true };
      return { id: r.id, ok: true, attached: [] };
    });
    const result = await session.type({ label: 'Name' }, 'Ada');
    expect(seen).toEqual(['debugger dialogs', 'resolve', 'debugger attach', 'act type']);
    expect(result.warnings).toEqual([
      { code: 'trusted-input', message: expect.stringMatching(/^type went as plain DOM events, not trusted input: chrome\.debugger was refused: Another debugger is already attached to the tab with id: 1\. The page sees isTrusted false/) },
    ]);
  });
});
