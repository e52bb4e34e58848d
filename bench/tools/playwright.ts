import { chromium, type Browser, type Page } from 'playwright-core';
import type { WidgetTask } from '../../test/widgets/tasks.js';
import type { Instance, LaunchSettings, Tool } from './Tool.js';

/** Playwright with its user-facing locators (getByText, getByRole, getByLabel) and auto-waiting. */
class PlaywrightInstance implements Instance {
  constructor(
    private readonly browser: Browser,
    private readonly page: Page,
  ) {}

  async goto(url: string): Promise<void> {
    await this.page.goto(url);
  }
  async clickText(text: string): Promise<void> {
    await this.page.getByText(text, { exact: true }).click();
  }
  async clickButton(name: string): Promise<void> {
    await this.page.getByRole('button', { name, exact: true }).click();
  }
  async type(label: string, text: string): Promise<void> {
    const field = this.page.getByLabel(label, { exact: true });
    await field.click();
    await field.pressSequentially(text);
  }
  async fill(label: string, text: string): Promise<void> {
    await this.page.getByLabel(label, { exact: true }).fill(text);
  }
  async seeText(text: string, within?: string): Promise<void> {
    const scope = within ? this.page.getByRole('dialog', { name: within }) : this.page;
    // What `expect(locator).toBeVisible()` waits for; playwright-core has no `expect`.
    await scope.getByText(text).first().waitFor({ state: 'visible' });
  }
  async read(css: string): Promise<string> {
    return this.page.locator(css).innerText();
  }
  async isolatedTest(url: string, button: string, text: string): Promise<void> {
    // What Playwright Test does for every test: a new context and page, closed afterwards.
    const context = await this.browser.newContext({ viewport: null });
    try {
      const page = await context.newPage();
      await page.goto(url);
      await page.getByText(button, { exact: true }).click();
      await page.getByText(text).first().waitFor({ state: 'visible' });
    } finally {
      await context.close();
    }
  }
  async widget(task: WidgetTask): Promise<void> {
    await task.playwright(this.page);
  }
  async evaluate<T>(expression: string): Promise<T> {
    return this.page.evaluate(expression) as Promise<T>;
  }
  async close(): Promise<void> {
    await this.browser.close();
  }
}

export const playwright: Tool = {
  name: 'playwright',
  async launch(settings: LaunchSettings): Promise<Instance> {
    const browser = await chromium.launch({
      executablePath: settings.executablePath,
      headless: true,
      args: settings.args,
      timeout: settings.timeoutMs,
    });
    const page = await browser.newPage({ viewport: null });
    page.setDefaultTimeout(settings.timeoutMs);
    return new PlaywrightInstance(browser, page);
  },
};
