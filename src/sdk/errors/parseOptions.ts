import type { z } from 'zod';
import { AiteError } from './AiteError.js';
import { UsageError } from './UsageError.js';
import { issuesFromZod } from './zodIssues.js';

/**
 * Checks a function's options at the door, so a typo is an error that names the field (and the
 * field meant), not a silent default: a `UsageError` (`invalid`), like a bad script or config.
 */
export function parseOptions<T>(schema: z.ZodType<T>, options: unknown, what: string): T {
  // The input goes into the issues, so a wrong value is quoted back ("got 0"), not called missing.
  const parsed = schema.safeParse(options, { reportInput: true });
  if (parsed.success) return parsed.data;
  if (options === undefined) throw new UsageError('invalid', [{ message: `${what} takes an options object; it was called with none.` }]);
  const issues = issuesFromZod(parsed.error, { file: what, base: [] });
  throw new UsageError(
    'invalid',
    issues.map((issue) => ({ message: `${what}: ${issue.field ? `${issue.field}: ` : ''}${issue.message}` })),
  );
}

/**
 * Checks a step's options before it sends anything: an `unsupported` {@link AiteError} that names
 * each wrong field and what it takes (`click: button: expected one of "left", "right", "middle",
 * got "middle-ish"`), as a bad key name or target is. An option the schema does not know is
 * named too, with the one meant, or what to do instead of another tool's (`force`).
 */
export function parseStepOptions<T>(schema: z.ZodType<T>, options: unknown, command: string): T {
  const parsed = schema.safeParse(options ?? {}, { reportInput: true });
  if (parsed.success) return parsed.data;
  const known = 'shape' in schema && schema.shape && typeof schema.shape === 'object' ? Object.keys(schema.shape) : undefined;
  const issues = issuesFromZod(parsed.error, { file: command, base: [], noun: 'option', ...(known ? { known } : {}) });
  // An unknown option's sentence names it already.
  const said = issues.map((i) => `${i.field && !i.message.startsWith('unknown option') ? `${i.field}: ` : ''}${i.message.replace(/\.$/, '')}`);
  throw new AiteError('unsupported', `${command}: ${said.join('; ')}. Nothing was sent.`, { command });
}
