import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REQUIREMENTS } from '../requirements.js';

const root = resolve(__dirname, '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'fixtures' ? [] : testFiles(path);
    return /\.test\.ts$/.test(name) && !path.endsWith('requirements-coverage.test.ts') ? [path] : [];
  });
}

describe('requirements coverage', () => {
  it('every requirement of protocol v1 is cited by at least one test', () => {
    const cited = new Set<string>();
    for (const file of testFiles(root)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\[([A-Z0-9-]+(?:\s*,\s*[A-Z0-9-]+)*)\]/g)) {
        for (const id of match[1]!.split(/\s*,\s*/)) cited.add(id);
      }
    }
    const missing = Object.keys(REQUIREMENTS).filter((id) => !cited.has(id));
    expect(missing, `requirements with no test: ${missing.join(', ')}`).toEqual([]);
  });
});
