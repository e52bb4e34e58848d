// The MallBucks wallet under Jest: one Chrome for the file, launched in `beforeAll` and closed
// in `afterAll` by useAite(), whatever the tests do. Run: npx jest --config examples/jest/jest.config.cjs
const { useAite } = require('aite/jest');

const url = process.env.DEMO_URL; // set by demoServer.cjs (globalSetup)
// Its tests build on each other (the send starts where the balance check left the page):
// isolate: 'file' shares one page state; by default every test starts fresh (session.reset()).
const aite = useAite({ allow: [new URL(url).origin], isolate: 'file' });

test('shows the starting balance', async () => {
  await aite.session.tab.navigate(url);
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
