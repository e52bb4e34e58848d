// What leaves aite for a human or a CI log (report.json, index.html, junit.xml, the terminal) goes
// through here: secrets a URL carries are masked, and a string no reader needs in full is cut,
// so a page or a script cannot make a report huge. One function, used by every writer.

/** Longest string kept whole in a report; the rest is cut with a note of how much. */
export const MAX_REPORT_STRING = 10_000;

/** Deeper than this a report value is replaced by a note (reports are a few levels deep). */
const MAX_REPORT_DEPTH = 32;

// scheme://userinfo@ : the userinfo (user, password, or a token used as user) is the secret.
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>`]+@/gi;

/**
 * `text` with the user and password of every URL in it masked: `https://ana:s3cret@host/` is
 * written `https://***@host/`.
 *
 * @example
 * ```ts
 * import { redactSecrets } from 'aite';
 *
 * console.log(redactSecrets('navigate https://ana:s3cret@shop.test/')); // navigate https://***@shop.test/
 * ```
 * @public
 */
export function redactSecrets(text: string): string {
  return text.replace(URL_USERINFO, '$1***@');
}

/** `text` redacted, and cut to {@link MAX_REPORT_STRING} characters with a note of what was cut. */
export function reportText(text: string): string {
  const redacted = redactSecrets(text);
  if (redacted.length <= MAX_REPORT_STRING) return redacted;
  return `${redacted.slice(0, MAX_REPORT_STRING)}… (${redacted.length - MAX_REPORT_STRING} more characters not shown)`;
}

/**
 * A copy of a report (or any JSON value) as it may be written: every string, keys too, with the
 * secrets of its URLs masked ({@link redactSecrets}) and cut to 10,000 characters. `writeReport`
 * writes this; so does the CLI's `--reporter json`.
 *
 * @example
 * ```ts
 * import { reportSafe, runSuite } from 'aite';
 *
 * const { report } = await runSuite(['send.aite.json']);
 * process.stdout.write(JSON.stringify(reportSafe(report)));
 * ```
 * @public
 */
export function reportSafe<T>(value: T): T {
  return safe(value, 0) as T;
}

function safe(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return reportText(value);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Uint8Array) return value;
  if (depth >= MAX_REPORT_DEPTH) return '(nested too deep to show)';
  if (Array.isArray(value)) return value.map((v) => safe(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [reportText(k), safe(v, depth + 1)]));
}
