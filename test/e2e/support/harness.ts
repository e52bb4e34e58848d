import { afterAll, beforeAll } from 'vitest';
import { launch, type LaunchOptions, type Session } from '../../../src/sdk/index.js';
import { startFixtureServer, type FixtureServer } from '../../support/FixtureServer.js';

/** One fixture server and one launched session shared by the tests of a file. */
export interface E2eContext {
  server: FixtureServer;
  session: Session;
  /** The fixture page's absolute URL. */
  page(path: string): string;
}

/**
 * Launches real Chromium with the real built extension once per test file. A missing browser
 * fails loudly: nothing here skips.
 */
export function useSession(options: Partial<LaunchOptions> & { extraAllow?: () => string[] } = {}): E2eContext {
  const context = {} as E2eContext;
  beforeAll(async () => {
    context.server = await startFixtureServer();
    const { extraAllow, ...launchOptions } = options;
    context.session = await launch({ ...launchOptions, allow: [context.server.origin, ...(extraAllow?.() ?? [])] });
    context.page = (path: string) => new URL(path, context.server.url).href;
  });
  afterAll(async () => {
    await context.session?.close();
    await context.server?.close();
  });
  return context;
}
