import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { STEP_ACTIONS, STEP_EXAMPLES, STEP_SCHEMAS, ScriptShellSchema, type Script, type ScriptStep, type StepAction } from './schema.js';
import { SourceText, type DataPath, type Position } from '../errors/SourceText.js';
import { didYouMean } from '../errors/suggest.js';
import { UsageError, type UsageIssue } from '../errors/UsageError.js';
import { describeValue, issuesFromZod } from '../errors/zodIssues.js';

/**
 * A script read from a file (or text), checked, and able to say where each of its values is.
 *
 * @example
 * ```ts
 * import { loadScript, type LoadedScript } from 'aite';
 *
 * const loaded: LoadedScript = await loadScript('send.aite.json');
 * const at = loaded.locate(['steps', 1, 'click']);
 * console.log(`${loaded.file}:${at?.line}: ${loaded.script.steps.length} steps`);
 * ```
 * @public
 */
export interface LoadedScript {
  /** The file as the user named it (relative paths stay relative: errors show what was typed). */
  file: string;
  /** Absolute path of the file. */
  path: string;
  /** The script, parsed and checked. */
  script: Script;
  /** Line and column of a value, by its path in the script (`['steps', 2, 'profile']`). */
  locate(path: ReadonlyArray<PropertyKey>): Position | undefined;
}

const COMMON_KEYS = new Set(['name', 'profile', 'timeoutMs']);
const MAX_ISSUES = 10;

/**
 * Reads and checks a JSON or YAML step script. Throws {@link UsageError} naming the file, the
 * step and the field of every problem found (up to ten).
 *
 * @example
 * ```ts
 * import { loadScript } from 'aite';
 *
 * const loaded = await loadScript('scripts/send.aite.yaml'); // JSON or YAML; throws UsageError with the line
 * console.log(loaded.script.steps.length);
 * ```
 * @public
 */
export async function loadScript(file: string, options: { cwd?: string } = {}): Promise<LoadedScript> {
  const path = resolve(options.cwd ?? process.cwd(), file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message =
      code === 'ENOENT'
        ? `no such file (looked in ${path}). Check the path, or run from the folder the script is in.`
        : code === 'EISDIR'
          ? 'this is a folder; name a .json or .yaml script inside it.'
          : `cannot read it: ${(error as Error).message}.`;
    throw new UsageError('file-not-found', [{ file, message }], { cause: error });
  }
  return { ...parseScript(text, file), path };
}

/**
 * Checks the text of a step script (`file` names it in errors and picks JSON or YAML by its
 * extension). Throws {@link UsageError} with every problem found.
 *
 * @example
 * ```ts
 * import { parseScript } from 'aite';
 *
 * const loaded = parseScript(`
 * name: send
 * steps:
 *   - navigate: /
 *   - click: Send
 *   - verify: { kind: text, value: 4 MALLBUCKS }
 * `, 'send.aite.yaml');
 * console.log(loaded.script.steps.length); // 3
 * ```
 * @public
 */
export function parseScript(text: string, file = 'script.json'): LoadedScript {
  const source = SourceText.parse(text, file);
  const data = source.data;
  const locate = (path: DataPath): Position | undefined => source.locate(path);
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new UsageError('invalid', [
      {
        file,
        line: 1,
        message: `a script is an object with a "steps" list, got ${describeValue(data)}. Example: { "steps": [ { "navigate": "http://127.0.0.1:4173/" } ] }`,
      },
    ]);
  }
  const issues: UsageIssue[] = [];
  const shell = ScriptShellSchema.safeParse(data, { reportInput: true });
  if (!shell.success) issues.push(...issuesFromZod(shell.error, { file, source, base: [] }));
  const raw = data as { pre?: unknown; steps?: unknown };
  const sections: Array<'pre' | 'steps'> = ['pre', 'steps'];
  const checked: Record<'pre' | 'steps', ScriptStep[]> = { pre: [], steps: [] };
  for (const section of sections) {
    const list = raw[section];
    if (!Array.isArray(list)) continue;
    list.forEach((step: unknown, index) => {
      const result = checkStep(step, { file, source, section, index });
      if ('issues' in result) issues.push(...result.issues);
      else checked[section].push(result.step);
    });
  }
  if (issues.length > 0) {
    const shown = issues.slice(0, MAX_ISSUES);
    if (issues.length > MAX_ISSUES) shown.push({ file, message: `and ${issues.length - MAX_ISSUES} more problem(s).` });
    throw new UsageError('invalid', shown);
  }
  const script = { ...(shell.data as Script), steps: checked.steps };
  if (raw.pre !== undefined) script.pre = checked.pre;
  else delete script.pre;
  return { file, path: resolve(file), script, locate };
}

interface StepContext {
  file: string;
  source: SourceText;
  section: 'pre' | 'steps';
  index: number;
}

/** Picks the step's kind by its action key, then checks it against that kind's schema. */
function checkStep(raw: unknown, ctx: StepContext): { step: ScriptStep } | { issues: UsageIssue[] } {
  const base = [ctx.section, ctx.index];
  const at = ctx.source.locate(base);
  const where = { file: ctx.file, step: { section: ctx.section, number: ctx.index + 1 }, line: at?.line, column: at?.column };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return {
      issues: [{ ...where, message: `a step is an object with one action, got ${describeValue(raw)}. Example: ${STEP_EXAMPLES.click}` }],
    };
  }
  const keys = Object.keys(raw);
  const actions = keys.filter((k): k is StepAction => (STEP_ACTIONS as string[]).includes(k));
  if (actions.length === 0) {
    const unknown = keys.filter((k) => !COMMON_KEYS.has(k));
    const first = unknown[0];
    const keyAt = first ? ctx.source.locate([...base, first], { key: true }) : undefined;
    const message = first
      ? `unknown step "${first}".${didYouMean(first, STEP_ACTIONS)} A step has exactly one action: ${STEP_ACTIONS.join(', ')}.`
      : `this step has no action. A step has exactly one of: ${STEP_ACTIONS.join(', ')}. Example: ${STEP_EXAMPLES.click}`;
    return { issues: [{ ...where, line: keyAt?.line ?? where.line, column: keyAt?.column ?? where.column, message }] };
  }
  if (actions.length > 1) {
    return {
      issues: [
        {
          ...where,
          message: `a step does one thing, but this one has ${actions.map((a) => `"${a}"`).join(' and ')}: split it into ${actions.length} steps.`,
        },
      ],
    };
  }
  const action = actions[0]!;
  const parsed = STEP_SCHEMAS[action].safeParse(raw, { reportInput: true });
  if (parsed.success) return { step: parsed.data as ScriptStep };
  return {
    issues: issuesFromZod(parsed.error, {
      file: ctx.file,
      source: ctx.source,
      base,
      step: { ...where.step, action },
      example: STEP_EXAMPLES[action],
    }),
  };
}
