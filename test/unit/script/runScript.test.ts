import { join } from 'node:path';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScript, resolveConfig, UsageError, type AiteConfig } from 'aite';
import { runScript } from '../../../src/sdk/script/runScript.js';
import { tempDirs } from '../../support/tempDirs.js';
import { fakeLauncher, stepFailure } from './fakeSession.js';

// The app's API, mocked: a pre step may check it before any Chrome starts.
let balance = 5;
const api = setupServer(
  http.get('http://127.0.0.1:4173/api/balance', () => HttpResponse.json({ balance, currency: 'MALLBUCKS' })),
  http.post('http://127.0.0.1:4173/api/reset', () => {
    balance = 5;
    return HttpResponse.json({ ok: true });
  }),
);
beforeAll(() => api.listen({ onUnhandledRequest: 'error' }));
afterAll(() => api.close());

const config = (written: Parameters<typeof resolveConfig>[0] = {}): AiteConfig =>
  resolveConfig({ allow: ['http://127.0.0.1:4173'], baseUrl: 'http://127.0.0.1:4173/', ...written }, '/tmp/proj', '/tmp/proj/aite.config.json');

const tempDir = tempDirs();
const script = (value: unknown, file = 'send.aite.json') => parseScript(JSON.stringify(value, null, 2), file);

