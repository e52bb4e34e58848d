import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');

/**
 * What each folder of src/ may import, besides itself (like Playwright's DEPS.list). A folder's
 * rule is the longest key that contains it. `node:*` is any Node builtin; a package is named as
 * it is installed. The layers, bottom up: protocol; errors, identity, events and system (what the
 * operating system says of a process, and folders made where it may refuse); bridge, lock and launch;
 * session; config, report and script; testing; the index. The extension sees only the protocol,
 * and the CLI and the runner entries only the public index (`aite`).
 */
const DEPS: Record<string, readonly string[]> = {
  'src/sdk/protocol': ['zod'],
  'src/sdk/errors': ['src/sdk/protocol', 'yaml', 'zod'],
  // Reading a file of bounded size is the one thing of errors/ that touches the disk.
  'src/sdk/errors/fileLimits.ts': ['node:*'],
  'src/sdk/identity': ['node:*'],
  'src/sdk/events': [],
  'src/sdk/system': ['node:*'],
  'src/sdk/bridge': ['src/sdk/protocol', 'src/sdk/errors', 'src/sdk/identity', 'src/sdk/events', 'node:*', 'ws'],
  'src/sdk/lock': ['src/sdk/protocol', 'src/sdk/errors', 'src/sdk/system', 'node:*', 'zod'],
  'src/sdk/launch': ['src/sdk/protocol', 'src/sdk/errors', 'src/sdk/identity', 'src/sdk/system', 'node:*', 'puppeteer-core', 'zod'],
  'src/sdk/session': ['src/sdk/protocol', 'src/sdk/errors', 'src/sdk/bridge', 'src/sdk/launch', 'src/sdk/identity', 'src/sdk/lock', 'src/sdk/events', 'src/sdk/system', 'node:*', 'puppeteer-core', 'zod'],
  'src/sdk/config': ['src/sdk/protocol', 'src/sdk/errors', 'src/sdk/launch', 'node:*', 'zod'],
  'src/sdk/report': ['src/sdk/errors', 'src/sdk/system', 'node:*', 'zod'],
  'src/sdk/script': ['src/sdk/protocol', 'src/sdk/errors', 'src/sdk/config', 'src/sdk/launch', 'src/sdk/lock', 'src/sdk/report', 'src/sdk/session', 'src/sdk/system', 'node:*', 'yaml', 'zod'],
  'src/sdk/testing': ['src/sdk/protocol', 'src/sdk/errors', 'src/sdk/session', 'src/sdk/system', 'node:*'],
  'src/sdk/index.ts': ['src/sdk'],
  'src/extension': ['src/sdk/protocol'],
  'src/cli': ['aite', 'package.json', 'node:*', 'commander', 'picocolors'],
  // aite mcp: the MCP SDK, zod for its tool inputs (derived from the script format's schemas), and
  // puppeteer-core's types for the interim snapshot over the pipe (session.browser).
  'src/cli/mcp': ['aite', 'src/cli', 'node:*', '@modelcontextprotocol/sdk', 'zod', 'puppeteer-core'],
  'src/embed': ['aite', 'node:*', 'vitest', 'jest-environment-node'],
};

/** Globals a folder may not use; the rules of every key that contains a file apply to it. */
const FORBIDDEN_GLOBALS: Record<string, readonly string[]> = {
  src: ['require'],
  'src/sdk': ['chrome', 'document', 'window'],
  'src/sdk/protocol': ['process', 'Buffer', 'global'],
  'src/extension': ['process', 'Buffer', 'global'],
  'src/extension/worker': ['document', 'window'],
  'src/cli': ['chrome', 'document', 'window'],
  'src/embed': ['chrome', 'document', 'window'],
};

