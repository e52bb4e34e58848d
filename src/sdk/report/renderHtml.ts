import { html, raw, type Html } from './Html.js';
import type { RunReport, ScriptReport, StepReport } from './model.js';
import { STYLES } from './styles.js';

const STATUS_LABEL: Record<RunReport['status'], string> = {
  passed: 'Passed',
  failed: 'Failed',
  'pre-state': 'Pre-state not met',
  error: 'Could not run',
  interrupted: 'Interrupted',
  skipped: 'Not run',
};

const STEP_ICON: Record<StepReport['status'], string> = { passed: '✓', failed: '✗', skipped: '–', interrupted: '■' };

/**
 * The report as one self-contained HTML page (styles inline, screenshots as data URLs), readable
 * offline: a summary at the top, then each script's steps as a timeline, the failure with its
 * outlined screenshot, repairs as before/after diffs, retries highlighted.
 * @internal
 */
export function renderHtml(report: RunReport, images: ReadonlyMap<string, Uint8Array> = new Map()): string {
  const title = `aite report — ${STATUS_LABEL[report.status]}`;
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${raw(STYLES)}</style>
</head>
<body>
<header class="top status-${report.status}">
  <div class="wrap">
    <div class="brand">aite <span>run report</span></div>
    ${summary(report)}
  </div>
</header>
<main class="wrap">
  ${proposedRepairs(report)}
  ${report.scripts.map((script, i) => scriptSection(script, i, images))}
  ${report.scripts.length === 0 ? html`<p class="empty">No scripts ran${report.shard ? ` in shard ${report.shard.index}/${report.shard.total}` : ''}.</p>` : ''}
</main>
<footer class="wrap foot">aite ${report.tool.version} · started ${formatDate(report.startedAt)}${report.shard ? html` · shard ${report.shard.index}/${report.shard.total}` : ''}${report.mergedFrom ? html` · merged from ${report.mergedFrom.length} reports` : ''}</footer>
</body>
</html>
`;
  return page.value;
}

function summary(report: RunReport): Html {
  const t = report.totals;
  const stat = (value: number | string, label: string, tone = ''): Html =>
    html`<div class="stat ${tone}"><strong>${value}</strong><span>${label}</span></div>`;
  const failedSteps = report.scripts.flatMap((s) => s.steps.filter((step) => step.status === 'failed'));
  return html`<section class="summary" aria-label="Summary">
    <h1 class="verdict" data-status="${report.status}"><span class="verdict-icon" aria-hidden="true">${report.status === 'passed' ? '✓' : '✗'}</span> ${STATUS_LABEL[report.status]}</h1>
    <p class="verdict-line">${verdictLine(report, failedSteps)}</p>
    <div class="stats">
      ${stat(`${t.passed}/${t.scripts}`, t.scripts === 1 ? 'script passed' : 'scripts passed', t.passed === t.scripts ? 'good' : '')}
      ${t.failed ? stat(t.failed, 'failed', 'bad') : ''}
      ${t.preState ? stat(t.preState, 'pre-state not met', 'pre') : ''}
      ${t.errors ? stat(t.errors, 'could not run', 'bad') : ''}
      ${t.interrupted ? stat(t.interrupted, 'interrupted', 'pre') : ''}
      ${t.skipped ? stat(t.skipped, 'not run') : ''}
      ${stat(t.steps, 'steps')}
      ${stat(t.retries, t.retries === 1 ? 'retry' : 'retries', t.retries > 0 ? 'warn' : '')}
      ${stat(t.repairs, t.repairs === 1 ? 'repair' : 'repairs', t.repairs > 0 ? 'warn' : '')}
      ${stat(formatDuration(report.durationMs), 'total time')}
    </div>
  </section>`;
}

function verdictLine(report: RunReport, failed: StepReport[]): Html | string {
  if (report.status === 'passed') {
    return `Every step of ${report.totals.scripts === 1 ? 'the script' : `all ${report.totals.scripts} scripts`} passed.`;
  }
  if (report.status === 'interrupted') {
    const index = report.scripts.findIndex((s) => s.status === 'interrupted');
    const step = report.scripts[index]?.steps.find((s) => s.status === 'interrupted');
    const by = `Interrupted by ${report.interrupted ?? 'a stop'}`;
    if (!step) return `${by}; the scripts not begun did not run.`;
    return html`${by} at <a href="#${stepId(index, step)}">${report.scripts[index]!.name} · ${step.section === 'pre' ? 'Pre step' : 'Step'} ${step.number}: ${step.title}</a>; what came after did not run.`;
  }
  const first = report.scripts.find((s) => s.status !== 'passed');
  const step = failed[0];
  if (!first) return '';
  if (!step) return html`${first.name}: ${first.error?.message ?? 'failed'}`;
  const where = `${step.section === 'pre' ? 'Pre step' : 'Step'} ${step.number}`;
  return html`<a href="#${stepId(report.scripts.indexOf(first), step)}">${first.name} · ${where}: ${step.title}</a> — <span class="reason">${step.reason ?? 'failed'}</span>`;
}

function proposedRepairs(report: RunReport): Html | string {
  const proposed = report.scripts.flatMap((script) =>
    script.steps.filter((s) => s.repair?.lock === 'proposed').map((step) => ({ script, step })),
  );
  if (proposed.length === 0) return '';
  const files = [...new Set(proposed.map((p) => p.script.file))];
  return html`<section class="callout" aria-label="Proposed repairs">
    <h2>${proposed.length} ${proposed.length === 1 ? 'repair' : 'repairs'} proposed, not yet in the lock file</h2>
    <ul>${proposed.map(({ script, step }) => html`<li><a href="#${stepId(report.scripts.indexOf(script), step)}">${script.name} · step ${step.number}: ${step.title}</a> (score ${step.repair!.score.toFixed(2)})</li>`)}</ul>
    <p>Review the diffs below, then accept them with</p>
    <pre class="command">aite run ${files.join(' ')} --update-lock</pre>
  </section>`;
}

function scriptSection(script: ScriptReport, index: number, images: ReadonlyMap<string, Uint8Array>): Html {
  const multi = script.profiles.length > 1;
  const total = Math.max(1, script.durationMs);
  return html`<section class="script status-${script.status}" id="script-${index}" aria-label="${script.name}">
    <header class="script-head">
      <div>
        <h2><span class="badge badge-${script.status}">${STATUS_LABEL[script.status]}</span> ${script.name}</h2>
        <p class="meta"><code>${script.file}</code> · ${formatDuration(script.durationMs)} · ${script.steps.length} ${script.steps.length === 1 ? 'step' : 'steps'}${script.launchMs !== undefined ? ` · Chrome ${script.chromeReused ? 'reset' : 'started'} in ${formatDuration(script.launchMs)}` : ''}${script.retries ? html` · <span class="retry-chip">${script.retries} ${script.retries === 1 ? 'retry' : 'retries'}</span>` : ''}${script.profiles.length ? html` · profiles ${script.profiles.map((p) => html`<span class="profile">${p}</span>`)}` : ''}</p>
      </div>
    </header>
    ${script.warnings?.length ? html`<div class="list warnings script-warnings"><ul>${script.warnings.map((w) => html`<li><code>${w.code}</code> ${w.message}</li>`)}</ul></div>` : ''}
    ${script.error && !script.steps.some((s) => s.status === 'failed') ? html`<p class="script-error">${script.error.message}</p>` : ''}
    <ol class="timeline">
      ${script.steps.map((step) => stepItem(step, index, total, multi, images))}
    </ol>
  </section>`;
}

function stepItem(step: StepReport, scriptIndex: number, total: number, multi: boolean, images: ReadonlyMap<string, Uint8Array>): Html {
  const body = stepBody(step, images);
  const left = Math.min(100, (step.startMs / total) * 100);
  const width = Math.max(0.6, Math.min(100 - left, (step.durationMs / total) * 100));
  const classes = ['step', `step-${step.status}`, step.retries > 0 ? 'has-retries' : '', step.repair || step.repaired ? 'has-repair' : ''].filter(Boolean).join(' ');
  const head = html`<span class="icon" aria-label="${step.status}">${STEP_ICON[step.status]}</span>
      <span class="num">${step.section === 'pre' ? `pre ${step.number}` : step.number}</span>
      <span class="title">${step.title}</span>
      ${multi ? html`<span class="profile">${step.profile}</span>` : ''}
      ${step.retries > 0 ? html`<span class="retry-chip" title="re-sent after a navigation or reconnect">${step.retries} ${step.retries === 1 ? 'retry' : 'retries'}</span>` : ''}
      ${step.repair || step.repaired ? html`<span class="repair-chip">repaired</span>` : ''}
      ${step.warnings.length ? html`<span class="warn-chip">${step.warnings.length} ${step.warnings.length === 1 ? 'warning' : 'warnings'}</span>` : ''}
      ${step.dialogs?.length ? html`<span class="dialog-chip">${step.dialogs.length} ${step.dialogs.length === 1 ? 'dialog' : 'dialogs'}</span>` : ''}
      ${step.consoleErrors.length ? html`<span class="console-chip">${step.consoleErrors.length} page ${step.consoleErrors.length === 1 ? 'error' : 'errors'}</span>` : ''}
      ${step.failedRequests?.length ? html`<span class="console-chip">${step.failedRequests.length} failed ${step.failedRequests.length === 1 ? 'request' : 'requests'}</span>` : ''}
      ${step.status === 'failed' ? html`<span class="reason">${step.reason}</span>` : step.status === 'interrupted' ? html`<span class="reason">interrupted</span>` : ''}
      <span class="dur">${step.status === 'skipped' ? 'skipped' : formatDuration(step.durationMs)}</span>
      <span class="bar" aria-hidden="true"><span style="left:${left.toFixed(2)}%;width:${width.toFixed(2)}%"></span></span>`;
  const id = stepId(scriptIndex, step);
  if (!body) return html`<li class="${classes}" id="${id}"><div class="row">${head}</div></li>`;
  return html`<li class="${classes}" id="${id}"><details ${step.status === 'failed' || step.repair ? 'open' : ''}><summary class="row">${head}</summary><div class="body">${body}</div></details></li>`;
}

function stepBody(step: StepReport, images: ReadonlyMap<string, Uint8Array>): Html | undefined {
  const parts: Html[] = [];
  if (step.status === 'failed') {
    parts.push(html`<div class="failure">
      <p class="failure-message"><span class="badge badge-failed">${step.reason}</span>${step.cause ? html` <span class="cause">(${step.cause})</span>` : ''} ${step.message}</p>
      ${expectedFound(step.detail)}
    </div>`);
  }
  if (step.screenshot) parts.push(screenshot(step, images));
  if (step.status === 'failed') {
    const candidates = candidateList(step.detail);
    if (candidates) parts.push(candidates);
  }
  if (step.repair) parts.push(repairDiff(step));
  if (step.retries > 0) {
    const what = Object.entries(step.retried ?? {}).map(([command, n]) => `${command} ×${n}`).join(', ');
    parts.push(html`<p class="note retry-note">Re-sent ${step.retries} ${step.retries === 1 ? 'time' : 'times'}${what ? ` (${what})` : ''} (a navigation or a reconnect interrupted it). Nothing hides a retry.</p>`);
  }
  if (step.warnings.length) {
    parts.push(html`<div class="list warnings"><h4>Warnings</h4><ul>${step.warnings.map((w) => html`<li><code>${w.code}</code> ${w.message}</li>`)}</ul></div>`);
  }
  if (step.consoleErrors.length) {
    parts.push(
      html`<div class="list console"><h4>Page errors</h4><ul>${step.consoleErrors.map(
        (c) =>
          html`<li><code>${c.kind ?? 'error'}</code><pre>${c.text}</pre><span class="muted">${[c.source, c.url, c.tab !== undefined ? `tab ${c.tab}` : undefined, c.profile].filter(Boolean).join(' · ')}</span></li>`,
      )}</ul></div>`,
    );
  }
  if (step.failedRequests?.length) {
    parts.push(
      html`<div class="list console network"><h4>Failed requests</h4><ul>${step.failedRequests.map(
        (r) => html`<li><code>${r.method}</code> <span class="url">${r.url}</span> <strong>${r.status ?? r.failed ?? 'failed'}</strong> <span class="muted">${r.type}${r.ms !== undefined ? ` · ${r.ms} ms` : ''}</span></li>`,
      )}</ul></div>`,
    );
  }
  if (step.dialogs?.length) {
    parts.push(
      html`<div class="list dialogs"><h4>Dialogs</h4><ul>${step.dialogs.map(
        (d) =>
          html`<li><code>${d.type}</code> ${d.message ? html`<q>${d.message}</q>` : ''} ${d.accepted ? 'accepted' : 'dismissed'}${d.promptText !== undefined ? html` with <q>${d.promptText}</q>` : ''} <span class="muted">by ${d.by === 'armed' ? 'dialogs.next()' : 'the dialogs policy'} · <span class="url">${d.url}</span></span></li>`,
      )}</ul></div>`,
    );
  }
  if (step.navigated) {
    const { from, to, sameDocument } = step.navigated;
    parts.push(
      html`<p class="note navigated-note">The page went ${from ? html`from <span class="url">${from}</span> ` : ''}to <span class="url">${to}</span>${sameDocument ? ' within the document (no page loaded)' : ''}.</p>`,
    );
  }
  if (step.tabEvents.length) {
    parts.push(
      html`<div class="list events"><h4>Tab events</h4><ul>${step.tabEvents.map((e) => html`<li><code>${e.kind}</code> tab ${e.tab}${e.url ? html` <span class="url">${e.url}</span>` : ''}${e.sameDocument ? ' (same document)' : ''}</li>`)}</ul></div>`,
    );
  }
  if (step.callLog?.length) {
    parts.push(html`<details class="calllog"><summary>Call log (${step.callLog.length} lines)</summary><pre>${step.callLog.join('\n')}</pre></details>`);
  }
  return parts.length > 0 ? html`${parts}` : undefined;
}

function screenshot(step: StepReport, images: ReadonlyMap<string, Uint8Array>): Html {
  const bytes = images.get(step.screenshot!);
  const src = bytes ? `data:image/png;base64,${Buffer.from(bytes).toString('base64')}` : step.screenshot!;
  const caption =
    step.status === 'failed'
      ? 'The page when the step failed. Outlined: the element the step acted on, and the candidates it could have meant.'
      : 'Screenshot';
  return html`<figure class="shot${step.status === 'failed' ? ' shot-failed' : ''}">
    <a href="${src}" target="_blank" rel="noopener"><img src="${src}" alt="Screenshot of the page at ${step.section === 'pre' ? 'pre ' : ''}step ${step.number}: ${step.title}" loading="lazy"></a>
    <figcaption>${caption} <span class="muted">${step.screenshot}</span></figcaption>
  </figure>`;
}

function expectedFound(detail: Record<string, unknown> | undefined): Html | string {
  if (!detail || (!('expected' in detail) && !('found' in detail))) return '';
  return html`<dl class="ef">
    ${'expected' in detail ? html`<div><dt>Expected</dt><dd><pre>${show(detail.expected)}</pre></dd></div>` : ''}
    ${'found' in detail ? html`<div><dt>Found</dt><dd><pre>${show(detail.found)}</pre></dd></div>` : ''}
  </dl>`;
}

function candidateList(detail: Record<string, unknown> | undefined): Html | undefined {
  const raw = detail?.candidates;
  const single = detail?.candidate as Record<string, unknown> | undefined;
  const better = detail?.better as Record<string, unknown> | undefined;
  // A drifted exact match is what the target finds now, refused: listed as such, never as a candidate.
  const refused = detail?.exact === true;
  const list: Array<{ descriptor?: Record<string, unknown>; score?: number; note?: string }> = Array.isArray(raw)
    ? (raw as never)
    : [
        ...(refused && better ? [{ descriptor: better, score: detail?.runnerUp as number | undefined, note: 'most like the remembered element' }] : []),
        ...(single ? [{ descriptor: single, score: detail?.score as number | undefined, ...(refused ? { note: 'refused: what the target finds now, not the remembered element' } : {}) }] : []),
      ];
  if (list.length === 0) return undefined;
  return html`<div class="list candidates"><h4>Candidates (outlined in the screenshot)</h4><ol>${list.slice(0, 10).map(
    (c) => html`<li>${c.score !== undefined ? html`<span class="score">${c.score.toFixed(2)}</span>` : ''} <code>${describeDescriptor(c.descriptor)}</code>${c.note ? html` <span class="muted">${c.note}</span>` : ''}</li>`,
  )}</ol></div>`;
}

function repairDiff(step: StepReport): Html {
  const repair = step.repair!;
  return html`<div class="repair">
    <h4>Repair <span class="muted">score ${repair.score.toFixed(2)} · runner-up ${repair.runnerUp.toFixed(2)} · ${repair.lock === 'written' ? 'written to the lock file' : 'proposed (run with --update-lock to accept)'}</span></h4>
    <table class="diff">
      <thead><tr><th>field</th><th>before</th><th>after</th></tr></thead>
      <tbody>${repair.diff.map((d) => html`<tr><th scope="row">${d.field}</th><td class="del"><del>${d.before}</del></td><td class="ins"><ins>${d.after}</ins></td></tr>`)}</tbody>
    </table>
  </div>`;
}

function describeDescriptor(d: Record<string, unknown> | undefined): string {
  if (!d) return '(element)';
  const parts = [`<${String(d.tag ?? '?')}>`];
  if (d.role) parts.push(`role=${String(d.role)}`);
  if (d.name) parts.push(`name=${JSON.stringify(d.name)}`);
  else if (d.text) parts.push(JSON.stringify(d.text));
  if (d.testid) parts.push(`testid=${String(d.testid)}`);
  if (d.id) parts.push(`#${String(d.id)}`);
  // What tells look-alikes apart: the row or card they sit in.
  const context = d.context as { row?: string; region?: string } | undefined;
  const near = context?.row ?? (typeof d.near === 'string' ? d.near : undefined) ?? context?.region;
  if (near) parts.push(`near ${JSON.stringify(near.length > 60 ? `${near.slice(0, 57)}...` : near)}`);
  return parts.join(' ');
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

function stepId(scriptIndex: number, step: StepReport): string {
  return `s${scriptIndex}-${step.section}-${step.number}`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}
