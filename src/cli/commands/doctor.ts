import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { AiteError, findChrome, launch, loadConfig, type LaunchOptions, type Session } from 'aite';
import { colorsFor, writeLines, type Io } from '../Io.js';
import { formatMs } from '../ProgressReporter.js';

export interface DoctorFlags {
  chrome?: string;
  config?: string;
}

const PAGE = '<!doctype html><title>aite doctor</title><h1>aite doctor</h1><p id="ok">The page side answers.</p>';

/**
 * Checks the setup one piece at a time, says what is wrong and how to fix it. Exit 0 when every
 * check passes, 1 otherwise.
 */
export async function doctorCommand(flags: DoctorFlags, io: Io, seams: { launch?: (o: LaunchOptions) => Promise<Session> } = {}): Promise<number> {
  const c = colorsFor(io.stdout, io.env);
  let failed = false;
  const ok = (text: string): void => writeLines(io.stdout, `  ${c.green('✓')} ${text}`);
  const info = (text: string): void => writeLines(io.stdout, `  ${c.cyan('i')} ${text}`);
  const bad = (text: string, fix: string): void => {
    failed = true;
    writeLines(io.stdout, `  ${c.red('✗')} ${text}`, `    ${c.yellow('fix:')} ${fix}`);
  };
  writeLines(io.stdout, c.bold('aite doctor'));

  const [major] = process.versions.node.split('.').map(Number);
  if ((major ?? 0) >= 20) ok(`Node ${process.versions.node}`);
  else bad(`Node ${process.versions.node} is too old`, 'install Node 20 or newer.');

  let chromeOption = flags.chrome;
  if (!chromeOption) {
    try {
      chromeOption = (await loadConfig({ file: flags.config, cwd: io.cwd })).chrome;
    } catch (error) {
      bad(`aite.config.json: ${(error as Error).message}`, 'fix the config file, or run from a folder without one.');
    }
  }
  let chrome: string | undefined;
  try {
    chrome = findChrome(chromeOption, io.env);
    const version = await chromeVersion(chrome);
    ok(`Chrome: ${chrome}${version ? c.dim(` (${version})`) : ''}`);
  } catch (error) {
    bad((error as Error).message.split('. ')[0]!, 'install Chromium (Debian: `apt-get install chromium`), or point AITE_CHROME or --chrome at a Chrome executable.');
  }

  const display = hasDisplay(io.env);
  if (display) info(`display: ${io.env.WAYLAND_DISPLAY ? `Wayland ${io.env.WAYLAND_DISPLAY}` : io.env.DISPLAY ?? 'the desktop'} (aite launch can open a headed Chrome)`);
  else info('no display (DISPLAY and WAYLAND_DISPLAY are unset): scripts run headless; `aite launch` needs a desktop or `xvfb-run -a aite launch`.');

  if (!chrome) return finish(io, c, true);

  const server = await pageServer();
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  let session: Session | undefined;
  try {
    const t0 = performance.now();
    try {
      session = await (seams.launch ?? launch)({ allow: [origin], chrome, headless: true, connectTimeoutMs: 15_000 });
      ok(`bridge on ${session.bridge.url.replace(/\?.*$/, '')} and the extension connected in ${formatMs(performance.now() - t0)}`);
    } catch (error) {
      bad(
        `Chrome started, but the extension did not connect: ${firstLine(error)}`,
        /extension|bundle|dist/i.test(String(error)) ? 'build the extension with `npm run build` (dist/extension must hold worker.js and content.js).' : 'run with AITE_DEBUG=1 for Chrome\'s output; check that nothing blocks 127.0.0.1 and that the Chrome is not a managed one that refuses extensions.',
      );
      return finish(io, c, true);
    }
    const t1 = performance.now();
    try {
      const tabs = await session.tab.list();
      ok(`round trip to the worker: ${tabs.length} tab(s) listed in ${formatMs(performance.now() - t1)}`);
    } catch (error) {
      bad(`the worker did not answer: ${firstLine(error)}`, 'rebuild with `npm run build`, then run `aite doctor` again.');
    }
    const t2 = performance.now();
    try {
      await session.tab.navigate(`${origin}/`);
      await session.verify.text('The page side answers.', { timeoutMs: 5000 });
      ok(`round trip to a page: opened ${origin}/ and read it in ${formatMs(performance.now() - t2)}`);
    } catch (error) {
      bad(
        `the page side (content script) did not answer: ${firstLine(error)}`,
        error instanceof AiteError && error.reason === 'internal'
          ? 'rebuild with `npm run build` (dist/extension/content.js may be a placeholder).'
          : 'rebuild with `npm run build`; if it persists, report it with the output of `aite doctor`.',
      );
    }
    const png = await session.screenshot();
    if (png) ok(`screenshot over the debugging pipe (${Math.round(png.byteLength / 1024)} KiB)`);
    else bad('no screenshot over the debugging pipe', 'check the warnings above; screenshots need the pipe launch.');
  } finally {
    await session?.close().then(
      () => ok('closed Chrome and the bridge'),
      (error: unknown) => bad(`closing failed: ${firstLine(error)}`, 'kill the leftover Chrome process; report it if it happens again.'),
    );
    await new Promise((resolve) => server.close(resolve));
  }
  return finish(io, c, failed);
}

function finish(io: Io, c: ReturnType<typeof colorsFor>, failed: boolean): number {
  writeLines(io.stdout, failed ? c.red('Something is wrong: see the fixes above.') : c.green('All good: `aite run <script>` is ready.'));
  return failed ? 1 : 0;
}

export function hasDisplay(env: NodeJS.ProcessEnv): boolean {
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

function chromeVersion(path: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(path, ['--version'], { timeout: 5000 }, (error, stdout) => resolve(error ? undefined : stdout.trim() || undefined));
  });
}

async function pageServer(): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
