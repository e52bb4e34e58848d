import type { AllowList } from './AllowList.js';
import {
  CommandFailure,
  DEFAULT_TIMEOUT_MS,
  flattenFrames,
  frameKey,
  framePath,
  NAVIGATION_RESEND_COMMANDS,
  pagePathOf,
  SNAPSHOT_LINES_DEFAULT,
  SNAPSHOT_LINES_MAX,
  type AnswerOf,
  type RequestOf,
  type Target,
} from '../../sdk/protocol/index.js';
import { FrameProbes, type ProbedFrame } from './FrameProbes.js';
import { PageChannel, type PageRequest } from './PageChannel.js';

const COVERED_POLL_MS = 50;
/** How long a frame's content script gets to answer its probe before the worker looks why. */
const PROBE_WAIT_MS = 300;
const PROBE_POLL_MS = 50;
/** Frames' load errors kept for messages (the latest ones; a frame's next commit clears its own). */
const LOAD_ERRORS_KEPT = 100;
/** How long a snapshot waits for one cross-site frame's content script before it says the frame was not read. */
const FRAME_READ_MS = 2_000;

/** `detail.frameHop` of a content script's hop answer (content/frames.ts). */
interface FrameHop {
  probe: string;
  consumed: number;
  /** Frame boundaries between the answering document and the frame (more than 1: inside same-origin iframes there). */
  levels?: number;
  /** The frame keys to the frame, when the path does not say them (a ref's frame). */
  path?: string[];
}

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
  /** Why a frame's last navigation failed (`net::ERR_BLOCKED_BY_RESPONSE`...), by `tabId/frameId`. */
  readonly #loadErrors = new Map<string, string>();

  constructor(private readonly allow: AllowList) {
    this.#channel = new PageChannel(allow);
    // ERR_ABORTED is a navigation replaced by another: the frame did not fail.
    chrome.webNavigation.onErrorOccurred.addListener(({ tabId, frameId, error }) => {
      if (frameId === 0 || error === 'net::ERR_ABORTED') return;
      this.#loadErrors.delete(`${tabId}/${frameId}`);
      this.#loadErrors.set(`${tabId}/${frameId}`, error);
      if (this.#loadErrors.size > LOAD_ERRORS_KEPT) this.#loadErrors.delete(this.#loadErrors.keys().next().value!);
    });
    chrome.webNavigation.onCommitted.addListener(({ tabId, frameId }) => {
      if (frameId !== 0) this.#loadErrors.delete(`${tabId}/${frameId}`);
    });
  }

  async run(request: PageRequest, tabId: number): Promise<Record<string, unknown>> {
    if (request.cmd === 'snapshot') return this.#snapshot(request, tabId);
    // Also with no frame path: a ref may name an element in a cross-site frame (the page answers a hop).
    const path = pagePathOf(request);
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
          const where = describePath(error.path ?? path);
          return new CommandFailure(
            'navigation',
            request.cmd === 'act'
              ? `The iframe ${where} navigated, reloaded or was removed while the action ran; it was not sent again. Check what the page did before repeating it.`
              : `The iframe ${where} navigated, reloaded or was removed during ${request.cmd}; resolve again.`,
            { frame: error.path ?? path, error: error.message },
          ).toAnswer(request.id, retries);
        }
        throw error;
      }
    }
  }

  async #descend(request: PageRequest, tabId: number, path: string[], deadline: number): Promise<{ answer: Record<string, unknown>; retries: number }> {
    const hops: Hop[] = [];
    const injected = new Set<string>();
    let frameId = 0;
    let rest = path;
    /** The frame keys of the frames entered so far. */
    let at: string[] = [];
    let retries = 0;
    for (;;) {
      const remaining = Math.max(1, deadline - Date.now());
      let answer: Record<string, unknown>;
      try {
        answer = await this.#channel.run(hops.length === 0 ? { ...request, timeoutMs: remaining } : withFrame(request, rest, remaining), tabId, frameId);
      } catch (error) {
        if (error instanceof CommandFailure && error.detail?.frameChanged === true) throw new RouteRetry(error.message, retries, at);
        throw error;
      }
      retries += typeof answer.retries === 'number' ? answer.retries : 0;
      const hop = (answer.detail as { frameHop?: FrameHop } | undefined)?.frameHop;
      const src = (answer.detail as { src?: unknown } | undefined)?.src;
      if (answer.ok !== false || !hop) {
        if (hops.length === 0 || answer.ok === false) return { answer: restoreFrame(answer, at, rest), retries };
        const moved = await this.#toTop(answer, tabId, hops, deadline);
        await this.#sameDocuments(tabId, hops);
        return { answer: restoreFrame(moved, at, rest), retries };
      }
      // A hop by the path consumes its segments; one for a ref names the frame keys itself.
      const reached = [...at, ...(hop.path ?? rest.slice(0, hop.consumed))];
      const found = await this.#enter(tabId, frameId, { probe: hop.probe, levels: hop.levels ?? 1 }, src, reached, deadline, injected);
      if (!found) continue;
      hops.push({ parent: frameId, child: found.frameId, probe: hop.probe, documentId: found.documentId, path: reached });
      frameId = found.frameId;
      rest = rest.slice(hop.consumed);
      at = reached;
    }
  }

  /**
   * The frame a hop leads into, once its own content script has answered the probe; undefined
   * when none answered yet (the caller asks its parent again, for a new probe, after a pause).
   * The report is believed only from a frame `levels` below the frame that asked (its child, or
   * for an iframe inside same-origin iframes there, that many levels down: see content/frames.ts
   * `levelsTo`). Refused when the frame's origin is not in the allow list.
   */
  async #enter(
    tabId: number,
    parent: number,
    asked: { probe: string; levels: number },
    src: unknown,
    reached: string[],
    deadline: number,
    injected: Set<string>,
  ): Promise<ProbedFrame | undefined> {
    if (typeof src === 'string' && /^https?:/.test(src) && !this.allow.allows(src)) throw this.#notAllowed(reached, src);
    const found = await this.#probes.wait(asked.probe, tabId, Math.min(deadline, Date.now() + PROBE_WAIT_MS));
    const children = framesBelow((await chrome.webNavigation.getAllFrames({ tabId }).catch(() => null)) ?? [], parent, asked.levels);
    const frame = found ? children.find((f) => f.frameId === found.frameId) : undefined;
    if (found && frame) {
      if (!this.allow.allows(frame.url)) throw this.#notAllowed(reached, frame.url);
      return found;
    }
    // No content script in the frame answered (not injected yet, or still loading): inject it
    // into the frames at that level once, and ask again until the deadline.
    const outside = children.filter((c) => /^https?:/.test(c.url) && !this.allow.allows(c.url));
    if (!injected.has(`${parent}/${asked.levels}`)) {
      injected.add(`${parent}/${asked.levels}`);
      const inside = children.filter((c) => this.allow.allows(c.url));
      await Promise.all(inside.map((c) => chrome.scripting.executeScript({ target: { tabId, frameIds: [c.frameId] }, files: ['content.js'] }).catch(() => undefined)));
    } else {
      // Still no answer after the injection: a frame no script will ever answer from fails now.
      const closed = this.#closedFrame(tabId, children, src, reached);
      if (closed) throw closed;
    }
    if (Date.now() >= deadline) {
      if (outside.length > 0) throw this.#notAllowed(reached, outside[0]!.url);
      throw new CommandFailure('timeout', `The iframe ${describePath(reached)} did not load a document aite can reach in time.`, { frame: reached });
    }
    await new Promise((resolve) => setTimeout(resolve, PROBE_POLL_MS));
    return undefined;
  }

  /**
   * `snapshot`: the top document's outline, with each cross-site iframe it lists read by that
   * frame's own content script and nested under the iframe's line, frames inside those too. A
   * frame's refs go on from where its parent's ended (one numbering for the whole snapshot), and
   * the parent is told which refs its iframe gave out, so a command naming one is sent on to
   * that frame (refs.ts). A frame whose origin is not allowed is never read: its line says so.
   */
  async #snapshot(request: RequestOf<'snapshot'>, tabId: number): Promise<Record<string, unknown>> {
    const deadline = Date.now() + (request.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const budget = Math.min(request.maxLines ?? SNAPSHOT_LINES_DEFAULT, SNAPSHOT_LINES_MAX);
    const top = await this.#outline(request, tabId, 0, [], budget, request.firstRef, deadline);
    if (top.answer.ok === false) return top.answer;
    const { frames: _frames, ...answer } = top.answer;
    return { ...answer, text: top.lines.join('\n'), lines: top.lines.length, refs: top.refs, truncated: top.truncated, nextRef: top.nextRef, ...(top.retries > 0 ? { retries: top.retries } : {}) };
  }

  /** One document's outline with its cross-site frames read into it, in at most `budget` lines. */
  async #outline(
    request: RequestOf<'snapshot'>,
    tabId: number,
    frameId: number,
    at: string[],
    budget: number,
    firstRef: number | undefined,
    deadline: number,
  ): Promise<{ answer: Record<string, unknown>; lines: string[]; refs: number; truncated: boolean; nextRef: number | undefined; retries: number }> {
    const injected = new Set<string>();
    // One wait for all of this document's frames: one that never answers costs it once.
    const framesUntil = Math.min(deadline, Date.now() + FRAME_READ_MS);
    let retries = 0;
    for (;;) {
      const ask = { ...request, maxLines: Math.max(1, budget), timeoutMs: Math.max(1, deadline - Date.now()), ...(firstRef !== undefined ? { firstRef } : {}) };
      const answer = await this.#channel.run(ask, tabId, frameId);
      retries += typeof answer.retries === 'number' ? answer.retries : 0;
      if (answer.ok === false) return { answer, lines: [], refs: 0, truncated: false, nextRef: firstRef, retries };
      const snap = answer as Partial<AnswerOf<'snapshot'>>;
      const own = (snap.text ?? '').split('\n').filter((l) => l !== '');
      let left = budget - own.length;
      let nextRef = snap.nextRef ?? firstRef;
      let refs = snap.refs ?? 0;
      let truncated = snap.truncated === true;
      const inserts = new Map<number, string[]>();
      const notes = new Map<number, string>();
      let again = false;
      for (const f of snap.frames ?? []) {
        const reached = [...at, ...f.path];
        if (!/^https?:/.test(f.src)) {
          notes.set(f.line, ' (another origin: not read)');
          continue;
        }
        if (!this.allow.allows(f.src)) {
          notes.set(f.line, ` (another origin, ${originOf(f.src)}: not in the allow list, not read; add it to \`allow\` to read it)`);
          continue;
        }
        if (left <= 0) {
          notes.set(f.line, ' (not read: the snapshot reached maxLines; ask for more with maxLines)');
          truncated = true;
          continue;
        }
        let child: ProbedFrame | undefined;
        try {
          child = await this.#enter(tabId, frameId, { probe: f.probe, levels: f.levels ?? 1 }, f.src, reached, framesUntil, injected);
        } catch (error) {
          if (!(error instanceof CommandFailure)) throw error;
          notes.set(
            f.line,
            error.detail?.allow
              ? ` (another origin, ${originOf(String(error.detail.url))}: not in the allow list, not read; add it to \`allow\` to read it)`
              : error.reason === 'load-failed'
                ? ' (another origin: Chrome shows its error page there, the page refused to be framed or did not load; not read)'
                : error.reason === 'unsupported'
                  ? ' (another origin: a data: URL, not read)'
                  : ' (another origin: its page did not answer in time, not read)',
          );
          continue;
        }
        if (!child) {
          // Its content script came in after the probe: the document is asked again, for new probes.
          again = true;
          break;
        }
        const depth = (/^ */.exec(own[f.line] ?? '')![0].length >> 1) + 1;
        let inner;
        try {
          inner = await this.#outline(request, tabId, child.frameId, reached, left, nextRef, deadline);
        } catch (error) {
          if (!(error instanceof CommandFailure && error.detail?.frameChanged === true)) throw error;
          notes.set(f.line, ' (another origin: its page changed while it was read, not read)');
          continue;
        }
        retries += inner.retries;
        if (inner.answer.ok === false) {
          notes.set(f.line, ` (another origin: not read: ${String(inner.answer.message ?? inner.answer.reason)})`);
          continue;
        }
        inserts.set(f.line, inner.lines.map((l) => `${'  '.repeat(depth)}${l}`));
        left -= inner.lines.length;
        refs += inner.refs;
        truncated ||= inner.truncated;
        nextRef = inner.nextRef ?? nextRef;
        // The iframe's document tells commands that name these refs where to go.
        const given = inner.lines.flatMap((l) => [...l.matchAll(/\[ref=(e\d+)\]/g)].map((m) => m[1]!));
        if (given.length > 0) {
          await chrome.tabs.sendMessage(tabId, { aite: 1, query: 'frameRefs', probe: f.probe, path: f.path, refs: given }, { frameId }).catch(() => undefined);
        }
      }
      if (again) continue;
      const lines = own.flatMap((line, i) => [notes.has(i) ? `${line}${notes.get(i)}` : line, ...(inserts.get(i) ?? [])]);
      return { answer, lines, refs, truncated, nextRef, retries };
    }
  }

  /**
   * Why the probed iframe's frame can never answer, when the browser's frame tree says so: it
   * shows Chrome's error page (the page refused to be framed, or did not load), or it went on
   * (a redirect, its own navigation) to an origin outside the allow list or to a data: URL. The
   * frame is the one child showing the iframe's `src`, else the one child no script can answer
   * from; undefined while that is not clear (a child still blank may be the iframe, loading).
   */
  #closedFrame(tabId: number, children: readonly chrome.webNavigation.GetAllFrameResultDetails[], src: unknown, reached: string[]): CommandFailure | undefined {
    const closed = (c: chrome.webNavigation.GetAllFrameResultDetails): boolean => c.errorOccurred || /^data:/.test(c.url) || (/^https?:/.test(c.url) && !this.allow.allows(c.url));
    const showing = typeof src === 'string' ? children.filter((c) => sameUrl(c.url, src)) : [];
    const blank = children.some((c) => c.url === '' || c.url === 'about:blank');
    const frame = showing.length === 1 ? showing[0]! : showing.length === 0 && !blank ? only(children.filter(closed)) : undefined;
    if (!frame || !closed(frame)) return undefined;
    const where = describePath(reached);
    if (frame.errorOccurred) {
      const error = this.#loadErrors.get(`${tabId}/${frame.frameId}`);
      const why =
        error === 'net::ERR_BLOCKED_BY_RESPONSE'
          ? 'that page refused to be framed (its X-Frame-Options or Content-Security-Policy frame-ancestors header does not let this page show it)'
          : error
            ? `that page did not load (${error})`
            : 'that page did not load, or refused to be framed (X-Frame-Options or Content-Security-Policy frame-ancestors)';
      return new CommandFailure(
        'load-failed',
        `The iframe ${where} shows Chrome's error page instead of ${frame.url}: ${why}. There is nothing aite can look at or act on in it. Open that page on its own (navigate to it) to test it, or let it be framed here.`,
        { frame: reached, url: frame.url, ...(error ? { error } : {}) },
      );
    }
    if (/^data:/.test(frame.url)) {
      return new CommandFailure(
        'unsupported',
        `The iframe ${where} went on to a data: URL, a document with an opaque origin, which no allow list names, so aite's extension does not run in it and cannot look or act inside it. Serve that content from an allowed origin, or check the iframe from the page around it.`,
        { frame: reached, url: frame.url.slice(0, 100), cannotEnter: 'data-url' },
      );
    }
    return this.#notAllowed(reached, frame.url);
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
    /** The frame keys of the frame that went (absent: the command's own path says it). */
    readonly path?: string[],
  ) {
    super(message);
  }
}

