import { CommandFailure, DEFAULT_TIMEOUT_MS, NAVIGATION_RESEND_COMMANDS, navigatedDuring, type PageCommand, type Request } from '../../sdk/protocol/index.js';
import type { AllowList } from './AllowList.js';
import { ContentPorts, NotDelivered } from './ContentPorts.js';
import { noPageThere } from './deadPages.js';
import { tabSettled } from './LoadWatch.js';

export type PageRequest = Extract<Request, { cmd: PageCommand }>;

/** Failures that came before the command was first handed to the page: it cannot have acted. */
const unsent = new WeakSet<CommandFailure>();

/** Whether `error` ended the command before any page received it (an act in it provably never ran). */
export function neverSent(error: unknown): boolean {
  return error instanceof CommandFailure && unsent.has(error);
}

/**
 * Carries a page command to the content script of one tab. The script is injected on demand
 * in tabs that were open before the extension loaded; a command that only looks at the page is
 * sent again to the new page when the page navigates under it, and every re-send is counted.
 */
export class PageChannel {
  readonly #ports = new ContentPorts();

  constructor(private readonly allow: AllowList) {}

  /** Runs `request` in the top document of `tabId`, or in the document of one of its frames. */
  async run(request: PageRequest, tabId: number, frameId = 0): Promise<Record<string, unknown>> {
    const deadline = Date.now() + (request.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    let retries = 0;
    let injected = false;
    for (;;) {
      const tab = await tabSettled(tabId, deadline, `waiting for the page to load before ${request.cmd}`).catch(
        (error: unknown) => {
          if (error instanceof CommandFailure && error.reason === 'timeout') {
            throw new CommandFailure('timeout', `The page did not finish loading within ${request.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms, so ${request.cmd} was not sent.`);
          }
          if (error instanceof CommandFailure && error.reason === 'tab-closed' && retries === 0) unsent.add(error);
          throw error;
        },
      );
      if (!this.allow.allows(tab.url)) throw this.allow.refusal(tab.url, request.cmd);
      const remaining = Math.max(1, deadline - Date.now());
      try {
        // A re-sent command gets what is left of its own budget, not a fresh one.
        const answer = await this.#ports.request(tabId, { ...request, timeoutMs: remaining }, frameId);
        if (typeof answer !== 'object' || answer === null || !('ok' in answer)) {
          throw new CommandFailure('internal', `The content script gave no answer to ${request.cmd}.`);
        }
        return retries > 0 ? { ...answer, retries } : (answer as Record<string, unknown>);
      } catch (error) {
        if (error instanceof CommandFailure) throw error;
        const text = error instanceof Error ? error.message : String(error);
        if (/Receiving end does not exist/i.test(text) && !injected) {
          injected = true;
          await chrome.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files: ['page-errors.js'], world: 'MAIN' }).catch(() => undefined);
          await chrome.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files: ['content.js'] }).catch(async (e: unknown) => {
            if (frameId !== 0) throw frameChanged(request.cmd, String(e));
            const now = await chrome.tabs.get(tabId).catch(() => undefined);
            if (!now) throw new CommandFailure('tab-closed', `The tab closed during ${request.cmd}.`, { tab: tabId });
            const dead = noPageThere(now, e, `${request.cmd} was not sent there.`);
            if (dead) throw dead;
            throw new CommandFailure('internal', `Could not inject the aite content script into tab ${tabId}: ${String(e)}.`);
          });
          continue;
        }
        const stillThere = await chrome.tabs.get(tabId).catch(() => undefined);
        if (!stillThere) {
          const closed = new CommandFailure('tab-closed', `The tab closed during ${request.cmd}.`, { tab: tabId });
          // Its page never said it arrived (a page that had closed itself leaves it so): it did nothing there.
          if (error instanceof NotDelivered && retries === 0) unsent.add(closed);
          throw closed;
        }
        // A frame's document went away: FrameRoute decides, from the top page again.
        if (frameId !== 0) throw frameChanged(request.cmd, text);
        if (NAVIGATION_RESEND_COMMANDS.has(request.cmd) && Date.now() < deadline) {
          // One the replaced document never received goes to the new one as its first delivery.
          if (!(error instanceof NotDelivered)) retries += 1;
          injected = false;
          continue;
        }
        throw new CommandFailure('navigation', navigatedDuring(request.cmd), { tab: tabId, error: text });
      }
    }
  }
}

/**
 * Asks the content scripts of `tabId` what became of a lost act (and fences it there). Every
 * frame is asked: an act whose element is in a cross-site frame was received by that frame's own
 * script, not the top page's, and one still on its way down the frames must meet a fence
 * wherever it arrives. One frame that dispatched it makes it `true`; one that received it and had
 * not makes it `false`. A tab or document that cannot answer leaves it `"unknown"`: the act may
 * have run in a page that is gone.
 */
export async function askActStatus(tabId: number, act: number): Promise<Record<string, unknown>> {
  const unknown = (why: string): Record<string, unknown> => ({ ok: true, dispatched: 'unknown', why });
  const tab = await chrome.tabs.get(tabId).catch(() => undefined);
  if (!tab) return unknown(`tab ${tabId} is closed`);
  const frames = (await chrome.webNavigation.getAllFrames({ tabId }).catch(() => null)) ?? [];
  const ids = [0, ...frames.map((f) => f.frameId).filter((id) => id !== 0)];
  const replies = await Promise.all(
    ids.map((frameId) =>
      (chrome.tabs.sendMessage(tabId, { aite: 1, query: 'actStatus', id: act }, { frameId }) as Promise<{ dispatched?: unknown } | undefined>).then(
        (reply) => ({ frameId, dispatched: reply?.dispatched }),
        (error: unknown) => ({ frameId, error: error instanceof Error ? error.message : String(error) }),
      ),
    ),
  );
  const said = replies.map((r) => ('dispatched' in r ? r.dispatched : undefined));
  if (said.includes(true)) return { ok: true, dispatched: true };
  if (said.includes(false)) return { ok: true, dispatched: false };
  const top = replies[0]!;
  // No content script in the top page: the document changed (or the extension reloaded) since the act was sent.
  if ('error' in top) return unknown(`the page in tab ${tabId} cannot tell: ${top.error}`);
  return { ...unknown('the page in the tab never received that action (it may have run in a page that has navigated away since)'), neverSeen: true };
}

/** A frame's document went away under a command (it navigated, reloaded or was removed). */
export function frameChanged(cmd: string, why: string): CommandFailure {
  return new CommandFailure('navigation', `The iframe navigated, reloaded or was removed during ${cmd} (${why}).`, { frameChanged: true, error: why });
}

