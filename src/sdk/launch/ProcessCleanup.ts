import { constants } from 'node:os';

/**
 * Runs the cleanups of live sessions when the process is interrupted or exits without closing
 * them, so no Chrome, bridge.json, temp profile or Chromium temp dir outlives the runner.
 * Handlers are installed only while a session is open.
 *
 * A cleanup is told how the process ends. On `exit` nothing async can run, so it does what it can
 * at once. On a signal what it returns is awaited (Chrome is waited for, so its files can be
 * removed), and it should not block first: a runner that sends SIGTERM to a worker follows with
 * SIGKILL soon after (Vitest: 500 ms), and a killed cleanup leaves everything behind.
 */
export type ProcessEnd = 'exit' | 'signal';
type Cleanup = (end: ProcessEnd) => void | Promise<void>;

/** The most a signal's cleanups may take before the process exits anyway. */
const SIGNAL_CLEANUP_MS = 3_000;
/** The most the interrupt handlers may take (a run stopping, its report written) before the cleanups run anyway. */
const INTERRUPT_MS = 10_000;

const cleanups = new Set<Cleanup>();
const interrupts = new Set<InterruptHandler>();
let installed = false;
let ending = false;

function runAll(end: ProcessEnd): Array<Promise<void>> {
  const pending: Array<Promise<void>> = [];
  for (const cleanup of [...cleanups]) {
    cleanups.delete(cleanup);
    try {
      const result = cleanup(end);
      if (result) pending.push(result.catch(() => undefined));
    } catch {
      // Best effort: the process is going away.
    }
  }
  return pending;
}

function onExit(): void {
  void runAll('exit');
}

function onSignal(signal: NodeJS.Signals): void {
  // A second Ctrl-C while ending ends the process at once (the cleanups' sync parts run on exit).
  if (ending) process.exit(exitCodeOf(signal));
  ending = true;
  const finish = (): void => void within(Promise.all(runAll('signal')), SIGNAL_CLEANUP_MS).then(() => process.exit(exitCodeOf(signal)));
  if (interrupts.size === 0) return finish();
  // The handlers end their work in order first (a run closes its Chrome, writes its report); the
  // cleanups then take what is left, or everything when the handlers overran.
  const handlers = [...interrupts].map((handler) => Promise.resolve().then(() => handler(signal)).catch(() => undefined));
  void within(Promise.all(handlers), INTERRUPT_MS).then(finish);
}

/** `work`, or nothing once `ms` have passed. */
function within(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([work.then(() => undefined), deadline]).finally(() => clearTimeout(timer));
}

/** The shell's convention (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP), so a caller can tell. */
function exitCodeOf(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', onExit);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
}

function uninstall(): void {
  if (!installed || ending || cleanups.size > 0 || interrupts.size > 0) return;
  installed = false;
  process.off('exit', onExit);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  process.off('SIGHUP', onSignal);
}

/** Registers a cleanup; the returned function unregisters it. */
export function onProcessEnd(cleanup: Cleanup): () => void {
  cleanups.add(cleanup);
  install();
  return () => {
    cleanups.delete(cleanup);
    uninstall();
  };
}

/**
 * Told of the signal that interrupts the process; what it returns is awaited before the process
 * ends. See {@link onInterrupt}.
 *
 * @example
 * ```ts
 * import { onInterrupt, type InterruptHandler } from 'aite';
 *
 * const say: InterruptHandler = (signal) => console.error(`${signal}: stopping`);
 * const off = onInterrupt(say);
 * off();
 * ```
 * @public
 */
export type InterruptHandler = (signal: NodeJS.Signals) => void | Promise<unknown>;

/**
 * Lets work in flight end in order when the process gets SIGINT (Ctrl-C), SIGTERM or SIGHUP,
 * instead of ending at once. Without a handler, a signal closes every open session's Chrome and
 * ends the process; with one, the first signal calls it and waits for what it returns (a run
 * stopping and its report written: abort the `signal` given to `runSuite`, then write the
 * report), at most 10 s, before it closes what is still open. The process then
 * exits with the shell's code for the signal: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP.
 * A second signal ends the process at once. `aite run` stops this way. Answers the function
 * that unregisters the handler.
 *
 * @example
 * ```ts
 * import { onInterrupt, runSuite, writeReport } from 'aite';
 *
 * const stop = new AbortController();
 * let written: () => void = () => undefined;
 * const done = new Promise<void>((resolve) => (written = resolve));
 * const off = onInterrupt((signal) => {
 *   stop.abort(signal); // the step running is reported interrupted, the rest skipped
 *   return done; // the process ends once the report is written
 * });
 * try {
 *   const { report, attachments } = await runSuite(['send.aite.json'], { signal: stop.signal });
 *   await writeReport('aite-report', report, attachments);
 * } finally {
 *   written();
 *   off();
 * }
 * ```
 * @public
 */
export function onInterrupt(handler: InterruptHandler): () => void {
  interrupts.add(handler);
  install();
  return () => {
    interrupts.delete(handler);
    uninstall();
  };
}
