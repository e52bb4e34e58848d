import { describeDialog } from './dialogLine.js';
import type { RunReport, StepReport } from './model.js';

/**
 * The report as JUnit XML: a testsuite per script, a testcase per step. A failed step is a
 * `<failure>` with its reason as `type`; an unmet pre-state (and a script that could not run)
 * is an `<error>`, so CI tells it apart from an app failure, and so is the step running when the
 * run was interrupted; steps not run are `<skipped/>`.
 * @internal
 */
export function renderJunit(report: RunReport): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const failures = count(report, (s) => s.status === 'failed' && s.reason !== 'pre-state');
  const errors = count(report, (s) => (s.status === 'failed' && s.reason === 'pre-state') || s.status === 'interrupted');
  lines.push(
    `<testsuites name="aite" tests="${report.totals.steps}" failures="${failures}" errors="${errors}" time="${seconds(report.durationMs)}" timestamp="${attr(report.startedAt)}">`,
  );
  for (const script of report.scripts) {
    const steps = script.steps;
    const f = steps.filter((s) => s.status === 'failed' && s.reason !== 'pre-state' && script.status !== 'error').length;
    const e = steps.filter((s) => (s.status === 'failed' && (s.reason === 'pre-state' || script.status === 'error')) || s.status === 'interrupted').length;
    const skipped = steps.filter((s) => s.status === 'skipped').length;
    lines.push(
      `  <testsuite name="${attr(script.name)}" file="${attr(script.file)}" tests="${steps.length}" failures="${f}" errors="${e}" skipped="${skipped}" time="${seconds(script.durationMs)}" timestamp="${attr(script.startedAt)}">`,
    );
    if (script.profiles.length) lines.push(`    <properties><property name="profiles" value="${attr(script.profiles.join(','))}"/></properties>`);
    for (const step of steps) lines.push(...testcase(step, script.name, script.file, script.status === 'error'));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

function testcase(step: StepReport, suite: string, file: string, scriptError: boolean): string[] {
  const name = `${step.section === 'pre' ? 'pre ' : ''}${step.number}. ${step.title}`;
  const open = `    <testcase classname="${attr(suite)}" name="${attr(name)}" file="${attr(file)}"${step.line ? ` line="${step.line}"` : ''} time="${seconds(step.durationMs)}"`;
  const out: string[] = [];
  const extra: string[] = [];
  if (step.retries) extra.push(`retries: ${step.retries}`);
  if (step.repair) extra.push(`repaired (${step.repair.lock}): ${step.repair.changes.join('; ')}`);
  for (const w of step.warnings) extra.push(`warning ${w.code}: ${w.message}`);
  for (const c of step.consoleErrors) extra.push(`page ${c.kind ?? 'error'}${c.url ? ` (${c.url})` : c.tab !== undefined ? ` (tab ${c.tab})` : ''}: ${c.text}`);
  for (const r of step.failedRequests ?? []) extra.push(`failed request: ${r.method} ${r.url} ${r.status ?? r.failed ?? ''}`);
  for (const d of step.dialogs ?? []) extra.push(describeDialog(d));
  if (step.screenshot) extra.push(`[[ATTACHMENT|${step.screenshot}]]`);
  if (step.status === 'passed' && extra.length === 0) return [`${open}/>`];
  out.push(`${open}>`);
  if (step.status === 'skipped') out.push(`      <skipped message="${attr(step.message ?? 'an earlier step failed')}"/>`);
  if (step.status === 'interrupted') out.push(`      <error type="interrupted" message="${attr(step.message ?? 'interrupted')}"/>`);
  if (step.status === 'failed') {
    const tag = step.reason === 'pre-state' || scriptError ? 'error' : 'failure';
    const body = [step.message ?? '', ...(step.callLog ?? [])].join('\n');
    out.push(`      <${tag} type="${attr(step.reason ?? 'failed')}" message="${attr(step.message ?? 'failed')}">${text(body)}</${tag}>`);
  }
  if (extra.length) out.push(`      <system-out>${text(extra.join('\n'))}</system-out>`);
  out.push('    </testcase>');
  return out;
}

function count(report: RunReport, test: (s: StepReport) => boolean): number {
  return report.scripts.reduce((n, s) => n + s.steps.filter(test).length, 0);
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

// XML 1.0 forbids most control characters even escaped; they are dropped.
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function text(value: string): string {
  return value.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attr(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;');
}
