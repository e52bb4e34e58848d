import type { Browser, CDPSession, Page, Protocol } from 'puppeteer-core';
import type { PageShortcut, ShortcutOutcome } from '../../bridge/BridgeProtocol.js';
import { AITE_EXTENSION_NAME, AITE_EXTENSION_ORIGIN } from '../../identity/ExtensionIdentity.js';
import {
  CONTENT_HANDLER_KEY,
  CONTENT_NOT_LOADED,
  crashedPage,
  GUARD_VERDICT_BINDING,
  isAllowed,
  isPageCommand,
  oversizedAnswer,
  pagePathOf,
  type PageCommand,
  type Request,
  withTimeout,
} from '../../protocol/index.js';
import type { GuardVerdicts } from './GuardVerdicts.js';
import { sessionOf } from '../../launch/pages.js';
import { everySession, mainFrameIdOf } from './sessions.js';

/** How long a page whose command failed gets to show it is still there (else: it closed). */
const CLOSED_PROBE_MS = 2_000;

/** Runs in the content script's isolated world: its one page-command handler, or "not here". */
const CALL_HANDLER = `function (request) {
  const handle = globalThis[Symbol.for(${JSON.stringify(CONTENT_HANDLER_KEY)})];
  return typeof handle === 'function' ? handle(request) : ${JSON.stringify(CONTENT_NOT_LOADED)};
}`;

type PageRequest = Extract<Request, { cmd: PageCommand }>;

/**
 * Page commands sent straight to the content script of the run's tab over the debugging pipe,
 * into the extension's isolated world of the top document (`Runtime.callFunctionOn`), instead of
 * through the extension's socket, worker and port: one CDP round trip instead of three hops. The
 * content script answers with its one handler, the one the worker's port calls.
 *
 * It keeps the worker's rules, or leaves the command to the worker: only a page command for the
 * top document (a target in a frame is the worker's to route, and so is a ref the page answers
 * lies in one), never `act` (the worker records each act, so a lost one can be told) nor
 * `snapshot` (the worker reads the allowed cross-site frames into it), only while the tab's top frame shows an origin of the
 * allow list and no frame of the tab is loading (the worker waits for the load), and only in the
 * document that the extension's world was seen created in. A command the page never received
 * goes to the worker; one whose document went away under it is the bridge's to send again
 * through the worker (counted, with what is left of its time) when the worker would have sent it
 * again, and to fail `navigation` otherwise, as the worker's answer says. The bridge validates the
 * request and the answer, and holds the deadline, exactly as for the socket.
 */
export class ContentWorld implements PageShortcut {
  readonly #watches = new WeakMap<CDPSession, WorldWatch>();
  readonly #stop: () => void;

  constructor(
    browser: Browser,
    /** The run's tab's page when known without asking anything (undefined: the worker carries it). */
    private readonly pageOf: (tab: number) => Page | undefined,
    private readonly origins: readonly string[],
    /** Where the hit-target guard's verdicts from the extension's worlds go. */
    verdicts: GuardVerdicts,
  ) {
    // From each session's start: a document's world is only ever announced as it is made.
    this.#stop = everySession(browser, (session) => {
      if (!this.#watches.has(session)) this.#watches.set(session, new WorldWatch(session, verdicts));
    });
  }

  run(request: Request): Promise<ShortcutOutcome> | undefined {
    // A snapshot is the worker's: it reads the page's allowed cross-site frames into it.
    if (!isPageCommand(request.cmd) || request.cmd === 'act' || request.cmd === 'snapshot') return undefined;
    const pageRequest = request as PageRequest;
    if (pageRequest.tab === undefined || pagePathOf(pageRequest).length > 0) return undefined;
    const page = this.pageOf(pageRequest.tab);
    if (!page || page.isClosed() || !isAllowed(page.url(), this.origins)) return undefined;
    const session = sessionOf(page.target());
    const watch = session && this.#watches.get(session);
    const context = watch?.world(mainFrameIdOf(page));
    return context === undefined ? undefined : watch!.call(context, pageRequest, page);
  }

  dispose(): void {
    this.#stop();
  }
}

/**
 * What one page session says of its documents: which frames are loading, and the execution
 * context of the extension's isolated world in each frame's document (Chrome destroys a
 * document's contexts as it goes, before the next document's are made). Puppeteer's page has
 * the Runtime and Page domains of this session enabled; this only listens.
 */
class WorldWatch {
  readonly #loading = new Set<string>();
  /**
   * frame id -> the extension's isolated world in its document: its id, and its system-unique id,
   * since context ids start again in each renderer process, and a cross-process navigation's old
   * document can announce its contexts destroyed after the new document's are made.
   */
  readonly #worlds = new Map<string, { id: number; uniqueId: string }>();
  /** Ends the calls in flight: a crashed renderer never answers them. */
  readonly #onCrash = new Set<() => void>();

