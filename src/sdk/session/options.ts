import { z } from 'zod';
import { BROWSER_PERMISSIONS, PROFILE_NAME_MAX } from '../protocol/index.js';
import type { DialogPolicy } from './pipe/Dialogs.js';
import { MODIFIERS } from './pipe/keys.js';

/**
 * What {@link launch} and {@link attach} both take: the run's origins, the profile's name, how
 * long commands and the extension's connection may take, and the lock file.
 *
 * @example
 * ```ts
 * import { attach, launch, type SessionOptions } from 'aite';
 *
 * const shared: SessionOptions = { allow: ['http://127.0.0.1:4173'], profile: 'ana', timeoutMs: 10_000 };
 * const launched = await launch({ ...shared, headless: true });
 * await launched.close();
 * const attached = await attach({ ...shared, extensionDir: 'aite-extension' });
 * await attached.close();
 * ```
 * @public
 */
export interface SessionOptions {
  /** Origins the extension may touch (its host permissions), e.g. `["http://127.0.0.1:4173"]`. Required. */
  allow: string[];
  /** Profile name carried in hello (at most 200 characters); one bridge per profile. Default `default`. */
  profile?: string;
  /** Default `timeoutMs` of each command. Default 5000. */
  timeoutMs?: number;
  /**
   * How long to wait for the extension to connect. Default 20 000 after launching Chrome, 60 000
   * when attaching (the worker's backoff reaches 8 s, and a person may be loading the extension).
   * A launched Chrome must also answer on its pipe within it (at most 30 000), else it is stopped.
   */
  connectTimeoutMs?: number;
  /** Path of the lock file; absent: nothing remembered. */
  lockFile?: string;
  /** Write repairs into the lock file (never silently otherwise). */
  updateLock?: boolean;
}

/**
 * Options of {@link launch}.
 *
 * @example
 * ```ts
 * import { launch, type LaunchOptions } from 'aite';
 *
 * const options: LaunchOptions = {
 *   allow: ['http://127.0.0.1:4173'],
 *   profile: 'ana',
 *   userDataDir: 'profiles/ana', // kept between runs: cookies, logins
 *   lockFile: 'aite.lock.json',
 *   timeoutMs: 10_000,
 * };
 * const session = await launch(options);
 * await session.close();
 * ```
 * @public
 */
export interface LaunchOptions extends SessionOptions {
  /** Chrome executable; else `AITE_CHROME`, then the usual install paths. */
  chrome?: string;
  /** Chrome user data dir; default a fresh temp dir, removed by `close()`. */
  userDataDir?: string;
  /** Default true. */
  headless?: boolean;
  /** Extra Chrome flags. */
  args?: string[];
  /** Keepalive timing of the bridge (defaults: ping every 15 s, 4410 after 30 s of silence). */
  keepAlive?: { pingIntervalMs?: number; pongTimeoutMs?: number };
  /** A native dialog (alert, confirm, prompt, beforeunload) nobody armed with `session.dialogs.next()`: `dismiss` (default) or `accept`. */
  dialogs?: DialogPolicy;
  /**
   * Browser permissions granted to the allowed origins for the whole run, as Playwright's
   * `grantPermissions`: `clipboard-read` lets a page (and `evaluate`) read what a copy button
   * copied; a launched Chrome otherwise denies it.
   */
  permissions?: BrowserPermission[];
}

/**
 * A browser permission {@link LaunchOptions.permissions} can grant.
 *
 * @example
 * ```ts
 * import { launch, type BrowserPermission } from 'aite';
 *
 * const permissions: BrowserPermission[] = ['clipboard-read', 'clipboard-write'];
 * const session = await launch({ allow: ['http://127.0.0.1:4173'], permissions });
 * await session.close();
 * ```
 * @public
 */
export type BrowserPermission = (typeof BROWSER_PERMISSIONS)[number];

/**
 * Options of {@link attach}.
 *
 * @example
 * ```ts
 * import { attach, type AttachOptions } from 'aite';
 *
 * const options: AttachOptions = { extensionDir: 'aite-extension', allow: ['http://127.0.0.1:4173'], profile: 'mine', connectTimeoutMs: 120_000 };
 * const session = await attach(options);
 * await session.close();
 * ```
 * @public
 */
export interface AttachOptions extends SessionOptions {
  /**
   * The folder of the aite extension as installed in the user's Chrome (bridge.json is written
   * there): the folder {@link stageExtension} (or `aite extension --out`) wrote.
   */
  extensionDir: string;
  /** Bridge port; default a free one. */
  port?: number;
  /**
   * Whether the extension attaches `chrome.debugger` to the run's own tabs (only those) for
   * trusted input, pictures and dialogs; Chrome shows its debugging bar on those tabs while the
   * run holds them. Default true. `false`, or a debugger Chrome refuses, means plain DOM events
   * and no pictures, each step saying so in its warnings.
   */
  debugger?: boolean;
  /** A native dialog nobody armed with `session.dialogs.next()` (with the debugger): `dismiss` (default) or `accept`. */
  dialogs?: DialogPolicy;
}

