/**
 * Appends lines to an error's message, and to the message part of its stack (reporters print
 * one or the other), so a test runner shows them with the failure. Does nothing for a value
 * that is not an object, and nothing twice for the same text.
 *
 * @example
 * ```ts
 * import { annotateError } from 'aite';
 *
 * const error = new Error('click failed');
 * annotateError(error, 'aite: screenshot /tmp/aite-results/sends.png');
 * // error.message === 'click failed\naite: screenshot /tmp/aite-results/sends.png'
 * ```
 * @public
 */
export function annotateError(error: unknown, text: string): void {
  if (!text || error === null || typeof error !== 'object') return;
  const target = error as { message?: unknown; stack?: unknown };
  if (typeof target.message !== 'string' || target.message.includes(text)) return;
  // Read the stack before touching the message: V8 formats it lazily, from the message.
  const stack = typeof target.stack === 'string' ? target.stack : undefined;
  const before = target.message;
  const after = `${before}\n${text}`;
  try {
    target.message = after;
    if (stack !== undefined) {
      const at = before ? stack.indexOf(before) : -1;
      target.stack = at >= 0 ? stack.slice(0, at) + after + stack.slice(at + before.length) : `${stack}\n${text}`;
    }
  } catch {
    // A frozen error keeps its message; the failure is still reported.
  }
}
