import { spawn } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { onProcessEnd } from '../launch/ProcessCleanup.js';
import { signalGroup, stopGroup } from '../launch/processGroup.js';
import { UsageError } from '../errors/UsageError.js';
import type { AiteConfig } from './schema.js';

/** How long a stopped server may take to close (SIGTERM) before it is killed (SIGKILL). */
const STOP_GRACE_MS = 3_000;
/** The same when the run is interrupted: within ProcessCleanup's deadline for all cleanups. */
const SIGNAL_GRACE_MS = 1_500;
/** How long a killed server's processes may take to go. */
const STOP_KILL_MS = 1_000;

/**
 * The app a run started (or found running), and how to stop it.
 * @internal
 */
export interface WebServer {
  /** The URL it answers on. */
  url: string;
  /** True when an app was already answering and nothing was started. */
  reused: boolean;
  /** Stops the server if it was started here; a reused one is left alone. */
  close(): Promise<void>;
}

/**
 * Starts the config's `webServer` command and resolves once its `url` answers (any HTTP status
 * below 500). With `reuseExisting` (the default) an app already answering is used as it is.
 * Throws {@link UsageError} with the command's last output when it exits or does not answer in time.
 * @internal
 */
export async function startWebServer(options: NonNullable<AiteConfig['webServer']>): Promise<WebServer> {
  if (options.reuseExisting && (await answers(options.url))) {
    return { url: options.url, reused: true, close: async () => undefined };
  }
  const child = spawn(options.command, {
    shell: true,
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so stopping it stops what the shell started too.
    detached: process.platform !== 'win32',
  });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-2000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exited = code;
      resolve();
    }),
  );
  child.once('error', (error) => {
    output += `\n${error.message}`;
  });

  const close = async (): Promise<void> => {
    unregister();
    if (child.pid === undefined) return;
    if (process.platform === 'win32') {
      if (exited === undefined) child.kill();
      return;
    }
    await stopGroup(child.pid, STOP_GRACE_MS, STOP_KILL_MS);
  };
  // A run interrupted (Ctrl-C, SIGTERM, SIGHUP) or ended without close() stops the server too.
  // On a signal its cleanup must end within ProcessCleanup's own deadline; on exit nothing can
  // be awaited, so the group is killed at once rather than asked.
  const unregister = onProcessEnd((end) => {
    if (child.pid === undefined || process.platform === 'win32') {
      child.kill();
      return;
    }
    if (end === 'exit') signalGroup(child.pid, 'SIGKILL');
    else return stopGroup(child.pid, SIGNAL_GRACE_MS, STOP_KILL_MS).then(() => undefined);
  });

  const deadline = Date.now() + options.timeoutMs;
  while (Date.now() < deadline) {
    if (exited !== undefined) break;
    if (await answers(options.url)) return { url: options.url, reused: false, close };
    await Promise.race([delay(150), exit]);
  }
  await close();
  const tail = output.trim().split('\n').slice(-5).join(' | ');
  const what = exited !== undefined ? `exited (code ${exited}) before ${options.url} answered` : `did not answer at ${options.url} within ${options.timeoutMs} ms`;
  throw new UsageError('usage', [
    { field: 'webServer', message: `the web server \`${options.command}\` ${what}.${tail ? ` Its last output: ${tail}` : ''} Check the command and url in aite.config.json.` },
  ]);
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1000), redirect: 'manual' });
    await response.body?.cancel();
    return response.status < 500;
  } catch {
    return false;
  }
}
