import type { z } from 'zod';
import type { DataPath, SourceText } from './SourceText.js';
import { didYouMean, foreignOption } from './suggest.js';
import type { UsageIssue } from './UsageError.js';

/** Every field name a script or config knows, for "did you mean" on an unknown one. */
export const KNOWN_FIELDS = [
  // target
  'text', 'exact', 'role', 'name', 'level', 'checked', 'pressed', 'expanded', 'selected', 'disabled', 'label', 'placeholder', 'testid', 'css', 'xpath', 'within', 'nth', 'frame',
  // step options and arguments
  'profile', 'timeoutMs', 'target', 'option', 'to', 'kind', 'value', 'negate', 'state', 'from', 'by', 'contains', 'idleMs',
  'urlContains', 'titleContains', 'new', 'url', 'method', 'headers', 'body', 'status', 'json', 'path',
  // script and config
  '$schema', 'description', 'allow', 'baseUrl', 'pre', 'steps', 'profiles', 'userDataDir', 'chrome', 'lockFile', 'report',
  'headless', 'webServer', 'command', 'cwd', 'reuseExisting', 'dir', 'junit',
];

/** Where the issues are: the file, the step they belong to, and the path of that step in the data. */
export interface IssueContext {
  file: string;
  source?: SourceText;
  /** Path of the checked value inside the file's data. */
  base: DataPath;
  step?: UsageIssue['step'];
  /** A correct example, appended once to the first issue. */
  example?: string;
  /** The names an unknown one is compared with for "did you mean"; default every field a script or config knows. */
  known?: readonly string[];
  /** What an unknown key is called: `field` (a file's) by default, `option` (a call's). */
  noun?: string;
}

