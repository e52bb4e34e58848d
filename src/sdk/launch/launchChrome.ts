import puppeteer, { type Browser } from 'puppeteer-core';
import { AiteError } from '../errors/AiteError.js';
import { browserSession } from './browserSession.js';
import { profileOwner, profileOwnerAfter } from './ChromeSingleton.js';
import { enableDeveloperMode } from './developerMode.js';
import { killGroup } from './processGroup.js';
import { AITE_EXTENSION_ID } from '../identity/ExtensionIdentity.js';
import { LAUNCH_DEADLINE_MS } from '../protocol/timeouts.js';

/**
 * Flags every aite Chrome gets: a closed network must not slow or spam the start. The bench gives its rivals the same.
 * @internal
 */
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
  /** Chrome must answer on the pipe and list its extensions within this. Default 30 000. */
  deadlineMs?: number;
  /** Aborting it kills a Chrome still starting (the process is interrupted meanwhile). */
  signal?: AbortSignal;
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
  // Chrome would hand the profile to the running one and exit: say so instead of "Target closed".
  const owner = await profileOwnerAfter(options.userDataDir, PROFILE_RELEASE_MS);
  if (owner !== undefined) throw profileInUse(options.userDataDir, owner);
  // Without it, an extension that reloads mid-run comes back disabled (FAULTS row 41).
  await enableDeveloperMode(options.userDataDir);
  const deadlineMs = Math.min(options.deadlineMs ?? LAUNCH_DEADLINE_MS, LAUNCH_DEADLINE_MS);
  // Aborting makes puppeteer kill what it spawned: a Chrome that never answers is not orphaned.
  const abort = new AbortController();
  options.signal?.addEventListener('abort', () => abort.abort(), { once: true });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(
        new AiteError(
          'timeout',
          `Chrome at ${options.executablePath} did not answer on its debugging pipe within ${deadlineMs} ms, so it was stopped. Check that it is Chrome or Chromium (\`${options.executablePath} --version\`), or run \`aite doctor\`.`,
        ),
      );
    }, deadlineMs);
  });
  let browser: Browser | undefined;
  const start = async (): Promise<Browser> => {
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
      timeout: deadlineMs,
      signal: abort.signal,
    });
    if (!(await hasExtension(browser))) await browser.installExtension(options.extensionDir);
    return browser;
  };
  try {
    return await Promise.race([start(), deadline]);
  } catch (error) {
    abort.abort();
    await closeQuietly(browser);
    if (error instanceof AiteError) throw error;
    const owner = profileOwner(options.userDataDir);
    if (owner !== undefined) throw profileInUse(options.userDataDir, owner);
    throw new AiteError(
      'internal',
      `Chrome at ${options.executablePath} did not start: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}. Run \`aite doctor\` for details.`,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
}

/** How long a Chrome holding the profile may take to let go (one ending after the last run) before the profile is said to be in use. */
const PROFILE_RELEASE_MS = 3_000;

function profileInUse(userDataDir: string, pid: number): AiteError {
  return new AiteError(
    'unsupported',
    `Could not start Chrome: this profile is in use by another Chrome (pid ${pid}): ${userDataDir}. Close that Chrome, or give this run another userDataDir.`,
    { detail: { userDataDir, pid } },
  );
}

async function closeQuietly(browser: Browser | undefined): Promise<void> {
  if (!browser) return;
  const pid = browser.process()?.pid;
  await Promise.race([browser.close(), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]).catch(() => undefined);
  if (pid) killGroup(pid);
}

/** Whether Chrome loaded the staged extension from the command line (false when it cannot say). */
async function hasExtension(browser: Browser): Promise<boolean> {
  const cdp = await browserSession(browser);
  try {
    const { extensions } = await cdp.send('Extensions.getExtensions');
    return extensions.some((e) => e.id === AITE_EXTENSION_ID && e.enabled);
  } catch {
    return false;
  }
}
