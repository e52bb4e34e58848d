import type { AllowList } from './AllowList.js';
import { CommandFailure, DEFAULT_TIMEOUT_MS, NAVIGATION_RESEND_COMMANDS, pagePathOf } from '../../sdk/protocol/index.js';
import { FrameProbes } from './FrameProbes.js';
import { PageChannel, type PageRequest } from './PageChannel.js';

const COVERED_POLL_MS = 50;
/** How long a frame's content script gets to answer its probe before the worker looks why. */
const PROBE_WAIT_MS = 300;
const PROBE_POLL_MS = 50;

/** One frame boundary crossed: the frame that found the iframe, and the iframe's own frame. */
interface Hop {
  parent: number;
  child: number;
  /** The nonce the parent probed the child's iframe with: names that iframe to the parent. */
  probe: string;
  documentId: string | undefined;
  /** The path segments that led to `child`, for messages. */
  path: string[];
}

type FramePointAnswer =
  | { ok: true; x: number; y: number; rect: { x: number; y: number; width: number; height: number } }
  | { ok: false; reason: 'not-found' | 'not-visible' | 'unsupported'; message: string; retry: boolean };

/**
 * Page commands whose target lies in a cross-site (out-of-process) iframe. The top document's
 * content script walks the target's `frame` path and, at a cross-site iframe, answers a frame hop
 * (content/frames.ts); the command then goes to that frame's own content script with the rest of
 * the path, and so on down. A point it answers is moved into the top viewport one frame at a
 * time, each frame above checking that its iframe is neither transformed nor covered there, so
 * the runner's trusted input (sent to the top page; Chromium routes it to the frame) lands on
 * the element. A frame whose document goes away mid-command: a command that only looks is sent
 * again from the top (counted); any other fails `navigation`. Never sent to a frame whose origin
 * is outside the allow list.
 */
export class FrameRoute {
  readonly #channel: PageChannel;
  readonly #probes = new FrameProbes();

  constructor(private readonly allow: AllowList) {
    this.#channel = new PageChannel(allow);
  }

  async run(request: PageRequest, tabId: number): Promise<Record<string, unknown>> {
    const path = pagePathOf(request);
    if (path.length === 0) return this.#channel.run(request, tabId);
    const deadline = Date.now() + (request.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    let retries = 0;
    for (;;) {
      try {
        const answer = await this.#descend(request, tabId, path, deadline);
        retries += answer.retries;
        return withRetries(answer.answer, retries);
      } catch (error) {
        if (error instanceof RouteRetry) {
          retries += error.retries;
          if (NAVIGATION_RESEND_COMMANDS.has(request.cmd) && Date.now() < deadline) {
            retries += 1;
            continue;
          }
          return new CommandFailure(
            'navigation',
            request.cmd === 'act'
              ? `The iframe ${describePath(path)} navigated, reloaded or was removed while the action ran; it was not sent again. Check what the page did before repeating it.`
              : `The iframe ${describePath(path)} navigated, reloaded or was removed during ${request.cmd}; resolve again.`,
            { frame: path, error: error.message },
          ).toAnswer(request.id, retries);
        }
        throw error;
      }
    }
  }

  async #descend(request: PageRequest, tabId: number, path: string[], deadline: number): Promise<{ answer: Record<string, unknown>; retries: number }> {
    const hops: Hop[] = [];
    const injected = new Set<number>();
    let frameId = 0;
    let rest = path;
    let retries = 0;
    for (;;) {
      const remaining = Math.max(1, deadline - Date.now());
      let answer: Record<string, unknown>;
      try {
        answer = await this.#channel.run(withFrame(request, rest, remaining), tabId, frameId);
      } catch (error) {
        if (error instanceof CommandFailure && error.detail?.frameChanged === true) throw new RouteRetry(error.message, retries);
        throw error;
      }
      retries += typeof answer.retries === 'number' ? answer.retries : 0;
      const hop = (answer.detail as { frameHop?: { probe: string; consumed: number } } | undefined)?.frameHop;
      const src = (answer.detail as { src?: unknown } | undefined)?.src;
      if (answer.ok !== false || !hop) {
        if (hops.length === 0 || answer.ok === false) return { answer: restoreFrame(answer, request), retries };
        const moved = await this.#toTop(answer, tabId, hops, deadline);
        await this.#sameDocuments(tabId, hops);
        return { answer: restoreFrame(moved, request), retries };
      }
      const reached = path.slice(0, path.length - rest.length + hop.consumed);
      if (typeof src === 'string' && /^https?:/.test(src) && !this.allow.allows(src)) throw this.#notAllowed(reached, src);
      const found = await this.#probes.wait(hop.probe, tabId, Math.min(deadline, Date.now() + PROBE_WAIT_MS));
      const frame = found ? await chrome.webNavigation.getFrame({ tabId, frameId: found.frameId }).catch(() => null) : null;
      if (!found || !frame || frame.parentFrameId !== frameId) {
        // No content script in the frame answered (not injected yet, or still loading): inject it
        // into the frame's children once, and ask again until the deadline.
        const children = ((await chrome.webNavigation.getAllFrames({ tabId }).catch(() => null)) ?? []).filter((f) => f.parentFrameId === frameId);
        const outside = children.filter((c) => /^https?:/.test(c.url) && !this.allow.allows(c.url));
        if (!injected.has(frameId)) {
          injected.add(frameId);
          const inside = children.filter((c) => this.allow.allows(c.url));
          await Promise.all(inside.map((c) => chrome.scripting.executeScript({ target: { tabId, frameIds: [c.frameId] }, files: ['content.js'] }).catch(() => undefined)));
        }
        if (Date.now() >= deadline) {
          if (outside.length > 0) throw this.#notAllowed(reached, outside[0]!.url);
          throw new CommandFailure('timeout', `The iframe ${describePath(reached)} did not load a document aite can reach in time.`, { frame: reached });
        }
        await new Promise((resolve) => setTimeout(resolve, PROBE_POLL_MS));
        continue;
      }
      if (!this.allow.allows(frame.url)) throw this.#notAllowed(reached, frame.url);
      hops.push({ parent: frameId, child: found.frameId, probe: hop.probe, documentId: found.documentId, path: reached });
      frameId = found.frameId;
      rest = rest.slice(hop.consumed);
    }
  }