describe('runScript', () => {
  it('maps each step onto one Session call and reports every step', async () => {
    const fake = fakeLauncher();
    const { report } = await runScript(
      script({
        steps: [
          { navigate: '/' },
          { click: { text: 'Send' } },
          { type: { label: 'Amount' }, text: '1' },
          { press: 'Enter', target: { label: 'Amount' } },
          { select: { label: 'Colour' }, option: 'Green' },
          { drag: 'Alpha', to: 'Gamma' },
          { verify: { kind: 'text', value: '1 MALLBUCKS', within: 'Review send' } },
          { verify: { kind: 'numberChange', target: { css: '#v' }, from: 10, by: 1, negate: true } },
          { wait: { kind: 'networkIdle', idleMs: 200 }, timeoutMs: 3000 },
          { wait: { kind: 'url', contains: '/done' } },
          { switchTab: { urlContains: '/pay' } },
          { closeTab: true },
        ],
      }),
      { config: config(), launch: fake.launch },
    );
    expect(report.status).toBe('passed');
    expect(report.steps.map((s) => s.status)).toEqual(Array(12).fill('passed'));
    expect(fake.calls.map((c) => c.method)).toEqual([
      'navigate', 'click', 'type', 'press', 'select', 'drag', 'verify.text', 'verify.numberChange',
      'waitForNetworkIdle', 'wait', 'switchTo', 'closeTab', 'close',
    ]);
    expect(fake.calls[0]!.args[0]).toBe('http://127.0.0.1:4173/');
    expect(fake.calls[6]!.args).toEqual(['1 MALLBUCKS', { within: 'Review send', negate: undefined, timeoutMs: undefined }]);
    expect(fake.calls[8]!.args).toEqual([{ idleMs: 200, timeoutMs: 3000 }]);
    expect(report.steps[0]!.title).toBe('navigate http://127.0.0.1:4173/');
    expect(report.steps[2]!.title).toBe('type "1" into label "Amount"');
    expect(fake.launched).toEqual([
      expect.objectContaining({ allow: ['http://127.0.0.1:4173'], profile: 'default', headless: true, updateLock: false }),
    ]);
  });

  it('[T-PROFILES] starts a Chrome per profile and routes each step by its profile; the key never reaches a session', async () => {
    const fake = fakeLauncher();
    const cfg = config({ profiles: { sender: { userDataDir: 'profiles/sender' }, receiver: { userDataDir: 'profiles/receiver' } } });
    const { report } = await runScript(
      script({
        profile: 'sender',
        steps: [
          { navigate: '/' },
          { navigate: '/', profile: 'receiver' },
          { click: 'Send' },
          { verify: { kind: 'text', value: '6 MALLBUCKS' }, profile: 'receiver' },
        ],
      }),
      { config: cfg, launch: fake.launch },
    );
    expect(report.status).toBe('passed');
    expect(report.profiles).toEqual(['sender', 'receiver']);
    expect(fake.launched.map((l) => [l.profile, l.userDataDir])).toEqual([
      ['sender', '/tmp/proj/profiles/sender'],
      ['receiver', '/tmp/proj/profiles/receiver'],
    ]);
    expect(fake.calls.filter((c) => c.method !== 'close').map((c) => `${c.profile}:${c.method}`)).toEqual([
      'sender:navigate', 'receiver:navigate', 'sender:click', 'receiver:verify.text',
    ]);
    expect(JSON.stringify(fake.calls.map((c) => c.args))).not.toContain('"profile"');
    expect(fake.calls.filter((c) => c.method === 'close')).toHaveLength(2);
  });

  it('a failed pre step is pre-state, runs no further step, and starts no Chrome for an http check', async () => {
    balance = 4;
    const fake = fakeLauncher();
    const { report } = await runScript(
      script({
        pre: [{ name: 'the wallet holds 5', http: { url: '/api/balance', json: { balance: 5 } } }],
        steps: [{ navigate: '/' }, { click: 'Send' }],
      }),
      { config: config(), launch: fake.launch },
    );
    balance = 5;
    expect(report.status).toBe('pre-state');
    expect(report.steps.map((s) => [s.section, s.status])).toEqual([['pre', 'failed'], ['steps', 'skipped'], ['steps', 'skipped']]);
    expect(report.steps[0]).toMatchObject({
      reason: 'pre-state',
      cause: 'mismatch',
      message: 'Pre-state not met: GET http://127.0.0.1:4173/api/balance: balance is 4, expected 5.',
    });
    expect(fake.launched).toHaveLength(0);
  });

  it('a passing http pre step lets the steps run', async () => {
    const fake = fakeLauncher();
    const { report } = await runScript(
      script({ pre: [{ http: { url: '/api/balance', json: { currency: 'MALLBUCKS' }, status: 200 } }], steps: [{ navigate: '/' }] }),
      { config: config(), launch: fake.launch },
    );
    expect(report.status).toBe('passed');
  });

  it('a browser pre step that fails is pre-state too', async () => {
    const fake = fakeLauncher(() => ({ 'verify.text': () => Promise.reject(stepFailure('mismatch', 'The page does not show "5 MALLBUCKS".', {}, new Uint8Array([7]))) }));
    const { report } = await runScript(
      script({ pre: [{ navigate: '/' }, { verify: { kind: 'text', value: '5 MALLBUCKS' } }], steps: [{ click: 'Send' }] }),
      { config: config(), launch: fake.launch },
    );
    expect(report.status).toBe('pre-state');
    expect(report.steps[1]).toMatchObject({ reason: 'pre-state', cause: 'mismatch', screenshot: 'screenshots/send-pre-2-failed.png' });
  });

  it('[SCRIPT-PRE-PAGE] a pre check of the page, with no page open, looks at the page the steps open first: their navigate runs before it', async () => {
    // The step script of the API's own example.
    const example = {
      name: 'send one mallbuck',
      allow: ['http://127.0.0.1:4173'],
      pre: [{ verify: { kind: 'text', value: '5 MALLBUCKS' } }],
      steps: [{ navigate: 'http://127.0.0.1:4173/' }, { click: { text: 'Send' } }, { type: { label: 'Amount' }, text: '1' }],
    };
    const fake = fakeLauncher();
    const { report } = await runScript(script(example), { config: config(), launch: fake.launch });
    expect(report.status).toBe('passed');
    expect(fake.calls.map((c) => c.method)).toEqual(['navigate', 'verify.text', 'click', 'type', 'close']);
    expect(report.steps.map((s) => [s.section, s.number, s.status])).toEqual([
      ['steps', 1, 'passed'],
      ['pre', 1, 'passed'],
      ['steps', 2, 'passed'],
      ['steps', 3, 'passed'],
    ]);
    // The check still decides the pre-state.
    const failing = fakeLauncher(() => ({ 'verify.text': () => Promise.reject(stepFailure('mismatch', 'The page does not show "5 MALLBUCKS".', {})) }));
    const failed = await runScript(script(example), { config: config(), launch: failing.launch });
    expect(failed.report.status).toBe('pre-state');
    expect(failed.report.steps.map((s) => [s.section, s.number, s.status])).toEqual([
      ['steps', 1, 'passed'],
      ['pre', 1, 'failed'],
      ['steps', 2, 'skipped'],
      ['steps', 3, 'skipped'],
    ]);
    // A pre step that opens its own page, or an http check alone, keeps the order as written.
    for (const pre of [[{ navigate: '/' }, { verify: { kind: 'text', value: '5' } }], [{ http: { url: '/api/balance', json: { balance: 5 } } }]]) {
      const kept = fakeLauncher();
      const run = await runScript(script({ pre, steps: [{ navigate: '/' }, { click: 'Send' }] }), { config: config(), launch: kept.launch });
      expect(run.report.steps.map((s) => s.section)).toEqual([...pre.map(() => 'pre'), 'steps', 'steps']);
    }
  });

  it('a failed step keeps its reason, detail, call log and outlined screenshot; later steps are skipped', async () => {
    const outlined = new Uint8Array([9, 9, 9]);
    const candidates = [{ descriptor: { v: 1, tag: 'button', xpath: '/html/body/button[1]' }, score: 0.9 }];
    const fake = fakeLauncher(() => ({ click: () => Promise.reject(stepFailure('ambiguous', 'Text "Send" matches 2 elements.', { candidates }, outlined)) }));
    const run = await runScript(script({ steps: [{ navigate: '/' }, { click: 'Send' }, { verify: { kind: 'text', value: 'x' } }] }), {
      config: config(),
      launch: fake.launch,
    });
    const failed = run.report.steps[1]!;
    expect(run.report.status).toBe('failed');
    expect(run.report.error).toEqual({ reason: 'ambiguous', message: 'step 2 (click "Send"): Text "Send" matches 2 elements.' });
    expect(failed).toMatchObject({ status: 'failed', reason: 'ambiguous', message: 'Text "Send" matches 2 elements.', detail: { candidates } });
    expect(failed.callLog).toEqual(['click {"text":"Send"}', '  resolve {"target":{"text":"Send"}}']);
    expect(failed.screenshot).toBe('screenshots/send-step-2-failed.png');
    expect(run.attachments).toEqual([{ file: 'screenshots/send-step-2-failed.png', bytes: outlined }]);
    expect(run.report.steps[2]!.status).toBe('skipped');
  });

  it('files the picture a failed verify carries, and takes none of its own (the Session pictures every failed call)', async () => {
    const outlined = new Uint8Array([5, 5, 5]);
    const fake = fakeLauncher(() => ({ 'verify.text': () => Promise.reject(stepFailure('mismatch', 'no', { candidate: { v: 1, tag: 'p', xpath: '/html/body/p' } }, outlined)) }));
    const run = await runScript(script({ steps: [{ navigate: '/' }, { verify: { kind: 'text', value: 'x' } }] }), { config: config(), launch: fake.launch });
    expect(fake.calls.map((c) => c.method)).toEqual(['navigate', 'verify.text', 'close']);
    expect(run.attachments).toEqual([{ file: 'screenshots/send-step-2-failed.png', bytes: outlined }]);
    expect(run.report.steps[1]!.screenshot).toBe('screenshots/send-step-2-failed.png');
  });

  it('reports retries, repairs with their diff, warnings, console errors and tab events per step', async () => {
    const fake = fakeLauncher(() => ({
      click: () => {
        const session = fake.sessions.get('default')!;
        session.retries.total += 2;
        session.emit('pageError', { kind: 'error', tab: 1, text: 'boom' });
        session.emit('event', { type: 'event', kind: 'tab-opened', tab: 2, url: 'http://127.0.0.1:4173/pay' });
        session.emit('warning', { code: 'lock', message: 'lock file is old' });
        return {
          ok: true,
          retries: 2,
          warnings: [],
          durationMs: 5,
          repaired: true,
          repair: { score: 0.92, runnerUp: 0.4, old: { v: 1, tag: 'button', xpath: '/x' }, changed: ['text'], changes: ['text "Send" -> "Send money"'] },
        };
      },
    }));
    const { report } = await runScript(script({ steps: [{ navigate: '/' }, { click: 'Send' }] }), { config: config(), launch: fake.launch });
    const step = report.steps[1]!;
    expect(step.retries).toBe(2);
    expect(report.retries).toBe(2);
    expect(step.repair).toMatchObject({ lock: 'proposed', diff: [{ field: 'text', before: '"Send"', after: '"Send money"' }] });
    expect(step.consoleErrors).toEqual([{ kind: 'error', tab: 1, text: 'boom', profile: 'default' }]);
    expect(step.tabEvents).toEqual([{ kind: 'tab-opened', tab: 2, url: 'http://127.0.0.1:4173/pay', profile: 'default' }]);
    expect(step.warnings).toEqual([{ code: 'lock', message: 'lock file is old' }]);
  });

  it('passes lockFile and updateLock through to launch, and marks repairs written', async () => {
    const fake = fakeLauncher(() => ({
      click: () => ({ ok: true, retries: 0, warnings: [], durationMs: 1, repair: { score: 1, runnerUp: 0, old: { v: 1, tag: 'a', xpath: '/a' }, changed: [], changes: [] } }),
    }));
    const cfg = config({ lockFile: 'aite.lock.json' });
    cfg.lockFile = join(await tempDir('aite-unit-lock-'), 'aite.lock.json');
    const { report } = await runScript(script({ steps: [{ navigate: '/' }, { click: 'Send' }] }), { config: cfg, launch: fake.launch, updateLock: true });
    expect(fake.launched[0]).toMatchObject({ lockFile: cfg.lockFile, updateLock: true });
    expect(report.steps[1]!.repair?.lock).toBe('written');
  });

  it('saves named screenshots as attachments', async () => {
    const fake = fakeLauncher();
    const run = await runScript(script({ steps: [{ navigate: '/' }, { screenshot: 'after-send' }] }), { config: config(), launch: fake.launch });
    expect(run.report.steps[1]!.screenshot).toBe('screenshots/send-step-2-after-send.png');
    expect(run.attachments.map((a) => a.file)).toEqual(['screenshots/send-step-2-after-send.png']);
  });

  it('a Chrome that does not start fails the step that needed it, and the script could not run', async () => {
    const launch = () => Promise.reject(new Error('the extension did not connect within 20000 ms'));
    const { report } = await runScript(script({ steps: [{ navigate: '/' }, { click: 'Send' }] }), { config: config(), launch });
    expect(report.status).toBe('error');
    expect(report.steps[0]).toMatchObject({ status: 'failed', reason: 'internal', message: expect.stringContaining('Could not start Chrome for profile "default"') });
  });

  it('refuses, before launching, a profile no config declares and a relative URL without baseUrl', async () => {
    const fake = fakeLauncher();
    const bad = script({ steps: [{ navigate: '/' }, { click: 'Send', profile: 'recever' }] });
    const error = (await runScript(bad, { config: config({ profiles: { receiver: {} } }), launch: fake.launch }).catch((e: unknown) => e)) as UsageError;
    expect(error).toBeInstanceOf(UsageError);
    expect(error.code).toBe('unknown-profile');
    expect(error.message).toMatch(/^send\.aite\.json:8:18, step 2 \(click\), field "profile": unknown profile "recever"\. Did you mean "receiver"\?/);
    const relative = (await runScript(script({ steps: [{ navigate: '/' }] }), { config: resolveConfig({ allow: ['http://a'] }, '/tmp'), launch: fake.launch }).catch((e: unknown) => e)) as UsageError;
    expect(relative.message).toContain('"/" is not an absolute URL');
    expect(fake.launched).toHaveLength(0);
  });

  it('[SCRIPT-ENV] ${NAME} takes its value from the environment at run time; titles, messages, call logs and details say ${NAME} again, never the value, even where the page echoes it', async () => {
    const env = { APP_USER: 'ana@example.test', APP_PASSWORD: 'hunter2-secret', LANDING: '/welcome' };
    const fake = fakeLauncher(() => ({
      'verify.text': (value) => Promise.reject(stepFailure('mismatch', `Text "${String(value)}" is not on the page.`, { expected: value })),
    }));
    const run = await runScript(
      script({
        steps: [
          { navigate: '${LANDING}?from=$${LANDING}' },
          { fill: { label: 'Email' }, text: '${APP_USER}' },
          { fill: { label: 'Password' }, text: '${APP_PASSWORD}' },
          { verify: { kind: 'text', value: 'Signed in as ${APP_USER}' } },
        ],
      }),
      { config: config(), launch: fake.launch, env },
    );
    // Another step on the same page, whose refusal quotes the page's text around the element.
    const echo = fakeLauncher(() => ({ click: () => Promise.reject(stepFailure('drifted', 'The button "Menu" is now elsewhere.', { candidate: { near: 'Signed in as ana@example.test' } })) }));
    const echoed = await runScript(script({ steps: [{ fill: 'Email', text: '${APP_USER}' }, { click: 'Menu' }, { navigate: '${LANDING}' }] }), { config: config(), launch: echo.launch, env });
    expect(echoed.report.steps[1]).toMatchObject({ status: 'failed', detail: { candidate: { near: 'Signed in as ${APP_USER}' } } });
    expect(echoed.report.steps[2]).toMatchObject({ status: 'skipped', title: 'navigate http://127.0.0.1:4173${LANDING}' });
    expect(fake.calls.map((c) => [c.method, c.args[0], c.args[1]])).toEqual([
      ['navigate', 'http://127.0.0.1:4173/welcome?from=${LANDING}', expect.anything()],
      ['fill', { label: 'Email' }, 'ana@example.test'],
      ['fill', { label: 'Password' }, 'hunter2-secret'],
      ['verify.text', 'Signed in as ana@example.test', expect.anything()],
      ['close', undefined, undefined],
    ]);
    const steps = run.report.steps;
    expect(steps.map((s) => s.title)).toEqual([
      'navigate http://127.0.0.1:4173${LANDING}?from=${LANDING}',
      'fill "${APP_USER}" into label "Email"',
      'fill "${APP_PASSWORD}" into label "Password"',
      'verify text "Signed in as ${APP_USER}"',
    ]);
    expect(steps[3]).toMatchObject({ status: 'failed', message: 'Text "Signed in as ${APP_USER}" is not on the page.', detail: { expected: 'Signed in as ${APP_USER}' } });
    expect(JSON.stringify(run.report)).not.toMatch(/hunter2|ana@example/);
  });

  it('[SCRIPT-ENV] a ${NAME} the environment lacks is refused before Chrome starts, at its line, saying how to set it or write it as text', async () => {
    const fake = fakeLauncher();
    const error = (await runScript(script({ baseUrl: '${APP_URL}', steps: [{ navigate: '/' }, { fill: 'Password', text: '${APP_PASSWORD}' }] }), {
      config: resolveConfig({ allow: ['http://127.0.0.1:4173'] }, '/tmp/proj'),
      launch: fake.launch,
      env: {},
    }).catch((e: unknown) => e)) as UsageError;
    expect(error).toBeInstanceOf(UsageError);
    expect(error.issues.map((i) => i.message)).toEqual([
      '${APP_URL} is not set in the environment. Set it for the run (APP_URL=... aite run ...), or write $${APP_URL} for the text "${APP_URL}" itself.',
      '${APP_PASSWORD} is not set in the environment. Set it for the run (APP_PASSWORD=... aite run ...), or write $${APP_PASSWORD} for the text "${APP_PASSWORD}" itself.',
    ]);
    expect(error.issues[1]).toMatchObject({ field: 'text', line: 9, step: { section: 'steps', number: 2 } });
    expect(fake.launched).toHaveLength(0);
  });

  it('says what to install when there is no Chrome', async () => {
    const cfg = config();
    cfg.chrome = '/nowhere/chrome';
    const error = (await runScript(script({ steps: [{ navigate: '/' }] }), { config: cfg }).catch((e: unknown) => e)) as UsageError;
    expect(error).toMatchObject({ code: 'no-chrome', message: expect.stringContaining('Chrome not found at /nowhere/chrome') });
  });

  it('allows the origins the script navigates to when nothing lists any', async () => {
    const fake = fakeLauncher();
    await runScript(script({ steps: [{ navigate: 'http://127.0.0.1:4173/a' }, { navigate: 'http://127.0.0.1:5000/' }] }), {
      config: resolveConfig({}, '/tmp'),
      launch: fake.launch,
    });
    expect(fake.launched[0]!.allow).toEqual(['http://127.0.0.1:4173', 'http://127.0.0.1:5000']);
  });
});
