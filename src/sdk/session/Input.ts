import type { AnswerOf, Descriptor, GuardState, Point, Rect, RequestOf, Target } from '../protocol/index.js';
import type { GuardMode } from './HitGuard.js';
import type { KeyInput } from 'puppeteer-core';
import type { Download, DownloadRecord } from './pipe/Downloads.js';
import type { Chord } from './pipe/keys.js';
import type { StepContext } from './StepContext.js';

/**
 * How a click, double click or hover is made beyond a plain one at the middle (see
 * `ClickOptions`, `DoubleClickOptions`, `HoverOptions`), modifiers as the keys they send.
 */
export interface PointerHow {
  button?: 'left' | 'right' | 'middle';
  modifiers: KeyInput[];
  clickCount?: number;
  position?: { x: number; y: number };
  /** Milliseconds the button is held down between press and release. */
  delay?: number;
}

/** The one thing a step has found: the element now, how it was found, and where to act on it. */
export interface Found {
  descriptor: Descriptor;
  resolved: AnswerOf<'resolve'>;
  point?: Point;
  /** The hit-target guard `resolve` armed on the element for the input that follows, and what it saw then. */
  armed?: ArmedGuard;
}

/** A guard `resolve` armed: its mode, what it saw then, and the token its verdict comes under (over the pipe). */
export interface ArmedGuard {
  mode: GuardMode;
  state: GuardState;
  verdict?: string;
}

/** What a picture takes in: see {@link Input.screenshot}. */
export interface PictureOptions {
  cachedOnly?: boolean;
  clip?: Rect;
  fullPage?: boolean;
  /** Scale a larger picture down to this many pixels on its longer side (over the pipe, and in attach mode with the extension's debugger). */
  maxSide?: number;
}

/** What `resolve` can get an element ready for (see `Locator.resolve`). */
export type Prepare = RequestOf<'resolve'>['prepare'];

/**
 * How a session's input reaches the page, chosen once when the session starts: trusted input
 * over the debugging pipe ({@link PipeInput}) or through the extension's chrome.debugger in
 * attach mode ({@link DebuggerInput}, both on {@link TrustedInput}), or plain events in the page
 * through `act` ({@link AttachInput}). A composed step finds its element, then hands it here; a new kind of
 * input is a method on this interface and one in each strategy.
 */
export interface Input {
  /** Whether `resolve` should get the element ready (trusted input acts at a point it answers). */
  readonly prepares: boolean;
  /** Whether the strategy can take pictures at all (a failed step is pictured only then). */
  readonly pictures: boolean;
  /** A click, double click or hover on the element, made as `how` says. */
  pointer(step: StepContext, found: Found, action: 'click' | 'doubleClick' | 'hover', how?: PointerHow): Promise<void>;
  /** Focuses the element by a click, then types `text` key by key. */
  type(step: StepContext, found: Found, text: string): Promise<void>;
  /** Replaces the value of the element (focused, its text selected by `resolve`) with `text`. */
  fill(step: StepContext, found: Found, text: string): Promise<void>;
  /** Presses `key` (parsed: `chord`) in the element, focused by `resolve`, or wherever the focus is when there is none. */
  press(step: StepContext, key: string, found: Found | undefined, chord: Chord): Promise<void>;
  /** Sets the files of the file input the element is, or labels, or opens by a click (`[]` clears). */
  upload(step: StepContext, found: Found, paths: readonly string[]): Promise<void>;
  /** Clicks the element and waits for the download it starts (saved at `saveAs` when given). */
  download(step: StepContext, found: Found, saveAs: string | undefined): Promise<Download>;
  /** The downloads the run's pages started, as far as each got (none where the strategy hears none). */
  readonly downloads: readonly DownloadRecord[];
  /** Lets go of what the strategy holds (the download folder) when the session closes. */
  dispose(): Promise<void>;
  /**
   * Runs a page command that may start a navigation of the run's tab (a `<select>` whose change
   * handler sets `location`) and returns once that navigation commits, as input over the pipe
   * does; where the strategy cannot hear navigations, it only runs it.
   */
  navigating(step: StepContext, action: string, command: () => Promise<void>): Promise<void>;
  /** Makes a checkbox or radio checked (`want`) or unchecked; `check` names it for the verify after. */
  toggle(step: StepContext, found: Found, want: boolean, check: Target): Promise<void>;
  /** Drags one element onto another; `how` says where on each (default their middles). */
  drag(step: StepContext, from: Found, to: Found, how?: DragHow): Promise<void>;
  /**
   * Trusted wheel input of `deltaY` px at `at` (top-viewport CSS px), for a page that moves on
   * wheel events itself; false (with a warning on `step`) where the strategy cannot send it.
   */
  wheel(step: StepContext, at: { x: number; y: number }, deltaY: number): Promise<boolean>;
  /** Waits until the run's page has had no request in flight for `idleMs`. */
  networkIdle(step: StepContext, idleMs: number, timeoutMs: number): Promise<void>;
  /**
   * A PNG of the run's tab, or undefined with a warning on `step`: the viewport, the whole page
   * (`fullPage`) or a box of it (`clip`, page CSS pixels). With `cachedOnly`, only a page
   * already found is pictured (the extension may be unreachable).
   */
  screenshot(step: StepContext, options?: PictureOptions): Promise<Uint8Array | undefined>;
}

/** Where a drag presses and lets go: points of each element from its padding box's top-left corner (see `DragOptions`). */
export interface DragHow {
  sourcePosition?: { x: number; y: number } | undefined;
  targetPosition?: { x: number; y: number } | undefined;
}
