/**
 * A URL without its secrets, for logs and reports: `user:password@` becomes `***@`. Anything
 * that is not a URL is passed through cut to a readable length.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.length > 2_000 ? `${url.slice(0, 1_999)}…` : url;
  }
  if (parsed.username || parsed.password) {
    parsed.username = '***';
    parsed.password = '';
  }
  const text = parsed.href;
  return text.length > 2_000 ? `${text.slice(0, 1_999)}…` : text;
}
