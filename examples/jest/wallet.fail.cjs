// The failing twin of wallet.test.cjs, kept out of the default run (testMatch is *.test.cjs). It
// fails on purpose, to show what a failure looks like: the error names the reason and the
// target, and ends with the screenshot's path and the retry counts.
// Run: npx jest --config examples/jest/jest.config.cjs --testMatch '**/wallet.fail.cjs'
const { useAite } = require('aite/jest');

const url = process.env.DEMO_URL;
const aite = useAite({ allow: [new URL(url).origin] });

test('withdraws from the wallet (fails on purpose: there is no Withdraw button)', async () => {
  await aite.session.tab.navigate(url);
  await aite.session.click({ text: 'Withdraw' }, { timeoutMs: 1000 });
});
