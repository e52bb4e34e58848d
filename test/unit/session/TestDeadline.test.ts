import { describe, expect, it } from 'vitest';
import { AiteError } from '../../../src/sdk/index.js';
import { cutToDeadline, deadlineMargin, explainCut, graceBefore, pictureTimeLeft } from '../../../src/sdk/session/TestDeadline.js';

describe('a test runner\'s timeout as a deadline', () => {
  const deadline = { at: 10_000, timeoutMs: 5_000 };

  it('cuts a wait to end a margin before the deadline, and leaves a shorter one alone', () => {
    expect(deadlineMargin(5_000)).toBe(1_000);
    expect(deadlineMargin(500)).toBe(250);
    expect(deadlineMargin(60_000)).toBe(2_000);
    // The test started at 5000: a 5000 ms wait at once would end at the runner's deadline.
    expect(cutToDeadline(5_000, deadline, 5_000)).toEqual({ timeoutMs: 4_000, cut: { from: 5_000, deadline } });
    expect(cutToDeadline(1_000, deadline, 5_000)).toEqual({ timeoutMs: 1_000 });
    // Late in the test, one look is still taken.
    expect(cutToDeadline(5_000, deadline, 9_500).timeoutMs).toBe(100);
  });

  it('leaves waits alone without a deadline, and after it (the test is over: its hooks run)', () => {
    expect(cutToDeadline(5_000, undefined, 5_000)).toEqual({ timeoutMs: 5_000 });
    expect(cutToDeadline(5_000, deadline, 10_000)).toEqual({ timeoutMs: 5_000 });
  });

  it('a cut wait says it was cut, keeping the reason, detail and call log', () => {
    const error = new AiteError('mismatch', 'Expected the page to contain "x", but found "y" (waited 4000 ms).', { detail: { found: 'y' }, command: 'verify', callLog: ['verify text "x"'] });
    const explained = explainCut(error, { from: 5_000, deadline }, 4_000);
    expect(explained.message).toMatch(/^Expected the page to contain "x", but found "y" \(waited 4000 ms\)\. aite cut this wait from 5000 ms to 4000 ms to fail before the test runner's 5000 ms test timeout; give the test a longer timeout to wait longer\.\nCall log:\n {2}- verify text "x"$/);
    expect(explained).toMatchObject({ reason: 'mismatch', detail: { found: 'y' }, command: 'verify' });
  });

  it('[RUN-PHASE-HOOK] a wait cut in a hook names the hook timeout', () => {
    const error = new AiteError('mismatch', 'Expected the page to contain "x", but found "y" (waited 2400 ms).', { command: 'verify' });
    const explained = explainCut(error, { from: 5_000, deadline: { ...deadline, timeoutMs: 3_000, phase: 'hook' } }, 2_400);
    expect(explained.message).toMatch(/aite cut this wait from 5000 ms to 2400 ms to fail before the test runner's 3000 ms hook timeout; give the hook a longer timeout to wait longer\.$/);
  });

  it('[PIC-LATE] gives a failed step\'s picture until half the margin before the deadline', () => {
    // 5000 ms timeout: a 1000 ms margin, so the picture may last until 500 ms before the deadline.
    expect(pictureTimeLeft(deadline, 5_000)).toBe(4_500);
    expect(pictureTimeLeft(deadline, 9_400)).toBe(100);
    expect(pictureTimeLeft(deadline, 9_800)).toBe(0);
    // No deadline, or the test already over (its hooks): the picture is not bounded.
    expect(pictureTimeLeft(undefined, 5_000)).toBeUndefined();
    expect(pictureTimeLeft(deadline, 10_000)).toBeUndefined();
  });

  it('[BUSY-RUNNER] the bridge\'s grace after a cut wait ends half the margin before the deadline, so a page that never answers still loses to aite', () => {
    // Cut at 5000 to 4000 ms: 500 ms of grace leaves half the 1000 ms margin.
    expect(graceBefore(4_000, 1_000, deadline, 5_000)).toBe(500);
    // Room for the whole grace: the bridge's own.
    expect(graceBefore(1_000, 1_000, deadline, 5_000)).toBeUndefined();
    expect(graceBefore(4_000, 1_000, deadline, 9_600)).toBe(0);
    // One look inside the margin still gets time to be answered, ending before the deadline.
    expect(graceBefore(100, 1_000, deadline, 9_600)).toBe(250);
    expect(graceBefore(100, 1_000, deadline, 9_800)).toBe(50);
    expect(graceBefore(4_000, 1_000, undefined, 5_000)).toBeUndefined();
    expect(graceBefore(4_000, 1_000, deadline, 10_000)).toBeUndefined();
  });
});
