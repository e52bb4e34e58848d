import { describe, expect, it } from 'vitest';
import { AiteError } from '../../../src/sdk/index.js';
import { evaluateRequest } from '../../../src/sdk/session/evaluate.js';

describe('evaluateRequest', () => {
  it('[STEP-ARGS] an argument holding a function or a symbol is refused naming it, not sent without it', () => {
    for (const [arg, said] of [
      [{ f: () => 1 }, '"f" is a function'],
      [[1, Symbol('s')], '"1" is a symbol'],
      [() => 1, 'it is a function'],
    ] as const) {
      let caught: unknown;
      try {
        evaluateRequest((a: unknown) => a, arg, undefined);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(AiteError);
      expect((caught as AiteError).reason).toBe('unsupported');
      expect((caught as AiteError).message).toContain(`the argument cannot be sent as JSON (${said}, which JSON cannot carry)`);
    }
  });

  it('[STEP-ARGS] plain data goes as its JSON; a Date as its string, as JSON writes it', () => {
    const at = new Date(0);
    expect(evaluateRequest((a: unknown) => a, { n: 1, at, list: [null, 'x'] }, 100)).toEqual({ cmd: 'evaluate', source: '(a) => a', call: true, arg: JSON.stringify({ n: 1, at, list: [null, 'x'] }), timeoutMs: 100 });
  });
});
