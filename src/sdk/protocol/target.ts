import { z } from 'zod';

/**
 * What a script names: an element by its visible text, ARIA role and name, form label,
 * placeholder, test id, CSS or XPath; optionally inside a region and picked by index.
 * Several keys narrow each other (all must hold).
 *
 * @example
 * ```ts
 * declare const session: Session;
 * const send: Target = { role: 'button', name: 'Send', within: 'Transfer' };
 * await session.click(send);
 * await session.type({ label: 'Amount' }, '4');
 * await session.click({ css: 'li.item', nth: 2 });
 * ```
 * @public
 */
export interface Target {
  /**
   * Visible text. Without `exact`: whole text first, case and spacing ignored, else a substring.
   * A regular expression (or its JSON form, {@link TextPattern}) is tested against the text,
   * spacing folded, as Playwright's `getByText(/…/)` does.
   */
  text?: string | RegExp | TextPattern;
  /** With `text` or `name`: only the whole string, case-sensitive. Patterns ignore it. */
  exact?: boolean;
  /** ARIA role, explicit or implicit (`button`, `link`, `textbox`, `checkbox`, ...). */
  role?: string;
  /** Accessible name (with `role`, or alone); words or a pattern, as `text`. */
  name?: string | RegExp | TextPattern;
  /**
   * With role `heading`, `listitem`, `row` or `treeitem`: its level (a heading's tag, `<h1>`–`<h6>`,
   * else `aria-level`), as Playwright's `getByRole('heading', { level })`.
   */
  level?: number;
  /**
   * With `role`: checked (`true`), not checked (`false`) or `'mixed'` (an indeterminate box), as a
   * native checkbox or radio or `aria-checked` says; an element that cannot be checked is not checked.
   */
  checked?: boolean | 'mixed';
  /** With `role`: a toggle button pressed (`aria-pressed="true"`) or not; anything else is not pressed. */
  pressed?: boolean;
  /** With `role`: expanded or collapsed (`aria-expanded`); an element with neither matches neither. */
  expanded?: boolean;
  /** With `role`: the selected one of its set (`aria-selected="true"`, a selected `<option>`) or not. */
  selected?: boolean;
  /**
   * With `role`: disabled (natively, by a disabled `<fieldset>`, or by `aria-disabled="true"` on it
   * or an ancestor) or enabled.
   */
  disabled?: boolean;
  /** The label of a form control (`<label>`, `aria-label`, `aria-labelledby`); words or a pattern. */
  label?: string | RegExp | TextPattern;
  /** The `placeholder` attribute of an input; words or a pattern. */
  placeholder?: string | RegExp | TextPattern;
  /** The `data-testid` attribute. */
  testid?: string;
  /** A CSS selector (searches open shadow roots). */
  css?: string;
  /** An XPath expression. */
  xpath?: string;
  /**
   * A region: a dialog, section, form or landmark by its name or heading; else the list item,
   * table or grid row, or card whose text says it (`{ role: 'checkbox', within: 'Buy milk' }`);
   * or another target. Two rows that say it are ambiguous, never a guess.
   */
  within?: string | Target;
  /** Index among the matches, from 0; absent: the target must be unique. */
  nth?: number;
  /**
   * The iframe that holds the element: its `name`, else its `id`, else its `title`, else a CSS
   * selector (the first of these that names any iframe decides; one that names several is
   * `ambiguous`, and the error gives a key for each); a list for nested frames, outermost first
   * (`['checkout', 'card']`). Same-origin and cross-site (out-of-process) frames alike; a
   * cross-site frame's origin must be in the allow list.
   */
  frame?: string | string[];
  /**
   * A ref from the last `session.snapshot()` (`e12`): that very element, in whichever frame or
   * shadow root it is, until the page removes it or the document changes. Not combined with other keys.
   */
  ref?: string;
}

/**
 * A regular expression as JSON writes it: what a `RegExp` in a target becomes on the wire, and
 * how a step script or an agent writes one (`{ "name": { "regex": "^Sign (in|up)$", "flags": "i" } }`).
 * Flags `g` and `y` are dropped (they make a test depend on the one before).
 *
 * @example
 * ```ts
 * declare const session: Session;
 * const signIn: TextPattern = { regex: '^sign (in|up)$', flags: 'i' };
 * await session.click({ role: 'button', name: signIn });            // as a step script writes it
 * await session.click({ role: 'button', name: /^sign (in|up)$/i }); // the same, as a RegExp
 * ```
 * @public
 */
export interface TextPattern {
  /** The pattern's source, as `new RegExp(regex)` takes it. */
  regex: string;
  /** Its flags: `i`, `m`, `s`, `u`, `v`, `d`. */
  flags?: string;
}

/** The target keys that take words or a pattern. @internal */
export const TEXT_KEYS = ['text', 'name', 'label', 'placeholder'] as const;