const positiveMs = z.number().int().positive();

const sessionShape = {
  allow: z.array(z.string()).min(1, '`allow` must list at least one origin'),
  profile: z.string().min(1).max(PROFILE_NAME_MAX).optional(),
  timeoutMs: positiveMs.max(600_000).optional(),
  connectTimeoutMs: positiveMs.optional(),
  lockFile: z.string().min(1).optional(),
  updateLock: z.boolean().optional(),
};

// Each schema is tied to its interface both ways (test/unit/types/options.test.ts): a field
// documented but not checked, or checked but not documented, fails the type check.
export const LaunchOptionsSchema = z.strictObject({
  ...sessionShape,
  chrome: z.string().min(1).optional(),
  userDataDir: z.string().min(1).optional(),
  headless: z.boolean().optional(),
  args: z.array(z.string()).optional(),
  keepAlive: z.strictObject({ pingIntervalMs: positiveMs.optional(), pongTimeoutMs: positiveMs.optional() }).optional(),
  dialogs: z.enum(['dismiss', 'accept']).optional(),
  permissions: z.array(z.enum(BROWSER_PERMISSIONS)).optional(),
}) satisfies z.ZodType<LaunchOptions, LaunchOptions>;

export const AttachOptionsSchema = z.strictObject({
  ...sessionShape,
  extensionDir: z.string().min(1),
  port: z.number().int().min(0).max(65535).optional(),
  debugger: z.boolean().optional(),
  dialogs: z.enum(['dismiss', 'accept']).optional(),
}) satisfies z.ZodType<AttachOptions, AttachOptions>;

/** A point of an element, in CSS pixels from the top-left corner of its padding box. */
const Position = z.strictObject({ x: z.number(), y: z.number() });

/**
 * The longest a click may hold its button down (`delay`): a long press is a second or two, and
 * the hit-target guard, armed through the hold, disarms itself after 30 s unasked.
 */
export const CLICK_DELAY_MAX_MS = 10_000;

const button = z.enum(['left', 'right', 'middle']).optional().describe('Default left.');
const modifiers = z.array(z.enum(MODIFIERS)).optional().describe('Keys held during the input.');
const position = Position.optional().describe("Where on the element, from its top-left corner, in CSS pixels; default its middle.");

/**
 * How a click is made beyond a plain left click, as Playwright names it: the one check of
 * {@link Session.click}'s options (`ClickOptions`), of a step script's click step and of the MCP
 * click tool.
 */
export const CLICK_HOW = {
  button,
  modifiers,
  clickCount: z.number().int().min(1).max(3).optional().describe('2 for a double click.'),
  position,
  delay: z
    .number()
    .int()
    .nonnegative()
    .max(CLICK_DELAY_MAX_MS)
    .optional()
    .describe(`Milliseconds to hold the button down between press and release (a long press), at most ${CLICK_DELAY_MAX_MS}; counted in the step's time.`),
};

/** How a double click is made: {@link Session.doubleClick}'s options and the doubleClick step's. */
export const DOUBLE_CLICK_HOW = { button, modifiers, position };

/** Where the pointer rests and what is held meanwhile: {@link Session.hover}'s options and the hover step's. */
export const HOVER_HOW = { modifiers, position };

/** Where a drag presses and lets go, as Playwright's `dragTo` names them: {@link Session.drag}'s options and a step script's drag step. */
export const DRAG_HOW = {
  sourcePosition: Position.optional().describe("Where to press, from the dragged element's top-left corner, in CSS pixels; default its middle."),
  targetPosition: Position.optional().describe("Where to let go, from the target's top-left corner, in CSS pixels; default its middle."),
};

const timeoutMs = positiveMs.max(600_000).optional();
const plain = z.strictObject({ timeoutMs });

/**
 * The options of each composed step of a {@link Session}, by its name: the one check a call's
 * options pass before anything is sent (see parseStepOptions). Strict: an option aite does not
 * take is refused, naming it, never ignored.
 */
export const STEP_OPTIONS = {
  click: z.strictObject({ timeoutMs, ...CLICK_HOW }),
  doubleClick: z.strictObject({ timeoutMs, ...DOUBLE_CLICK_HOW }),
  hover: z.strictObject({ timeoutMs, ...HOVER_HOW }),
  drag: z.strictObject({ timeoutMs, ...DRAG_HOW }),
  type: plain,
  fill: plain,
  press: plain,
  check: plain,
  uncheck: plain,
  select: plain,
  upload: plain,
  download: z.strictObject({ timeoutMs, saveAs: z.string().min(1).optional() }),
  waitForNetworkIdle: z.strictObject({ timeoutMs, idleMs: z.number().int().nonnegative().max(60_000).optional() }),
};

/** A composed step of a {@link Session}, by the name its options are checked under. */
export type StepName = keyof typeof STEP_OPTIONS;
/** A composed step's options once checked. */
export type StepHow<N extends StepName> = z.output<(typeof STEP_OPTIONS)[N]>;
