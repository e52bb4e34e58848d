import { CommandFailure, PAGE_COMMANDS, type AnswerOf, type Failure, type PageCommand, type RequestOf } from '../../sdk/protocol/index.js';
import { act } from './act.js';
import { locate } from './locate.js';
import { outline } from './outline.js';
import { read } from './read.js';
import { resolve } from './resolve.js';
import { verify } from './verify.js';
import { wait } from './wait.js';

export { actStatus, lastActDispatched, type ActDispatch } from './act.js';
export { setOutlineLifetimeForTests } from './outline.js';
export { handles } from './Handles.js';

export type PageRequest = { [C in PageCommand]: RequestOf<C> }[PageCommand];
export type PageAnswer = { [C in PageCommand]: AnswerOf<C> }[PageCommand];
/** A failure answer; the page always says why in `message`. */
export type PageFailureAnswer = Failure & { message: string };

type Handler<C extends PageCommand> = (req: RequestOf<C>) => Promise<AnswerOf<C>>;

const handlers = { resolve, locate, read, verify, wait, act, outline } satisfies { [C in PageCommand]: Handler<C> };

function dispatch(req: PageRequest): Promise<PageAnswer> {
  switch (req.cmd) {
    case 'resolve':
      return handlers.resolve(req);
    case 'locate':
      return handlers.locate(req);
    case 'read':
      return handlers.read(req);
    case 'verify':
      return handlers.verify(req);
    case 'wait':
      return handlers.wait(req);
    case 'act':
      return handlers.act(req);
    case 'outline':
      return handlers.outline(req);
    default: {
      const never: never = req;
      throw new CommandFailure('unsupported', `The page does not handle the command ${JSON.stringify((never as { cmd?: unknown }).cmd)}; only ${PAGE_COMMANDS.join(', ')}.`);
    }
  }
}

/**
 * Runs one page command (already validated by the worker) and answers it: the ok answer of
 * the protocol, or a failure with a reason and a sentence. Never throws: a bug becomes
 * `internal` with its message.
 */
export async function handlePageRequest(req: PageRequest): Promise<PageAnswer | PageFailureAnswer> {
  const id = typeof req?.id === 'number' ? req.id : 0;
  try {
    if (!req || !(PAGE_COMMANDS as readonly string[]).includes(req.cmd)) {
      throw new CommandFailure('unsupported', `The page does not handle the command ${JSON.stringify(req?.cmd)}; only ${PAGE_COMMANDS.join(', ')}.`);
    }
    return await dispatch(req);
  } catch (e) {
    if (e instanceof CommandFailure) return e.toAnswer(id);
    const err = e instanceof Error ? e : new Error(String(e));
    return {
      id,
      ok: false,
      reason: 'internal',
      message: `The page script failed on ${req?.cmd ?? 'a request'}: ${err.message}. This is a bug in aite's content script; please report it with the page.`,
      detail: { error: err.message, ...(err.stack ? { stack: err.stack.slice(0, 2000) } : {}) },
    };
  }
}
