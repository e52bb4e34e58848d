import pc from 'picocolors';
import { redactSecrets } from 'aite';

/** Where the CLI writes and what it knows of its surroundings; tests pass their own. */
export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export type Colors = ReturnType<typeof pc.createColors>;

/** Colours only on a terminal, and never with NO_COLOR (https://no-color.org) or TERM=dumb. */
export function colorsFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): Colors {
  const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0';
  const enabled = !('NO_COLOR' in env && env.NO_COLOR !== '') && env.TERM !== 'dumb' && (forced || stream.isTTY === true);
  return pc.createColors(enabled);
}

export function processIo(): Io {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

/** Writes lines to a stream. */
export function writeLines(stream: NodeJS.WritableStream, ...lines: string[]): void {
  stream.write(`${lines.join('\n')}\n`);
}

/**
 * The same Io with every write to stdout and stderr redacted (see `redactSecrets`): whatever a
 * command prints, a password in a URL never reaches the terminal or a CI log.
 */
export function redactingIo(io: Io): Io {
  return { ...io, stdout: redacting(io.stdout), stderr: redacting(io.stderr) };
}

function redacting<S extends NodeJS.WritableStream>(stream: S): S {
  const write = (chunk: unknown, ...rest: unknown[]): boolean =>
    (stream.write as (...args: unknown[]) => boolean).call(stream, typeof chunk === 'string' ? redactSecrets(chunk) : chunk, ...rest);
  return new Proxy(stream, {
    get(target, prop) {
      if (prop === 'write') return write;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
