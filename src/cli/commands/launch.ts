import { launch, loadConfig, UsageError, type LaunchOptions, type Session } from 'aite';
import { colorsFor, writeLines, type Io } from '../Io.js';
import { hasDisplay } from './doctor.js';

export interface LaunchFlags {
  profile: string;
  config?: string;
  chrome?: string;
  allow?: string[];
  url?: string;
  headless?: boolean;
}

/**
 * `aite launch`: a Chrome with the aite extension, for exploring a page by hand. Stays open
 * until Chrome is closed or Ctrl+C.
 */
export async function launchCommand(
  flags: LaunchFlags,
  io: Io,
  seams: { launch?: (o: LaunchOptions) => Promise<Session>; until?: Promise<unknown> } = {},
): Promise<number> {
  const config = await loadConfig({ file: flags.config, cwd: io.cwd, overrides: { chrome: flags.chrome, allow: flags.allow } });
  const profile = config.profiles[flags.profile];
  if (!profile) {
    const known = Object.keys(config.profiles).map((p) => `"${p}"`).join(', ');
    throw new UsageError('unknown-profile', [
      { file: config.file, field: 'profiles', message: `unknown profile "${flags.profile}". Known profiles: ${known}. Declare it under "profiles" in aite.config.json.` },
    ]);
  }
  if (!flags.headless && !hasDisplay(io.env)) {
    throw new UsageError(
      'usage',
      'aite launch opens a headed Chrome, but there is no display here (DISPLAY and WAYLAND_DISPLAY are unset). Run it in a desktop session, under a virtual display (`xvfb-run -a aite launch`), or over `ssh -X`. To check the setup without a display, run `aite doctor`; to run scripts, `aite run` works headless.',
    );
  }
  const allow = [...new Set([...config.allow, ...profile.allow, ...(flags.url ? [new URL(flags.url).origin] : [])])];
  if (allow.length === 0) {
    throw new UsageError('usage', 'aite launch needs the origins the extension may touch: pass --allow http://127.0.0.1:4173 (or --url), or set "allow" in aite.config.json.');
  }
  const c = colorsFor(io.stdout, io.env);
  const session = await (seams.launch ?? launch)({
    allow,
    profile: flags.profile,
    headless: flags.headless ?? false,
    ...(profile.userDataDir ? { userDataDir: profile.userDataDir } : {}),
    ...((profile.chrome ?? config.chrome) ? { chrome: profile.chrome ?? config.chrome } : {}),
  });
  try {
    if (flags.url) await session.tab.navigate(flags.url);
    writeLines(
      io.stdout,
      `${c.green('✓')} Chrome is open with the aite extension ${c.dim(`(profile ${flags.profile}${flags.headless ? ', headless' : ''})`)}`,
      `  allowed:  ${allow.join(', ')}`,
      `  profile:  ${profile.userDataDir ?? c.dim('a temporary user data dir, removed when Chrome closes')}`,
      `  bridge:   ${session.bridge.url.replace(/\?.*$/, '')}`,
      c.dim('Close Chrome or press Ctrl+C to end.'),
    );
    const closed = new Promise<void>((resolve) => {
      session.browser?.once('disconnected', () => resolve());
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    await (seams.until ? Promise.race([closed, seams.until]) : closed);
  } finally {
    await session.close();
  }
  writeLines(io.stdout, c.dim('Chrome closed.'));
  return 0;
}
