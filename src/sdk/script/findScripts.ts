import { readdir, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { UsageError } from '../errors/UsageError.js';

const SCRIPT_FILE = /\.aite\.(json|ya?ml)$/i;

/** Files as given; a folder stands for the *.aite.json / *.aite.yaml files under it. */
export async function findScripts(patterns: readonly string[], cwd: string): Promise<string[]> {
  const out: string[] = [];
  for (const pattern of patterns) {
    const path = resolve(cwd, pattern);
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory()) {
      const found = (await walk(path)).filter((f) => SCRIPT_FILE.test(f)).map((f) => relative(cwd, f) || f).sort();
      if (found.length === 0) {
        throw new UsageError('file-not-found', [{ file: pattern, message: 'this folder holds no step scripts (files named *.aite.json, *.aite.yaml or *.aite.yml).' }]);
      }
      out.push(...found);
    } else {
      out.push(pattern);
    }
  }
  return [...new Set(out)];
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries
      .filter((e) => e.name !== 'node_modules' && !e.name.startsWith('.'))
      .map((e) => (e.isDirectory() ? walk(join(dir, e.name)) : Promise.resolve([join(dir, e.name)]))),
  );
  return nested.flat();
}
