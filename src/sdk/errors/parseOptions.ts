import { z } from 'zod';
import { AiteError } from './AiteError.js';
import { UsageError } from './UsageError.js';
import { aiteNameOf } from './suggest.js';
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
 * named too, with the one meant, or what to do instead of another tool's (`force`), and the
 * options the call takes; `detail` holds them (`unknown`, `accepted`, and `aiteNames` for another
 * tool's names aite has its own for, `{ timeout: "timeoutMs" }`).
 */
export function parseStepOptions<T>(schema: z.ZodType<T>, options: unknown, command: string): T {
  const parsed = schema.safeParse(options ?? {}, { reportInput: true });
  if (parsed.success) return parsed.data;
  const known = 'shape' in schema && schema.shape && typeof schema.shape === 'object' ? Object.keys(schema.shape) : undefined;
  const issues = issuesFromZod(parsed.error, { file: command, base: [], noun: 'option', ...(known ? { known } : {}) });
  // An unknown option's sentence names it already.
  const said = issues.map((i) => `${i.field && !i.message.startsWith('unknown option') ? `${i.field}: ` : ''}${i.message.replace(/\.$/, '')}`);
  // A sentence that ends in a question ("Did you mean ...?") keeps its own mark.
  const stated = `${command}: ${said.join('; ')}${/[?!]$/.test(said.at(-1) ?? '') ? '' : '.'}`;
  const unknown = parsed.error.issues.flatMap((issue) => (issue.code === 'unrecognized_keys' && issue.path.length === 0 ? issue.keys : []));
  if (unknown.length === 0 || !known) throw new AiteError('unsupported', `${stated} Nothing was sent.`, { command });
  const aiteNames = Object.fromEntries(unknown.flatMap((key) => (aiteNameOf(key) ? [[key, aiteNameOf(key)!]] : [])));
  const takes = known.length > 0 ? `Options of ${command}: ${known.join(', ')}.` : `${command} takes no options.`;
  throw new AiteError('unsupported', `${stated} Nothing was sent. ${takes}`, {
    command,
    detail: { unknown, accepted: known, ...(Object.keys(aiteNames).length > 0 ? { aiteNames } : {}) },
  });
}

/**
 * The options of an SDK call checked by their names before anything is sent: `options` (undefined
 * or null: none) when it is an object of `accepted` keys only, else the same `unsupported`
 * {@link AiteError} as a composed step's (see {@link parseStepOptions}). Their values are the
 * request's schema to check.
 */
export function checkOptionNames<O>(options: O | null | undefined, accepted: readonly string[], call: string): O {
  // Every step checks its options: the schema that words a refusal is built only for one (built
  // and run per call, a zod schema took about 0.2 ms of each verify).
  if (options === undefined || options === null) return {} as O;
  if (typeof options === 'object' && !Array.isArray(options) && Object.keys(options).every((key) => accepted.includes(key))) return options;
  const schema = z.strictObject(Object.fromEntries(accepted.map((key) => [key, z.unknown().optional()])));
  parseStepOptions(schema, options, call);
  return options;
}

/**
 * `send` with the call's options once {@link checkOptionNames} passed them; else a promise
 * rejected with its error, and nothing sent.
 */
export function withOptions<O, T>(call: string, options: O | null | undefined, accepted: readonly string[], send: (options: O) => Promise<T>): Promise<T> {
  let checked: O;
  try {
    checked = checkOptionNames(options, accepted, call);
  } catch (error) {
    return Promise.reject(error);
  }
  return send(checked);
}

/**
 * The names of every option of `O`, checked against its type both ways (a name it lacks, or
 * one too many, fails the type check): the list a call's options are checked by.
 */
export function optionNames<O extends object>() {
  return <const K extends readonly (keyof O & string)[]>(names: K & ([Exclude<keyof O, K[number]>] extends [never] ? unknown : { missing: Exclude<keyof O, K[number]> })): K => names;
}
