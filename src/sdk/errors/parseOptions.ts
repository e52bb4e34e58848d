import type { z } from 'zod';
import { AiteError } from './AiteError.js';

/** Checks options at the door so a typo is an error that names it, not a silent default. */
export function parseOptions<T>(schema: z.ZodType<T>, options: unknown, what: string): T {
  const parsed = schema.safeParse(options);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new AiteError('unsupported', `${what}: ${issue?.path.join('.') || 'options'}: ${issue?.message}.`);
}
