// The aite demo: send 1 MALLBUCKS to qian in the MallBucks wallet, step by step, in headless
// Chrome, using only the public package API. Run it with `npm run demo` (builds first), or
// `node examples/demo/run-demo.mjs [--headed]` after `npm run build`.
import { mkdir, writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from 'aite';
import { startDemoServer } from './server.mjs';

const OUT_DIR = fileURLToPath(new URL('./out/', import.meta.url));
const SCREENSHOT = fileURLToPath(new URL('./out/mallbucks.png', import.meta.url));
const headless = !process.argv.includes('--headed');

/** The session once launched: counted by `step`, closed in `finally`. */
/** @type {import('aite').Session | undefined} */
let running;
let steps = 0;
const started = performance.now();

/**
 * Runs one step and prints one line for it: its duration, and any retries it needed.
 * @template T
 * @param {string} label
 * @param {() => Promise<T>} run
 * @returns {Promise<T>}
 */
async function step(label, run) {
  const retriesBefore = running?.retries.total ?? 0;
  const t0 = performance.now();
  try {
    const value = await run();
    const retries = (running?.retries.total ?? 0) - retriesBefore;
    const extra = retries > 0 ? `, ${retries} ${retries === 1 ? 'retry' : 'retries'}` : '';
    console.log(`  \u2713 ${label}  (${ms(performance.now() - t0)}${extra})`);
    steps += 1;
    return value;
  } catch (error) {
    console.log(`  \u2717 ${label}  (${ms(performance.now() - t0)})`);
    throw error;
  }
}

/** @param {number} duration */
function ms(duration) {
  return `${Math.round(duration)} ms`;
}

/** @param {string} path */
function show(path) {
  return relative(process.cwd(), path) || path;
}

console.log(`aite demo \u00b7 MallBucks: send 1 MALLBUCKS to qian (${headless ? 'headless' : 'headed'} Chrome)`);

const demo = await startDemoServer();
const url = demo.url;
const origin = new URL(url).origin;
let exitCode = 0;

try {
  const session = await step(`launch Chrome, allow ${origin}`, () => launch({ allow: [origin], headless }));
  running = session;

  await step(`navigate ${url}`, () => session.tab.navigate(url));
  await step('verify text "5 MALLBUCKS"', () => session.verify.text('5 MALLBUCKS'));
  await step('click { text: "Send" }', () => session.click({ text: 'Send' }));
  await step('type "qian" into { label: "Recipient" }', () => session.type({ label: 'Recipient' }, 'qian'));
  await step('type "1" into { label: "Amount" }', () => session.type({ label: 'Amount' }, '1'));
  await step('click { role: "button", name: "Review" }', () => session.click({ role: 'button', name: 'Review' }));
  await step('verify text "1 MALLBUCKS" within "Review send"', () =>
    session.verify.text('1 MALLBUCKS', { within: 'Review send' }),
  );
  await step('click { text: "Confirm" }', () => session.click({ text: 'Confirm' }));
  await step('verify text "4 MALLBUCKS"', () => session.verify.text('4 MALLBUCKS'));

  const png = await step(`screenshot ${show(SCREENSHOT)}`, async () => {
    const bytes = await session.screenshot();
    if (bytes) {
      await mkdir(OUT_DIR, { recursive: true });
      await writeFile(SCREENSHOT, bytes);
    }
    return bytes;
  });
  if (!png) console.log('  ! no screenshot: the session could not take one (it is reported as a warning)');

  const { total, byCommand } = session.retries;
  const counted = Object.entries(byCommand)
    .filter(([, n]) => n > 0)
    .map(([command, n]) => `${command} ${n}`)
    .join(', ');
  console.log(
    `\u2713 ${steps} steps passed in ${(Math.round(performance.now() - started) / 1000).toFixed(1)} s` +
      ` \u00b7 retries: ${total}${counted ? ` (${counted})` : ''}` +
      (png ? ` \u00b7 screenshot: ${show(SCREENSHOT)}` : ''),
  );
} catch (error) {
  exitCode = 1;
  const reason = error && typeof error === 'object' && 'reason' in error ? ` [${error.reason}]` : '';
  console.error(`\u2717 demo failed after ${steps} steps${reason}: ${error instanceof Error ? error.message : String(error)}`);
  if (running) console.error(`  retries so far: ${running.retries.total}`);
} finally {
  try {
    await running?.close();
  } catch (error) {
    console.error(`  (closing the session failed: ${error instanceof Error ? error.message : String(error)})`);
  }
  await demo.close();
}

process.exit(exitCode);
