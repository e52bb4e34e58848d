import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function imports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  return [...source.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (m) => (m[1] ?? m[2])!,
  );
}

function resolveTo(file: string, spec: string): string {
  return spec.startsWith('.') ? relative(root, resolve(dirname(file), spec)) : spec;
}

describe('import boundaries', () => {
  it('protocol imports neither Node nor chrome, only zod and itself', () => {
    for (const file of files(join(root, 'src/sdk/protocol'))) {
      for (const spec of imports(file)) {
        const target = resolveTo(file, spec);
        expect(target === 'zod' || target.startsWith('src/sdk/protocol/'), `${relative(root, file)} imports ${spec}`).toBe(true);
      }
      expect(readFileSync(file, 'utf8')).not.toMatch(/\bchrome\.\w+/);
    }
  });

  it('the extension imports only the protocol and itself', () => {
    for (const file of files(join(root, 'src/extension'))) {
      for (const spec of imports(file)) {
        const target = resolveTo(file, spec);
        const ok = target.startsWith('src/extension/') || target.startsWith('src/sdk/protocol/');
        expect(ok, `${relative(root, file)} imports ${spec}`).toBe(true);
      }
    }
  });

  it('the CLI imports only the public index (as "aite") and Node or npm packages', () => {
    for (const file of files(join(root, 'src/cli'))) {
      for (const spec of imports(file)) {
        const target = resolveTo(file, spec);
        const ok = target === 'aite' || target.startsWith('src/cli/') || !spec.startsWith('.');
        expect(ok && !target.startsWith('src/sdk'), `${relative(root, file)} imports ${spec}`).toBe(true);
      }
    }
  });
});
