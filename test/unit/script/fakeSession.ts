import { EventEmitter } from 'node:events';
import { AiteError, type LaunchOptions, type Session, type StepResult } from 'aite';

/** One call a fake session received, with the profile it was routed to. */
export interface Call {
  profile: string;
  method: string;
  args: unknown[];
}

/** How a fake session answers: a method name to a function that may throw or return. */
export type Script = Partial<Record<string, (...args: unknown[]) => unknown>>;

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

/**
 * A stand-in for `launch()`: records every call each profile's session gets, answers passed
 * steps, and lets a test make one method fail or emit events.
 */
export function fakeLauncher(behaviour: (profile: string) => Script = () => ({})) {
  const calls: Call[] = [];
  const launched: LaunchOptions[] = [];
  const sessions = new Map<string, Session>();
  const launch = async (options: LaunchOptions): Promise<Session> => {
    launched.push(options);
    const profile = options.profile ?? 'default';
    const emitter = new EventEmitter();
    const script = behaviour(profile);
    let current: number | null = null;
    const call = (method: string, fallback: (...args: unknown[]) => unknown) => async (...args: unknown[]) => {
      calls.push({ profile, method, args });
      const answer = script[method] ? await script[method]!(...args) : fallback(...args);
      return answer;
    };
    const ok = (): StepResult => ({ ok: true, retries: 0, warnings: [], durationMs: 1 });
    const session = Object.assign(emitter, {
      profile,
      retries: { total: 0, byCommand: {} },
      consoleErrors: [],
      browser: undefined,
      tab: {
        get current() {
          return current;
        },
        navigate: call('navigate', () => {
          current = 1;
          return { ok: true, tab: 1, url: 'x' };
        }),
        switchTo: call('switchTo', () => ({ tab: 2 })),
        close: call('closeTab', () => ({ closed: 1, tab: null })),
        list: call('tabs', () => []),
      },
      locator: {
        wait: call('wait', () => ({})),
        outline: call('outline', () => ({ drawn: 1 })),
        clearOutline: call('clearOutline', () => ({ removed: 1 })),
      },
      verify: Object.fromEntries(
        ['exists', 'text', 'targetText', 'value', 'state', 'count', 'url', 'title', 'numberChange'].map((m) => [m, call(`verify.${m}`, () => ({}))]),
      ),
      click: call('click', ok),
      doubleClick: call('doubleClick', ok),
      hover: call('hover', ok),
      type: call('type', ok),
      fill: call('fill', ok),
      press: call('press', ok),
      select: call('select', ok),
      check: call('check', ok),
      uncheck: call('uncheck', ok),
      drag: call('drag', ok),
      waitForNetworkIdle: call('waitForNetworkIdle', ok),
      screenshot: call('screenshot', () => PNG),
      close: call('close', () => undefined),
    });
    sessions.set(profile, session as unknown as Session);
    return session as unknown as Session;
  };
  return { launch, calls, launched, sessions, PNG };
}

/** An AiteError as a failed composed step throws it: with its outlined screenshot. */
export function stepFailure(reason: ConstructorParameters<typeof AiteError>[0], message: string, detail: Record<string, unknown> = {}, screenshot?: Uint8Array): AiteError {
  const error = new AiteError(reason, message, { detail, callLog: ['click {"text":"Send"}', '  resolve {"target":{"text":"Send"}}'] });
  error.screenshot = screenshot;
  return error;
}
