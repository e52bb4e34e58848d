import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

// What a user reads must lead somewhere: every relative link in README.md and docs/*.md names a
// file of the repository (and a heading of it, for `#anchor`), and every step script the docs and
// examples show is valid against the shipped JSON Schema (what an editor checks it with).
const root = resolve(__dirname, '../..');
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const read = (file: string): string => readFileSync(join(root, file), 'utf8');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of outsideCode(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = heading!
      .toLowerCase()
      .replace(/`/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

function outsideCode(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```$/gm, '');
}

function links(markdown: string): string[] {
  return [...outsideCode(markdown).replace(/`[^`\n]*`/g, '').matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.name === 'node_modules' || e.name === 'out' ? [] : e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe('the docs', () => {
  it('every relative link of README.md and docs/*.md resolves to a file (and a heading)', () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const link of links(read(page))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
        const [path, anchor] = link.split('#') as [string, string | undefined];
        const target = path ? relative(root, resolve(dirname(join(root, page)), decodeURIComponent(path))) : page;
        let exists = false;
        try {
          exists = statSync(join(root, target)).isFile() || statSync(join(root, target)).isDirectory();
        } catch {
          exists = false;
        }
        if (!exists) broken.push(`${page}: ${link} (no ${target})`);
        else if (anchor && target.endsWith('.md') && !anchors(read(target)).has(anchor)) broken.push(`${page}: ${link} (no heading #${anchor} in ${target})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('no page sends a user to a file the package does not ship or the repository does not have', () => {
    for (const page of pages) expect(read(page), page).not.toMatch(/\bAPI\.md\b|shared\/design/);
  });

  it("the README's try-it block installs once, and its demo's build is quiet (the result is not buried under build logs)", () => {
    const block = /## Try it[\s\S]*?```sh\n([\s\S]*?)```/.exec(read('README.md'))?.[1] ?? '';
    expect(block.match(/\bnpm ci\b/g)).toHaveLength(1);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    for (const name of ['demo', 'demo:sdk']) expect(scripts[name], name).toMatch(/^npm run -s build:quiet && /);
    // The build has two steps; each one gets the flag, and build:quiet builds what build does.
    expect(scripts['build:quiet']).toBe(scripts.build!.split(' && ').map((step) => `${step} --silent`).join(' && '));
  });

  it('every step script in the docs and examples is valid against schema/aite-script.schema.json', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validate = ajv.compile(JSON.parse(read('schema/aite-script.schema.json')) as object);
    const scripts: Array<{ where: string; value: unknown }> = [];
    for (const page of pages) {
      for (const [, lang, body] of read(page).matchAll(/^```(json|ya?ml)[^\n]*\n([\s\S]*?)^```$/gm)) {
        const value = lang === 'json' ? tryJson(body!) : tryYaml(body!);
        if (value && typeof value === 'object' && 'steps' in value) scripts.push({ where: `${page} (${lang} block)`, value });
      }
    }
    for (const file of walk(join(root, 'examples')).filter((f) => /\.aite\.(json|ya?ml)$/.test(f))) {
      const text = readFileSync(file, 'utf8');
      scripts.push({ where: relative(root, file), value: file.endsWith('.json') ? JSON.parse(text) : parseYaml(text) });
    }
    expect(scripts.length).toBeGreaterThanOrEqual(4);
    const invalid = scripts.filter((s) => !validate(s.value)).map((s) => `${s.where}: ${ajv.errorsText(validate.errors)}`);
    expect(invalid).toEqual([]);
    // The check itself can fail: a misspelt step is refused.
    expect(validate({ steps: [{ clik: 'Send' }] })).toBe(false);
  });
});

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function tryYaml(text: string): unknown {
  try {
    return parseYaml(text);
  } catch {
    return undefined;
  }
}