  constructor(
    private readonly session: CDPSession,
    verdicts: GuardVerdicts,
  ) {
    // Only in the worlds Chrome names after the extension (never the page's main world), and
    // believed only from the extension's own world of a document of this session.
    void session.send('Runtime.addBinding', { name: GUARD_VERDICT_BINDING, executionContextName: AITE_EXTENSION_NAME }).catch(() => undefined);
    session.on('Runtime.bindingCalled', ({ name, payload, executionContextId }: Protocol.Runtime.BindingCalledEvent) => {
      if (name === GUARD_VERDICT_BINDING && [...this.#worlds.values()].some((world) => world.id === executionContextId)) verdicts.deliver(payload);
    });
    session.on('Page.frameStartedLoading', ({ frameId }: Protocol.Page.FrameStartedLoadingEvent) => this.#loading.add(frameId));
    session.on('Page.frameStoppedLoading', ({ frameId }: Protocol.Page.FrameStoppedLoadingEvent) => this.#loading.delete(frameId));
    session.on('Page.frameDetached', ({ frameId }: Protocol.Page.FrameDetachedEvent) => {
      this.#loading.delete(frameId);
      this.#worlds.delete(frameId);
    });
    session.on('Runtime.executionContextCreated', ({ context }: Protocol.Runtime.ExecutionContextCreatedEvent) => {
      const aux = context.auxData as { frameId?: string; type?: string } | undefined;
      if (aux?.frameId && aux.type === 'isolated' && context.origin === AITE_EXTENSION_ORIGIN) {
        this.#worlds.set(aux.frameId, { id: context.id, uniqueId: context.uniqueId });
      }
    });
    session.on('Runtime.executionContextDestroyed', (event: Protocol.Runtime.ExecutionContextDestroyedEvent) => {
      for (const [frame, world] of this.#worlds) {
        const named = event.executionContextUniqueId && world.uniqueId ? world.uniqueId === event.executionContextUniqueId : world.id === event.executionContextId;
        if (named) this.#worlds.delete(frame);
      }
    });
    session.on('Runtime.executionContextsCleared', () => this.#worlds.clear());
    // Chrome keeps the page's contexts listed after its renderer crashed, and drops none of the calls to them.
    session.on('Inspector.targetCrashed', () => {
      this.#worlds.clear();
      for (const end of [...this.#onCrash]) end();
    });
  }

  /** The world to run in now in `frame`'s document, or undefined when the worker must carry the command (a frame of the page is loading). */
  world(frame: string | undefined): number | undefined {
    if (frame === undefined || this.#loading.size > 0) return undefined;
    return this.#worlds.get(frame)?.id;
  }

  async call(context: number, request: PageRequest, page: Page): Promise<ShortcutOutcome> {
    let result: Protocol.Runtime.CallFunctionOnResponse;
    let crashed: (() => void) | undefined;
    try {
      const call = this.session.send('Runtime.callFunctionOn', {
        functionDeclaration: CALL_HANDLER,
        executionContextId: context,
        arguments: [{ value: request }],
        returnByValue: true,
        awaitPromise: true,
      });
      call.catch(() => undefined);
      result = await Promise.race([
        call,
        new Promise<never>((_, reject) => {
          crashed = () => reject(new PageCrashed());
          this.#onCrash.add(crashed);
        }),
      ]);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      // Nothing will run there until the tab loads a page again: not sent again anywhere, the
      // command fails with the crash (what it did before is lost with the page).
      if (error instanceof PageCrashed) {
        const tab = (request as { tab?: number }).tab;
        const gone = crashedPage({ id: tab, url: page.url() }, `${request.cmd} was under way there and got no answer.`);
        return { answer: { id: request.id, ok: false, ...gone } };
      }
      // The document was gone before the call reached it: it never ran. A closed tab is the
      // worker's to report (tab-closed), as it does when its port to the page closes.
      if (/Cannot find context with specified id/i.test(why) || (await this.#closed(page, error))) return { via: 'socket' };
      return { navigated: why };
    } finally {
      if (crashed) this.#onCrash.delete(crashed);
    }
    if (result.exceptionDetails) return { navigated: result.exceptionDetails.exception?.description ?? result.exceptionDetails.text };
    const value: unknown = result.result.value;
    // A ref whose element is in a cross-site frame: the page answered which frame; the worker goes there.
    if (value === CONTENT_NOT_LOADED || isFrameHop(value)) return { via: 'socket' };
    return { answer: oversizedAnswer(JSON.stringify(value), request.id) ?? value };
  }

  /** Whether the call failed because the tab closed (its session answers nothing any more), not because its document went. */
  async #closed(page: Page, error: unknown): Promise<boolean> {
    if (sessionGone(error) || page.isClosed()) return true;
    try {
      await withTimeout(this.session.send('Runtime.evaluate', { expression: '0' }), CLOSED_PROBE_MS, 'the page did not answer');
      return false;
    } catch (probe) {
      return sessionGone(probe) || page.isClosed();
    }
  }
}

function isFrameHop(answer: unknown): boolean {
  const a = answer as { ok?: unknown; detail?: { frameHop?: unknown } } | null;
  return a?.ok === false && typeof a.detail?.frameHop === 'object';
}

class PageCrashed extends Error {
  constructor() {
    super("the page's renderer crashed");
  }
}

/** The page's session is closed (the tab closed, or the pipe). */
function sessionGone(error: unknown): boolean {
  return error instanceof Error && /Target closed|Session closed|detached|Connection closed/i.test(error.message);
}
