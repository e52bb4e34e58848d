// The failing twin of wallet.spec.mjs, kept out of the default run (the suite runs
// *.spec.mjs). It fails on purpose, to show what a failure looks like: the error names the
// reason and the target, and ends with the screenshot's path and the retry counts.
// Run: npx mocha examples/mocha/wallet.fail.mjs
import { useAite } from 'aite/mocha';
import { startDemoServer } from '../demo/server.mjs';

describe('the MallBucks wallet (failing on purpose)', function () {
  this.timeout(60_000);

  /** @type {import('../demo/server.mjs').DemoServer} */
  let demo;
  before(async function () {
    demo = await startDemoServer();
  });
  after(async function () {
    await demo?.close();
  });

  const aite = useAite(() => ({ allow: [new URL(demo.url).origin] }));

  it('withdraws from the wallet (there is no Withdraw button)', async function () {
    await aite.session.tab.navigate(demo.url);
    await aite.session.click({ text: 'Withdraw' }, { timeoutMs: 1000 });
  });
});
