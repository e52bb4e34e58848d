// The MallBucks wallet under Mocha: one Chrome for the file, launched in `before` and closed in
// `after` by useAite(), whatever the tests do. Run: npx mocha examples/mocha/wallet.spec.mjs
import assert from 'node:assert/strict';
import { useAite } from 'aite/mocha';
import { startDemoServer } from '../demo/server.mjs';

describe('the MallBucks wallet', function () {
  // Chrome starts once for the file; under a loaded CI machine that takes a few seconds.
  this.timeout(60_000);

  /** @type {import('../demo/server.mjs').DemoServer} */
  let demo;
  before(async function () {
    demo = await startDemoServer();
  });
  after(async function () {
    await demo?.close();
  });

  // Options as a function: `allow` names the server, which the hook above starts first.
  // Its tests build on each other (the send starts where the balance check left the page):
  // isolate: 'file' shares one page state; by default every test starts fresh (session.reset()).
  const aite = useAite(() => ({ allow: [new URL(demo.url).origin], isolate: 'file' }));

  it('shows the starting balance', async function () {
    await aite.session.tab.navigate(demo.url);
    await aite.session.verify.text('5 MALLBUCKS');
  });

  it('sends 1 MALLBUCKS to qian', async function () {
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
});
