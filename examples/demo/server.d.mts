/** Where and how to run the MallBucks demo server. */
export interface DemoServerOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Address to bind; default `127.0.0.1`. */
  host?: string;
  /** Folder of the static app; default `examples/demo/app`. */
  root?: string;
}

/** A running demo server. State (the balance, 5 MALLBUCKS at start) lives in memory. */
export interface DemoServer {
  /** The app's address with a trailing slash, e.g. `http://127.0.0.1:4173/`. */
  readonly url: string;
  readonly port: number;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
  /** Restores the starting state: balance 5, no activity. */
  reset(): void;
}

/**
 * Serves the MallBucks app and its JSON API (`GET /api/balance`, `GET /api/activity`,
 * `POST /api/send { to, amount }`, `POST /api/reset`).
 */
export function startDemoServer(options?: DemoServerOptions): Promise<DemoServer>;
