import puppeteer, { type Browser } from 'puppeteer-core';
import { AiteError } from '../errors/AiteError.js';
import { enableDeveloperMode } from './developerMode.js';

/** Flags every aite Chrome gets: a closed network must not slow or spam the start. */
const BASE_ARGS = [
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
 * Starts Chrome over `--remote-debugging-pipe` (no port anywhere) with the staged extension
 * installed through the pipe, which branded Chrome honours where `--load-extension` is ignored.
 */
export async function launchChrome(options: ChromeLaunchOptions): Promise<Browser> {
  const args = [...BASE_ARGS, ...(options.args ?? [])];
  // Chrome refuses to run as root without it (puppeteer then only sees "Target closed").
  if (process.getuid?.() === 0 && !args.includes('--no-sandbox')) args.push('--no-sandbox');
  // Without it, an extension that reloads mid-run comes back disabled (FAULTS row 41).
  await enableDeveloperMode(options.userDataDir);
  try {
    return await puppeteer.launch({
      executablePath: options.executablePath,
      headless: options.headless,
      pipe: true,
      enableExtensions: [options.extensionDir],
      userDataDir: options.userDataDir,
      args,
      defaultViewport: null,
      // aite's own handlers clean up bridge.json too; puppeteer's would only kill Chrome.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      timeout: 30_000,
    });
  } catch (error) {
    throw new AiteError(
      'internal',
      `Chrome at ${options.executablePath} did not start: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}. Run \`aite doctor\` for details.`,
      { cause: error },
    );
  }
}
