// The failing twin of wallet.test.mjs, kept out of the default run (include is *.test.mjs). It
// fails on purpose, to show what a failure looks like: the error names the reason and the
// target, and ends with the screenshot's path and the retry counts.
// Run: npx vitest run --config examples/vitest/vitest.fail.config.mjs
import { afterAll, beforeAll, test } from 'vitest';
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

const aite = useAite(() => ({ allow: [new URL(demo.url).origin] }));

test('withdraws from the wallet (fails on purpose: there is no Withdraw button)', async () => {
  await aite.session.tab.navigate(demo.url);
  await aite.session.click({ text: 'Withdraw' }, { timeoutMs: 1000 });
});
