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

/** How an agent names an element, said where a target was missing or malformed. */
const TARGET_FORMS = 'name the element as a visible text ("Send"), or {"role":"button","name":"Send"}, {"label":"Email"}, {"css":"#total"}, or {"ref":"e12"} from the latest snapshot';
const TARGET_KEYS = new Set(['target', 'from', 'to', 'within']);

/**
 * Checks `args` against `schema`; the issues as one sentence an agent can act on. Every tool
 * call's arguments are checked here (the server's tools/call handler), so every argument error
 * reads the same way: `<tool> was not run: <where>: <what to fix>`.
 */
export function check<T>(schema: z.ZodType<T>, args: unknown, tool: string): T {
  const parsed = schema.safeParse(args);
  if (parsed.success) return parsed.data;
  const known = schema instanceof z.ZodObject ? Object.keys(schema.shape as object) : [];
  const lines = [...new Set(parsed.error.issues.flatMap((issue) => explain(issue, args, [], known)))];
  throw new InputError(`${tool} was not run: ${lines.join('; ')}.`);
}

type Issue = z.core.$ZodIssue;

/**
 * One issue in words. A union's "Invalid input" says nothing: when the value is of no member's
 * type it is said missing or of the wrong type (with the forms a target takes); otherwise the
 * member it looked like (the one that failed deeper than its type) says what is wrong.
 */
function explain(issue: Issue, root: unknown, base: PropertyKey[], known: readonly string[]): string[] {
  const path = [...base, ...issue.path];
  const where = path.length ? `${path.map(String).join('.')}: ` : '';
  const last = path.at(-1);
  const hint = typeof last === 'string' && TARGET_KEYS.has(last) ? `; ${TARGET_FORMS}` : '';
  const value = path.reduce<unknown>((v, key) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined), root);
  // A union that says what it takes (a tab match's forms) is said as it is.
  if (issue.code === 'invalid_union' && issue.message !== 'Invalid input') return [`${where}${issue.message}`];
  if (issue.code === 'invalid_union') {
    const typeOnly = (list: readonly Issue[]): boolean => list.every((i) => i.path.length === 0 && (i.code === 'invalid_type' || (i.code === 'invalid_union' && i.errors.every(typeOnly))));
    const deeper = issue.errors.find((list) => !typeOnly(list));
    if (deeper) return deeper.flatMap((i) => explain(i, root, path, known));
  }
  if ((issue.code === 'invalid_union' || issue.code === 'invalid_type') && value === undefined) return [`${where}missing${hint}`];
  if (issue.code === 'invalid_union') return [`${where}${JSON.stringify(value)} is not what it takes${hint}`];
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => JSON.stringify(k)).join(', ');
    const takes = path.length === 0 && known.length ? ` (it takes ${known.join(', ')})` : hint;
    return [`${where}${issue.keys.length === 1 ? 'unknown argument' : 'unknown arguments'} ${keys}${takes}`];
  }
  return [`${where}${issue.message}`];
}

/** Arguments a tool cannot run with: said back to the agent, nothing was done. */
export class InputError extends Error {
  override name = 'InputError';
}
