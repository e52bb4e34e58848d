import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as publicApi from '../../../src/sdk/index.js';

// Every `@example` in the TSDoc of the public code is compiled against the real types: an
// example that no longer type-checks fails here, not in a user's editor. An example that imports
// nothing from 'aite' gets the public names it uses imported; runner globals that an example
// uses without importing (Jest's and Mocha's `describe`, `it`, `test`) are declared.
const root = resolve(__dirname, '../../..');
const out = join(root, 'node_modules/.cache/aite-tsdoc-examples');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.ts$/.test(name) ? [path] : [];
  });
}

interface Example {
  from: string;
  code: string;
}

function examples(file: string): Example[] {
  const text = readFileSync(file, 'utf8');
  const found: Example[] = [];
  for (const comment of text.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
    const body = comment[1]!.replace(/^[ \t]*\* ?/gm, '');
    for (const block of body.matchAll(/@example\s*\n```(?:ts|typescript)\n([\s\S]*?)```/g)) {
      const line = text.slice(0, comment.index).split('\n').length;
      found.push({ from: `${relative(root, file)}:${line}`, code: block[1]! });
    }
  }
  return found;
}

const RUNNER_GLOBALS: Record<string, string> = {
  describe: 'declare const describe: (name: string, body: (this: { timeout(ms: number): void }) => void) => void;',
  it: 'declare const it: (name: string, body: (this: unknown) => Promise<void>) => void;',
  test: 'declare const test: (name: string, body: () => Promise<void>) => void;',
};

function prelude(code: string): string {
  const lines = Object.entries(RUNNER_GLOBALS)
    .filter(([name]) => new RegExp(`\\b${name}\\(`).test(code) && !new RegExp(`import\\s*\\{[^}]*\\b${name}\\b`).test(code))
    .map(([, declaration]) => declaration);
  if (!/from '(aite|aite\/[\w-]+)'|require\('aite/.test(code)) {
    const used = Object.keys(publicApi).filter((name) => new RegExp(`\\b${name}\\b`).test(code));
    if (used.length > 0) lines.push(`import { ${used.join(', ')} } from 'aite';`);
  }
  return lines.join('\n');
}

const all = [...sources(join(root, 'src/sdk')), ...sources(join(root, 'src/embed'))].flatMap(examples);

describe('TSDoc examples', () => {
  it('there are examples for the embedding API, the launch and the runner entries', () => {
    const files = new Set(all.map((example) => example.from.split(':')[0]));
    for (const file of ['src/sdk/session/launch.ts', 'src/sdk/testing/SessionFixture.ts', 'src/embed/vitest.ts', 'src/embed/jest.ts', 'src/embed/mocha.ts', 'src/embed/node-test.ts']) {
      expect(files.has(file), file).toBe(true);
    }
  });

  it('every example type-checks against the public API', () => {
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    const files = all.map((example, i) => {
      const path = join(out, `example-${i}.ts`);
      writeFileSync(path, `${prelude(example.code)}\n${example.code}\nexport {};\n`);
      return { path, from: example.from };
    });
    const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
    const options: ts.CompilerOptions = {
      ...config.options,
      noEmit: true,
      noUnusedLocals: false,
      paths: { aite: [join(root, 'src/sdk/index.ts')], 'aite/*': [join(root, 'src/embed/*.ts')] },
    };
    const program = ts.createProgram(files.map((file) => file.path), options);
    const problems = files.flatMap(({ path, from }) =>
      ts.getPreEmitDiagnostics(program, program.getSourceFile(path)).map((d) => `${from}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`),
    );
    expect(problems).toEqual([]);
  }, 180_000);
});
