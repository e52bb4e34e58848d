import { describe, expect, it } from 'vitest';
import { createRunReport } from '../../../src/sdk/report/model.js';
import { renderHtml } from '../../../src/sdk/report/renderHtml.js';
import { escapeHtml, html } from '../../../src/sdk/report/Html.js';
import { failingRun, interruptedRun, scriptReport, step } from './sampleReport.js';

describe('renderHtml', () => {
  it('escapes every interpolated string', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(html`<p title="${'"><script>'}">${['<b>', html`<i>ok</i>`]}</p>`.value).toBe('<p title="&quot;&gt;&lt;script&gt;">&lt;b&gt;<i>ok</i></p>');
    const page = renderHtml(failingRun());
    expect(page).not.toContain('<script>');
    expect(page).toContain('Uncaught Error: kaboom &lt;script&gt;');
    expect(page).toContain('matches 2 elements &lt;b&gt;');
  });

  it('is self-contained: screenshots inline as data URLs, no outside resources', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const page = renderHtml(failingRun(), new Map([['screenshots/send-step-3-failed.png', png]]));
    expect(page).toContain(`src="data:image/png;base64,${Buffer.from(png).toString('base64')}"`);
    expect(page).not.toMatch(/<link|<script|src="http/);
  });

  it('shows the summary, the failure, the repair diff, the proposed-repairs command and retries', () => {
    const page = renderHtml(failingRun());
    expect(page).toContain('<title>aite report — Failed</title>');
    expect(page).toContain('send one mallbuck · Step 3: click &quot;Delete&quot;');
    expect(page).toContain('<del>&quot;Send&quot;</del>');
    expect(page).toContain('<ins>&quot;Send money&quot;</ins>');
    expect(page).toContain('aite run send.aite.json --update-lock');
    expect(page).toContain('class="retry-chip"');
    expect(page).toContain('Candidates (outlined in the screenshot)');
  });

  it('says plainly when everything passed', () => {
    const page = renderHtml(createRunReport([scriptReport()], { version: '0.1.0', startedAt: new Date(0).toISOString(), durationMs: 10 }));
    expect(page).toContain('Every step of the script passed.');
    expect(page).not.toContain('proposed');
  });

  it('[SPA-REPORTED] a step that moved a single-page app\u2019s route says from where to where, and that no page loaded', () => {
    const moved = step({
      title: 'click "Go to B"',
      navigated: { from: 'http://127.0.0.1:4173/app/a', to: 'http://127.0.0.1:4173/app/b', sameDocument: true },
      tabEvents: [{ kind: 'navigated', tab: 1, url: 'http://127.0.0.1:4173/app/b', sameDocument: true, profile: 'default' }],
    });
    const page = renderHtml(createRunReport([scriptReport({ steps: [moved] })], { version: '0.1.0', startedAt: new Date(0).toISOString(), durationMs: 10 }));
    expect(page).toContain('The page went from <span class="url">http://127.0.0.1:4173/app/a</span> to <span class="url">http://127.0.0.1:4173/app/b</span> within the document (no page loaded).');
    expect(page).toContain('<code>navigated</code> tab 1 <span class="url">http://127.0.0.1:4173/app/b</span> (same document)');
  });

  it('[CLI-INTERRUPT] says the run was interrupted, by what and where, and which scripts did not run', () => {
    const page = renderHtml(interruptedRun());
    expect(page).toContain('<title>aite report — Interrupted</title>');
    expect(page).toMatch(/Interrupted by SIGINT at <a href="#[^"]+">send one mallbuck · Step 2: wait for &quot;Done&quot;<\/a>/);
    expect(page).toContain('<span class="badge badge-skipped">Not run</span> after');
    expect(page).toContain('<span class="reason">interrupted</span>');
  });
});
