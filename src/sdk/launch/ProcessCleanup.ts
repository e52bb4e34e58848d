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

const cleanups = new Set<Cleanup>();
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
  // A second Ctrl-C while cleaning up ends the process at once (the sync parts have run).
  if (ending) process.exit(exitCodeOf(signal));
  ending = true;
  const pending = runAll('signal');
  const timer = setTimeout(() => process.exit(exitCodeOf(signal)), SIGNAL_CLEANUP_MS);
  void Promise.all(pending).then(() => {
    clearTimeout(timer);
    // The shell's convention (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP), so a caller can tell.
    process.exit(exitCodeOf(signal));
  });
}

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
  if (!installed || ending) return;
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
    if (cleanups.size === 0) uninstall();
  };
}
