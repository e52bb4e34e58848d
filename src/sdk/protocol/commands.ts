import type { Command } from './messages.js';
import { DEFAULT_TIMEOUT_MS, NAVIGATE_TIMEOUT_MS } from './timeouts.js';

/** What both ends need to know of one command. */
interface CommandFacts {
  /** `page`: the worker hands it to the content script of the run's tab; `worker`: the worker answers it. */
  runs: 'page' | 'worker';
  /**
   * The `timeoutMs` the runner gives a request that names none: the run's default (`command`),
   * at least {@link NAVIGATE_TIMEOUT_MS} (`navigation`), or none: the command answers at once.
   */
  timeout: 'command' | 'navigation' | 'none';
  /** Only looks at the page or the tabs, so the bridge may send it again after a reconnect. */
  idempotent: boolean;
  /** The extension sends it again to the new page when the page navigates under it. */
  resendOnNavigation: boolean;
}

/** Every command's facts; a new command adds its row here (the type checks that none is missing). */
export const COMMAND_FACTS = {
  resolve: { runs: 'page', timeout: 'command', idempotent: true, resendOnNavigation: true },
  locate: { runs: 'page', timeout: 'command', idempotent: true, resendOnNavigation: false },
  read: { runs: 'page', timeout: 'command', idempotent: true, resendOnNavigation: false },
  verify: { runs: 'page', timeout: 'command', idempotent: true, resendOnNavigation: true },
  wait: { runs: 'page', timeout: 'command', idempotent: true, resendOnNavigation: false },
  act: { runs: 'page', timeout: 'command', idempotent: false, resendOnNavigation: false },
  outline: { runs: 'page', timeout: 'none', idempotent: false, resendOnNavigation: false },
  tabs: { runs: 'worker', timeout: 'none', idempotent: true, resendOnNavigation: false },
  navigate: { runs: 'worker', timeout: 'navigation', idempotent: false, resendOnNavigation: false },
  switchTab: { runs: 'worker', timeout: 'command', idempotent: false, resendOnNavigation: false },
  closeTab: { runs: 'worker', timeout: 'none', idempotent: false, resendOnNavigation: false },
  actStatus: { runs: 'worker', timeout: 'command', idempotent: true, resendOnNavigation: false },
  // Real pages (issue 16)
  snapshot: { runs: 'page', timeout: 'command', idempotent: true, resendOnNavigation: false },
  history: { runs: 'worker', timeout: 'navigation', idempotent: false, resendOnNavigation: false },
  evaluate: { runs: 'worker', timeout: 'command', idempotent: false, resendOnNavigation: false },
  scroll: { runs: 'page', timeout: 'command', idempotent: false, resendOnNavigation: false },
  guard: { runs: 'page', timeout: 'none', idempotent: false, resendOnNavigation: false },
  // Attach mode's real input (issue 16)
  debugger: { runs: 'worker', timeout: 'command', idempotent: false, resendOnNavigation: false },
} as const satisfies Record<Command, CommandFacts>;

type Facts = typeof COMMAND_FACTS;

/** The commands the worker hands to the page. */
export type PageCommand = { [C in Command]: Facts[C]['runs'] extends 'page' ? C : never }[Command];

const commands = Object.keys(COMMAND_FACTS) as Command[];

/** The commands the worker hands to the page, in table order. */
export const PAGE_COMMANDS = commands.filter((cmd) => COMMAND_FACTS[cmd].runs === 'page') as PageCommand[];

export function isPageCommand(cmd: Command): cmd is PageCommand {
  return COMMAND_FACTS[cmd].runs === 'page';
}

/** Commands that only look at the page or the tabs, so may be sent again after a reconnect. */
export const IDEMPOTENT_COMMANDS: ReadonlySet<Command> = new Set(commands.filter((cmd) => COMMAND_FACTS[cmd].idempotent));

/** Commands the extension itself re-sends to a new page after a navigation. */
export const NAVIGATION_RESEND_COMMANDS: ReadonlySet<Command> = new Set(commands.filter((cmd) => COMMAND_FACTS[cmd].resendOnNavigation));

/**
 * The `timeoutMs` a request of `cmd` gets when it names none, given the run's default for
 * commands; undefined when the command takes none.
 */
export function defaultTimeoutOf(cmd: Command, commandDefaultMs: number = DEFAULT_TIMEOUT_MS): number | undefined {
  const kind = COMMAND_FACTS[cmd].timeout;
  if (kind === 'none') return undefined;
  return kind === 'navigation' ? Math.max(NAVIGATE_TIMEOUT_MS, commandDefaultMs) : commandDefaultMs;
}