/** Turns zod's issues into sentences that name the field and say what was expected and found. */
export function issuesFromZod(error: z.ZodError, context: IssueContext): UsageIssue[] {
  const issues = flatten(error.issues as unknown as RawIssue[], []).map(({ issue, path }) => toIssue(issue, path, context));
  const seen = new Set<string>();
  const unique = issues.filter((i) => {
    const key = `${i.field}|${i.message}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
  if (context.example && unique[0]) unique[0].message += ` Example: ${context.example}`;
  return unique;
}

interface RawIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  input?: unknown;
  expected?: string;
  keys?: string[];
  values?: unknown[];
  options?: unknown[];
  errors?: RawIssue[][];
  note?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  origin?: string;
  inclusive?: boolean;
}

/** zod's own words for a union no member fits: a union that says more (what it takes) is said as it is. */
const UNION_SAYS_NOTHING = 'Invalid input';

/** A union's issues are those of the branch that fits the input's type best. */
function flatten(issues: RawIssue[], prefix: PropertyKey[]): Array<{ issue: RawIssue; path: PropertyKey[] }> {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors && issue.errors.length > 0 && !issue.note && issue.message === UNION_SAYS_NOTHING) {
      const input = issue.input;
      const branch = issue.errors.find((branchIssues) => branchIssues.every((b) => !(b.code === 'invalid_type' && b.path.length === 0)));
      if (branch) return flatten(branch, path);
      const expected = issue.errors.map((b) => b[0]?.expected).filter(Boolean);
      return [{ issue: { ...issue, code: 'invalid_type', expected: expected.join(' or '), input }, path }];
    }
    return [{ issue, path }];
  });
}

function toIssue(issue: RawIssue, path: PropertyKey[], context: IssueContext): UsageIssue {
  const field = fieldName(path);
  const fullPath = [...context.base, ...path];
  let message: string;
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) {
        message = `this field is required (${article(issue.expected ?? 'value')}).`;
      } else if (issue.input instanceof RegExp) {
        // Only the keys that hold words take a pattern (Target's text, name, label, placeholder).
        message = `expected ${article(issue.expected ?? 'value')}, got the regular expression ${String(issue.input)}: only a target's text, name, label and placeholder take a pattern; this field takes ${article(issue.expected ?? 'value')}.`;
      } else {
        const expected = (issue.expected ?? 'value')
          .split(' or ')
          .map((e) => (e === 'object' && /target|within|click|hover|check|drag|to|type|fill|select/.test(String(path.at(-1))) ? 'a target object such as { "text": "Send" }' : article(e)))
          .join(' or ');
        message = `expected ${expected}, got ${describeValue(issue.input)}.`;
      }
      break;
    case 'unrecognized_keys': {
      const keys = issue.keys ?? [];
      const inside = path.at(-1);
      // The step's own option written into its target: the field is right, its place is not.
      const hints =
        keys.includes('timeoutMs') && typeof inside === 'string'
          ? ` "timeoutMs" belongs to the step, beside "${inside}": { "${inside}": …, "timeoutMs": 1500 }.`
          : keys.map((k) => foreignOption(k) ?? didYouMean(k, context.known ?? KNOWN_FIELDS)).join('');
      message = `unknown ${context.noun ?? 'field'}${keys.length > 1 ? 's' : ''} ${keys.map((k) => `"${k}"`).join(', ')}.${hints}`;
      return located(
        { message, field: fieldName([...path, keys[0] ?? '']) },
        [...fullPath, keys[0] ?? ''],
        context,
        true,
      );
    }
    case 'invalid_union':
      message = issue.options
        ? `must be one of ${issue.options.map((o) => JSON.stringify(o)).join(', ')}, got ${describeValue(valueAt(issue.input, path.at(-1)))}.${typeof valueAt(issue.input, path.at(-1)) === 'string' ? didYouMean(String(valueAt(issue.input, path.at(-1))), issue.options.map(String)) : ''}`
        : `${issue.message}.`;
      break;
    case 'invalid_value':
      message = `must be ${issue.values && issue.values.length > 1 ? `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}` : JSON.stringify(issue.values?.[0])}, got ${describeValue(issue.input)}.${typeof issue.input === 'string' ? didYouMean(issue.input, (issue.values ?? []).map(String)) : ''}`;
      break;
    case 'too_small':
      message =
        issue.origin === 'string'
          ? 'must not be empty.'
          : issue.origin === 'array'
            ? `${issue.message.replace(/^Too small: /, '')}.`
            : `must be ${issue.inclusive === false ? 'more than' : 'at least'} ${String(issue.minimum)}, got ${describeValue(issue.input)}.`;
      break;
    case 'too_big':
      message = `must be ${issue.inclusive === false ? 'less than' : 'at most'} ${String(issue.maximum)}, got ${describeValue(issue.input)}.`;
      break;
    default:
      message = `${issue.message.replace(/^Invalid input: /, '')}.`;
  }
  message = message.replace(/\.\.$/, '.');
  return located({ message, field }, fullPath, context, false);
}

function located(partial: { message: string; field: string | undefined }, path: DataPath, context: IssueContext, key: boolean): UsageIssue {
  const at = context.source?.locate(path, { key });
  return {
    message: partial.message,
    file: context.file,
    step: context.step,
    field: partial.field || undefined,
    line: at?.line,
    column: at?.column,
  };
}

function valueAt(input: unknown, key: PropertyKey | undefined): unknown {
  return input && typeof input === 'object' && key !== undefined ? (input as Record<PropertyKey, unknown>)[key] : input;
}

/** `type.label`, `verify.within[0]` */
export function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, segment) => (typeof segment === 'number' ? `${name}[${segment}]` : name ? `${name}.${String(segment)}` : String(segment)), '');
}

function article(type: string): string {
  if (type === 'array') return 'a list';
  if (type === 'int') return 'a whole number';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value)}`;
    case 'number':
      return `the number ${value}`;
    case 'boolean':
      return String(value);
    case 'object':
      return 'an object';
    case 'undefined':
      return 'nothing';
    default:
      return typeof value;
  }
}
