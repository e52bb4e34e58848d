import type { PageCommand } from './commands.js';
import { z } from 'zod';
import { GuardStateSchema, type Request } from './messages.js';
import { flattenFrames, framePath } from './target.js';

// Page commands the runner sends straight to the content script over the debugging pipe (launch
// mode), beside the worker's port: both call the content script's one handler.

/**
 * The key (`Symbol.for`) under which the content script keeps its page-command handler on its
 * isolated world's global. Only that world sees it: neither the page's own scripts nor another
 * extension's can reach an extension's isolated world.
 */
export const CONTENT_HANDLER_KEY = 'aite.content.handle';

/** What the handler answers instead when the document has not finished loading: ask the worker, which waits for the load. */
export const CONTENT_NOT_LOADED = 'aite:not-loaded';

/**
 * The binding (`Runtime.addBinding`, scoped to the worlds Chrome names after the extension) the
 * hit-target guard reports its verdict through (a `resolve` request's `verdict`). The runner
 * believes a call only from the extension's own isolated world of a document it watches: the
 * page's main world has no such function, and a call from any other context is ignored.
 */
export const GUARD_VERDICT_BINDING = 'aiteGuardVerdict';

/** What the guard sends through {@link GUARD_VERDICT_BINDING} (JSON): the step's token and what it saw. */
export const GuardVerdictSchema = z.object({ token: z.string().min(16).max(64), state: GuardStateSchema });
export type GuardVerdict = z.infer<typeof GuardVerdictSchema>;

/** The frame path a page command's element lies behind (its target's, or its descriptor's): where the worker must route it. */
export function pagePathOf(request: Extract<Request, { cmd: PageCommand }>): string[] {
  switch (request.cmd) {
    case 'locate':
    case 'act':
      return framePath(request.descriptor.frame);
    case 'resolve':
    case 'read':
      return flattenFrames(request.target).path;
    case 'verify':
    case 'wait':
      // A `within` that names a frame moves the search into it (flattenFrames).
      return flattenFrames('target' in request ? request.target : undefined, 'within' in request ? request.within : undefined).path;
    case 'outline':
      return [];
    case 'snapshot':
      // Not here: the worker reads the allowed cross-site frames into it (FrameRoute).
      return [];
    case 'scroll':
      // The container named by `target` holds what `until` names: they are in one frame.
      return flattenFrames(request.target ?? request.until).path;
    case 'guard':
      // Every op names the element, so arm, check and disarm reach the frame it lies in.
      return framePath(request.descriptor?.frame);
  }
}

/** The failure of a page command whose page navigated under it (and that is not sent again). */
export function navigatedDuring(cmd: PageCommand): string {
  return cmd === 'act'
    ? 'The page navigated while the action ran; it was not sent again. Check what the page did before repeating it.'
    : `The page navigated during ${cmd}.`;
}
