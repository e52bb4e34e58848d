import type { AiteConfig } from '../config/schema.js';
import { findChrome } from '../launch/findChrome.js';
import type { LoadedScript } from './parseScript.js';
import { actionOf, type ScriptStep, type StepAction } from './schema.js';
import { didYouMean } from '../errors/suggest.js';
import { UsageError, type UsageIssue } from '../errors/UsageError.js';
import { expandEnv, type ScriptEnv, type UsedVariable } from './scriptEnv.js';

/**
 * How a script will run: its profiles and what each launches with, every step's profile and
 * absolute URLs. Everything a user can get wrong before Chrome starts is checked here.
 * @internal
 */
export interface ScriptPlan {
  /** The script the plan is for. */
  loaded: LoadedScript;
  /** Profiles in order of first use. */
  profiles: Array<{ name: string; allow: string[]; userDataDir?: string; chrome?: string }>;
  /** Steps of `pre` then `steps`, with where they run. */
  steps: PlannedStep[];
  /** What relative URLs resolved against. */
  baseUrl?: string;
  /** Default timeout of each step. */
  timeoutMs?: number;
  /** The environment's values the script's `${NAME}`s read: hidden again in all the run reports. */
  used: readonly UsedVariable[];
}

/**
 * One step with its resolved profile and section.
 * @internal
 */
export interface PlannedStep {
  /** `pre` (checks of the state before) or `steps`. */
  section: 'pre' | 'steps';
  /** 1-based within its section. */
  number: number;
  /** The step as written: what its title and the report say. */
  step: ScriptStep;
  /** The step as run: its `${NAME}` values read from the environment. */
  run: ScriptStep;
  /** The profile it runs in. */
  profile: string;
  /** Needs a browser (everything but an `http` check). */
  browser: boolean;
  /** For navigate: the absolute URL. */
  url?: string;
  /** Its line in the script file. */
  line?: number;
}

/**
 * Checks a loaded script against the config: profiles it names exist, relative URLs have a
 * `baseUrl`, an allow list exists, Chrome is there. Throws {@link UsageError} naming the step.
 * @internal
 */
