// The MallBucks wallet under Vitest: one Chrome for the file, launched in `beforeAll` and closed
// in `afterAll` by useAite(), whatever the tests do.
// Run: npx vitest run --config examples/vitest/vitest.config.mjs
import { afterAll, beforeAll, expect, test } from 'vitest';
import { useAite } from 'aite/vitest';
import { startDemoServer } from '../demo/server.mjs';

/** @type {import('../demo/server.mjs').DemoServer} */
let demo;
beforeAll(async () => {
  demo = await startDemoServer();
});
afterAll(async () => {
  await demo?.close();
});

// Options as a function: `allow` names the server, which the hook above starts first.
// Its tests build on each other (the send starts where the balance check left the page):
// isolate: 'file' shares one page state; by default every test starts fresh (session.reset()).
const aite = useAite(() => ({ allow: [new URL(demo.url).origin], isolate: 'file' }));

test('shows the starting balance', async () => {
  await aite.session.tab.navigate(demo.url);
  await aite.session.verify.text('5 MALLBUCKS');
});

test('sends 1 MALLBUCKS to qian', async () => {
  const { session } = aite;
  await session.click({ text: 'Send' });
  await session.type({ label: 'Recipient' }, 'qian');
  await session.type({ label: 'Amount' }, '1');
  await session.click({ role: 'button', name: 'Review' });
  await session.verify.text('1 MALLBUCKS', { within: 'Review send' });
  const confirmed = await session.click({ text: 'Confirm' });
  expect(confirmed.ok).toBe(true);
  await session.verify.text('4 MALLBUCKS');
});
