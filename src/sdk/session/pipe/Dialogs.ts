import type { Browser, CDPSession, Page, Protocol } from 'puppeteer-core';
import { AiteError } from '../../errors/AiteError.js';
import { checkOptionNames, optionNames } from '../../errors/parseOptions.js';
import { sessionOf } from '../../launch/pages.js';
import { everySession, isFrameSession, parentSessionOf, targetUrlOf } from './sessions.js';

/**
 * What to do with a native dialog nobody armed an answer for.
 *
 * @example
 * ```ts
 * import { launch, type DialogPolicy } from 'aite';
 *
 * const dialogs: DialogPolicy = 'accept';
 * const session = await launch({ allow: ['http://127.0.0.1:4173'], dialogs });
 * ```
 * @public
 */
export type DialogPolicy = 'dismiss' | 'accept';

/**
 * The kinds of native dialog a page can open.
 *
 * @example
 * ```ts
 * import type { DialogType, Session } from 'aite';
 *
 * declare const session: Session;
 * const kinds: DialogType[] = session.dialogs.seen.map((d) => d.type);
 * console.log(kinds.includes('beforeunload') ? 'the page asked before leaving' : 'no leave prompt');
 * ```
 * @public
 */
export type DialogType = 'alert' | 'confirm' | 'prompt' | 'beforeunload';

/**
 * One native dialog the run answered.
 *
 * @example
 * ```ts
 * import type { DialogRecord, Session } from 'aite';
 *
 * declare const session: Session;
 * const confirms: DialogRecord[] = session.dialogs.seen.filter((d) => d.type === 'confirm');
 * for (const d of confirms) console.log(`${d.message}: ${d.accepted ? 'OK' : 'Cancel'}`);
 * ```
 * @public
 */
export interface DialogRecord {
  /** Which kind of dialog it was. */
  type: DialogType;
  /** The text the page showed. */
  message: string;
  /** A prompt's default value. */
  defaultPrompt?: string;
  /** OK (true) or Cancel (false). */
  accepted: boolean;
  /** What was typed into an accepted prompt. */
  promptText?: string;
  /** The page that opened it. */
  url: string;
  /** The extension's id of its tab (a frame's dialog: the tab of the frame's page), when the run knows that tab. */
  tab?: number;
  /** `armed` when `dialogs.next()` chose the answer, `policy` when the launch policy did. */
  by: 'armed' | 'policy';
}

/**
 * How to answer the next dialog.
 *
 * @example
 * ```ts
 * import type { DialogAnswer, Session } from 'aite';
 *
 * declare const session: Session;
 * const name: DialogAnswer = { accept: true, promptText: 'Ana' };
 * session.dialogs.next(name); // the next prompt gets "Ana" and OK
 * await session.click({ text: 'Rename' });
 * ```
 * @public
 */
export interface DialogAnswer {
  /** OK (true) or Cancel (false). */
  accept: boolean;
  /** Typed into a prompt before OK. */
  promptText?: string;
}

/** The fields of an answer, by name: another (Playwright's `promptValue`) is refused. */
const DIALOG_ANSWER = optionNames<DialogAnswer>()(['accept', 'promptText']);

/**
 * The run's native dialogs (alert, confirm, prompt, beforeunload). Every page target of the
 * launched Chrome is watched from the moment it appears, so no dialog ever waits for a person:
 * each is answered at once, by the answer `next()` armed, else by the launch policy, and listed
 * in `seen`. In attach mode the extension answers them the same way in the run's own tabs,
 * through `chrome.debugger`; with `attach({ debugger: false })` `next()` throws `unsupported`.
 *
 * @example
 * ```ts
 * import type { Session } from 'aite';
 *
 * declare const session: Session;
 * session.dialogs.next({ accept: true, promptText: 'Zephyr' });
 * await session.click('Rename');
 * console.log(session.dialogs.seen.at(-1)); // { type: 'prompt', message: 'New name?', accepted: true, promptText: 'Zephyr', ... }
 * ```
 * @public
 */
export class Dialogs {
  /** Every dialog answered so far, oldest first. */
  readonly seen: DialogRecord[] = [];
  readonly #armed: Array<DialogAnswer & { id: number }> = [];
  #armedIds = 0;
  #changes = 0;
  readonly #policy: DialogPolicy;
  readonly #watched = new WeakSet<CDPSession>();
  readonly #open = new Map<CDPSession, { type: DialogType; message: string }>();
  /** The answers of dialogs being answered now, by type, url and message. */
  readonly #answering = new Map<string, { accept: boolean; promptText?: string }>();
  readonly #hooks: DialogHooks;

