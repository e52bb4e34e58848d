import { open } from 'node:fs/promises';

// How big and how deep the files aite reads may be. Scripts, configs, lock files and reports are
// read from disk that other people write (a pull request, a shard of another machine): past
// these limits a file is refused with a sentence, before Chrome starts, instead of exhausting
// memory or the stack. Each limit is far above what a real file needs (a 10,000-step script is
// under 1 MB and 3 levels deep).

/** The limits, one place. */
export const FILE_LIMITS = {
  /** A step script. */
  scriptBytes: 4 * 1024 * 1024,
  /** aite.config.json. */
  configBytes: 1024 * 1024,
  /** The lock file. */
  lockBytes: 16 * 1024 * 1024,
  /** Nesting of objects and arrays in any of them. */
  depth: 64,
  /** A script's or a step's `name`. */
  nameChars: 1000,
} as const;

/**
 * Reads a regular file of at most `maxBytes`. Answers a sentence saying why not otherwise (too
 * big, not a regular file), so the caller words it as its own kind of error; `ENOENT` and other
 * system errors are thrown as they are.
 */
export async function readBounded(path: string, maxBytes: number): Promise<{ text: string } | { refused: string }> {
  const file = await open(path, 'r');
  try {
    const stat = await file.stat();
    if (stat.isDirectory()) {
      const error = new Error(`EISDIR: illegal operation on a directory, read '${path}'`) as NodeJS.ErrnoException;
      error.code = 'EISDIR';
      throw error;
    }
    if (!stat.isFile()) return { refused: 'it is not a regular file (a device, a pipe or a socket); name a file.' };
    if (stat.size > maxBytes) return { refused: `it is ${megabytes(stat.size)}; at most ${megabytes(maxBytes)} is read. Is it the file you meant?` };
    return { text: await file.readFile('utf8') };
  } finally {
    await file.close();
  }
}

/**
 * How deep the brackets of a JSON (or YAML flow) text nest, counted without parsing, so a
 * 100,000-deep file is refused before a recursive parser or schema meets it. Stops counting
 * past `limit`. Quoted strings are skipped (`"` always; `'` in YAML).
 */
export function bracketDepth(text: string, options: { yaml: boolean; limit?: number }): number {
  const limit = options.limit ?? FILE_LIMITS.depth;
  let depth = 0;
  let max = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || (options.yaml && ch === "'")) quote = ch;
    else if (ch === '[' || ch === '{') {
      if (++depth > max) max = depth;
      if (max > limit) return max;
    } else if ((ch === ']' || ch === '}') && depth > 0) depth--;
    else if (options.yaml && ch === '#') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    }
  }
  return max;
}

/** How deep parsed data nests (objects and arrays), without recursion; stops past `limit`. */
export function dataDepth(data: unknown, limit: number = FILE_LIMITS.depth): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[data, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    const here = depth + 1;
    if (here > max) max = here;
    if (max > limit) return max;
    for (const child of Object.values(value)) stack.push([child, here]);
  }
  return max;
}

function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
