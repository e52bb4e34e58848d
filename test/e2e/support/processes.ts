import { readFileSync } from 'node:fs';

/** Running, not a zombie waiting for a parent that is gone to reap it. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The profile folder a Chrome command line names (`--user-data-dir=`), if it names one. */
export function profileDirOf(args: readonly string[]): string | undefined {
  return args.find((a) => a.startsWith('--user-data-dir='))?.slice('--user-data-dir='.length);
}
