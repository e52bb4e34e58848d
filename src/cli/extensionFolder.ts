import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from 'aite';

/**
 * Where `aite extension` writes the extension for attach mode, and where `aite mcp --attach`
 * looks for it, when neither is given a folder: one place in the user's home, so the two meet.
 */
export function defaultExtensionDir(env: NodeJS.ProcessEnv): string {
  return join(env.HOME || homedir(), '.aite', 'extension');
}

/** Throws `usage` when `dir` holds no extension: attach mode would fail only at the first tool call, after the host started the server. */
export function checkExtensionFolder(dir: string, allow: readonly string[], env: NodeJS.ProcessEnv): void {
  if (existsSync(join(dir, 'manifest.json'))) return;
  throw new UsageError(
    'usage',
    `--attach: no aite extension in ${dir}. Write it with \`aite extension${dir === defaultExtensionDir(env) ? '' : ` --out ${dir}`} --allow ${allow[0] ?? '<origin>'}\`, load that folder in your Chrome (chrome://extensions, Developer mode, Load unpacked), and start aite mcp again.`,
  );
}
