import puppeteer, { type Browser } from 'puppeteer-core';
import { AiteError } from '../errors/AiteError.js';
import { enableDeveloperMode } from './developerMode.js';
import { AITE_EXTENSION_ID } from '../identity/ExtensionIdentity.js';

/** Flags every aite Chrome gets: a closed network must not slow or spam the start. The bench gives its rivals the same. */
export const CHROME_ARGS: readonly string[] = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-domain-reliability',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  '--no-pings',
  '--disable-gpu',
  '--log-level=3',
  '--window-size=1280,800',
];

export interface ChromeLaunchOptions {
  executablePath: string;
  userDataDir: string;
  extensionDir: string;
  headless: boolean;
  args?: readonly string[];
}

/**
 * Starts Chrome over `--remote-debugging-pipe` (no port anywhere) with the staged extension.
 * `--load-extension` loads it while Chrome starts, so its worker starts alongside the pipe's
 * handshake; branded Chrome 137+ ignores that flag, so when Chrome does not list the extension
 * once it is up, it is installed through the pipe (`Extensions.loadUnpacked`) instead.
 */
export async function launchChrome(options: ChromeLaunchOptions): Promise<Browser> {
  const args = [
    ...CHROME_ARGS,
    // Only added: the profile's own extensions stay on (a real profile may need them).
    `--load-extension=${options.extensionDir}`,
    ...(options.args ?? []),
  ];
  // Chrome refuses to run as root without it (puppeteer then only sees "Target closed").
  if (process.getuid?.() === 0 && !args.includes('--no-sandbox')) args.push('--no-sandbox');
  // Without it, an extension that reloads mid-run comes back disabled (FAULTS row 41).
  await enableDeveloperMode(options.userDataDir);
  let browser: Browser | undefined;
  try {
    browser = await puppeteer.launch({
      executablePath: options.executablePath,
      headless: options.headless,
      pipe: true,
      // Not puppeteer's --disable-extensions (with it an installed extension's worker never starts).
      enableExtensions: true,
      // Ready means the extension has connected; Chrome's first blank tab is not waited for.
      waitForInitialPage: false,
      userDataDir: options.userDataDir,
      args,
      defaultViewport: null,
      // aite's own handlers clean up bridge.json too; puppeteer's would only kill Chrome.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      timeout: 30_000,
    });
    if (!(await hasExtension(browser))) await browser.installExtension(options.extensionDir);
    return browser;
  } catch (error) {
    await browser?.close().catch(() => undefined);
    throw new AiteError(
      'internal',
      `Chrome at ${options.executablePath} did not start: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}. Run \`aite doctor\` for details.`,
      { cause: error },
    );
  }
}

/** Whether Chrome loaded the staged extension from the command line (false when it cannot say). */
async function hasExtension(browser: Browser): Promise<boolean> {
  const cdp = await browser.target().createCDPSession();
  try {
    const { extensions } = await cdp.send('Extensions.getExtensions');
    return extensions.some((e) => e.id === AITE_EXTENSION_ID && e.enabled);
  } catch {
    return false;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}
