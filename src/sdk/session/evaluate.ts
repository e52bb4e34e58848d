import { AiteError } from '../errors/AiteError.js';
import type { RequestInput } from '../protocol/index.js';

/**
 * The `evaluate` request for an expression, or for a function and its argument: the function
 * goes as its source text (it runs in the page, so it sees nothing of the caller's scope), the
 * argument as JSON text.
 */
export function evaluateRequest(code: string | ((arg: never) => unknown), arg: unknown, timeoutMs: number | undefined): RequestInput<'evaluate'> {
  if (typeof code === 'string') {
    if (arg !== undefined) throw new AiteError('unsupported', 'evaluate: an argument goes with a function, not an expression; pass `(arg) => …` instead.', { command: 'evaluate' });
    if (code.trim() === '') throw new AiteError('unsupported', 'evaluate: the expression is empty.', { command: 'evaluate' });
    return { cmd: 'evaluate', source: code, timeoutMs };
  }
  if (typeof code !== 'function') throw new AiteError('unsupported', `evaluate takes a function or an expression string, not ${typeof code}.`, { command: 'evaluate' });
  let json: string | undefined;
  try {
    // JSON.stringify leaves a function or a symbol out without a word: the page would get less than was passed.
    json = arg === undefined ? undefined : JSON.stringify(arg, (key: string, value: unknown) => {
      if (typeof value === 'function' || typeof value === 'symbol') throw new TypeError(`${key === '' ? 'it' : `"${key}"`} is a ${typeof value}, which JSON cannot carry`);
      return value;
    });
  } catch (error) {
    throw new AiteError('unsupported', `evaluate: the argument cannot be sent as JSON (${error instanceof Error ? error.message : String(error)}); pass plain data.`, {
      command: 'evaluate',
      cause: error,
    });
  }
  return { cmd: 'evaluate', source: code.toString(), call: true, ...(json !== undefined ? { arg: json } : {}), timeoutMs };
}
