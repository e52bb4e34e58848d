import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { embedRunners, embedVitest } from '../../../tsup.config.js';

// Every export of the public entries ('aite' and its runner subpaths) carries TSDoc with a
// summary, a release tag and (unless it is @internal) at least one `@example` code block; every example is compiled
// against the real types, as a user's file that imports from 'aite'. An example that no longer
// type-checks fails here, with the symbol's name and the compiler's message, not in a user's
// editor. One Program reads the entries, a second (reusing the first) checks all examples.
const root = resolve(__dirname, '../../..');
const out = join(root, 'node_modules/.cache/aite-tsdoc-examples');

/** Each public entry, by the specifier a user imports it with. */
const ENTRIES: Record<string, string> = {
  aite: 'src/sdk/index.ts',
  // The runner subpaths as the build makes them (a module they share is no entry of its own).
  ...Object.fromEntries(Object.entries({ ...embedRunners.entry, ...embedVitest.entry }).map(([name, file]) => [`aite/${name}`, file])),
};

const RELEASE_TAGS = ['public', 'beta', 'alpha', 'internal'];

interface PublicSymbol {
  /** `aite/mocha:useAite` */
  name: string;
  /** Where it is declared, for the message. */
  at: string;
  summary: string;
  tags: string[];
  examples: string[];
}

const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
const options: ts.CompilerOptions = {
  ...config.options,
  noEmit: true,
  noUnusedLocals: false,
  paths: { aite: [join(root, 'src/sdk/index.ts')], 'aite/*': [join(root, 'src/embed/*.ts')] },
};

/** The code of a TSDoc `@example`: its fenced ts block(s); prose around them is the example's title. */
function codeBlocks(text: string): string[] {
  return [...text.matchAll(/```(?:ts|typescript)\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

function docOf(declaration: ts.Declaration): { summary: string; tags: string[]; examples: string[] } {
  // A variable's TSDoc sits on its statement.
  const node = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
  const docs = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
  const summary = docs.map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '').join(' ').trim();
  const tags = docs.flatMap((doc) => doc.tags ?? []);
  return {
    summary,
    tags: tags.map((tag) => tag.tagName.text),
    examples: tags.filter((tag) => tag.tagName.text === 'example').flatMap((tag) => codeBlocks(ts.getTextOfJSDocComment(tag.comment) ?? '')),
  };
}

function publicSymbols(program: ts.Program): PublicSymbol[] {
  const checker = program.getTypeChecker();
  return Object.entries(ENTRIES).flatMap(([specifier, file]) => {
    const source = program.getSourceFile(join(root, file))!;
    return checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).map((exported) => {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declarations = symbol.declarations ?? [];
      const docs = declarations.map(docOf);
      const first = declarations[0];
      return {
        name: `${specifier}:${exported.name}`,
        at: first ? `${relative(root, first.getSourceFile().fileName)}:${first.getSourceFile().getLineAndCharacterOfPosition(first.getStart()).line + 1}` : '?',
        summary: docs.map((doc) => doc.summary).join(' ').trim(),
        tags: docs.flatMap((doc) => doc.tags),
        examples: docs.flatMap((doc) => doc.examples),
      };
    });
  });
}

const RUNNER_GLOBALS: Record<string, string> = {
  describe: 'declare const describe: (name: string, body: (this: { timeout(ms: number): void }) => void) => void;',
  it: 'declare const it: (name: string, body: (this: unknown) => Promise<void>) => void;',
  test: 'declare const test: (name: string, body: () => Promise<void>) => void;',
  module: 'declare const module: { exports: unknown };',
};

/**
 * What a short example leaves out: the runner globals it uses without importing them (Jest's and
 * Mocha's `describe`, `it`, `test`), and, when it imports nothing from aite, the public names it
 * uses, imported from 'aite'. (The protocol's examples import nothing: the protocol may not name
 * 'aite', not even in a comment; see boundaries.test.ts.)
 */
function prelude(code: string, rootNames: string[]): string {
  const lines = Object.entries(RUNNER_GLOBALS)
    .filter(([name]) => new RegExp(`\\b${name}\\b[(.]`).test(code) && !new RegExp(`import\\s*\\{[^}]*\\b${name}\\b`).test(code))
    .map(([, declaration]) => declaration);
  if (!/from 'aite(\/[\w-]+)?'|require\('aite/.test(code)) {
    const used = rootNames.filter((name) => new RegExp(`(?<![\\w.'"])${name}\\b`).test(code.replace(/\/\/.*$/gm, '')));
    if (used.length > 0) lines.push(`import { ${used.join(', ')} } from 'aite';`);
  }
  return lines.join('\n');
}

let program: ts.Program;
let symbols: PublicSymbol[];
beforeAll(() => {
  program = ts.createProgram(Object.values(ENTRIES).map((file) => join(root, file)), options);
  symbols = publicSymbols(program);
}, 120_000);

describe('TSDoc of the public API', () => {
  it('reads every entry: the root and each runner subpath', () => {
    const specifiers = new Set(symbols.map((symbol) => symbol.name.split(':')[0]));
    expect([...specifiers].sort()).toEqual(['aite', 'aite/jest', 'aite/jest-environment', 'aite/mocha', 'aite/node-test', 'aite/vitest']);
    expect(symbols.length).toBeGreaterThan(90);
  });

  it('every export has a summary, a release tag and an example', () => {
    const problems = symbols.flatMap((symbol) => [
      ...(symbol.summary ? [] : [`${symbol.name} (${symbol.at}): no TSDoc summary`]),
      ...(symbol.tags.some((tag) => RELEASE_TAGS.includes(tag)) ? [] : [`${symbol.name} (${symbol.at}): no release tag (@public, @beta or @internal)`]),
      // An @internal export is there for the types only (a constructor's parameter): users never write it.
      ...(symbol.examples.length > 0 || symbol.tags.includes('internal') ? [] : [`${symbol.name} (${symbol.at}): no @example with a \`\`\`ts block`]),
    ]);
    expect(problems).toEqual([]);
  });

  it('every example type-checks against the public API, as a file that imports from aite', () => {
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    // A symbol re-exported by several entries shares its declaration, so its examples once.
    const seen = new Set<string>();
    const rootNames = symbols.filter((symbol) => symbol.name.startsWith('aite:')).map((symbol) => symbol.name.slice('aite:'.length));
    const files: { path: string; name: string }[] = [];
    for (const symbol of symbols) {
      for (const code of symbol.examples) {
        if (seen.has(code)) continue;
        seen.add(code);
        const path = join(out, `example-${files.length}.ts`);
        writeFileSync(path, `${prelude(code, rootNames)}\n${code}\nexport {};\n`);
        files.push({ path, name: symbol.name });
      }
    }
    const examples = ts.createProgram({ rootNames: files.map((file) => file.path), options, oldProgram: program });
    const problems = files.flatMap(({ path, name }) =>
      ts.getPreEmitDiagnostics(examples, examples.getSourceFile(path)).map((d) => {
        const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0;
        const text = d.file?.text.split('\n')[line]?.trim();
        return `${name}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')} (at \`${text}\`)`;
      }),
    );
    expect(problems).toEqual([]);
    // The examples import the public API like a user: no path into src.
    for (const { path } of files) expect(ts.sys.readFile(path)).not.toMatch(/from '\.\.?\//);
  }, 180_000);
});
