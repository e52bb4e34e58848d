import { z } from 'zod';

/**
 * One object schema from a union of object schemas: every key any member has, optional, and
 * the discriminator (when there is one) as an enum of its members' values. MCP hosts want a tool's
 * input to be one JSON object schema; the union itself still checks the arguments (its errors
 * name the member's fields), so the two never disagree about what is valid.
 */
export function flattenUnion(union: z.ZodType, discriminator?: string): z.ZodObject {
  const members = (union as unknown as { options: z.ZodObject[] }).options;
  const values: string[] = [];
  const byKey = new Map<string, z.ZodType[]>();
  for (const member of members) {
    for (const [key, field] of Object.entries(member.shape as Record<string, z.ZodType>)) {
      if (key === discriminator) {
        values.push(...(field as z.ZodLiteral<string>).values);
        continue;
      }
      const inner = field instanceof z.ZodOptional ? (field.unwrap() as z.ZodType) : field;
      const seen = byKey.get(key) ?? [];
      if (!seen.some((s) => sameKind(s, inner))) seen.push(inner);
      byKey.set(key, seen);
    }
  }
  const shape: Record<string, z.ZodType> = {};
  if (discriminator) shape[discriminator] = z.enum(values as [string, ...string[]]);
  for (const [key, kinds] of byKey) {
    const one = kinds.length === 1 ? kinds[0]! : z.union(kinds as [z.ZodType, z.ZodType, ...z.ZodType[]]);
    const description = kinds.map((k) => k.description).find(Boolean);
    shape[key] = (description ? one.describe(description) : one).optional();
  }
  // Strict, as every tool input: a key the tool does not know (`uncheck: true`) is refused, not dropped.
  return z.strictObject(shape);
}

function sameKind(a: z.ZodType, b: z.ZodType): boolean {
  return a === b || (a.constructor === b.constructor && !(a instanceof z.ZodObject) && !(a instanceof z.ZodUnion) && !(a instanceof z.ZodLiteral));
}

/** Checks `args` against `schema`; the issues as one sentence an agent can act on. */
export function check<T>(schema: z.ZodType<T>, args: unknown, tool: string): T {
  const parsed = schema.safeParse(args);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
  throw new InputError(`${tool} was not run: ${issues.join('; ')}.`);
}

/** Arguments a tool cannot run with: said back to the agent, nothing was done. */
export class InputError extends Error {
  override name = 'InputError';
}