/** A pattern's flags, without the ones that carry state from one test to the next. @internal */
export function patternFlags(flags: string | undefined): string {
  return (flags ?? '').replace(/[gy]/g, '');
}

/** The `RegExp` a pattern stands for, in any of its forms. @internal */
export function toRegExp(p: RegExp | TextPattern): RegExp {
  return p instanceof RegExp ? new RegExp(p.source, patternFlags(p.flags)) : new RegExp(p.regex, patternFlags(p.flags));
}

/** A wanted text or pattern as messages show it: `"Send"`, `/^Send$/i`. @internal */
export function shownText(want: string | RegExp | TextPattern): string {
  if (typeof want === 'string') return JSON.stringify(want);
  const re = toRegExp(want);
  return `/${re.source}/${re.flags}`;
}

/**
 * A target as it goes on the wire and into the lock file: its `RegExp`s as {@link TextPattern}s,
 * its region's too. @internal
 */
export function wireTarget(target: Target): Target {
  let out: Target | undefined;
  for (const key of TEXT_KEYS) {
    const v = target[key];
    if (!(v instanceof RegExp)) continue;
    const flags = patternFlags(v.flags);
    (out ??= { ...target })[key] = { regex: v.source, ...(flags ? { flags } : {}) };
  }
  if (target.within !== undefined && typeof target.within !== 'string') {
    const w = wireTarget(target.within);
    if (w !== target.within) (out ??= { ...target }).within = w;
  }
  return out ?? target;
}

const TextPatternSchema = z
  .strictObject({
    regex: z.string().min(1).max(2000),
    flags: z
      .string()
      .regex(/^[gimsuvyd]*$/, 'takes the flags i, m, s, u, v and d')
      .optional(),
  })
  // The page compiles it as toRegExp does: a source or a set of flags (`ii`, `uv`) it cannot
  // read is refused here, before anything is sent.
  .refine((p) => compiles(p), { message: 'is not a regular expression JavaScript can read (new RegExp(regex, flags) throws)', path: ['regex'] });

function compiles(p: TextPattern): boolean {
  try {
    toRegExp(p);
    return true;
  } catch {
    return false;
  }
}

/** A `frame` key: one iframe, or the path of nested ones, outermost first. @internal */
export const FrameSchema = z.union([z.string().min(1), z.array(z.string().min(1)).min(1).max(8)]);

/** A `frame` key as a path of iframes, outermost first (empty: the top document). @internal */
export function framePath(frame: string | readonly string[] | undefined): string[] {
  return frame === undefined ? [] : typeof frame === 'string' ? [frame] : [...frame];
}

/**
 * A target's whole frame path, and the target with the frames taken out of it: its own `frame`,
 * then the frame its `within` names (a region's frame is looked for inside the target's frame),
 * and so on down. A `within` that names a frame moves the search into that frame, so looking
 * for the rest of the target in the document at the end of the path, inside the region, finds
 * what the nested form names. `within` is the command's own (verify's), looked at before the
 * target's. One path lets the extension route the whole command to an out-of-process frame
 * (where no region's frame could be entered from the page above). @internal
 */
export function flattenFrames(target: Target | undefined, within?: string | Target): { path: string[]; target: Target | undefined; within: string | Target | undefined } {
  const path = framePath(target?.frame);
  const bare = (w: string | Target | undefined): string | Target | undefined => {
    if (w === undefined || typeof w === 'string') return w;
    const inner = flattenFrames(w, undefined);
    path.push(...inner.path);
    return inner.target;
  };
  const outer = bare(within);
  let inner: Target | undefined;
  if (target) {
    const { frame: _frame, within: own, ...rest } = target;
    const w = bare(own);
    inner = w === undefined ? rest : { ...rest, within: w };
  }
  return { path, target: inner, within: outer };
}

/** A frame path as a `frame` key: one iframe's name alone, a longer path as a list, none: undefined. @internal */
export function frameKey(path: readonly string[]): string | string[] | undefined {
  return path.length === 0 ? undefined : path.length === 1 ? path[0] : [...path];
}

/** The `frame` key of the document a target's element lies in (its frame, then its region's). @internal */
export function targetFrame(target: Target): string | string[] | undefined {
  return frameKey(flattenFrames(target).path);
}

/** The role filters that name a state the page changes (which element holds it varies: not `level`). @internal */
export const STATE_KEYS = ['checked', 'pressed', 'expanded', 'selected', 'disabled'] as const;

/**
 * The keys that filter a `role` target by what the element is or shows, as Playwright's
 * `getByRole` options do; only a target with `role` takes them. @internal
 */
export const ROLE_FILTER_KEYS = ['level', ...STATE_KEYS] as const;

/** A role target's filters in words, as messages and step descriptions show them: `level 1`, `checked`, `not pressed`, `checked "mixed"`. @internal */
export function roleFilterWords(t: Target): string[] {
  const words = t.level !== undefined ? [`level ${t.level}`] : [];
  for (const key of STATE_KEYS) {
    const v = t[key];
    if (v !== undefined) words.push(v === 'mixed' ? `${key} "mixed"` : v ? key : `not ${key}`);
  }
  return words;
}

