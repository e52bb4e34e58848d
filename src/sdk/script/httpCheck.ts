import { AiteError } from '../errors/AiteError.js';
import type { StepOf } from './schema.js';

type HttpCheck = StepOf<'http'>['http'];

/**
 * Asks the app's API and checks the answer: the status (default any 2xx), a JSON subset, a text.
 * Throws `AiteError` (`mismatch`, `timeout`, `load-failed`) saying what was expected and found.
 */
export async function httpCheck(
  check: HttpCheck,
  options: { timeoutMs: number; baseUrl?: string; fetch?: typeof fetch },
): Promise<{ status: number }> {
  const url = new URL(check.url, options.baseUrl).href;
  const method = check.method ?? (check.body === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = { accept: 'application/json, text/plain, */*', ...check.headers };
  if (check.body !== undefined) headers['content-type'] ??= 'application/json';
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  let body: string;
  try {
    response = await doFetch(url, {
      method,
      headers,
      body: check.body === undefined ? undefined : JSON.stringify(check.body),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    body = method === 'HEAD' ? '' : await response.text();
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      throw new AiteError('timeout', `${method} ${url} did not answer within ${options.timeoutMs} ms. Is the app running? Raise timeoutMs if it is slow.`, {
        command: 'http',
        detail: { url, method },
      });
    }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new AiteError('load-failed', `${method} ${url} failed: ${cause?.code ?? cause?.message ?? (error as Error).message}. Is the app running at that address?`, {
      command: 'http',
      detail: { url, method },
      cause: error,
    });
  }
  const found = { status: response.status, body: body.length > 2000 ? `${body.slice(0, 2000)}…` : body };
  const statusOk = check.status === undefined ? response.status >= 200 && response.status < 300 : response.status === check.status;
  if (!statusOk) {
    throw new AiteError('mismatch', `${method} ${url} answered ${response.status}, expected ${check.status ?? 'a 2xx status'}.`, {
      command: 'http',
      detail: { url, method, expected: { status: check.status ?? '2xx' }, found },
    });
  }
  if (check.contains !== undefined && !body.includes(check.contains)) {
    throw new AiteError('mismatch', `${method} ${url}: the answer does not contain ${JSON.stringify(check.contains)}.`, {
      command: 'http',
      detail: { url, method, expected: { contains: check.contains }, found },
    });
  }
  if (check.json !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new AiteError('mismatch', `${method} ${url}: expected a JSON answer, got ${JSON.stringify(body.slice(0, 80))}.`, {
        command: 'http',
        detail: { url, method, expected: { json: check.json }, found },
      });
    }
    const difference = subsetDifference(check.json, parsed, '');
    if (difference) {
      throw new AiteError(
        'mismatch',
        `${method} ${url}: ${difference.path || 'the answer'} is ${JSON.stringify(difference.found)}, expected ${JSON.stringify(difference.expected)}.`,
        { command: 'http', detail: { url, method, expected: check.json, found: parsed, path: difference.path } },
      );
    }
  }
  return { status: response.status };
}

/**
 * The first place where `actual` does not contain `expected`: objects need the expected keys
 * (others are ignored), arrays the same length with each item matching, anything else equality.
 */
export function subsetDifference(expected: unknown, actual: unknown, path: string): { path: string; expected: unknown; found: unknown } | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return { path, expected, found: actual };
    for (const [i, item] of expected.entries()) {
      const d = subsetDifference(item, actual[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return { path, expected, found: actual };
    for (const [key, value] of Object.entries(expected)) {
      const d = subsetDifference(value, (actual as Record<string, unknown>)[key], path ? `${path}.${key}` : key);
      if (d) return d;
    }
    return undefined;
  }
  return Object.is(expected, actual) ? undefined : { path, expected, found: actual };
}