interface Use {
  file: string;
  line: number;
  what: string;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function keyOf(table: Record<string, unknown>, path: string): string | undefined {
  return Object.keys(table)
    .filter((key) => path === key || path.startsWith(`${key}/`))
    .sort((a, b) => b.length - a.length)[0];
}

/** Every module a file loads (import, export from, import(), side-effect import, require), and every free use of a watched global. */
function scan(path: string): { imports: Array<{ spec: string; line: number; sideEffect: boolean }>; globals: Array<{ name: string; line: number }> } {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const lineOf = (node: ts.Node): number => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const imports: Array<{ spec: string; line: number; sideEffect: boolean }> = [];
  const globals: Array<{ name: string; line: number }> = [];
  const declared = new Set<string>();
  const watched = new Set(Object.values(FORBIDDEN_GLOBALS).flat());
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      imports.push({ spec: node.moduleSpecifier.text, line: lineOf(node), sideEffect: node.importClause === undefined });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      imports.push({ spec: node.moduleSpecifier.text, line: lineOf(node), sideEffect: false });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      globals.push({ name: 'require', line: lineOf(node) });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) imports.push({ spec: arg.text, line: lineOf(node), sideEffect: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      imports.push({ spec: node.argument.literal.text, line: lineOf(node), sideEffect: false });
    }
    if ((ts.isVariableDeclaration(node) || ts.isParameter(node) || ts.isBindingElement(node) || ts.isFunctionDeclaration(node)) && node.name && ts.isIdentifier(node.name)) {
      declared.add(node.name.text);
    }
    if (ts.isIdentifier(node) && watched.has(node.text) && isFreeReference(node)) globals.push({ name: node.text, line: lineOf(node) });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { imports, globals: globals.filter((g) => !declared.has(g.name)) };
}

/** An identifier that names a value of the scope, not a property, a key or a declaration. */
function isFreeReference(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if (ts.isQualifiedName(parent) && parent.right === node) return false;
  if ((ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertySignature(parent) || ts.isMethodDeclaration(parent) || ts.isMethodSignature(parent)) && parent.name === node) return false;
  if (ts.isShorthandPropertyAssignment(parent)) return true;
  if (ts.isBindingElement(parent) && parent.propertyName === node) return false;
  if ((ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isBindingElement(parent)) && parent.name === node) return false;
  if (ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent) || ts.isImportClause(parent) || ts.isNamespaceImport(parent)) return false;
  if (ts.isTypeAliasDeclaration(parent) || ts.isInterfaceDeclaration(parent) || ts.isEnumMember(parent)) return false;
  return true;
}

/** Where an import specifier points: a path under the repository, `node:*`, or a package name. */
function targetOf(file: string, spec: string): string {
  if (spec.startsWith('.')) return relative(root, resolve(dirname(file), spec)).replace(/\.js$/, '');
  if (spec.startsWith('node:')) return 'node:*';
  return spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
}

/** Every import and global use of src/ that its folder's rules do not allow. */
function violations(srcRoot = join(root, 'src')): Use[] {
  const found: Use[] = [];
  for (const path of files(srcRoot)) {
    const file = relative(root, path);
    const key = keyOf(DEPS, file);
    if (!key) {
      found.push({ file, line: 1, what: 'is in no folder of the import table (add its folder to DEPS)' });
      continue;
    }
    const { imports, globals } = scan(path);
    for (const { spec, line, sideEffect } of imports) {
      if (sideEffect) found.push({ file, line, what: `imports ${spec} for its side effects (import what it exports instead)` });
      const target = targetOf(path, spec);
      const own = target === key || target.startsWith(`${key}/`);
      const allowed = DEPS[key]!.some((dep) => target === dep || target.startsWith(`${dep}/`));
      if (!own && !allowed) found.push({ file, line, what: `imports ${spec} (${target}), which ${key} may not` });
    }
    const scopes = Object.entries(FORBIDDEN_GLOBALS).filter(([scope]) => file.startsWith(`${scope}/`));
    for (const { name, line } of globals) {
      const scope = scopes.find(([, names]) => names.includes(name))?.[0];
      if (scope) found.push({ file, line, what: `uses the global ${name}, which ${scope} may not` });
    }
  }
  return found;
}

describe('import boundaries', () => {
  it('every file of src/ imports only what the table lets its folder import, with no side-effect imports, require, or forbidden globals', () => {
    const found = violations().map((v) => `${v.file}:${v.line} ${v.what}`);
    expect(found).toEqual([]);
  });

  it('the table itself: the protocol imports only zod, the extension only the protocol, the CLI only the public index', () => {
    expect(DEPS['src/sdk/protocol']).toEqual(['zod']);
    expect(DEPS['src/extension']).toEqual(['src/sdk/protocol']);
    expect(DEPS['src/cli']!.filter((dep) => dep.startsWith('src/'))).toEqual([]);
    expect(DEPS['src/embed']!.filter((dep) => dep.startsWith('src/'))).toEqual([]);
  });
});
