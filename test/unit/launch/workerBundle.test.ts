import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The worker is parsed and run each time Chrome starts it (every launch, every wake), so its
// size is start-up time. build/extension-zod.ts keeps zod's unused parts out of it.
describe('the extension worker bundle', () => {
  const worker = readFileSync(resolve(__dirname, '../../../dist/extension/worker.js'), 'utf8');

  it('carries the protocol schemas without the rest of zod', () => {
    expect(worker.length).toBeLessThan(200_000);
    // A message of zod's German locale: in zod, not in the worker.
    expect(worker).not.toContain('Ungültige Eingabe');
    // The English messages the worker's refusals quote are there.
    expect(worker).toContain('Invalid input');
  });
});
