import { CommandFailure as Failure, DEFAULT_TIMEOUT_MS, type RequestOf } from '../../sdk/protocol/index.js';
import type { AllowList } from './AllowList.js';
import { noPageThere } from './deadPages.js';
import { tabSettled } from './LoadWatch.js';

/** The most JSON an evaluate may answer (the protocol's messages stop at 8 MB). */
export const EVALUATE_RESULT_MAX = 1_000_000;

type PageOutcome =
  | { ok: true; json: string | undefined }
  | { ok: false; kind: 'exception' | 'eval-blocked' | 'not-json'; name: string; message: string; stack?: string };

/**
 * `evaluate`: runs an expression, or a function called with one JSON argument, in the main
 * world of the run tab's top document, and answers its JSON result (a promise is awaited).
 * The allow list holds twice: the tab's page is checked at dispatch, and `executeScript` itself
 * only runs where the extension has host permissions (which are the allow list), so a page that
 * navigated away in between is refused by the browser.
 */
export async function evaluateInTab(request: RequestOf<'evaluate'>, tabId: number, allow: AllowList): Promise<Record<string, unknown>> {
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const tab = await tabSettled(tabId, deadline, 'waiting for the page to load before evaluate');
  if (!allow.allows(tab.url)) {
    throw allow.refusal(tab.url, 'evaluate');
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Failure('timeout', `evaluate did not finish within ${timeoutMs} ms (the page's code may still be running; it cannot be stopped).`)),
      Math.max(1, deadline - Date.now()),
    );
  });
  // A document that goes while its code awaits never answers: `executeScript` would wait out the
  // timeout. Its successor's commit (or the tab's end) says at once that the result is lost.
  let stopWatching = (): void => undefined;
  const gone = new Promise<never>((_, reject) => {
    const committed = ({ tabId: id, frameId, url }: chrome.webNavigation.WebNavigationTransitionCallbackDetails): void => {
      if (id === tabId && frameId === 0) reject(new Failure('navigation', `The page navigated (to ${url}) while evaluate ran: its result is lost. The code ran until then.`, { url }));
    };
    const removed = (id: number): void => {
      if (id === tabId) reject(new Failure('tab-closed', 'The tab closed during evaluate.', { tab: tabId }));
    };
    chrome.webNavigation.onCommitted.addListener(committed);
    chrome.tabs.onRemoved.addListener(removed);
    stopWatching = () => {
      chrome.webNavigation.onCommitted.removeListener(committed);
      chrome.tabs.onRemoved.removeListener(removed);
    };
  });
  let outcome: PageOutcome | undefined;
  try {
    const results = await Promise.race([
      chrome.scripting.executeScript({
        target: { tabId, frameIds: [0] },
        world: 'MAIN',
        func: runInPage,
        // The argument goes as a value: Chrome carries it into the page, which never parses it.
        args: [request.source, request.call === true, JSON.parse(request.arg ?? 'null') as unknown],
      }),
      late,
      gone,
    ]);
    outcome = results[0]?.result as PageOutcome | undefined;
  } catch (error) {
    if (error instanceof Failure) throw error;
    const why = error instanceof Error ? error.message : String(error);
    const now = await chrome.tabs.get(tabId).catch(() => undefined);
    if (!now) throw new Failure('tab-closed', `The tab closed during evaluate.`, { tab: tabId });
    const dead = noPageThere(now, error, 'evaluate did not run.', 'evaluate got no result there.');
    if (dead) throw dead;
    throw new Failure('navigation', `evaluate could not run in the page (${why}): it navigated, or shows a page outside the allow list.`, { error: why });
  } finally {
    clearTimeout(timer);
    stopWatching();
  }
  if (!outcome) throw new Failure('navigation', 'evaluate got no result: the page navigated while it ran.');
  if (!outcome.ok) {
    const exception = { name: outcome.name, message: outcome.message, ...(outcome.stack ? { stack: outcome.stack.slice(0, 4_000) } : {}) };
    if (outcome.kind === 'eval-blocked') {
      throw new Failure('unsupported', `evaluate cannot run here: ${cspRefusal(outcome.message)}`, { exception });
    }
    if (outcome.kind === 'not-json') {
      // The code ran (a tab it opened is open): only its result is lost, and the message says so.
      throw new Failure('unsupported', `evaluate ran, but its result cannot be sent as JSON (${outcome.message}); return plain data (objects, arrays, strings, numbers, booleans, null), or nothing (\`void …\`) when the code runs for what it does.`, { exception, ran: true });
    }
    throw new Failure('internal', `The page threw during evaluate: ${outcome.name}: ${outcome.message}`, { exception, pageException: true });
  }
  if (outcome.json === undefined) return { ok: true };
  if (outcome.json.length > EVALUATE_RESULT_MAX) {
    throw new Failure('unsupported', `evaluate's result is ${outcome.json.length} characters of JSON, over the ${EVALUATE_RESULT_MAX} allowed; return less.`);
  }
  return { ok: true, value: JSON.parse(outcome.json) as unknown };
}

/**
 * Why a page's CSP refused evaluate, and what works instead. Chrome's EvalError names the
 * directive in quotes and ends with a period and a newline: only the directive is kept.
 */
