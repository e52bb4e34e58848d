import { describe, expect, it } from 'vitest';
import { createRunReport } from '../../../src/sdk/report/model.js';
import { renderHtml } from '../../../src/sdk/report/renderHtml.js';
import { renderJunit } from '../../../src/sdk/report/renderJunit.js';
import { scriptReport, step } from './sampleReport.js';

// FAULTS row 50: what a page or a script puts in a report (titles, text, console, errors) is
// data, never markup: escaped in index.html, and junit.xml stays well-formed.
const MARKUP = '<script>alert(1)</script> ]]> <img src=x onerror=alert(2)> &amp;';

function hostileReport() {
  return createRunReport(
    [
      scriptReport({
        name: `name ${MARKUP}`,
        status: 'failed',
        error: { reason: 'mismatch', message: `message ${MARKUP}` },
        steps: [
          step({
            title: `title ${MARKUP}`,
            status: 'failed',
            reason: 'mismatch',
            message: `step ${MARKUP}`,
            callLog: [`log ${MARKUP}`],
            warnings: [{ code: 'x', message: `warning ${MARKUP}` }],
            consoleErrors: [{ tab: 1, text: `console ${MARKUP}`, profile: 'default' }],
            tabEvents: [{ kind: 'navigated', tab: 1, url: `http://127.0.0.1/${MARKUP}`, profile: 'default' }],
          }),
        ],
      }),
    ],
    { version: '0.1.0', startedAt: '2026-01-01T10:00:00.000Z', durationMs: 1 },
  );
}

describe('[FAULT-50] row 50: report fields carrying markup', () => {
  it('are escaped in index.html: no tag, handler or entity of theirs survives', () => {
    const page = renderHtml(hostileReport());
    expect(page).not.toMatch(/<script>alert|<img src=x|onerror=alert\(2\)>/);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('&amp;amp;');
  });

  it('keep junit.xml well-formed: no CDATA closed early, no raw tag', () => {
    const xml = renderJunit(hostileReport());
    const outsideCdata = xml.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '');
    expect(outsideCdata).not.toContain(']]>');
    expect(outsideCdata).not.toMatch(/<script>|<img /);
    // Every piece of markup is still there for a reader, as text.
    expect(xml.split('alert(1)').length - 1).toBeGreaterThanOrEqual(4);
  });
});
