import { resolve } from 'node:path';
import { _allowPatterns as allowPatterns, attach, launch, loadConfig, UsageError, type AttachOptions, type LaunchOptions, type Session } from 'aite';
import { checkExtensionFolder, defaultExtensionDir } from '../extensionFolder.js';
import { writeLines, type Io } from '../Io.js';
import { hasDisplay } from './doctor.js';
import { createMcpServer, stdioTransport } from '../mcp/server.js';

export interface McpFlags {
  allow?: string[];
  config?: string;
  profile: string;
  headed?: boolean;
  /** The extension's folder; `true` (the flag alone): {@link defaultExtensionDir}. */
  attach?: string | true;
  lock?: string;
  updateLock?: boolean;
  allowEvaluate?: boolean;
  chrome?: string;
  timeout?: number;
}

/** What tests replace. */
export interface McpSeams {
  launch?: (options: LaunchOptions) => Promise<Session>;
  attach?: (options: AttachOptions) => Promise<Session>;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

/**
 * `aite mcp`: the session as a Model Context Protocol server on stdio. Everything is checked
 * before it serves (config, profile, allow list); the browser starts on the first tool call, and
 * closes when the connection does or the process is told to stop. stdout carries the protocol
 * only: anything for a person goes to stderr.
 */
export async function mcpCommand(flags: McpFlags, io: Io, version: string, seams: McpSeams = {}): Promise<number> {
  const config = await loadConfig({ file: flags.config, cwd: io.cwd, overrides: { chrome: flags.chrome, allow: flags.allow } });
  const profile = config.profiles[flags.profile];
  if (!profile) {
    const known = Object.keys(config.profiles).map((p) => `"${p}"`).join(', ');
    throw new UsageError('unknown-profile', [{ file: config.file, field: 'profiles', message: `unknown profile "${flags.profile}". Known profiles: ${known}.` }]);
  }
  const listed = [...config.allow, ...profile.allow];
  if (listed.length === 0) {
    throw new UsageError('usage', 'aite mcp needs the origins the agent may open: pass --allow http://127.0.0.1:4173 (repeatable), or set "allow" in aite.config.json.');
  }
  // Checked now as launch checks it (an entry with a path is refused, not widened to its origin):
  // the browser starts only on the first tool call, too late for exit code 2.
  allowPatterns(listed);
  const allow = [...new Set(listed.map((entry) => new URL(entry).origin))];
  if (flags.attach && (flags.headed || flags.chrome)) {
    throw new UsageError('usage', '--attach drives the Chrome you run yourself; --headed and --chrome are for a Chrome aite launches. Drop one or the other.');
  }
  if (flags.headed && !hasDisplay(io.env)) {
    throw new UsageError('usage', '--headed shows a Chrome window, but there is no display here (DISPLAY and WAYLAND_DISPLAY are unset). Drop --headed, or run under a virtual display (`xvfb-run -a aite mcp ...`).');
  }
  const timeoutMs = flags.timeout ?? config.timeoutMs;
  const lockFile = flags.lock ?? config.lockFile;
  const extensionDir = flags.attach === true ? defaultExtensionDir(io.env) : flags.attach === undefined ? undefined : resolve(io.cwd, flags.attach);
  if (extensionDir) checkExtensionFolder(extensionDir, allow, io.env);
  const lock = lockFile ? { lockFile, updateLock: flags.updateLock ?? false } : {};
  const start = (): Promise<Session> =>
    extensionDir
      ? (seams.attach ?? attach)({ extensionDir, allow, profile: flags.profile, ...(timeoutMs ? { timeoutMs } : {}), ...lock })
      : (seams.launch ?? launch)({
          allow,
          profile: flags.profile,
          headless: flags.headed ? false : config.headless,
          ...(timeoutMs ? { timeoutMs } : {}),
          ...lock,
          ...(profile.userDataDir ? { userDataDir: profile.userDataDir } : {}),
          ...((profile.chrome ?? config.chrome) ? { chrome: profile.chrome ?? config.chrome } : {}),
        });

  const { server, session } = createMcpServer({ version, allow, start, allowEvaluate: flags.allowEvaluate ?? false });
  const stdin = seams.stdin ?? process.stdin;
  const transport = stdioTransport(stdin, seams.stdout ?? process.stdout);
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  let closing: Promise<void> | undefined;
  const shutdown = (why: string): Promise<void> =>
    (closing ??= (async () => {
      if (session.started) writeLines(io.stderr, `aite mcp: ${why}; closing the browser.`);
      try {
        await session.close();
      } catch (error) {
        writeLines(io.stderr, `aite mcp: closing the browser failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      await server.close().catch(() => undefined);
      finish();
    })());
  const onSignal = (signal: NodeJS.Signals): void => void shutdown(`${signal}`);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  stdin.once('end', () => void shutdown('the client closed the connection'));
  transport.onclose = () => void shutdown('the connection closed');
  await server.connect(transport);
  writeLines(io.stderr, `aite mcp ${version}: serving on stdio; allowed: ${allow.join(', ')}${extensionDir ? `; attaching to your Chrome (extension in ${extensionDir})` : ''}. The browser starts on the first tool call.`);
  try {
    await finished;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return 0;
}
