/**
 * Where in a script or config file something is wrong.
 *
 * @example
 * ```ts
 * import { UsageError, type UsageIssue } from 'aite';
 *
 * const issue: UsageIssue = { file: 'send.aite.json', line: 4, field: 'steps.1.click', message: 'a target needs text, role, label, css or another key' };
 * throw new UsageError('invalid', [issue]);
 * ```
 * @public
 */
export interface UsageIssue {
  /** One sentence: what is wrong and what to do. */
  message: string;
  /** The file, as the user named it. */
  file?: string;
  /** `pre` or `steps`, with the step's 1-based number, when the issue is in a step. */
  step?: { section: 'pre' | 'steps'; number: number; action?: string };
  /** The field, as a dotted path inside the step (or the file when not in a step). */
  field?: string;
  /** 1-based line, when known. */
  line?: number;
  /** 1-based column, when known. */
  column?: number;
}

/**
 * What kind of mistake: a file that is not there, a file that does not parse, a script or config
 * that does not fit its schema, a profile no config declares, no Chrome, or a bad command line.
 *
 * @example
 * ```ts
 * import { UsageError, type UsageErrorCode } from 'aite';
 *
 * const hint: Record<UsageErrorCode, string> = {
 *   'file-not-found': 'check the path',
 *   syntax: 'fix the JSON or YAML',
 *   invalid: 'fix the field named',
 *   'unknown-profile': 'declare the profile in aite.config.json',
 *   'no-chrome': 'install chromium or set AITE_CHROME',
 *   usage: 'see aite --help',
 * };
 * const explain = (error: UsageError) => `${error.message}\n(${hint[error.code]})`;
 * ```
 * @public
 */
export type UsageErrorCode = 'file-not-found' | 'syntax' | 'invalid' | 'unknown-profile' | 'no-chrome' | 'usage';

/**
 * A mistake in how aite was asked to run: a script, the config or the command line. The CLI
 * exits with code 2 for it. The message is one paragraph per issue, naming the file, the step
 * and the field.
 *
 * @example
 * ```ts
 * import { loadScript, UsageError } from 'aite';
 *
 * try {
 *   await loadScript('send.aite.json');
 * } catch (error) {
 *   if (!(error instanceof UsageError)) throw error;
 *   for (const issue of error.issues) console.error(`${issue.file}:${issue.line ?? '?'} ${issue.message}`);
 *   process.exitCode = 2;
 * }
 * ```
 * @public
 */
export class UsageError extends Error {
  /** What kind of mistake: a missing file, a syntax error, an invalid field, ... */
  readonly code: UsageErrorCode;
  /** Every problem found, each with where it is. */
  readonly issues: readonly UsageIssue[];

  constructor(code: UsageErrorCode, issues: UsageIssue[] | string, options: { cause?: unknown } = {}) {
    const list = typeof issues === 'string' ? [{ message: issues }] : issues;
    super(list.map(formatIssue).join('\n\n'), { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.issues = list;
  }
}

/** `send.aite.json:12:7, step 3 (type), field "text": expected a string. Example ...` */
export function formatIssue(issue: UsageIssue): string {
  const where: string[] = [];
  if (issue.file) where.push(`${issue.file}${issue.line ? `:${issue.line}${issue.column ? `:${issue.column}` : ''}` : ''}`);
  if (issue.step) {
    const label = issue.step.section === 'pre' ? `pre step ${issue.step.number}` : `step ${issue.step.number}`;
    where.push(issue.step.action ? `${label} (${issue.step.action})` : label);
  }
  if (issue.field) where.push(`field "${issue.field}"`);
  return where.length > 0 ? `${where.join(', ')}: ${issue.message}` : issue.message;
}
