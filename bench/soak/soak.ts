// `npm run soak`: many commands against a counter page while the extension's worker is
// stopped every 50 commands. An action must never land twice, no answer may be lost, and every
// re-send must be counted.
import { AiteError, launch, AITE_EXTENSION_ID, type Session } from '../../src/sdk/index.js';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const TOTAL = Number(process.env.SOAK_COMMANDS ?? 10_000);
const KILL_EVERY = 50;

async function stopWorker(session: Session): Promise<void> {
  const cdp = await session.browser!.target().createCDPSession();
  try {
    const { targetInfos } = await cdp.send('Target.getTargets');
    const worker = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${AITE_EXTENSION_ID}/`));
    if (worker) await cdp.send('Target.closeTarget', { targetId: worker.targetId });
  } finally {
    await cdp.detach();
  }
}

// npm runs scripts from the package root: the counter page comes from the fixtures there.
const page = readFileSync('test/fixtures/pages/counter.html');
const http = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
const server = { url: `${origin}/`, origin, close: () => new Promise<void>((resolve) => http.close(() => resolve())) };
const session = await launch({ allow: [server.origin], timeoutMs: 10_000 });
const started = Date.now();
let actsOk = 0;
let actsLost = 0;
/** Cut-off acts by what the runner learned of them (detail.dispatched). */
const cut = { true: 0, false: 0, unknown: 0 };
let lostAnswers = 0;
let failures = 0;
const failureReasons: Record<string, number> = {};
// The first message of each kind, so an unexpected failure can be understood from the output.
const failureExamples: Record<string, string> = {};
let observedResends = 0;
session.bridge.on('retry', () => observedResends++);
try {
  await session.tab.navigate(new URL('counter.html', server.url).href);
  let increment = (await session.locator.resolve({ text: 'Increment' })).descriptor;
  for (let i = 1; i <= TOTAL; i++) {
    const kind = i % 4;
    const command =
      kind === 0
        ? session.locator.act('click', increment)
        : kind === 1
          ? session.verify.exists({ text: 'Increment' })
          : kind === 2
            ? session.locator.read({ css: '#value' })
            : session.tab.list();
    if (i % KILL_EVERY === 0) void stopWorker(session).catch(() => undefined);
    try {
      await command;
      if (kind === 0) actsOk++;
    } catch (error) {
      if (!(error instanceof AiteError)) throw error;
      if (kind === 0 && error.reason === 'connection-lost') {
        actsLost++;
        cut[String((error.detail as { dispatched?: unknown }).dispatched) as keyof typeof cut]++;
      }
      else if (error.reason === 'timeout' || error.reason === 'connection-lost') lostAnswers++;
      else {
        failures++;
        const key = `${error.command ?? '?'} ${error.reason}`;
        failureReasons[key] = (failureReasons[key] ?? 0) + 1;
        failureExamples[key] ??= error.message.split('\n')[0]!.slice(0, 300);
      }
      if (error.reason === 'not-found') increment = (await session.locator.resolve({ text: 'Increment' })).descriptor;
    }
    if (i % 1000 === 0) console.log(`  ${i} commands, ${Math.round((Date.now() - started) / 1000)} s`);
  }
  const clicks = Number((await session.locator.read({ css: '#value' })).text) - 10;
  const doubleActs = Math.max(0, clicks - (actsOk + actsLost));
  // Every click is an act answered ok, or a cut-off act reported dispatched (or unknown).
  const unexplained = clicks - actsOk - cut.true;
  const accounted = unexplained >= 0 && unexplained <= cut.unknown;
  const seconds = (Date.now() - started) / 1000;
  console.log('\naite soak');
  console.log(`  commands            ${TOTAL} (worker stopped every ${KILL_EVERY})`);
  console.log(`  acts answered ok    ${actsOk}`);
  console.log(`  acts cut off        ${actsLost} (connection-lost, never re-sent)`);
  console.log(`    said dispatched   true ${cut.true}, false ${cut.false}, unknown ${cut.unknown}`);
  console.log(`  clicks on the page  ${clicks}`);
  console.log(`  double acts         ${doubleActs}`);
  console.log(`  clicks accounted    ${accounted ? 'yes' : 'NO'} (ok + dispatched true = ${actsOk + cut.true}, clicks ${clicks}, unknown ${cut.unknown})`);
  console.log(`  lost answers        ${lostAnswers}`);
  console.log(`  other failures      ${failures} ${JSON.stringify(failureReasons)}`);
  for (const [key, message] of Object.entries(failureExamples)) console.log(`    ${key}: ${message}`);
  console.log(`  re-sends counted    ${session.retries.total}`);
  console.log(`  re-sends observed   ${observedResends}`);
  console.log(`  time                ${seconds.toFixed(1)} s (${((seconds * 1000) / TOTAL).toFixed(1)} ms/command)`);
  const ok = accounted && doubleActs === 0 && lostAnswers === 0 && session.retries.total === observedResends && clicks >= actsOk;
  process.exitCode = ok ? 0 : 1;
} finally {
  await session.close();
  await server.close();
}
