// The CDP events that tell where input took a tab's top frame, with the fields the runner's
// navigation watch (InputNavigation) reads: one copy for the pipe and for attach mode's debugger,
// which relays them over the bridge cut to these fields.
import { redactUrl } from './redactUrl.js';

/** The navigation events the watch reads, with the fields it reads of each. */
export interface NavigationEvents {
  'Page.frameRequestedNavigation': { frameId: string; disposition: string; url: string };
  'Page.frameStartedNavigating': { frameId: string; navigationType: string; url: string };
  'Page.frameNavigated': { frame: { id: string; parentId?: string; url: string; urlFragment?: string } };
  'Page.navigatedWithinDocument': { frameId: string; url: string };
  'Page.frameStoppedLoading': { frameId: string };
  'Page.frameClearedScheduledNavigation': { frameId: string };
  'Page.javascriptDialogClosed': { result: boolean };
}

export type NavigationMethod = keyof NavigationEvents;

/** The methods of {@link NavigationEvents}, as attach mode's debugger forwards them. */
export const NAVIGATION_CDP_METHODS = [
  'Page.frameRequestedNavigation',
  'Page.frameStartedNavigating',
  'Page.frameNavigated',
  'Page.navigatedWithinDocument',
  'Page.frameStoppedLoading',
  'Page.frameClearedScheduledNavigation',
  'Page.javascriptDialogClosed',
] as const satisfies readonly NavigationMethod[];

/** How long a relayed URL may be. */
const URL_MAX = 10_000;

const url = (value: unknown): string => redactUrl(String(value ?? '')).slice(0, URL_MAX);
const id = (value: unknown): string => String(value ?? '').slice(0, 200);

/** A navigation event cut to the fields the watch reads, URLs' userinfo redacted. */
export function cutNavigationEvent<M extends NavigationMethod>(method: M, params: Record<string, unknown>): NavigationEvents[M] {
  const cut: { [K in NavigationMethod]: () => NavigationEvents[K] } = {
    'Page.frameRequestedNavigation': () => ({ frameId: id(params.frameId), disposition: id(params.disposition), url: url(params.url) }),
    'Page.frameStartedNavigating': () => ({ frameId: id(params.frameId), navigationType: id(params.navigationType), url: url(params.url) }),
    'Page.frameNavigated': () => {
      const frame = (params.frame ?? {}) as Record<string, unknown>;
      return {
        frame: {
          id: id(frame.id),
          ...(typeof frame.parentId === 'string' ? { parentId: id(frame.parentId) } : {}),
          url: url(frame.url),
          ...(typeof frame.urlFragment === 'string' ? { urlFragment: frame.urlFragment.slice(0, URL_MAX) } : {}),
        },
      };
    },
    'Page.navigatedWithinDocument': () => ({ frameId: id(params.frameId), url: url(params.url) }),
    'Page.frameStoppedLoading': () => ({ frameId: id(params.frameId) }),
    'Page.frameClearedScheduledNavigation': () => ({ frameId: id(params.frameId) }),
    'Page.javascriptDialogClosed': () => ({ result: params.result === true }),
  };
  return cut[method]() as NavigationEvents[M];
}