/** Whether a target (or its region) picks its element by a state the page changes. @internal */
export function namesByState(target: Target): boolean {
  return STATE_KEYS.some((k) => target[k] !== undefined) || (typeof target.within === 'object' && namesByState(target.within));
}

/**
 * The roles a filter applies to, as Playwright's `getByRole` takes them (a filter on another role
 * is refused; `expanded` and `disabled` apply to every role). The page reads `aria-level` and an
 * option's or tree item's `aria-checked` on these roles only. @internal
 */
export const ROLE_FILTER_ROLES = {
  level: ['heading', 'listitem', 'row', 'treeitem'],
  checked: ['checkbox', 'menuitemcheckbox', 'option', 'radio', 'switch', 'menuitemradio', 'treeitem'],
  pressed: ['button'],
  selected: ['gridcell', 'option', 'row', 'tab', 'rowheader', 'columnheader', 'treeitem'],
} satisfies Partial<Record<(typeof ROLE_FILTER_KEYS)[number], readonly string[]>>;

/** The roles `key` applies to; undefined for a filter every role takes. */
function rolesOf(key: (typeof ROLE_FILTER_KEYS)[number]): readonly string[] | undefined {
  return (ROLE_FILTER_ROLES as Partial<Record<string, readonly string[]>>)[key];
}

/** A role each filter is often written with, for the example a refusal gives. */
const EXAMPLE_ROLE: Record<(typeof ROLE_FILTER_KEYS)[number], string> = { level: 'heading', checked: 'checkbox', pressed: 'button', expanded: 'button', selected: 'tab', disabled: 'button' };

const LOCATING_KEYS = ['text', 'role', 'name', 'label', 'placeholder', 'testid', 'css', 'xpath', 'ref'] as const;

const TargetObjectSchema = z
  .strictObject({
    text: z.union([z.string().min(1), TextPatternSchema]).optional(),
    exact: z.boolean().optional(),
    role: z.string().min(1).optional(),
    name: z.union([z.string(), TextPatternSchema]).optional(),
    level: z.number().int().min(1).optional(),
    checked: z.union([z.boolean(), z.literal('mixed')]).optional(),
    pressed: z.boolean().optional(),
    expanded: z.boolean().optional(),
    selected: z.boolean().optional(),
    disabled: z.boolean().optional(),
    label: z.union([z.string().min(1), TextPatternSchema]).optional(),
    placeholder: z.union([z.string().min(1), TextPatternSchema]).optional(),
    testid: z.string().min(1).optional(),
    css: z.string().min(1).optional(),
    xpath: z.string().min(1).optional(),
    get within(): z.ZodOptional<z.ZodUnion<readonly [z.ZodString, z.ZodType<Target>]>> {
      return z.union([z.string().min(1), TargetSchema]).optional();
    },
    nth: z.number().int().nonnegative().optional(),
    frame: FrameSchema.optional(),
    ref: z
      .string()
      .regex(/^e[1-9]\d{0,8}$/, 'a ref is what a snapshot gave out: `e` and a number, such as e12')
      .optional(),
  })
  .refine((t) => LOCATING_KEYS.some((k) => t[k] !== undefined), {
    message: `a target needs at least one of: ${LOCATING_KEYS.join(', ')}`,
  })
  .refine((t) => t.ref === undefined || Object.keys(t).length === 1, {
    message: 'a `ref` target names its element alone: `{ ref: "e12" }`, no other keys',
  })
  .superRefine((t, ctx) => {
    for (const key of ROLE_FILTER_KEYS) {
      if (t[key] === undefined) continue;
      if (t.role === undefined) {
        const example = `{ role: '${EXAMPLE_ROLE[key]}', ${key}: ${typeof t[key] === 'string' ? `'${t[key]}'` : String(t[key])} }`;
        ctx.addIssue({ code: 'custom', path: [key], message: `"${key}" filters the elements of a role, as Playwright's getByRole options do: add the role (${example})` });
      } else {
        const roles = rolesOf(key);
        if (roles && !roles.includes(t.role.toLowerCase())) {
          ctx.addIssue({ code: 'custom', path: [key], message: `"${key}" applies to the roles ${roles.map((r) => JSON.stringify(r)).join(', ')} (as in Playwright's getByRole), not ${JSON.stringify(t.role)}` });
        }
      }
    }
  });

/** The wire form of a {@link Target}. @internal */
export const TargetSchema: z.ZodType<Target> = TargetObjectSchema as z.ZodType<Target>;

/**
 * The target a request names with its own `within` (a check's region): the region becomes part
 * of the target when the target has none. Failures name it so, and the lock file keys it so.
 */
export function withinTarget(target: Target, within: string | Target | undefined): Target {
  return within === undefined || target.within !== undefined ? target : { ...target, within };
}
