import type { RunReport, ScriptReport, StepReport } from 'aite';
import { createRunReport } from '../../../src/sdk/report/model.js';

export function step(overrides: Partial<StepReport> = {}): StepReport {
  return {
    section: 'steps',
    number: 1,
    action: 'click',
    title: 'click "Send"',
    profile: 'default',
    status: 'passed',
    retries: 0,
    warnings: [],
    consoleErrors: [],
    tabEvents: [],
    startMs: 0,
    durationMs: 120,
    ...overrides,
  };
}

export function scriptReport(overrides: Partial<ScriptReport> = {}): ScriptReport {
  return {
    file: 'send.aite.json',
    name: 'send one mallbuck',
    status: 'passed',
    profiles: ['default'],
    startedAt: '2026-01-01T10:00:00.000Z',
    durationMs: 1000,
    retries: 0,
    steps: [step()],
    ...overrides,
  };
}

/** A failed run: a repair proposed, a retry, a console error, then an ambiguous click with its screenshot. */
export function failingRun(): RunReport {
  return createRunReport(
    [
      scriptReport({
        status: 'failed',
        retries: 1,
        error: { reason: 'ambiguous', message: 'step 3 (click "Delete"): matches 2 elements' },
        steps: [
          step({ number: 1, action: 'navigate', title: 'navigate http://127.0.0.1:4173/', durationMs: 300, tabEvents: [{ kind: 'navigated', tab: 1, url: 'http://127.0.0.1:4173/', profile: 'default' }] }),
          step({
            number: 2,
            title: 'click "Send <now>"',
            retries: 1,
            startMs: 300,
            consoleErrors: [{ tab: 1, text: 'Uncaught Error: kaboom <script>', profile: 'default' }],
            repaired: true,
            repair: { score: 0.91, runnerUp: 0.3, changed: ['text'], changes: ['text "Send" -> "Send money"'], diff: [{ field: 'text', before: '"Send"', after: '"Send money"' }], lock: 'proposed' },
          }),
          step({
            number: 3,
            title: 'click "Delete"',
            status: 'failed',
            reason: 'ambiguous',
            message: 'Text "Delete" matches 2 elements <b>: add nth or within.',
            detail: { candidates: [{ descriptor: { v: 1, tag: 'button', text: 'Delete', xpath: '/a' }, score: 0.5 }, { descriptor: { v: 1, tag: 'button', text: 'Delete', xpath: '/b' }, score: 0.5 }] },
            callLog: ['click {"text":"Delete"}', '  resolve {"target":{"text":"Delete"}}'],
            screenshot: 'screenshots/send-step-3-failed.png',
            startMs: 500,
          }),
          step({ number: 4, title: 'verify text "4"', status: 'skipped', durationMs: 0, startMs: 700 }),
        ],
      }),
    ],
    { version: '0.1.0', startedAt: '2026-01-01T10:00:00.000Z', durationMs: 1200 },
  );
}

/** A run stopped by SIGINT during step 2 of its first script; its second script not begun. */
export function interruptedRun(): RunReport {
  return createRunReport(
    [
      scriptReport({
        status: 'interrupted',
        error: { message: 'interrupted by SIGINT during step 2 (wait for "Done")' },
        steps: [
          step({ number: 1 }),
          step({ number: 2, action: 'wait', title: 'wait for "Done"', status: 'interrupted', message: 'interrupted by SIGINT' }),
          step({ number: 3, status: 'skipped', message: 'not run: interrupted by SIGINT', durationMs: 0 }),
        ],
      }),
      scriptReport({ file: 'after.aite.json', name: 'after', status: 'skipped', durationMs: 0, steps: [step({ status: 'skipped', message: 'not run: interrupted by SIGINT', durationMs: 0 })] }),
    ],
    { version: '0', startedAt: new Date(0).toISOString(), durationMs: 1, interrupted: 'SIGINT' },
  );
}
