import { expect } from 'vitest';

/** The ref on the snapshot line that matches `line` (the test fails, showing the snapshot, when none does). */
export function refOf(text: string, line: RegExp): string {
  const found = text.split('\n').find((l) => line.test(l));
  expect(found, `a line matching ${line} in:\n${text}`).toBeDefined();
  return /\[ref=(e\d+)\]/.exec(found!)![1]!;
}
