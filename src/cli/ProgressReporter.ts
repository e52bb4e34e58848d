import { join } from 'node:path';
import { describeDialog, type RunListener, type ScriptReport, type StepReport } from 'aite';
import { colorsFor, type Colors, type Io } from './Io.js';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * One line per step. On a terminal the running step's line is live (spinner and elapsed time)
 * and is replaced by its result; elsewhere only results are written, one per line.
 */
export class ProgressReporter implements RunListener {
  readonly #io: Io;
  readonly #c: Colors;
  readonly #live: boolean;
  #timer: NodeJS.Timeout | undefined;
  #multiProfile = false;
  #liveLine: string | undefined;

  readonly #reportDir: string | undefined;

  /** `reportDir`: where screenshots are written, relative to the working directory. */
  constructor(io: Io, reportDir?: string) {
    this.#io = io;
    this.#reportDir = reportDir;
    this.#c = colorsFor(io.stdout, io.env);
    this.#live = io.stdout.isTTY === true && io.env.TERM !== 'dumb' && !io.env.CI;
  }

  scriptStart(info: { file: string; name: string; steps: number; profiles: string[] }): void {
    const c = this.#c;
    this.#multiProfile = info.profiles.length > 1;
    const profiles = info.profiles.length > 1 ? c.dim(` · profiles ${info.profiles.join(', ')}`) : '';
    this.#write(`\n${c.bold(info.name)}  ${c.dim(info.file)}${profiles}\n`);
  }

  launchStart(info: { profiles: string[] }): void {
    this.#startLive(`${this.#c.dim('·'.padStart(3))} ${this.#c.dim(launchLabel(info.profiles))}`);
  }

  launched(info: { profiles: string[]; durationMs: number; error?: string; reused?: boolean }): void {
    this.#clearLive();
    const c = this.#c;
    const what = info.reused ? launchLabel(info.profiles).replace(/^start/, 'reset the last script\u2019s') : launchLabel(info.profiles).replace(/^start/, 'started');
    this.#write(info.error ? `  ${c.red('✗')} ${c.dim(what)}\n` : `  ${c.dim(`${'·'.padStart(3)} ${what}  ${formatMs(info.durationMs)}`)}\n`);
  }

  stepStart(info: { section: 'pre' | 'steps'; number: number; title: string; profile: string }): void {
    this.#startLive(this.#label(info));
  }

  #startLive(label: string): void {
    this.#clearLive();
    if (!this.#live) return;
    const started = performance.now();
    let frame = 0;
    const draw = (): void => {
      const elapsed = performance.now() - started;
      const line = `  ${this.#c.cyan(SPINNER[frame++ % SPINNER.length]!)} ${label}${this.#c.dim(` … ${formatMs(elapsed)}`)}`;
      this.#liveLine = line;
      this.#io.stdout.write(`\r\x1b[2K${this.#fit(line)}`);
    };
    draw();
    this.#timer = setInterval(draw, 100);
    this.#timer.unref();
  }

  stepEnd(step: StepReport): void {
    this.#clearLive();
    const c = this.#c;
    const icon = step.status === 'passed' ? c.green('✓') : step.status === 'failed' ? c.red('✗') : step.status === 'interrupted' ? c.yellow('■') : c.dim('-');
    const facts: string[] = [];
    if (step.status !== 'skipped') facts.push(formatMs(step.durationMs));
    if (step.retries > 0) facts.push(c.yellow(retriesText(step)));
    if (step.repair) facts.push(c.magenta(`repaired${step.repair.lock === 'proposed' ? ' (proposed)' : ''}`));
    else if (step.repaired) facts.push(c.magenta('repaired'));
    if (step.warnings.length) facts.push(c.yellow(`${step.warnings.length} warning${step.warnings.length === 1 ? '' : 's'}`));
    if (step.consoleErrors.length) facts.push(c.red(`${step.consoleErrors.length} console error${step.consoleErrors.length === 1 ? '' : 's'}`));
    if (step.status === 'failed') facts.push(c.red(step.reason ?? 'failed'));
    if (step.status === 'skipped') facts.push(step.message ?? 'skipped');
    if (step.status === 'interrupted') facts.push(c.yellow(step.message ?? 'interrupted'));
    const label = step.status === 'skipped' ? c.dim(this.#label(step)) : this.#label(step);
    const lines = [`  ${icon} ${label}  ${c.dim(facts.join(' · '))}`];
    if (step.status === 'failed') {
      for (const line of (step.message ?? '').split('\n')) lines.push(`      ${c.red(line)}`);
      if (step.screenshot && this.#reportDir !== undefined) lines.push(`      ${c.dim(`screenshot: ${join(this.#reportDir, step.screenshot)}`)}`);
    }
    for (const d of step.dialogs ?? []) lines.push(`      ${c.dim(describeDialog(d))}`);
    if (step.repair) {
      for (const d of step.repair.diff) lines.push(`      ${c.dim(d.field)} ${c.red(d.before)} ${c.dim('→')} ${c.green(d.after)}`);
    }
    this.#write(`${lines.join('\n')}\n`);
  }

  scriptEnd(_report: ScriptReport): void {
    this.#clearLive();
  }

  /** Stops the live line (on Ctrl+C, or an error). */
  stop(): void {
    this.#clearLive();
  }

  #label(step: { section: 'pre' | 'steps'; number: number; title: string; profile: string }): string {
    const num = step.section === 'pre' ? `pre ${step.number}` : String(step.number);
    const profile = this.#multiProfile ? ` ${this.#c.cyan(`[${step.profile}]`)}` : '';
    return `${this.#c.dim(num.padStart(3))}${profile} ${step.title}`;
  }

  #clearLive(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.#liveLine !== undefined) this.#io.stdout.write('\r\x1b[2K');
    this.#liveLine = undefined;
  }

  /** A live line must fit the terminal, or `\r` cannot take it back. */
  #fit(line: string): string {
    const columns = this.#io.stdout.columns ?? 100;
    const visible = line.replace(/\x1b\[[0-9;]*m/g, '');
    if (visible.length < columns) return line;
    return `${visible.slice(0, Math.max(10, columns - 2))}…`;
  }

  #write(text: string): void {
    this.#io.stdout.write(text);
  }
}

/** `1 retry (verify re-sent)`, `3 retries (resolve ×2, verify ×1)`: what was sent again. */
export function retriesText(step: Pick<StepReport, 'retries' | 'retried'>): string {
  const count = `${step.retries} ${step.retries === 1 ? 'retry' : 'retries'}`;
  const entries = Object.entries(step.retried ?? {});
  if (entries.length === 0) return count;
  if (entries.length === 1 && entries[0]![1] === step.retries) return `${count} (${entries[0]![0]} re-sent${step.retries > 1 ? ` ×${step.retries}` : ''})`;
  return `${count} (${entries.map(([command, n]) => `${command} ×${n}`).join(', ')} re-sent)`;
}

function launchLabel(profiles: string[]): string {
  return `start Chrome for ${profiles.length > 1 ? `profiles ${profiles.join(', ')}` : `profile ${profiles[0] ?? 'default'}`}`;
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
