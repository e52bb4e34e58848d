import pc from 'picocolors';

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
