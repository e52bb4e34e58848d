import { UsageError } from '../errors/UsageError.js';

/**
 * A slice of the scripts for one of several CI machines: `index` of `total`, both from 1.
 *
 * @example
 * ```ts
 * import { runSuite, type Shard } from 'aite';
 *
 * const { report } = await runSuite(['scripts/'], { shard: '2/3' });
 * const shard: Shard | undefined = report.shard; // { index: 2, total: 3 }
 * ```
 * @public
 */
export interface Shard {
  /** Which slice, 1-based. */
  index: number;
  /** Into how many slices. */
  total: number;
}

/**
 * Reads `--shard i/n` (`2/3`). Throws {@link UsageError} for anything else.
 * @internal
 */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const total = Number(match?.[2]);
  if (!match || total < 1 || index < 1 || index > total) {
    throw new UsageError('usage', `--shard takes i/n with 1 <= i <= n, such as 1/3; got ${JSON.stringify(text)}.`);
  }
  return { index, total };
}

/**
 * The scripts of one shard. The split is deterministic: the files are sorted (by their path
 * with forward slashes) and dealt round-robin, so every machine computes the same split from
 * the same list, whatever order the shell globbed it in, and the shards differ in size by at
 * most one.
 * @internal
 */
export function selectShard<T extends string>(files: readonly T[], shard: Shard): T[] {
  const sorted = [...new Set(files)].sort((a, b) => {
    const x = a.replaceAll('\\', '/');
    const y = b.replaceAll('\\', '/');
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return sorted.filter((_, i) => i % shard.total === shard.index - 1);
}
