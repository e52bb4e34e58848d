import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializeValue } from '@vitest/utils/serialize';
import { afterEach, describe, expect, it } from 'vitest';
import { AiteError, SessionFixture } from '../../../src/sdk/index.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function failedClick(): AiteError {
  const error = AiteError.fromFailure(
    { reason: 'not-found', message: 'No element matches text "Withdraw".', detail: { candidates: [], token: 'f00d', bridge: { url: 'ws://127.0.0.1:1/ext', token: 'beef' } }, retries: 2 },
    'resolve',
    ['resolve {"text":"Withdraw"}'],
  ).withCallLog(['click {"text":"Withdraw"}']);
  error.screenshot = PNG;
  return error;
}

describe('AiteError as data', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    delete process.env.AITE_RESULTS_DIR;
  });

  it('[ERR-CALL-LOG-BOUNDED] a call log stays short: a run of identical lines is one line with its count, and past 100 lines the middle is left out with a count', () => {
    const repeated = new AiteError('timeout', 'click sent no input.', { callLog: ['click {"ref":"e9"}', ...Array.from({ length: 10_000 }, () => '  resolve was re-sent 1 time(s)'), '  gave up'] });
    expect(repeated.callLog).toEqual(['click {"ref":"e9"}', '  resolve was re-sent 1 time(s) (×10000)', '  gave up']);
    const many = new AiteError('timeout', 'wait timed out.', { callLog: Array.from({ length: 5_000 }, (_, i) => `try ${i} ${'x'.repeat(5_000)}`) }).withCallLog(['wait {"text":"Done"}']);
    expect(many.callLog).toHaveLength(100);
    expect(many.callLog[0]).toBe('wait {"text":"Done"}');
    expect(many.callLog).toContain('… 4902 more line(s) left out');
    expect(many.callLog.at(-1)).toMatch(/^try 4999 x+… \(3049 more characters\)$/);
    expect(many.message.length).toBeLessThan(250_000);
  });

  it('[RT-COUNTED] toJSON carries the reason, message, detail, command, retries and call log, never a token or the PNG bytes', () => {
    const json = failedClick().toJSON();
    expect(json).toEqual({
      name: 'AiteError',
      reason: 'not-found',
      message: 'No element matches text "Withdraw".\nCall log:\n  - click {"text":"Withdraw"}\n  - resolve {"text":"Withdraw"}',
      detail: { candidates: [], token: '[redacted]', bridge: { url: 'ws://127.0.0.1:1/ext', token: '[redacted]' } },
      command: 'resolve',
      retries: 2,
      callLog: ['click {"text":"Withdraw"}', 'resolve {"text":"Withdraw"}'],
      screenshot: '(PNG of 8 bytes, not written to a file)',
    });
    const text = JSON.stringify(failedClick());
    expect(text).not.toContain('f00d');
    expect(text).not.toContain('beef');
  });

  it('the error itself keeps its detail as it was: only the serialised copy is redacted', () => {
    expect(failedClick().detail.token).toBe('f00d');
  });

  it("survives Vitest's serialisation readably: the fields a failure hook reads are still there", () => {
    const copy = serializeValue(failedClick()) as Record<string, unknown>;
    expect(copy.reason).toBe('not-found');
    expect(copy.retries).toBe(2);
    expect(copy.callLog).toEqual(['click {"text":"Withdraw"}', 'resolve {"text":"Withdraw"}']);
    expect(String(copy.message)).toContain('No element matches text "Withdraw"');
    expect(typeof copy.stack).toBe('string');
    expect(JSON.stringify(copy)).not.toContain('f00d');
  });

  it('never throws, whatever the detail and the cause hold: cycles, objects without a prototype', () => {
    const detail: Record<string, unknown> = { token: 'f00d' };
    detail.self = detail;
    const bare = Object.create(null) as Record<string, unknown>;
    bare.code = -32000;
    const error = new AiteError('internal', 'click failed.', { detail, cause: bare });
    const json = error.toJSON();
    expect(json.detail).toEqual({ token: '[redacted]', self: '[circular]' });
    expect(json.cause).toBe('{"code":-32000}');
    expect(() => serializeValue(error)).not.toThrow();
    expect(new AiteError('internal', 'x', { cause: 'pipe closed' }).toJSON().cause).toBe('pipe closed');
  });

  it('names the cause, and keeps the screenshot path through withCallLog', () => {
    const error = new AiteError('internal', 'The bridge stopped.', { cause: new TypeError('socket hang up') });
    error.screenshotPath = 'aite-results/x.png';
    const json = error.withCallLog(['navigate /']).toJSON();
    expect(json.cause).toBe('TypeError: socket hang up');
    expect(json.screenshot).toBe('aite-results/x.png');
  });

  it('after a failure hook wrote the screenshot, the serialised error names the file and the message names it with the retries', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aite-error-'));
    dirs.push(dir);
    process.env.AITE_RESULTS_DIR = dir;
    const error = failedClick();
    const failure = await new SessionFixture({ allow: ['http://127.0.0.1:4173'] }).testFailed(error, 'wallet > withdraws');
    expect(failure.screenshot).toBe(join(dir, 'wallet-withdraws.png'));
    expect([...readFileSync(failure.screenshot!)]).toEqual([...PNG]);
    expect(error.toJSON().screenshot).toBe(failure.screenshot);
    expect(error.message).toContain(`aite: screenshot ${failure.screenshot}`);
    expect(error.message).toContain('aite: not-found in click {"text":"Withdraw"}');
  });

  it('a failure picture\'s name starts with its test file (relative, made safe): same-named tests of two files write two pictures', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aite-error-'));
    dirs.push(dir);
    process.env.AITE_RESULTS_DIR = dir;
    const fixture = new SessionFixture({ allow: ['http://127.0.0.1:4173'] });
    const one = await fixture.testFailed({ screenshot: PNG }, 'wallet > sends', join(process.cwd(), 'test', 'e2e', 'wallet.test.ts'));
    const two = await fixture.testFailed({ screenshot: PNG }, 'wallet > sends', join(process.cwd(), 'test', 'e2e', 'Wallet Two.spec.ts'));
    expect(one.screenshot).toBe(join(dir, 'test-e2e-wallet-test-ts--wallet-sends.png'));
    expect(two.screenshot).toBe(join(dir, 'test-e2e-wallet-two-spec-ts--wallet-sends.png'));
  });

  it('a runner\'s copy of the error (the one it prints) names the written file once the hook wrote it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aite-error-'));
    dirs.push(dir);
    process.env.AITE_RESULTS_DIR = dir;
    // A copy made before the failure hook ran: the plain data, the picture's bytes beside it.
    const copy: { screenshot?: unknown; message: string } = { ...(JSON.parse(JSON.stringify(failedClick())) as { message: string }), screenshot: PNG };
    const failure = await new SessionFixture({ allow: ['http://127.0.0.1:4173'] }).testFailed(copy, 'wallet > withdraws again');
    expect(failure.screenshot).toBe(join(dir, 'wallet-withdraws-again.png'));
    expect(copy.screenshot).toBe(failure.screenshot);
  });
});

describe('AiteError printed by Node', () => {
  it('an uncaught AiteError in a plain script reads as its message, reason and counts, not a dump of its detail', async () => {
    const { inspect } = await import('node:util');
    const error = new AiteError('mismatch', 'Expected the page to contain "Count: 2", but found "Count: 1".', {
      detail: { expected: 'Count: 2', found: `Count: 1 ${'page text '.repeat(500)}`, candidates: [{ score: 0.5 }] },
      command: 'verify',
      callLog: ['verify text "Count: 2"'],
    });
    const printed = inspect(error);
    expect(printed).toMatch(/^AiteError: Expected the page to contain "Count: 2", but found "Count: 1"\.\nCall log:\n {2}- verify text "Count: 2"\n/);
    expect(printed).toContain('{ reason: mismatch, command: verify, retries: 0 }');
    expect(printed).not.toContain('page text page text');
    expect(printed).not.toContain('candidates');
    expect(printed.length).toBeLessThan(2_000);
  });
});
