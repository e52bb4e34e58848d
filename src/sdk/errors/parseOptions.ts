import type { z } from 'zod';
import { UsageError } from './UsageError.js';
import { issuesFromZod } from './zodIssues.js';

/**
 * Checks a function's options at the door, so a typo is an error that names the field (and the
 * field meant), not a silent default: a `UsageError` (`invalid`), like a bad script or config.
 */
export function parseOptions<T>(schema: z.ZodType<T>, options: unknown, what: string): T {
  const parsed = schema.safeParse(options);
  if (parsed.success) return parsed.data;
  const issues = issuesFromZod(parsed.error, { file: what, base: [] });
  throw new UsageError(
    'invalid',
    issues.map((issue) => ({ message: `${what}: ${issue.field ? `${issue.field}: ` : ''}${issue.message}` })),
  );
}
