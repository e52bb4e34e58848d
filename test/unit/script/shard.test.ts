import { describe, expect, it } from 'vitest';
import { UsageError } from 'aite';
import { parseShard, selectShard } from '../../../src/sdk/script/shard.js';

describe('shards', () => {
  const files = ['c.aite.json', 'a.aite.json', 'e.aite.json', 'b.aite.json', 'd.aite.json'];

  it('deals sorted files round-robin: every file in exactly one shard, sizes differ by at most one', () => {
    const shards = [1, 2, 3].map((index) => selectShard(files, { index, total: 3 }));
    expect(shards).toEqual([['a.aite.json', 'd.aite.json'], ['b.aite.json', 'e.aite.json'], ['c.aite.json']]);
    expect(shards.flat().sort()).toEqual([...files].sort());
  });

  it('does not depend on the order the shell listed the files in', () => {
    expect(selectShard([...files].reverse(), { index: 2, total: 2 })).toEqual(selectShard(files, { index: 2, total: 2 }));
  });

  it('parses i/n and refuses anything else', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, total: 3 });
    for (const bad of ['0/3', '4/3', '1', 'a/b', '1/0']) expect(() => parseShard(bad)).toThrow(UsageError);
  });
});
