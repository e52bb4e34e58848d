import { accessSync, constants, statSync } from 'node:fs';
import { AiteError } from '../errors/AiteError.js';

/** Usual install paths, most specific first. Debian's wrapper script is tried after its binary. */
const USUAL_PATHS: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: [
    '/usr/lib/chromium/chromium',
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome-stable',
    '/usr/bin/google-chrome',
    '/opt/google/chrome/chrome',
    '/snap/bin/chromium',
  ],
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ],
  win32: [
    'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
    'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
  ],
};

/**
 * Finds the Chrome to launch: the explicit option, then `AITE_CHROME`, then the usual install
 * paths. Throws one error naming everything it tried.
 *
 * @example
 * ```ts
 * import { findChrome, launch } from 'aite';
 *
 * const chrome = findChrome(); // AITE_CHROME, else the usual paths; throws naming what it tried
 * const session = await launch({ allow: ['http://127.0.0.1:4173'], chrome });
 * await session.close();
 * ```
 * @public
 */
export function findChrome(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  const tried: string[] = [];
  const candidates: Array<[string, string]> = [];
  if (explicit) candidates.push([explicit, 'the `chrome` option']);
  if (env.AITE_CHROME) candidates.push([env.AITE_CHROME, 'AITE_CHROME']);
  // An explicit choice that does not exist is an error of its own: never fall back silently.
  for (const [path, source] of candidates) {
    if (isExecutable(path)) return path;
    const what = describePath(path);
    throw new AiteError(
      'unsupported',
      `${what === 'missing' ? 'Chrome not found at' : `Chrome at`} ${path}${what === 'missing' ? '' : ` is ${what}`} (from ${source}). Point it at a Chrome or Chromium executable file.`,
      { detail: { tried: [path] } },
    );
  }
  for (const path of USUAL_PATHS[process.platform] ?? []) {
    tried.push(path);
    if (isExecutable(path)) return path;
  }
  throw new AiteError(
    'unsupported',
    `No Chrome or Chromium found. Tried: ${tried.join(', ')}. Install one (on Debian: \`apt-get install chromium\`), or set AITE_CHROME or the \`chrome\` option to its executable.`,
    { detail: { tried } },
  );
}

/** An executable file: a directory passes the X_OK check, and spawning it fails with EACCES. */
function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function describePath(path: string): 'missing' | 'a directory, not an executable file' | 'not an executable file' {
  try {
    return statSync(path).isDirectory() ? 'a directory, not an executable file' : 'not an executable file';
  } catch {
    return 'missing';
  }
}
