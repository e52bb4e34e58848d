import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { UsageError } from './UsageError.js';

/** A path into parsed data: object keys and array indices. */
export type DataPath = ReadonlyArray<PropertyKey>;

/**
 * Line and column (1-based) of a value in a script file: where {@link LoadedScript.locate} says it
 * sits, so a message can point at it.
 *
 * @example
 * ```ts
 * import { loadScript, type Position } from 'aite';
 *
 * const loaded = await loadScript('send.aite.json');
 * const at: Position | undefined = loaded.locate(['steps', 0]);
 * if (at) console.log(`send.aite.json:${at.line}:${at.column}`);
 * ```
 * @public
 */
export interface Position {
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
}

/**
 * The text of a JSON or YAML file, parsed, and able to say where a value sits in it, so an
 * error can name the line. JSON is parsed strictly by `JSON.parse` (its errors are the ones a
 * JSON user knows); positions come from the YAML parser, which reads JSON too.
 */
export class SourceText {
  readonly data: unknown;
  readonly #doc: Document | undefined;
  readonly #lines: LineCounter;

  private constructor(data: unknown, doc: Document | undefined, lines: LineCounter) {
    this.data = data;
    this.#doc = doc;
    this.#lines = lines;
  }

  /** Parses `text`; `file` picks the format by its extension and names it in errors. */
  static parse(text: string, file: string): SourceText {
    const lines = new LineCounter();
    const json = /\.json$/i.test(file) || (!/\.ya?ml$/i.test(file) && /^\s*[{[]/.test(text));
    if (json) {
      let data: unknown;
      try {
        data = JSON.parse(text.replace(/^\uFEFF/, ''));
      } catch (error) {
        throw jsonSyntaxError(error, text, file);
      }
      const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false, prettyErrors: false });
      return new SourceText(data, doc.errors.length === 0 ? doc : undefined, lines);
    }
    const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
    const first = doc.errors[0];
    if (first) {
      const at = lines.linePos(first.pos[0]);
      const message = first.message.replace(/ at line \d+, column \d+:?[\s\S]*$/, '').trim();
      throw new UsageError('syntax', [
        { file, line: at.line, column: at.col, message: `this is not valid YAML: ${lowerFirst(message)}.` },
      ]);
    }
    return new SourceText(doc.toJS({ maxAliasCount: 100 }), doc, lines);
  }

  /**
   * Where the value at `path` is; with `key`, where its key is. Falls back to the deepest
   * existing parent, so a missing field points at the object it is missing from.
   */
  locate(path: DataPath, options: { key?: boolean } = {}): Position | undefined {
    if (!this.#doc) return undefined;
    let node: unknown = this.#doc.contents;
    let at: [number, number, number] | undefined = (node as Node | null)?.range ?? undefined;
    for (const [i, segment] of path.entries()) {
      const last = i === path.length - 1;
      if (isMap(node)) {
        const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === segment);
        if (!pair) break;
        const keyRange = isScalar(pair.key) ? pair.key.range : undefined;
        if (last && options.key && keyRange) {
          at = keyRange;
          break;
        }
        node = pair.value;
        at = (node as Node | null)?.range ?? keyRange ?? at;
      } else if (isSeq(node) && typeof segment === 'number') {
        node = node.items[segment];
        if (!node) break;
        at = (node as Node).range ?? at;
      } else {
        break;
      }
    }
    if (!at) return undefined;
    const pos = this.#lines.linePos(at[0]);
    return { line: pos.line, column: pos.col };
  }
}

function jsonSyntaxError(error: unknown, text: string, file: string): UsageError {
  const raw = error instanceof Error ? error.message : String(error);
  const position = /at position (\d+)/.exec(raw);
  const lineCol = /\(line (\d+) column (\d+)\)/.exec(raw);
  let line: number | undefined;
  let column: number | undefined;
  if (lineCol) {
    line = Number(lineCol[1]);
    column = Number(lineCol[2]);
  } else if (position) {
    const before = text.slice(0, Number(position[1]));
    line = before.split('\n').length;
    column = before.length - before.lastIndexOf('\n');
  } else if (unexpectedTokenAt(raw, text) !== undefined) {
    const before = text.slice(0, unexpectedTokenAt(raw, text));
    line = before.split('\n').length;
    column = before.length - before.lastIndexOf('\n');
  } else if (/Unexpected end of JSON input/.test(raw)) {
    line = text.split('\n').length;
  }
  const message = raw
    .replace(/, (\.\.\.)?".*" is not valid JSON$/s, '')
    .replace(/ in JSON at position \d+.*$/s, '')
    .replace(/ after JSON at position \d+.*$/s, ' after the end of the JSON')
    .replace(/^(Unexpected token '?[\]}]'?)$/, '$1 (a comma too many before it?)')
    .replace(/\s*\(line \d+ column \d+\)/, '')
    .replace(/^Unexpected end of JSON input$/, 'the file ends too early (a missing } or ]?)')
    .trim();
  const hint = text.trim() === '' ? 'the file is empty; a script is an object such as { "steps": [ { "navigate": "http://127.0.0.1:4173/" } ] }' : lowerFirst(message);
  return new UsageError('syntax', [{ file, line, column, message: `this is not valid JSON: ${hint}.` }], { cause: error });
}

/**
 * Node 20 says `Unexpected token ']', ..."e": "/" }, ] }" is not valid JSON`: no position, but
 * the text around it, starting 10 characters before the token when it starts with `...`.
 */
function unexpectedTokenAt(message: string, text: string): number | undefined {
  const match = /^Unexpected token '?(.)'?, (\.\.\.)?"(.*?)"(\.\.\.)? is not valid JSON$/s.exec(message);
  if (!match) return undefined;
  const [, token, cut, context] = match as unknown as [string, string, string | undefined, string];
  const start = text.indexOf(context);
  if (start < 0) return undefined;
  return cut ? start + 10 : start + Math.max(0, context.indexOf(token));
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
