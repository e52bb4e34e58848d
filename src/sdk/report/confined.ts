import { constants } from 'node:fs';
import { lstat, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

// Every file a report names (its screenshots) and every file a script step writes lives inside
// one folder: a report.json is input (merge-reports reads other people's shards), so a path in
// it must not reach outside its folder, and no symbolic link inside the folder is followed.

/** Why `path` is not a plain relative path inside its folder, or undefined when it is. */
export function confinedPathProblem(path: string): string | undefined {
  if (path.length === 0) return 'the path is empty';
  if (path.length > 500) return 'the path is longer than 500 characters';
  if (path.includes('\0')) return 'the path holds a NUL character';
  if (/^[\\/]/.test(path) || /^[a-zA-Z]:/.test(path)) return 'the path is absolute; give one relative to its folder';
  const segments = path.split(/[\\/]/);
  if (segments.includes('..')) return 'the path climbs out of its folder with ".."';
  if (segments.some((s) => s === '')) return 'the path has an empty segment ("//" or a trailing "/")';
  return undefined;
}

/** A relative path that stays inside its folder: no `..`, not absolute (see {@link confinedPathProblem}). */
export const ConfinedPathSchema = z.string().superRefine((path, ctx) => {
  const problem = confinedPathProblem(path);
  if (problem) ctx.addIssue({ code: 'custom', message: `${problem} (a path inside the folder, such as "screenshots/step-1.png")` });
});

/** A path that left its folder or met a symbolic link; nothing was read or written. */
export class ConfinedPathError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'ConfinedPathError';
  }
}

/**
 * Writes `bytes` to `dir/path`, creating the folders between; refuses a path outside `dir` and
 * never follows a symbolic link inside it (each folder checked with lstat, the file opened with
 * O_NOFOLLOW). `dir` itself is the caller's choice and may be a link.
 */
export async function writeConfined(dir: string, path: string, bytes: Uint8Array | string): Promise<string> {
  const target = await walk(dir, path, true);
  const file = await openNoFollow(target, path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC);
  try {
    await file.writeFile(bytes);
  } finally {
    await file.close();
  }
  return target;
}

/** Reads `dir/path` with the same rules as {@link writeConfined}. */
export async function readConfined(dir: string, path: string): Promise<Buffer> {
  const target = await walk(dir, path, false);
  const file = await openNoFollow(target, path, constants.O_RDONLY);
  try {
    return await file.readFile();
  } finally {
    await file.close();
  }
}

async function walk(dir: string, path: string, create: boolean): Promise<string> {
  const problem = confinedPathProblem(path);
  if (problem) throw new ConfinedPathError(path, problem);
  const segments = path.split(/[\\/]/).filter((s) => s !== '.');
  let at = dir;
  for (const segment of segments.slice(0, -1)) {
    at = join(at, segment);
    const stat = await lstat(at).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' && create) return undefined;
      throw error;
    });
    if (!stat) await mkdir(at).catch((error: NodeJS.ErrnoException) => (error.code === 'EEXIST' ? undefined : Promise.reject(error)));
    else if (stat.isSymbolicLink()) throw new ConfinedPathError(path, `${segment} is a symbolic link; it is not followed`);
    else if (!stat.isDirectory()) throw new ConfinedPathError(path, `${segment} is not a folder`);
  }
  return join(dir, ...segments);
}

async function openNoFollow(target: string, path: string, flags: number) {
  try {
    return await open(target, flags | constants.O_NOFOLLOW, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new ConfinedPathError(path, 'it is a symbolic link; it is not followed');
    throw error;
  }
}
