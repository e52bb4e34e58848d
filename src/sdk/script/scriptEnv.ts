// `${NAME}` in a step script: a value the environment gives at run time (a password, a host),
// so a script can be committed without it. The script as written keeps the placeholder, and so
// does everything a run reports of it: step titles, messages, call logs and details.

/** The environment a script's `${NAME}` values are read from. @internal */
export type ScriptEnv = Readonly<Record<string, string | undefined>>;

/** `${NAME}`, or `$${NAME}` for the text `${NAME}` itself. */
const PLACEHOLDER = /\$(\$?)\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** A value the environment gave a step, to hide again in what the run reports. @internal */
export interface UsedVariable {
  name: string;
  value: string;
}

/** What expanding a step's strings found. @internal */
export interface Expanded<T> {
  value: T;
  /** Variables the step used that the environment has. */
  used: UsedVariable[];
  /** Variables the step used that the environment lacks, each with the path of the field. */
  missing: Array<{ name: string; path: PropertyKey[] }>;
}

/**
 * Every string in `value` (deep, keys left alone) with `${NAME}` replaced by the environment's
 * value and `$${NAME}` by the text `${NAME}`. A missing variable stays as written and is listed.
 * @internal
 */
export function expandEnv<T>(value: T, env: ScriptEnv): Expanded<T> {
  const used = new Map<string, string>();
  const missing: Expanded<T>['missing'] = [];
  const walk = (v: unknown, path: PropertyKey[]): unknown => {
    if (typeof v === 'string') {
      return v.replace(PLACEHOLDER, (whole, escaped: string, name: string) => {
        if (escaped) return whole.slice(1);
        const found = env[name];
        if (found === undefined) {
          missing.push({ name, path });
          return whole;
        }
        used.set(name, found);
        return found;
      });
    }
    if (Array.isArray(v)) return v.map((item, i) => walk(item, [...path, i]));
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, walk(item, [...path, k])]));
    return v;
  };
  const expanded = walk(value, []) as T;
  return { value: expanded, used: [...used].map(([name, value]) => ({ name, value })), missing };
}

/**
 * `text` with each used variable's value put back as `${NAME}`: what a run reports never holds a
 * value the environment gave. Values shorter than 4 characters are left (they would hide
 * ordinary words and numbers, and say little of a secret).
 * @internal
 */
export function hideValues(text: string, used: readonly UsedVariable[]): string {
  let out = text;
  for (const { name, value } of [...used].sort((a, b) => b.value.length - a.value.length)) {
    if (value.length >= 4) out = out.split(value).join(`\${${name}}`);
  }
  return out;
}

/** {@link hideValues} over every string of a JSON value. @internal */
export function hideValuesDeep<T>(value: T, used: readonly UsedVariable[]): T {
  if (used.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return hideValues(v, used);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, walk(item)]));
    return v;
  };
  return walk(value) as T;
}
