/**
 * The first number in a text, for `numberChange`: "1,234.5 MALLBUCKS" is 1234.5, "−3 items" is
 * -3. Groups of three digits may be separated by ",", a no-break space or a narrow no-break
 * space; "." is the decimal point. A plain space ends a number ("5 10" is 5), since it is more
 * often a gap between two numbers than a group separator.
 */
export function firstNumber(text: string): number | undefined {
  const m = /([-−–]?)(\d{1,3}(?:[,\u00a0\u202f]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)/.exec(text);
  if (!m) return undefined;
  const digits = m[2]!.replace(/[,\u00a0\u202f]/g, '');
  const n = Number(digits);
  return m[1] ? -n : n;
}

/** Equal up to floating-point noise (0.1 + 0.2 is 0.3 here). */
export function sameNumber(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}
