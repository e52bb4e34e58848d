// What every tool under test offers the scenarios: the same user-level operations, each written
// the way that tool's own docs write it (see docs/performance.md, "Like for like").

import type { WidgetTask } from '../../test/widgets/tasks.js';

export type ToolName = 'aite' | 'playwright' | 'puppeteer';

export interface LaunchSettings {
  /** The Chromium binary all three tools start. */
  executablePath: string;
  /** aite's own Chrome flags (the package's `_CHROME_ARGS`), given to all three. */
  args: string[];
  /** Origins the run may touch (aite's allow list; the others ignore it). */
  origins: string[];
  /** Per-operation timeout. */
  timeoutMs: number;
}

/** One browser (one profile) with one page, driven by one tool. */
export interface Instance {
  goto(url: string): Promise<void>;
  /** Click the element whose visible text is `text`. */
  clickText(text: string): Promise<void>;
  /** Click the button with this accessible name. */
  clickButton(name: string): Promise<void>;
  /** Click into the field labelled `label` and type `text` key by key. */
  type(label: string, text: string): Promise<void>;
  /** Replace the value of the field labelled `label` with `text`. */
  fill(label: string, text: string): Promise<void>;
  /** Wait until the page (or the dialog named `within`) shows `text`. */
  seeText(text: string, within?: string): Promise<void>;
  /** The visible text of the element `css` selects. */
  read(css: string): Promise<string>;
  /**
   * One small test with a clean state, as that tool's test runner isolates a test: aite resets
   * its session, Playwright opens a new context, puppeteer a new browser context; then open
   * `url`, click the button `button` and see `text`. Cookies and storage start empty each time.
   */
  isolatedTest(url: string, button: string, text: string): Promise<void>;
  /** A widget task (test/widgets/tasks.ts) as this tool writes it; absent: the tool has none. */
  widget?(task: WidgetTask): Promise<void>;
  /** Runs `expression` in the page (not timed: set-up and sanity checks only). */
  evaluate<T>(expression: string): Promise<T>;
  close(): Promise<void>;
}

export interface Tool {
  name: ToolName;
  launch(settings: LaunchSettings): Promise<Instance>;
}
