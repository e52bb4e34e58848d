// Jest's globalSetup and globalTeardown in one file: starts the demo server before any test file
// runs, hands its URL to the test files in DEMO_URL, and stops it at the end.
module.exports = async function demoServer(globalConfig) {
  const running = globalThis.__aiteDemoServer;
  if (running) {
    await running.close();
    delete globalThis.__aiteDemoServer;
    return;
  }
  const { startDemoServer } = await import('../demo/server.mjs');
  const demo = await startDemoServer();
  globalThis.__aiteDemoServer = demo;
  process.env.DEMO_URL = demo.url;
};