  /** @internal */
  constructor(browser: Browser | undefined, policy: DialogPolicy, hooks: DialogHooks) {
    this.#policy = policy;
    this.#hooks = hooks;
    if (!browser) return;
    everySession(browser, (session) => this.#watch(session));
  }

  /** Arms the answer of the next dialog that opens, in any tab of the run; each call arms one more. */
  next(answer: DialogAnswer): void {
    checkOptionNames(answer, DIALOG_ANSWER, 'dialogs.next');
    if (!this.#hooks.pipe) {
      throw new AiteError('unsupported', 'Answering native dialogs needs the debugging pipe or attach mode\u2019s chrome.debugger; with attach({ debugger: false }) they are left to the person at the browser.', { command: 'dialog' });
    }
    if (typeof answer?.accept !== 'boolean') throw new AiteError('unsupported', 'dialogs.next() needs { accept: true | false } (and promptText for a prompt).', { command: 'dialog' });
    this.#armed.push({ id: ++this.#armedIds, accept: answer.accept, ...(answer.promptText !== undefined ? { promptText: answer.promptText } : {}) });
    this.#changes += 1;
  }

  /**
   * Takes back the armed answers no dialog has used (those of `ids`, else all), and answers them,
   * oldest first: a caller that armed answers for one action (aite mcp's tool call) ends them with
   * it, so they cannot answer a later dialog nobody meant them for. @internal
   */
  takeBack(ids?: readonly number[]): DialogAnswer[] {
    const unused: DialogAnswer[] = [];
    for (let i = this.#armed.length - 1; i >= 0; i--) {
      const { id, ...answer } = this.#armed[i]!;
      if (ids && !ids.includes(id)) continue;
      this.#armed.splice(i, 1);
      unused.unshift(answer);
    }
    if (unused.length > 0) this.#changes += 1;
    return unused;
  }

  /**
   * The answers not yet used, with their ids, and a count that changes whenever they do: attach
   * mode hands them to the extension, which answers the dialogs itself. @internal
   */
  get armedAnswers(): { changes: number; armed: Array<DialogAnswer & { id: number }> } {
    return { changes: this.#changes, armed: [...this.#armed] };
  }

  /** The policy for a dialog nobody armed. @internal */
  get policy(): DialogPolicy {
    return this.#policy;
  }

  /** A dialog the extension answered (attach mode): listed as one answered here is. @internal */
  answeredElsewhere(event: { dialog: DialogType; message: string; url: string; defaultPrompt?: string; accepted: boolean; promptText?: string; armed?: number; tab: number }): void {
    const index = event.armed === undefined ? -1 : this.#armed.findIndex((a) => a.id === event.armed);
    if (index >= 0) {
      this.#armed.splice(index, 1);
      this.#changes += 1;
    }
    this.#list({
      type: event.dialog,
      message: event.message,
      ...(event.dialog === 'prompt' ? { defaultPrompt: event.defaultPrompt ?? '' } : {}),
      accepted: event.accepted,
      ...(event.promptText !== undefined ? { promptText: event.promptText } : {}),
      url: event.url,
      tab: event.tab,
      by: event.armed !== undefined ? 'armed' : 'policy',
    });
  }

  /** The armed answers not yet used. */
  get armed(): number {
    return this.#armed.length;
  }

  /** Forgets the armed answers and what was seen: a reset between tests. @internal */
  clear(): void {
    this.#armed.length = 0;
    this.#changes += 1;
    this.seen.length = 0;
  }

  /** The dialog open now in `page`, if one is (it is being answered). @internal */
  openIn(page: Page): { type: DialogType; message: string } | undefined {
    const session = sessionOf(page.target());
    return session ? this.#open.get(session) : undefined;
  }

  /**
   * Why a command that timed out may have: the dialogs answered since `since` (an index into
   * `seen`), in a sentence, or undefined when there were none. A dismissed beforeunload comes
   * with `advice`, the words of the sentence that say how to arm an answer in the SDK: a caller
   * with another way to arm one (aite mcp's dialog tool) puts its own words in their place.
   * @internal
   */
  explainSince(since: number): { sentence: string; advice?: string } | undefined {
    const during = this.seen.slice(since);
    if (during.length === 0) return undefined;
    const stayed = during.find((d) => d.type === 'beforeunload' && !d.accepted);
    if (stayed) {
      const advice = 'call session.dialogs.next({ accept: true })';
      return { sentence: `The page's beforeunload dialog was dismissed (${stayed.by === 'armed' ? 'as the armed answer said' : 'the dialogs policy'}), so the page stayed where it was; ${advice} before leaving it.`, advice };
    }
    return { sentence: `Meanwhile the page opened ${during.map((d) => `a ${d.type} ("${d.message}", ${d.accepted ? 'accepted' : 'dismissed'})`).join(', ')}.` };
  }


