// The failing twin of wallet.test.mjs, kept out of the default run (`node --test` does not pick
// up *.fail.mjs). It fails on purpose, to show what a failure looks like: the error names the
// reason and the target, and ends with the screenshot's path and the retry counts.
// Run: node --test examples/node-test/wallet.fail.mjs
import { after, test } from 'node:test';
import { useAite } from 'aite/node-test';
import { startDemoServer } from '../demo/server.mjs';

// Started at the top, not in a `before` hook: node:test runs a file's top-level `before` hooks
// together, not one after the other.
const demo = await startDemoServer();
after(() => demo.close());

const aite = useAite({ allow: [new URL(demo.url).origin] });

test('withdraws from the wallet (fails on purpose: there is no Withdraw button)', async () => {
  await aite.session.tab.navigate(demo.url);
  await aite.session.click({ text: 'Withdraw' }, { timeoutMs: 1000 });
});
