import { pathToFileURL } from 'node:url';
import type { Session } from 'aite';
import type { Page } from 'puppeteer-core';

/**
 * aite's built package: the snapshot of dist/ that build-and-run.mjs took (AITE_BENCH_SDK), so a
 * rebuild of dist/ during the run cannot pull the extension out from under a launch.
 */
export function loadAite(): Promise<typeof import('aite')> {
  const snapshot = process.env.AITE_BENCH_SDK;
  return (snapshot ? import(pathToFileURL(snapshot).href) : import('aite')) as Promise<typeof import('aite')>;
}
import type { WidgetTask } from '../../test/widgets/tasks.js';
import type { Instance, LaunchSettings, Tool } from './Tool.js';

/** aite through its public API only, as a user's script would drive it. */
export class AiteInstance implements Instance {
  constructor(readonly session: Session) {}

  async goto(url: string): Promise<void> {
    await this.session.tab.navigate(url);
  }
  async clickText(text: string): Promise<void> {
    await this.session.click({ text });
  }
  async clickButton(name: string): Promise<void> {
    await this.session.click({ role: 'button', name });
  }
  async type(label: string, text: string): Promise<void> {
    await this.session.type({ label }, text);
  }
  async fill(label: string, text: string): Promise<void> {
    await this.session.fill({ label }, text);
  }
  async seeText(text: string, within?: string): Promise<void> {
    await this.session.verify.text(text, within ? { within } : {});
  }
  async read(css: string): Promise<string> {
    return (await this.session.locator.read({ css })).text;
  }
  async isolatedTest(url: string, button: string, text: string): Promise<void> {
    await this.session.reset();
    await this.session.tab.navigate(url);
    await this.session.click({ text: button });
    await this.session.verify.text(text);
  }
  async widget(task: WidgetTask): Promise<void> {
    await task.aite(this.session);
  }
  async evaluate<T>(expression: string): Promise<T> {
    return (await this.page()).evaluate(expression) as Promise<T>;
  }
  async close(): Promise<void> {
    await this.session.close();
  }

  /** The run's tab over the pipe (set-up and checks only: the timed path never uses it). */
  async page(): Promise<Page> {
    const tabs = await this.session.tab.list();
    const current = tabs.find((t) => t.id === this.session.tab.current);
    const pages = (await this.session.browser!.pages()).filter((p) => !current || p.url() === current.url);
    if (!pages[0]) throw new Error('aite bench: the run tab is not visible over the pipe');
    return pages[0];
  }
}

export const aite: Tool = {
  name: 'aite',
  async launch(settings: LaunchSettings): Promise<Instance> {
    // launch() adds its own flags; the bench passes nothing extra so aite runs as users get it.
    const { launch } = await loadAite();
    const session = await launch({
      allow: settings.origins,
      chrome: settings.executablePath,
      headless: true,
      timeoutMs: settings.timeoutMs,
    });
    return new AiteInstance(session);
  },
};
