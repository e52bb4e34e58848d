import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * TCP ports in LISTEN state owned by the given processes and their descendants (Linux /proc);
 * `alone` are taken without theirs (the test runner's process, whose other children are other
 * tests' and may still be on their way out).
 */
export function listeningPorts(rootPids: number[], alone: number[] = []): Array<{ address: string; port: number; pid: number }> {
  const pids = new Set([...descendants(rootPids), ...alone]);
  const inodes = new Map<string, number>();
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.set(m[1]!, pid);
      } catch {
        // fd closed meanwhile
      }
    }
  }
  const result: Array<{ address: string; port: number; pid: number }> = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || cols[3] !== '0A') continue;
      const pid = inodes.get(cols[9]!);
      if (pid === undefined) continue;
      const [hexAddr, hexPort] = cols[1]!.split(':');
      result.push({ address: decodeAddress(hexAddr!), port: Number.parseInt(hexPort!, 16), pid });
    }
  }
  return result;
}

/** The given processes and every process below them (Linux /proc). */
export function descendants(roots: number[]): Set<number> {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // process ended meanwhile
    }
  }
  const seen = new Set<number>();
  const stack = [...roots];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return seen;
}

function decodeAddress(hex: string): string {
  if (hex.length === 8) return [3, 2, 1, 0].map((i) => Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.');
  return hex === '00000000000000000000000000000000' ? '::' : hex === '00000000000000000000000001000000' ? '::1' : hex;
}
