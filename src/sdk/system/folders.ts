import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * Makes the folder `dir` and any folders above it that are missing (`mkdir -p`), one level at a
 * time. Node's own `mkdir(dir, { recursive: true })` never returns where the system refuses a
 * new folder with ENOENT although its parent exists (anywhere under `/proc`): a user's
 * `screenshot({ path })` or `--report` pointed there would hang the run. Here every refusal is
 * an error with its code (ENOENT, EACCES, ENOTDIR …) naming the folder that could not be made.
 */
export async function makeFolder(dir: string, options: { mode?: number } = {}): Promise<void> {
  const asked = resolve(dir);
  const missing: string[] = [];
  for (let at = asked; ; at = dirname(at)) {
    const found = await stat(at).catch((error: NodeJS.ErrnoException) => {
      // ENOTDIR: a file stands somewhere above; the walk up finds it and names it.
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
      throw folderError(error.code ?? 'EIO', at, `cannot make the folder ${asked}: ${error.message}`);
    });
    if (found) {
      if (!found.isDirectory()) throw folderError('ENOTDIR', at, `cannot make the folder ${asked}: ${at} is a file, not a folder`);
      break;
    }
    missing.push(at);
    if (dirname(at) === at) break;
  }
  for (const folder of missing.reverse()) {
    await mkdir(folder, options.mode === undefined ? undefined : { mode: options.mode }).catch((error: NodeJS.ErrnoException) => {
      // Another process made it meanwhile: fine, it is there.
      if (error.code !== 'EEXIST') throw folderError(error.code ?? 'EIO', folder, `cannot make the folder ${folder}: ${error.message}`);
    });
  }
}

function folderError(code: string, path: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code, path });
}