export function cspRefusal(message: string): string {
  const directive = /directive[^:]*:\s*"?([^"\n]*?)"?\.?\s*$/.exec(message)?.[1]?.trim();
  return (
    `the page's Content-Security-Policy${directive ? ` (${directive})` : ''} forbids evaluating code. ` +
    'Read what the page shows with `locator.read` or check it with `verify` (neither evaluates code), or act through the page with click, fill and press.'
  );
}

/**
 * Runs in the page's main world: `executeScript` sends its source text, so it uses nothing from
 * outside. Never throws; says what went wrong instead.
 *
 * The result is written as JSON by a walker of its own, not the page's `JSON.stringify`: a page
 * may have replaced that, or put a `toJSON` on a built-in prototype (Prototype.js's
 * `Array.prototype.toJSON` turns every array into a string). So a `toJSON` found on
 * `Object`/`Array`/`String`/`Number`/`Boolean.prototype` is ignored (the browser defines none);
 * one of the value's own class (a `Date`'s, an app's model) is called, as JSON does. Otherwise it
 * writes what `JSON.stringify` writes, and throws a `TypeError` where it throws (a cycle, a BigInt).
 */
async function runInPage(source: string, call: boolean, arg: unknown): Promise<PageOutcome> {
  const patched = [Object.prototype, Array.prototype, String.prototype, Number.prototype, Boolean.prototype]
    .map((proto) => (proto as { toJSON?: unknown }).toJSON)
    .filter((f) => typeof f === 'function');
  const quote = (text: string): string => {
    let out = '"';
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) out += '\\"';
      else if (c === 0x5c) out += '\\\\';
      else if (c === 0x08) out += '\\b';
      else if (c === 0x0c) out += '\\f';
      else if (c === 0x0a) out += '\\n';
      else if (c === 0x0d) out += '\\r';
      else if (c === 0x09) out += '\\t';
      else if (c < 0x20 || (c >= 0xd800 && c <= 0xdfff && !pairedSurrogate(text, i))) out += `\\u${c.toString(16).padStart(4, '0')}`;
      else out += text[i];
      if (c >= 0xd800 && c <= 0xdbff && pairedSurrogate(text, i)) out += text[++i];
    }
    return `${out}"`;
  };
  const pairedSurrogate = (text: string, i: number): boolean => {
    const c = text.charCodeAt(i);
    if (c <= 0xdbff) return i + 1 < text.length && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff;
    return i > 0 && text.charCodeAt(i - 1) >= 0xd800 && text.charCodeAt(i - 1) <= 0xdbff;
  };
  const open: object[] = [];
  const write = (key: string, raw: unknown): string | undefined => {
    let value = raw;
    if (value !== null && (typeof value === 'object' || typeof value === 'bigint')) {
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function' && !patched.includes(toJSON)) value = (toJSON as (k: string) => unknown).call(value, key);
    }
    if (value instanceof Number) value = Number(value);
    else if (value instanceof String) value = String(value);
    else if (value instanceof Boolean) value = value.valueOf();
    if (value === null) return 'null';
    switch (typeof value) {
      case 'string':
        return quote(value);
      case 'number':
        return Number.isFinite(value) ? String(value) : 'null';
      case 'boolean':
        return value ? 'true' : 'false';
      case 'bigint':
        throw new TypeError('Do not know how to serialize a BigInt');
      case 'object':
        break;
      default:
        return undefined; // undefined, a function, a symbol
    }
    const obj = value as object;
    if (open.includes(obj)) throw new TypeError('Converting circular structure to JSON');
    open.push(obj);
    let out: string;
    if (Array.isArray(obj)) {
      out = '[';
      for (let i = 0; i < obj.length; i++) out += `${i > 0 ? ',' : ''}${write(String(i), obj[i]) ?? 'null'}`;
      out += ']';
    } else {
      out = '{';
      const keys = Object.keys(obj);
      let first = true;
      for (let i = 0; i < keys.length; i++) {
        const part = write(keys[i]!, (obj as Record<string, unknown>)[keys[i]!]);
        if (part === undefined) continue;
        out += `${first ? '' : ','}${quote(keys[i]!)}:${part}`;
        first = false;
      }
      out += '}';
    }
    open.pop();
    return out;
  };
  const failed = (kind: 'exception' | 'eval-blocked' | 'not-json', e: unknown): PageOutcome => {
    const err = e instanceof Error ? e : undefined;
    let message: string;
    try {
      message = err ? err.message : typeof e === 'string' ? e : (write('', e) ?? String(e));
    } catch {
      message = '(a value that cannot be shown)';
    }
    return { ok: false, kind, name: err?.name ?? 'Error', message, ...(err?.stack ? { stack: err.stack } : {}) };
  };
  let compiled: unknown;
  try {
    // Indirect eval: global scope, nothing of this function's visible to the page's code.
    compiled = (0, eval)(call ? `(${source})` : source);
  } catch (e) {
    return failed(e instanceof EvalError ? 'eval-blocked' : 'exception', e);
  }
  let value: unknown;
  try {
    value = call ? await (compiled as (arg: unknown) => unknown)(arg) : await compiled;
  } catch (e) {
    return failed('exception', e);
  }
  try {
    return { ok: true, json: write('', value) };
  } catch (e) {
    return failed('not-json', e);
  }
}
