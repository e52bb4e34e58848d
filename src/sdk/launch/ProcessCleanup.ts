/**
 * Runs the cleanups of live sessions when the process is interrupted or exits without closing
 * them, so no Chrome, bridge.json or temp profile outlives the runner. Handlers are installed
 * only while a session is open.
 */
type Cleanup = () => void;

const cleanups = new Set<Cleanup>();
let installed = false;

function runAll(): void {
  for (const cleanup of [...cleanups]) {
    cleanups.delete(cleanup);
    try {
      cleanup();
    } catch {
      // Best effort: the process is going away.
    }
  }
}

function onSignal(signal: NodeJS.Signals): void {
  runAll();
  uninstall();
  // Re-raise so the process ends the way it would have without us.
  process.kill(process.pid, signal);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', runAll);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('SIGHUP', onSignal);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off('exit', runAll);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  process.off('SIGHUP', onSignal);
}

/** Registers a synchronous cleanup; the returned function unregisters it. */
export function onProcessEnd(cleanup: Cleanup): () => void {
  cleanups.add(cleanup);
  install();
  return () => {
    cleanups.delete(cleanup);
    if (cleanups.size === 0) uninstall();
  };
}
