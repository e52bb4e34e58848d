import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, type Session } from '../../src/sdk/index.js';
import { startFixtureServer, type FixtureServer } from '../support/FixtureServer.js';
import { failure } from './support/failure.js';

// A tab that was open before the extension loaded: Chrome gives it no content script.
let server: FixtureServer;
let session: Session;

beforeAll(async () => {
  server = await startFixtureServer();
  session = await launch({ allow: [server.origin], args: [new URL('counter.html', server.url).href] });
});
afterAll(async () => {
  await session?.close();
  await server?.close();
});

describe('tabs open before the extension loaded', () => {
  it('[NAV-RUN-TAB] a page command before any run tab fails as tab-closed', async () => {
    const error = await failure(session.verify.text('Increment'));
    expect(error.reason).toBe('tab-closed');
    expect(error.message).toMatch(/navigate first/);
  });

  it('[INJECT-ON-DEMAND] get the content script on demand', async () => {
    const tab = await session.tab.switchTo({ urlContains: 'counter.html' });
    expect(tab.title).toBeTruthy();
    await session.verify.text('Increment');
    await session.click({ text: 'Increment' });
    await session.verify.targetText({ css: '#value' }, '11');
  });
});
