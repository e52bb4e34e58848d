import { describe, expect, it } from 'vitest';
import { parseRequest } from '../../../src/sdk/protocol/index.js';
import { Dialogs, type DialogRecord } from '../../../src/sdk/session/pipe/Dialogs.js';

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
