import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The package as a user gets it: package.json `exports` resolved by Node itself (not by this
// repository's aliases), in ESM and CJS, for the root and every subpath; and bundles that carry
// no test-only code. Needs `npm run build` first. AITE_PACKAGE_ROOT checks another copy.
const root = resolve(process.env.AITE_PACKAGE_ROOT ?? resolve(__dirname, '../..'));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string | Record<string, Record<string, string>>>;
};

/** Each subpath, what it must export, and whether it has a CommonJS form. */
const entries: Array<{ path: string; names: string[]; cjs: boolean }> = [
  {
    path: 'aite',
    names: ['launch', 'attach', 'Session', 'SessionEvent', 'Bridge', 'BridgeEvent', 'AiteError', 'LockFile', 'SessionFixture', 'annotateError'],
    cjs: true,
  },
  { path: 'aite/jest', names: ['useAite', 'SessionFixture'], cjs: true },
  { path: 'aite/jest-environment', names: ['default', 'TestEnvironment'], cjs: true },
  { path: 'aite/mocha', names: ['useAite', 'SessionFixture'], cjs: true },
  { path: 'aite/node-test', names: ['useAite', 'SessionFixture'], cjs: true },
  // Vitest itself is ESM only.
  { path: 'aite/vitest', names: ['useAite', 'SessionFixture'], cjs: false },
];

function node(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
}

function esmNames(specifier: string): string[] {
  return JSON.parse(node(['--input-type=module', '-e', `console.log(JSON.stringify(Object.keys(await import(${JSON.stringify(specifier)}))))`]));
}

function cjsNames(specifier: string): string[] {
  return JSON.parse(node(['-e', `console.log(JSON.stringify(Object.keys(require(${JSON.stringify(specifier)}))))`]));
}

function conditionTargets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Object.values(value as Record<string, unknown>).flatMap(conditionTargets);
}

describe('the package exports', () => {
  it('every file `exports` names exists, with its types', () => {
    for (const [subpath, value] of Object.entries(pkg.exports)) {
      for (const target of conditionTargets(value)) expect(existsSync(join(root, target)), `${subpath} -> ${target}`).toBe(true);
    }
    for (const { path } of entries) {
      const subpath = path === 'aite' ? '.' : `./${path.slice('aite/'.length)}`;
      expect(pkg.exports[subpath], `package.json exports ${subpath}`).toBeDefined();
      expect(JSON.stringify(pkg.exports[subpath]), `${subpath} has types`).toContain('"types"');
    }
  });

  it.each(entries)('$path imports as ESM and names its exports', ({ path, names }) => {
    expect(esmNames(path)).toEqual(expect.arrayContaining(names));
  });

  it.each(entries.filter((entry) => entry.cjs))('$path requires as CommonJS and names its exports', ({ path, names }) => {
    expect(cjsNames(path)).toEqual(expect.arrayContaining(names));
  });

  it('the public classes keep their names in ESM and CJS (runners print constructor.name)', () => {
    const names = "[new m.AiteError('timeout', 'x').constructor.name, m.Session.name, m.Bridge.name, m.LockFile.name].join()";
    expect(node(['-e', `const m = require('aite'); console.log(${names})`]).trim()).toBe('AiteError,Session,Bridge,LockFile');
    expect(node(['--input-type=module', '-e', `const m = await import('aite'); console.log(${names})`]).trim()).toBe('AiteError,Session,Bridge,LockFile');
  });

  it('a runner entry shares the root entry\'s copy of the SDK, in ESM and in CJS', () => {
    expect(node(['-e', "console.log(require('aite/mocha').SessionFixture === require('aite').SessionFixture)"]).trim()).toBe('true');
    const esm = "const [a, b] = await Promise.all([import('aite'), import('aite/node-test')]); console.log(a.SessionFixture === b.SessionFixture)";
    expect(node(['--input-type=module', '-e', esm]).trim()).toBe('true');
  });

  it('the bundles carry no test-only code and no second copy of the SDK', () => {
    const bundles = ['dist/sdk', 'dist/embed', 'dist/cli'].flatMap((dir) =>
      readdirSync(join(root, dir))
        .filter((name) => /\.(c?js)$/.test(name))
        .map((name) => join(dir, name)),
    );
    expect(bundles.length).toBeGreaterThan(8);
    const testOnly = [/test\/(support|unit|e2e|page|fixtures)\//, /FakeExtension|FixtureServer|startFixtureServer/, /\bmsw\b|playwright-core/, /examples\/demo/, /\bexpectTypeOf\b/];
    for (const bundle of bundles) {
      const text = readFileSync(join(root, bundle), 'utf8');
      for (const pattern of testOnly) expect(text, `${bundle} contains ${pattern}`).not.toMatch(pattern);
      const runner = /(?:from\s*|require\()\s*["'](vitest|jest-environment-node|mocha)["']/.exec(text)?.[1];
      if (runner === 'vitest') expect(bundle).toMatch(/^dist\/embed\/vitest\.js$/);
      else if (runner) expect(bundle).toMatch(/^dist\/embed\/jest-environment\.c?js$/);
      if (bundle.startsWith('dist/embed/')) expect(text, `${bundle} bundles the SDK`).not.toMatch(/class (AiteError|Session|Bridge)\b/);
    }
  });
});