/**
 * The request as the frame at the end of the hops so far sees it: only the rest of the path,
 * on its outermost part (the target, else the region of a verify without one), and no frame in
 * its regions (they were part of the path: see flattenFrames).
 */
function withFrame(request: PageRequest, rest: string[], timeoutMs: number): PageRequest {
  const frame = frameKey(rest);
  const set = <T extends { frame?: unknown }>(o: T): T => {
    const { frame: _old, ...others } = o;
    return (frame === undefined ? others : { ...others, frame }) as T;
  };
  type Parts = { target?: Target; within?: string | Target; until?: Target; descriptor?: { frame?: unknown }; to?: { frame?: unknown } };
  const out = { ...request, timeoutMs } as PageRequest & Parts;
  const flat = flattenFrames(out.target, out.within);
  if (out.target) out.target = set(flat.target!);
  else if (typeof out.within === 'object') out.within = set(flattenFrames(out.within).target!);
  if (out.target && out.within !== undefined) out.within = flat.within;
  if (out.until) out.until = set(flattenFrames(out.until).target!);
  if (out.descriptor) out.descriptor = set(out.descriptor);
  if (out.to) out.to = set(out.to);
  return out as PageRequest;
}

/**
 * Descriptors a frame answers name the whole path from the top: the frames entered (`at`),
 * then the frame keys the answering document gave (the rest of the path it was asked, or a
 * ref's own frame there).
 */
