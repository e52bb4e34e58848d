// The MallBucks wallet under node:test: one Chrome for the file, launched in `before` and
// closed in `after` by useAite(), whatever the tests do. Run: node --test examples/node-test/
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { useAite } from 'aite/node-test';
import { startDemoServer } from '../demo/server.mjs';

// Started at the top, not in a `before` hook: node:test runs a file's top-level `before` hooks
// together, not one after the other.
const demo = await startDemoServer();
after(() => demo.close());

// Its tests build on each other (the send starts where the balance check left the page):
// isolate: 'file' shares one page state; by default every test starts fresh (session.reset()).
const aite = useAite({ allow: [new URL(demo.url).origin], isolate: 'file' });

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
  assert.equal(confirmed.ok, true);
  await session.verify.text('4 MALLBUCKS');
});
