import { AiteError } from '../errors/AiteError.js';
import type { ExtensionEvent } from '../protocol/messages.js';
import type { LaunchOptions } from '../session/options.js';
import type { DialogRecord } from '../session/pipe/Dialogs.js';
import type { Session } from '../session/Session.js';
import type { Warning } from '../session/types.js';

/** What the sessions report while steps run. */
export interface SessionSink {
  event(profile: string, event: ExtensionEvent): void;
  warning(profile: string, warning: Warning): void;
  dialog(profile: string, dialog: DialogRecord): void;
}

/**
 * One launched Chrome (and bridge) per profile of a script. Steps are routed to a session by
 * their profile; the bridges and the extension never see that key.
 */
export class ProfileSessions {
  readonly #sessions = new Map<string, Session>();
  readonly #launch: (options: LaunchOptions) => Promise<Session>;
  readonly #sink: SessionSink;
  #started: Promise<void> | undefined;

  constructor(launch: (options: LaunchOptions) => Promise<Session>, sink: SessionSink) {
    this.#launch = launch;
    this.#sink = sink;
  }

  get started(): boolean {
    return this.#started !== undefined;
  }

  /** Launches every profile at once; if one fails, the others are closed and its error thrown. */
  start(profiles: ReadonlyArray<{ name: string; options: LaunchOptions }>): Promise<void> {
    this.#started ??= (async () => {
      const results = await Promise.allSettled(profiles.map(({ options }) => this.#launch(options)));
      results.forEach((result, i) => {
        if (result.status === 'fulfilled') this.#adopt(profiles[i]!.name, result.value);
      });
      const failed = results.findIndex((r) => r.status === 'rejected');
      if (failed >= 0) {
        const cause = (results[failed] as PromiseRejectedResult).reason as unknown;
        await this.closeAll();
        const name = profiles[failed]!.name;
        const text = cause instanceof Error ? cause.message : String(cause);
        throw new AiteError(cause instanceof AiteError ? cause.reason : 'internal', `Could not start Chrome for profile "${name}": ${text}`, {
          cause,
          detail: { profile: name },
        });
      }
    })();
    return this.#started;
  }

  get(profile: string): Session {
    const session = this.#sessions.get(profile);
    if (!session) throw new AiteError('internal', `No session for profile "${profile}".`);
    return session;
  }

  all(): Session[] {
    return [...this.#sessions.values()];
  }

  /** Re-sends counted over every session. */
  retries(): number {
    let total = 0;
    for (const session of this.#sessions.values()) total += session.retries.total;
    return total;
  }

  /** Closes every session; answers the errors of those that did not close cleanly. */
  async closeAll(): Promise<Error[]> {
    const sessions = [...this.#sessions.entries()];
    this.#sessions.clear();
    const results = await Promise.allSettled(sessions.map(([, s]) => s.close()));
    return results.flatMap((r, i) =>
      r.status === 'rejected' ? [new Error(`closing profile "${sessions[i]![0]}": ${r.reason instanceof Error ? r.reason.message : String(r.reason)}`)] : [],
    );
  }

  #adopt(name: string, session: Session): void {
    this.#sessions.set(name, session);
    session.on('event', (event) => this.#sink.event(name, event));
    session.on('warning', (warning) => this.#sink.warning(name, warning));
    session.on('dialog', (dialog) => this.#sink.dialog(name, dialog));
  }
}