  /**
   * Listens for dialogs on one CDP session of the pipe (a tab, a new tab, a cross-site frame),
   * and enables its Page domain (which routes dialogs to the pipe) at once. Puppeteer lets a new
   * target run only after it attached, so a dialog its first script opens is seen too. Sessions
   * of targets without pages (workers) refuse Page.enable, which changes nothing.
   */
  #watch(session: CDPSession): void {
    if (this.#watched.has(session)) return;
    this.#watched.add(session);
    session.on('Page.javascriptDialogOpening', (event: Protocol.Page.JavascriptDialogOpeningEvent) => void this.#answer(session, event));
    session.send('Page.enable').catch(() => undefined);
  }

  async #answer(session: CDPSession, event: Protocol.Page.JavascriptDialogOpeningEvent): Promise<void> {
    // Every CDP session open to the page hears its dialog (the network log's, the allow list's):
    // the first to hear it decides and records the answer; each one sends it (whichever session
    // can still answer closes the dialog), and the copies are not recorded again.
    // Chrome sends the event to every session when the dialog opens, so the copies arrive on the
    // pipe before the first answer's reply: once that is back, the same text is a new dialog.
    const key = `${event.type}\u0000${event.url}\u0000${event.message}`;
    const copy = this.#answering.get(key);
    const decided = copy ?? this.#decide(event, session);
    if (!copy) this.#answering.set(key, decided);
    this.#open.set(session, { type: event.type, message: event.message });
    try {
      await session.send('Page.handleJavaScriptDialog', decided);
    } catch {
      // The page went away with its dialog, or another session answered it first.
    } finally {
      this.#open.delete(session);
      if (!copy) this.#answering.delete(key);
    }
  }

  /** Takes the armed answer (else the policy's), and lists the dialog. */
  #decide(event: Protocol.Page.JavascriptDialogOpeningEvent, session: CDPSession): { accept: boolean; promptText?: string } {
    const type = event.type;
    const armed = this.#armed.shift();
    if (armed) this.#changes += 1;
    const accepted = armed ? armed.accept : this.#policy === 'accept';
    const promptText = accepted && type === 'prompt' ? (armed?.promptText ?? event.defaultPrompt ?? '') : undefined;
    const url = event.url;
    // A frame's dialog says the frame's address: its tab is the one showing its page's.
    const tab = this.#hooks.tabOf(url) ?? this.#hooks.tabOf(pageUrlOf(session) ?? url);
    const record: DialogRecord = {
      type,
      message: event.message,
      ...(type === 'prompt' ? { defaultPrompt: event.defaultPrompt ?? '' } : {}),
      accepted,
      ...(promptText !== undefined ? { promptText } : {}),
      url,
      ...(tab !== undefined ? { tab } : {}),
      by: armed ? 'armed' : 'policy',
    };
    // Listed before the answer goes out: the step the dialog interrupted ends as soon as it is closed.
    this.#list(record);
    return { accept: accepted, ...(promptText !== undefined ? { promptText } : {}) };
  }

  #list(record: DialogRecord): void {
    this.seen.push(record);
    this.#hooks.answered(record);
  }
}

/** The CDP session puppeteer attached to a target (one per target, shared with its Page). */
/** What the session tells the dialog watch, and hears from it. @internal */
export interface DialogHooks {
  /** Whether dialogs are answered: over the debugging pipe (launch mode) or by the extension's debugger (attach mode). */
  pipe: boolean;
  /** The run's tab id of a page url, when known. */
  tabOf(url: string): number | undefined;
  /** A dialog was answered. */
  answered(record: DialogRecord): void;
}

/**
 * The address of the page a session belongs to: its own for a page's, its page's for a cross-site
 * frame's (the sessions above a page's are its tab's and the browser's, which show no page).
 */
function pageUrlOf(session: CDPSession): string | undefined {
  let page: CDPSession | undefined = session;
  while (page && isFrameSession(page)) page = parentSessionOf(page);
  return page && targetUrlOf(page);
}
