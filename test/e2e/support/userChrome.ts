import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attach, findChrome, stageExtension, type AttachOptions, type Session } from '../../../src/sdk/index.js';
import { singletonTempDir } from '../../../src/sdk/launch/ChromeSingleton.js';
import { endGroup } from '../../../src/sdk/launch/processGroup.js';
import { startFixtureServer, type FixtureServer } from '../../support/FixtureServer.js';
import { profileDirOf } from './processes.js';

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
    // Its own process group, so that stopping it ends its helpers too.
    { stdio: 'ignore', detached: true },
  );
}

/**
 * Kills a Chrome started by {@link startUserChrome} (if it still runs) and its helpers, waits until
 * they are gone (they write into the profile until then), and removes the temp dir Chrome itself
 * removes only when it exits normally.
 */
export async function stopUserChrome(chrome: ChildProcess | undefined): Promise<void> {
  if (!chrome?.pid || chrome.exitCode !== null || chrome.signalCode !== null) return;
  const profileDir = profileDirOf(chrome.spawnargs);
  const chromiumDir = profileDir ? singletonTempDir(profileDir) : undefined;
  const exited = new Promise((resolve) => chrome.once('exit', resolve));
  chrome.kill('SIGKILL');
  await exited;
  await endGroup(chrome.pid, 5_000);
  if (chromiumDir) await rm(chromiumDir, { recursive: true, force: true });
}

/** An attach-mode session over a user's Chrome, as {@link openAttached} starts it. */
export interface Attached {
  server: FixtureServer;
  chrome: ChildProcess;
  session: Session;
  profileDir: string;
  /** The staged extension's folder. */
  extensionDir: string;
}

/**
 * A fixture server, a fresh profile (`profile` may write into it first), the extension staged
 * into it for `allow` (default: the server's origin), a user's Chrome with it, and `attach()`
 * with `options`; {@link closeAttached} undoes it all.
 */
export async function openAttached(options: {
  prefix: string;
  allow?: (server: FixtureServer) => string[];
  profile?: (profileDir: string) => Promise<void>;
  extensionFolder?: string;
  attach?: Omit<AttachOptions, 'extensionDir' | 'allow'>;
}): Promise<Attached> {
  const server = await startFixtureServer();
  const profileDir = await mkdtemp(join(tmpdir(), options.prefix));
  await options.profile?.(profileDir);
  const allow = options.allow?.(server) ?? [server.origin];
  const stage = await stageExtension({ allow, dir: join(profileDir, options.extensionFolder ?? 'extension') });
  const attached = attach({ extensionDir: stage.dir, allow, connectTimeoutMs: 30_000, ...options.attach });
  const chrome = startUserChrome({ profileDir, extensions: [stage.dir] });
  return { server, chrome, session: await attached, profileDir, extensionDir: stage.dir };
}

/** Closes what {@link openAttached} started (any part that did start). */
export async function closeAttached(a: Partial<Attached>): Promise<void> {
  await a.session?.close();
  await stopUserChrome(a.chrome);
  await a.server?.close();
  if (a.profileDir) await rm(a.profileDir, { recursive: true, force: true, maxRetries: 5 });
}
