import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What the guard decided about an upgrade request. */
export type UpgradeVerdict =
  | { ok: true; tokenValid: boolean }
  | { ok: false; status: number; cause: string; message: string };

/**
 * The checks a socket must pass before it is upgraded: any local process and any web page can
 * reach 127.0.0.1, so the path, the Host, the Origin and the token are all checked here, and
 * the answer never echoes what was sent.
 */
export class UpgradeGuard {
  readonly #tokenDigest: Buffer;

  constructor(
    token: string,
    private readonly port: () => number,
    private readonly allowedOrigins: readonly string[],
  ) {
    this.#tokenDigest = digest(token);
  }

  check(req: IncomingMessage): UpgradeVerdict {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/ext') {
      return { ok: false, status: 404, cause: 'path', message: 'upgrade refused: unknown path' };
    }
    if (req.headers.host !== `127.0.0.1:${this.port()}`) {
      return { ok: false, status: 403, cause: 'host', message: 'upgrade refused: Host is not the bridge address' };
    }
    const origin = req.headers.origin;
    if (typeof origin !== 'string' || !this.allowedOrigins.includes(origin)) {
      return {
        ok: false,
        status: 403,
        cause: 'origin',
        message: `upgrade refused: Origin ${origin === undefined ? '(none)' : JSON.stringify(origin.slice(0, 100))} is not the aite extension`,
      };
    }
    const tokens = url.searchParams.getAll('token');
    const tokenValid = tokens.length === 1 && timingSafeEqual(digest(tokens[0] ?? ''), this.#tokenDigest);
    return { ok: true, tokenValid };
  }
}

// Comparing digests makes the comparison constant-time whatever the length of the input.
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
