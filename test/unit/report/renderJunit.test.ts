import { describe, expect, it } from 'vitest';
import { createRunReport } from '../../../src/sdk/report/model.js';
import { renderJunit } from '../../../src/sdk/report/renderJunit.js';
import { failingRun, interruptedRun, scriptReport, step } from './sampleReport.js';

describe('renderJunit', () => {
  it('writes a testsuite per script and a testcase per step, with failures and skips', () => {
    const xml = renderJunit(failingRun());
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="aite" tests="4" failures="1" errors="0"/);
    expect(xml).toContain('<testsuite name="send one mallbuck" file="send.aite.json" tests="4" failures="1" errors="0" skipped="1"');
    expect(xml).toContain('<failure type="ambiguous" message="Text &quot;Delete&quot; matches 2 elements &lt;b&gt;: add nth or within.">');
    expect(xml).toContain('<skipped message="an earlier step failed"/>');
    expect(xml).toContain('retries: 1');
    expect(xml).toContain('[[ATTACHMENT|screenshots/send-step-3-failed.png]]');
  });

  it('makes an unmet pre-state an error, not a failure', () => {
    const report = createRunReport(
      [scriptReport({ status: 'pre-state', steps: [step({ section: 'pre', status: 'failed', reason: 'pre-state', cause: 'mismatch', message: 'Pre-state not met: x' })] })],
      { version: '0', startedAt: new Date(0).toISOString(), durationMs: 1 },
    );
    const xml = renderJunit(report);
    expect(xml).toContain('failures="0" errors="1"');
    expect(xml).toContain('<error type="pre-state" message="Pre-state not met: x">');
  });

  it('[CLI-INTERRUPT] makes the interrupted step an error and the steps not run skipped, saying why', () => {
    const xml = renderJunit(interruptedRun());
    expect(xml).toContain('<testsuites name="aite" tests="4" failures="0" errors="1"');
    expect(xml).toContain('<error type="interrupted" message="interrupted by SIGINT"/>');
    expect(xml.match(/<skipped message="not run: interrupted by SIGINT"\/>/g)).toHaveLength(2);
  });
});
