import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { Instance, LaunchSettings, Tool } from './Tool.js';

const quote = (s: string): string => JSON.stringify(s);

/** puppeteer with its Locator API (auto-waiting) and its text and ARIA query handlers. */
class PuppeteerInstance implements Instance {
  constructor(
    private readonly browser: Browser,
    private readonly page: Page,
  ) {}

  async goto(url: string): Promise<void> {
    await this.page.goto(url);
  }
  async clickText(text: string): Promise<void> {
    await this.page.locator(`::-p-text(${quote(text)})`).click();
  }
  async clickButton(name: string): Promise<void> {
    await this.page.locator(`::-p-aria([name=${quote(name)}][role="button"])`).click();
  }
  async type(label: string, text: string): Promise<void> {
    await this.page.locator(`::-p-aria([name=${quote(label)}][role="textbox"])`).click();
    await this.page.keyboard.type(text);
  }
  async fill(label: string, text: string): Promise<void> {
    await this.page.locator(`::-p-aria([name=${quote(label)}][role="textbox"])`).fill(text);
  }
  async seeText(text: string, within?: string): Promise<void> {
    await this.page.waitForSelector(`${within ? 'dialog[open] ' : ''}::-p-text(${quote(text)})`, { visible: true });
  }
  async read(css: string): Promise<string> {
    return this.page.$eval(css, (el) => (el as HTMLElement).innerText);
  }
  async isolatedTest(url: string, button: string, text: string): Promise<void> {
    // puppeteer's way to a clean state without a relaunch: a new (incognito-like) browser context.
    const context = await this.browser.createBrowserContext();
    try {
      const page = await context.newPage();
      await page.goto(url);
      await page.locator(`::-p-text(${quote(button)})`).click();
      await page.waitForSelector(`::-p-text(${quote(text)})`, { visible: true });
    } finally {
      await context.close();
    }
  }
  async evaluate<T>(expression: string): Promise<T> {
    return this.page.evaluate(expression) as Promise<T>;
  }
  async close(): Promise<void> {
    await this.browser.close();
  }
}

export const puppeteerTool: Tool = {
  name: 'puppeteer',
  async launch(settings: LaunchSettings): Promise<Instance> {
    const args = [...settings.args];
    if (process.getuid?.() === 0 && !args.includes('--no-sandbox')) args.push('--no-sandbox');
    const browser = await puppeteer.launch({
      executablePath: settings.executablePath,
      headless: true,
      pipe: true,
      args,
      defaultViewport: null,
      timeout: settings.timeoutMs,
    });
    const page = await browser.newPage();
    page.setDefaultTimeout(settings.timeoutMs);
    return new PuppeteerInstance(browser, page);
  },
};
