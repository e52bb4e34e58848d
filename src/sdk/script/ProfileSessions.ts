import { AiteError } from '../errors/AiteError.js';
import type { ExtensionEvent } from '../protocol/messages.js';
import type { LaunchOptions } from '../session/options.js';
import type { DialogRecord } from '../session/pipe/Dialogs.js';
import type { Session } from '../session/Session.js';
import type { SessionPool } from '../session/SessionPool.js';
import type { NetworkEntry, PageError, Warning } from '../session/types.js';

/** What the sessions report while steps run. */
export interface SessionSink {
  event(profile: string, event: ExtensionEvent): void;
  warning(profile: string, warning: Warning): void;
  pageError(profile: string, error: PageError): void;
  request(profile: string, entry: NetworkEntry): void;
  dialog(profile: string, dialog: DialogRecord): void;
}

/**
 * One launched Chrome (and bridge) per profile of a script. Steps are routed to a session by
 * their profile; the bridges and the extension never see that key.
 */
export class ProfileSessions {
  readonly #sessions = new Map<string, { session: Session; options: LaunchOptions; detach: () => void }>();
  readonly #launch: (options: LaunchOptions) => Promise<Session>;
  readonly #sink: SessionSink;
  readonly #pool: SessionPool | undefined;
  #started: Promise<void> | undefined;
  #reused = false;
  /** The script was stopped: a session that comes after is closed at once. */
  #abandoned = false;

  /** With a `pool`, sessions come from it (reset) and go back to it instead of closing. */
  constructor(launch: (options: LaunchOptions) => Promise<Session>, sink: SessionSink, pool?: SessionPool) {
    this.#launch = launch;
    this.#sink = sink;
    this.#pool = pool;
  }

  get started(): boolean {
    return this.#started !== undefined;
  }

  /** Whether every profile's Chrome came warm from the pool (reset) instead of being launched. */
  get reused(): boolean {
    return this.#reused;
  }

  /** Launches every profile at once; if one fails, the others are closed and its error thrown. */
  start(profiles: ReadonlyArray<{ name: string; options: LaunchOptions }>): Promise<void> {
    this.#started ??= (async () => {
      const results = await Promise.allSettled(
        profiles.map(async ({ options }) => (this.#pool ? this.#pool.take(options) : { session: await this.#launch(options), reused: false })),
      );
      results.forEach((result, i) => {
        if (result.status === 'fulfilled') this.#adopt(profiles[i]!.name, result.value.session, profiles[i]!.options);
      });
      this.#reused = results.length > 0 && results.every((r) => r.status === 'fulfilled' && r.value.reused);
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
    const entry = this.#sessions.get(profile);
    if (!entry) throw new AiteError('internal', `No session for profile "${profile}".`);
    return entry.session;
  }

  all(): Session[] {
    return [...this.#sessions.values()].map((entry) => entry.session);
  }

  /** Re-sends counted over every session. */
  retries(): number {
    let total = 0;
    for (const { session } of this.#sessions.values()) total += session.retries.total;
    return total;
  }

  /** Re-sends by command, summed over the sessions. */
  retriesByCommand(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const { session } of this.#sessions.values()) {
      for (const [command, n] of Object.entries(session.retries.byCommand)) out[command] = (out[command] ?? 0) + (n ?? 0);
    }
    return out;
  }

  /** Closes every session (hands it back to the pool); answers the errors of those that did not close cleanly. */
  closeAll(): Promise<Error[]> {
    return this.#closeEach(({ session, options }) => (this.#pool ? this.#pool.release(session, options) : session.close()));
  }

  /**
   * Closes every session for good (none goes back to a pool: a request of the stopped step may
   * still wait in it), and any a launch still under way answers later; answers the close errors.
   */
  abandon(): Promise<Error[]> {
    this.#abandoned = true;
    return this.#closeEach(({ session }) => session.close());
  }

  async #closeEach(close: (entry: { session: Session; options: LaunchOptions }) => Promise<void>): Promise<Error[]> {
    const sessions = [...this.#sessions.entries()];
    this.#sessions.clear();
    const results = await Promise.allSettled(
      sessions.map(([, entry]) => {
        entry.detach();
        return close(entry);
      }),
    );
    return results.flatMap((r, i) =>
      r.status === 'rejected' ? [new Error(`closing profile "${sessions[i]![0]}": ${r.reason instanceof Error ? r.reason.message : String(r.reason)}`)] : [],
    );
  }

  #adopt(name: string, session: Session, options: LaunchOptions): void {
    if (this.#abandoned) {
      void session.close().catch(() => undefined);
      return;
    }
    const onEvent = (event: ExtensionEvent): void => this.#sink.event(name, event);
    const onWarning = (warning: Warning): void => this.#sink.warning(name, warning);
    const onDialog = (dialog: DialogRecord): void => this.#sink.dialog(name, dialog);
    const onPageError = (error: PageError): void => this.#sink.pageError(name, error);
    const onRequest = (entry: NetworkEntry): void => this.#sink.request(name, entry);
    session.on('event', onEvent);
    session.on('warning', onWarning);
    session.on('dialog', onDialog);
    session.on('pageError', onPageError);
    session.on('request', onRequest);
    // A pooled session goes on to the next script: this script's sink must stop hearing it.
    const detach = (): void => {
      session.off('event', onEvent);
      session.off('warning', onWarning);
      session.off('dialog', onDialog);
      session.off('pageError', onPageError);
      session.off('request', onRequest);
    };
    this.#sessions.set(name, { session, options, detach });
  }
}