function restoreFrame(answer: Record<string, unknown>, at: string[], rest: string[]): Record<string, unknown> {
  const whole = (frame: unknown): string | string[] | undefined => frameKey([...at, ...framePath(frame as string | string[] | undefined)]);
  const out: Record<string, unknown> = { ...answer };
  const fix = (d: unknown): unknown => {
    if (!d || typeof d !== 'object') return d;
    const { frame, ...others } = d as { frame?: unknown };
    const key = whole(frame);
    return key === undefined ? others : { ...others, frame: key };
  };
  if (at.length > 0 && out.descriptor) out.descriptor = fix(out.descriptor);
  const detail = out.detail as { candidates?: Array<{ descriptor?: unknown }>; frame?: unknown } | undefined;
  if (at.length > 0 && detail?.candidates) out.detail = { ...detail, candidates: detail.candidates.map((c) => ({ ...c, descriptor: fix(c.descriptor) })) };
  // A failure inside a frame says so: its xpaths are the frame's, not the top page's.
  if (out.ok === false && (at.length > 0 || rest.length > 0)) {
    const frame = detail?.frame !== undefined ? whole(detail.frame) : frameKey([...at, ...rest]);
    if (frame !== undefined) out.detail = { ...(out.detail as object | undefined), frame };
  }
  return out;
}

/** The frames `levels` below `parent` in the tab's frame tree (1: its children). */
function framesBelow<F extends { frameId: number; parentFrameId: number }>(all: readonly F[], parent: number, levels: number): F[] {
  let at = new Set([parent]);
  let found: F[] = [];
  for (let i = 0; i < levels; i++) {
    found = all.filter((f) => at.has(f.parentFrameId) && f.frameId !== f.parentFrameId);
    at = new Set(found.map((f) => f.frameId));
  }
  return found;
}

function withRetries(answer: Record<string, unknown>, retries: number): Record<string, unknown> {
  const { retries: _own, ...rest } = answer;
  return retries > 0 ? { ...rest, retries } : rest;
}

/** The one item, or undefined when there are none or several. */
function only<T>(items: readonly T[]): T | undefined {
  return items.length === 1 ? items[0] : undefined;
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
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
