import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * aite's own Chrome flags, read from its launcher's source so Playwright and puppeteer get
 * exactly what aite gets (and this list cannot drift from it).
 */
export function aiteChromeArgs(root: string): string[] {
  const source = readFileSync(join(root, 'src/sdk/launch/launchChrome.ts'), 'utf8');
  const list = /const BASE_ARGS = \[([\s\S]*?)\];/.exec(source)?.[1];
  if (!list) throw new Error('bench: could not read BASE_ARGS from src/sdk/launch/launchChrome.ts');
  return [...list.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
}