export function planScript(loaded: LoadedScript, config: AiteConfig, options: { checkChrome?: boolean; env?: ScriptEnv } = {}): ScriptPlan {
  const { script, file } = loaded;
  const env = options.env ?? process.env;
  const issues: UsageIssue[] = [];
  const known = Object.keys(config.profiles);
  const unset = (name: string): string =>
    `\${${name}} is not set in the environment. Set it for the run (${name}=... aite run ...), or write $\${${name}} for the text "\${${name}}" itself.`;
  const scriptBase = script.baseUrl !== undefined ? expandEnv(script.baseUrl, env) : undefined;
  const used = new Map((scriptBase?.used ?? []).map((v) => [v.name, v.value]));
  for (const { name } of scriptBase?.missing ?? []) {
    const at = loaded.locate(['baseUrl']);
    issues.push({ file, line: at?.line, column: at?.column, field: 'baseUrl', message: unset(name) });
  }
  // A flag beats the script, as everywhere else; the script beats the config file.
  const baseUrl = config.baseUrlOverride ?? scriptBase?.value ?? config.baseUrl;
  const defaultProfile = script.profile ?? 'default';
  const where = (section: 'pre' | 'steps', index: number, field?: string): Pick<UsageIssue, 'file' | 'line' | 'column' | 'step' | 'field'> => {
    const at = loaded.locate(field ? [section, index, field] : [section, index]);
    return { file, line: at?.line, column: at?.column, field, step: { section, number: index + 1, action: actionOf((section === 'pre' ? script.pre! : script.steps)[index]!) } };
  };

  if (!known.includes(defaultProfile)) {
    const at = loaded.locate(['profile']);
    issues.push({ file, line: at?.line, column: at?.column, field: 'profile', message: unknownProfile(defaultProfile, known, config) });
  }

  // A baseUrl waiting on an unset variable was said once, above.
  const baseUnset = (scriptBase?.missing.length ?? 0) > 0 && config.baseUrlOverride === undefined;
  if (baseUrl !== undefined && !baseUnset && !isAbsoluteUrl(baseUrl)) {
    const at = script.baseUrl !== undefined ? loaded.locate(['baseUrl']) : undefined;
    issues.push({ file: script.baseUrl !== undefined ? file : config.file, line: at?.line, field: 'baseUrl', message: `baseUrl must be an absolute URL such as "http://127.0.0.1:4173/", got ${JSON.stringify(baseUrl)}.` });
  }

  const steps: PlannedStep[] = [];
  for (const section of ['pre', 'steps'] as const) {
    (section === 'pre' ? (script.pre ?? []) : script.steps).forEach((step, index) => {
      const profile = step.profile ?? defaultProfile;
      if (step.profile !== undefined && !known.includes(step.profile)) {
        issues.push({ ...where(section, index, 'profile'), message: unknownProfile(step.profile, known, config) });
      }
      const expanded = expandEnv(step, env);
      for (const v of expanded.used) used.set(v.name, v.value);
      for (const { name, path } of expanded.missing) {
        const at = loaded.locate([section, index, ...path]);
        issues.push({ ...where(section, index, path.join('.')), line: at?.line, column: at?.column, message: unset(name) });
      }
      const run = expanded.value;
      const planned: PlannedStep = {
        section,
        number: index + 1,
        step,
        run,
        profile,
        browser: !('http' in step),
        line: loaded.locate([section, index])?.line,
      };
      const raw = 'navigate' in run ? run.navigate : 'http' in run ? run.http.url : undefined;
      if (raw !== undefined) {
        if (isAbsoluteUrl(raw)) planned.url = new URL(raw).href;
        else if (baseUrl !== undefined && isAbsoluteUrl(baseUrl)) planned.url = new URL(raw, baseUrl).href;
        else if (!baseUnset && expanded.missing.length === 0) {
          issues.push({
            ...where(section, index, 'navigate' in step ? 'navigate' : 'http.url'),
            message: `${JSON.stringify(raw)} is not an absolute URL. Write it in full ("http://127.0.0.1:4173/"), or set "baseUrl" in the script or aite.config.json (or pass --base-url).`,
          });
        }
      }
      steps.push(planned);
    });
  }

  const names = [...new Set(steps.filter((s) => s.browser).map((s) => s.profile))];
  const inferred = [...new Set(steps.filter((s) => s.url && 'navigate' in s.step).map((s) => new URL(s.url!).origin))];
  const profiles = names.map((name) => {
    const profile = config.profiles[name] ?? { allow: [] };
    const listed = [...new Set([...config.allow, ...(script.allow ?? []), ...profile.allow])];
    return { name, allow: listed.length > 0 ? listed : inferred, userDataDir: profile.userDataDir, chrome: profile.chrome ?? config.chrome };
  });
  const allowOf = new Map(profiles.map((p) => [p.name, p]));
  for (const planned of steps) {
    if (!planned.url || !('navigate' in planned.step)) continue;
    const profile = allowOf.get(planned.profile);
    const origin = new URL(planned.url).origin;
    if (!profile || profile.allow.length === 0 || profile.allow.some((a) => originOf(a) === origin)) continue;
    issues.push({
      ...where(planned.section, planned.number - 1, 'navigate'),
      message: `${planned.url} is outside the allow list of profile "${profile.name}" (${profile.allow.join(', ')}): aite would refuse to open it. Add "${origin}" to "allow" in the script or aite.config.json (or pass --allow ${origin}).`,
    });
  }
  for (const profile of profiles) {
    if (profile.allow.length === 0 && issues.length === 0) {
      issues.push({
        file,
        message: `profile "${profile.name}" has no origin to allow and the script navigates nowhere. Add "allow": ["http://127.0.0.1:4173"] to the script or aite.config.json (or pass --allow).`,
      });
    }
  }
  if (issues.length > 0) {
    throw new UsageError(issues.some((i) => i.field === 'profile') ? 'unknown-profile' : 'invalid', issues);
  }

  if (options.checkChrome !== false) {
    for (const chrome of new Set(profiles.map((p) => p.chrome))) {
      try {
        findChrome(chrome);
      } catch (error) {
        throw new UsageError('no-chrome', [{ file, message: `${(error as Error).message} Run \`aite doctor\` to check the setup.` }], { cause: error });
      }
    }
  }
  return { loaded, profiles, steps: pageBeforePre(steps), baseUrl, timeoutMs: script.timeoutMs ?? config.timeoutMs, used: [...used].map(([name, value]) => ({ name, value })) };
}

/** Steps that need no page open in their profile: they open one, arm an answer, or ask the app's API. */
const NO_PAGE_NEEDED = new Set<StepAction>(['navigate', 'dialog', 'http']);

/**
 * A `pre` check of the page (`verify`, `wait`, `evaluate`, ...) needs a page, and with none open
 * it could never hold: when no `pre` step before it opened one in its profile and the steps begin
 * there with a `navigate`, that navigate runs first (reported as the step it is, step 1), so
 * the checks look at the page the script opens. Steps otherwise run as written.
 */
function pageBeforePre(steps: PlannedStep[]): PlannedStep[] {
  const first = steps.find((s) => s.section === 'steps');
  if (!first || !('navigate' in first.step)) return steps;
  const at = steps.findIndex((s) => s.section === 'pre' && s.profile === first.profile && !NO_PAGE_NEEDED.has(actionOf(s.step)));
  if (at < 0 || steps.slice(0, at).some((s) => s.profile === first.profile && 'navigate' in s.step)) return steps;
  return [...steps.slice(0, at), first, ...steps.slice(at).filter((s) => s !== first)];
}

function unknownProfile(name: string, known: string[], config: AiteConfig): string {
  const from = config.file ? `in ${config.file}` : 'without a config file (only "default" exists)';
  return `unknown profile "${name}".${didYouMean(name, known)} Known profiles: ${known.map((k) => `"${k}"`).join(', ')} (${from}). Declare it under "profiles" in aite.config.json, e.g. "profiles": { "${name}": { "userDataDir": "profiles/${name}" } }.`;
}

function originOf(value: string): string | undefined {
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
}

function isAbsoluteUrl(value: string): boolean {
  try {
    return Boolean(new URL(value).protocol);
  } catch {
    return false;
  }
}
