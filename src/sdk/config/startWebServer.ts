import { spawn } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { UsageError } from '../errors/UsageError.js';
import type { AiteConfig } from './schema.js';

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
    if (exited !== undefined) return;
    signal(child.pid, 'SIGTERM');
    const stopped = await Promise.race([exit.then(() => true), delay(3000).then(() => false)]);
    if (!stopped) {
      signal(child.pid, 'SIGKILL');
      await exit;
    }
  };

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

function signal(pid: number | undefined, name: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, name);
  } catch {
    // already gone
  }
}