  #notAllowed(frame: string[], url: string): CommandFailure {
    return new CommandFailure(
      'unsupported',
      `The iframe ${describePath(frame)} shows ${originOf(url)}, which is not in the run's allow list (${this.allow.describe()}). Add that origin to \`allow\` to let aite work inside it.`,
      { frame, url, allow: [...this.allow.origins] },
    );
  }

  /** Input must not land in another document than the one that answered: the frames are checked once more. */
  async #sameDocuments(tabId: number, hops: Hop[]): Promise<void> {
    for (const hop of hops) {
      const now = await chrome.webNavigation.getFrame({ tabId, frameId: hop.child }).catch(() => null);
      if (!now || (hop.documentId !== undefined && now.documentId !== undefined && now.documentId !== hop.documentId)) {
        throw new RouteRetry(`the iframe ${describePath(hop.path)} has another document now`, 0);
      }
    }
  }

  /** Moves the answer's point from the innermost frame's viewport to the top one's. */
  async #toTop(answer: Record<string, unknown>, tabId: number, hops: Hop[], deadline: number): Promise<Record<string, unknown>> {
    const nested = answer.point !== undefined;
    const inner = (nested ? answer.point : answer) as { x?: unknown; y?: unknown; rect?: unknown };
    if (typeof inner.x !== 'number' || typeof inner.y !== 'number' || typeof inner.rect !== 'object') return answer;
    for (;;) {
      let at = { x: inner.x, y: inner.y, rect: inner.rect as { x: number; y: number; width: number; height: number } };
      let refused: (FramePointAnswer & { ok: false }) | undefined;
      let hop: Hop | undefined;
      for (hop of [...hops].reverse()) {
        const moved = (await chrome.tabs
          .sendMessage(tabId, { aite: 1, query: 'framePoint', point: { probe: hop.probe, ...at } }, { frameId: hop.parent })
          .catch((error: unknown) => {
            throw new RouteRetry(error instanceof Error ? error.message : String(error), 0);
          })) as FramePointAnswer | undefined;
        if (!moved) throw new RouteRetry('the frame above gave no answer', 0);
        if (!moved.ok) {
          refused = moved;
          break;
        }
        at = { x: moved.x, y: moved.y, rect: moved.rect };
      }
      if (!refused) return nested ? { ...answer, point: { ...(answer.point as object), ...at } } : { ...answer, ...at };
      if (refused.reason === 'not-found') throw new RouteRetry(refused.message, 0);
      if (!refused.retry || Date.now() + COVERED_POLL_MS >= deadline) {
        throw new CommandFailure(refused.reason, `${refused.message} (the target is in the iframe ${describePath(hop!.path)}).`, { frame: hop!.path });
      }
      await new Promise((resolve) => setTimeout(resolve, COVERED_POLL_MS));
    }
  }
}

/** A frame's document went away: the caller sends again from the top, or fails `navigation`. */
class RouteRetry extends Error {
  constructor(
    message: string,
    readonly retries: number,
  ) {
    super(message);
  }
}

/** The request as the frame at the end of the hops so far sees it: only the rest of the path. */
function withFrame(request: PageRequest, rest: string[], timeoutMs: number): PageRequest {
  const frame = rest.length === 0 ? undefined : rest.length === 1 ? rest[0] : rest;
  const set = <T extends { frame?: unknown }>(o: T): T => {
    const { frame: _old, ...others } = o;
    return (frame === undefined ? others : { ...others, frame }) as T;
  };
  const out = { ...request, timeoutMs } as PageRequest & { target?: { frame?: unknown }; descriptor?: { frame?: unknown }; to?: { frame?: unknown } };
  if (out.target) out.target = set(out.target);
  if (out.descriptor) out.descriptor = set(out.descriptor);
  if (out.to) out.to = set(out.to);
  return out as PageRequest;
}

/** Descriptors a frame answers name the whole path, as the target did. */
function restoreFrame(answer: Record<string, unknown>, request: PageRequest): Record<string, unknown> {
  const frame = 'target' in request && request.target ? request.target.frame : 'descriptor' in request ? request.descriptor?.frame : undefined;
  if (frame === undefined) return answer;
  const fix = (d: unknown): unknown => (d && typeof d === 'object' ? { ...(d as object), frame } : d);
  const out: Record<string, unknown> = { ...answer };
  if (out.descriptor) out.descriptor = fix(out.descriptor);
  const detail = out.detail as { candidates?: Array<{ descriptor?: unknown }>; frame?: unknown } | undefined;
  if (detail?.candidates) out.detail = { ...detail, candidates: detail.candidates.map((c) => ({ ...c, descriptor: fix(c.descriptor) })) };
  // A failure inside a frame says so: its xpaths are the frame's, not the top page's.
  if (out.ok === false) out.detail = { ...(out.detail as object | undefined), frame: detail?.frame ?? frame };
  return out;
}

function withRetries(answer: Record<string, unknown>, retries: number): Record<string, unknown> {
  const { retries: _own, ...rest } = answer;
  return retries > 0 ? { ...rest, retries } : rest;
}

function describePath(path: string[]): string {
  return path.map((p) => JSON.stringify(p)).join(' > ');
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
