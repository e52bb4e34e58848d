import { spawn, type ChildProcess } from 'node:child_process';
import { findChrome } from '../../../src/sdk/index.js';

/**
 * A Chrome as a user runs it for attach mode: headless here, its own profile, the given
 * extension folders loaded and no others, no debugging pipe (aite reaches it through its
 * extension only). `debuggingPort` opens the test's own port to look at it from outside.
 */
export function startUserChrome(options: { profileDir: string; extensions: readonly string[]; firstPage?: string; debuggingPort?: boolean }): ChildProcess {
  const extensions = options.extensions.join(',');
  return spawn(
    findChrome(),
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(options.debuggingPort ? ['--remote-debugging-port=0'] : []),
      `--user-data-dir=${options.profileDir}`,
      `--load-extension=${extensions}`,
      `--disable-extensions-except=${extensions}`,
      options.firstPage ?? 'about:blank',
    ],
    { stdio: 'ignore' },
  );
}

/** Kills a Chrome started by {@link startUserChrome} (if it still runs) and waits until it has exited. */
export async function stopUserChrome(chrome: ChildProcess | undefined): Promise<void> {
  if (!chrome || chrome.exitCode !== null || chrome.signalCode !== null) return;
  const exited = new Promise((resolve) => chrome.once('exit', resolve));
  chrome.kill('SIGKILL');
  await exited;
}
