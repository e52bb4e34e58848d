import { join } from 'node:path';
import { _stepSchema as stepSchema, AiteError, type StepResult } from 'aite';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/program.js';
import { z } from 'zod';
import { check, flattenUnion, InputError } from '../../../src/cli/mcp/flatten.js';
import { failed, passed } from '../../../src/cli/mcp/results.js';
import { tools } from '../../../src/cli/mcp/tools.js';
import { DEFAULT_TIMEOUT_MS, NAVIGATE_TIMEOUT_MS } from '../../../src/sdk/protocol/timeouts.js';
import { Capture } from '../../support/Capture.js';
import { tempDirs } from '../../support/tempDirs.js';

const tempDir = tempDirs();

const verifyKinds = stepSchema('verify').shape.verify;

describe('aite mcp: tool inputs', () => {
  it('[MCP-TOOLS] a union of step kinds becomes one object schema with the kinds as an enum; the union still checks the arguments', () => {
    const flat = flattenUnion(verifyKinds, 'kind');
    const json = z.toJSONSchema(flat, { io: 'input', unrepresentable: 'any' }) as { type: string; properties: Record<string, { enum?: string[]; anyOf?: unknown[] }>; required: string[] };
    expect(json.type).toBe('object');
    expect(json.required).toEqual(['kind']);
    expect(json.properties.kind!.enum).toEqual(['exists', 'text', 'targetText', 'value', 'state', 'count', 'url', 'title', 'numberChange']);
    // `value` is a string for text and a number for count: both are offered.
    expect(json.properties.value!.anyOf).toHaveLength(2);
    expect(Object.keys(json.properties)).toEqual(expect.arrayContaining(['target', 'within', 'negate', 'state', 'from', 'by']));
    // The flat schema lets through what only the union refuses; check() says which field is wrong.
    expect(flat.safeParse({ kind: 'count', value: 'three' }).success).toBe(true);
    expect(() => check(verifyKinds, { kind: 'count', target: 'Row', value: 'three' }, 'verify')).toThrow(InputError);
    expect(() => check(verifyKinds, { kind: 'count', target: 'Row', value: 'three' }, 'verify')).toThrow(/^verify was not run: value: /);
    expect(check(verifyKinds, { kind: 'count', target: 'Row', value: 3 }, 'verify')).toEqual({ kind: 'count', target: 'Row', value: 3 });
  });

  it('[MCP-TOOLS] [MCP-EVALUATE] the tool names API.md fixes, each with an object input; navigate names the allowed origins; evaluate only with --allow-evaluate', () => {
    const list = tools(['http://127.0.0.1:4173']);
    expect(list.map((t) => t.name)).toEqual(expect.arrayContaining(['navigate', 'click', 'type', 'fill', 'press', 'select', 'check', 'hover', 'drag', 'read', 'verify', 'wait', 'tabs', 'switch_tab', 'close_tab', 'back', 'screenshot']));
    expect(new Set(list.map((t) => t.name)).size).toBe(list.length);
    expect(list.find((t) => t.name === 'navigate')!.description).toContain('http://127.0.0.1:4173');
    for (const tool of list) {
      const json = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as { type: string; additionalProperties?: unknown };
      expect(json.type).toBe('object');
      // A key the tool does not know is refused, not dropped: `check { uncheck: true }` would check.
      expect(json.additionalProperties, tool.name).toBe(false);
    }
    const check = list.find((t) => t.name === 'check')!.input;
    expect(check.safeParse({ target: 'I agree', uncheck: true }).success).toBe(false);
    const verify = list.find((t) => t.name === 'verify')!.input;
    expect(verify.safeParse({ kind: 'exists', target: 'Welcome', negated: true }).success).toBe(false);
    // page code only when the server was started with --allow-evaluate.
    expect(list.map((t) => t.name)).not.toContain('evaluate');
    expect(tools(['http://127.0.0.1:4173'], true).map((t) => t.name)).toContain('evaluate');
  });

  it('[MCP-USAGE] an argument error says where and what to fix: a missing target and the forms it takes, a malformed ref, an unknown argument and what the tool takes', () => {
    const byName = (name: string) => tools(['http://127.0.0.1:4173']).find((t) => t.name === name)!;
    const says = (name: string, args: unknown): string => {
      try {
        check(byName(name).input, args, name);
      } catch (error) {
        return (error as Error).message;
      }
      return 'passed';
    };
    const forms = 'name the element as a visible text ("Send"), or {"role":"button","name":"Send"}, {"label":"Email"}, {"css":"#total"}, or {"ref":"e12"} from the latest snapshot';
    expect(says('click', {})).toBe(`click was not run: target: missing; ${forms}.`);
    expect(says('click', { target: 5 })).toBe(`click was not run: target: 5 is not what it takes; ${forms}.`);
    expect(says('click', { target: { ref: 'x1' } })).toBe('click was not run: target.ref: a ref is what a snapshot gave out: `e` and a number, such as e12.');
    expect(says('click', { target: { role: 'button', nme: 'Go' } })).toBe(`click was not run: target: unknown argument "nme"; ${forms}.`);
    expect(says('click', { selector: '#x' })).toMatch(/^click was not run: target: missing; .*; unknown argument "selector" \(it takes target, button, .*timeoutMs\)\.$/);
    // The union a flat tool input stands for says the same.
    const wait = stepSchema('wait').shape.wait;
    expect(() => check(wait, { kind: 'visible' }, 'wait')).toThrow(`wait was not run: target: missing; ${forms}.`);
    expect(says('click', { target: { ref: 'e12' } })).toBe('passed');
  });

  it('[MCP-ALLOW] navigate to a page that is not http(s) is refused as such before a browser starts, not as an origin to allow', async () => {
    const navigate = tools(['http://127.0.0.1:4173']).find((t) => t.name === 'navigate')!;
    const ctx = { allow: ['http://127.0.0.1:4173'], session: () => Promise.reject(new Error('no browser may start')), armForCall: () => Promise.reject(new Error('no browser may start')) };
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,hi', 'about:blank', 'chrome://version']) {
      const error = await navigate.run({ url }, ctx).then(() => undefined, (e: unknown) => e as AiteError);
      expect(error, url).toBeInstanceOf(AiteError);
      expect(error!.reason).toBe('unsupported');
      expect(error!.message).toBe(`navigate opens only http(s) pages; ${JSON.stringify(url)} is not one, so nothing was opened.`);
    }
  });

  it('[MCP-TOOLS] navigate\'s timeoutMs says its own default, not the step default', () => {
    const list = tools(['http://127.0.0.1:4173']);
    const described = (name: string): string => (z.toJSONSchema(list.find((t) => t.name === name)!.input) as unknown as { properties: { timeoutMs: { description: string } } }).properties.timeoutMs.description;
    expect(described('navigate')).toContain(`default ${NAVIGATE_TIMEOUT_MS}`);
    expect(described('click')).toContain(`${DEFAULT_TIMEOUT_MS}`);
    expect(described('click')).not.toContain(`${NAVIGATE_TIMEOUT_MS}`);
  });

  it('[MCP-TARGET] a target is a script target: a plain string, or an object the script format accepts', () => {
    const click = tools(['http://127.0.0.1:4173']).find((t) => t.name === 'click')!.input;
    expect(click.safeParse({ target: 'Send' }).success).toBe(true);
    expect(click.safeParse({ target: { role: 'button', name: 'Send', within: 'Transfer' } }).success).toBe(true);
    expect(click.safeParse({ target: { colour: 'red' } }).success).toBe(false);
  });
});

describe('aite mcp: answers', () => {
  const step = (extra: Partial<StepResult> & { dialogs?: unknown[] } = {}): StepResult => ({ ok: true, retries: 0, warnings: [], durationMs: 12, ...extra }) as StepResult;

  it('[MCP-DIALOG] [MCP-RESULT] an answer armed and still waiting is said after the dialogs, passed or failed', () => {
    const armed = [{ accept: true, promptText: 'Ana' }, { accept: false }];
    expect(passed('Done: read.', { retries: 0, armed }).content[0]).toEqual({ type: 'text', text: 'Done: read. (no re-sends)\nA dialog answer is still armed: the next 2 dialogs will be accepted with "Ana", then dismissed, until it is taken back (see the dialog tool).' });
    expect(failed(new AiteError('timeout', 'Too slow.'), { retries: 0, armed: [{ accept: false }] }).content[0]).toEqual({ type: 'text', text: '[timeout] Too slow.\nA dialog answer is still armed: the next dialog will be dismissed, until it is taken back (see the dialog tool).' });
    expect(passed('Done: read.', { retries: 0, armed: [] }).content[0]).toEqual({ type: 'text', text: 'Done: read. (no re-sends)' });
  });

  it('[MCP-RESULT] a passed step is its sentence and re-sends; repair, dialogs and warnings only when there are any', () => {
    expect(passed('Done: click "Send".', { retries: 0, result: step() }).content).toEqual([{ type: 'text', text: 'Done: click "Send". (no re-sends)' }]);
    const text = passed('Done: click "Delete".', {
      retries: 2,
      result: step({
        repaired: true,
        repair: { score: 0.91, runnerUp: 0.4, old: { v: 1, tag: 'button', xpath: '/html/body/button' }, changed: ['text'], changes: ['text "Delete" → "Remove"'] },
        warnings: [{ code: 'lock', message: 'the lock file was not written' }],
      }),
      dialogs: [
        { type: 'confirm', message: 'Sure?', accepted: true, url: 'http://127.0.0.1:4173/', by: 'armed' },
        { type: 'alert', message: 'Welcome', accepted: false, url: 'http://127.0.0.1:4173/?welcome=1', by: 'policy' },
      ],
    }).content[0]!;
    expect(text).toEqual({
      type: 'text',
      text: [
        'Done: click "Delete". (re-sent 2 times; an action is never sent twice)',
        'Found by repair (score 0.91, next best 0.4): text "Delete" → "Remove".',
        'A confirm dialog opened: "Sure?"; it was accepted.',
        'An alert dialog opened: "Welcome"; it was dismissed (no answer was armed).',
        'Warning (lock): the lock file was not written',
      ].join('\n'),
    });
    // A click that navigated says where the page went.
    expect(passed('Done: click "Go on".', { retries: 0, result: step({ navigated: 'http://127.0.0.1:4173/two.html' }) }).content[0]).toEqual({
      type: 'text',
      text: 'Done: click "Go on". (no re-sends)\nThe page went to http://127.0.0.1:4173/two.html.',
    });
  });

  it('[SPA-REPORTED] a click that moved a single-page app\u2019s route says where from and that no page loaded', () => {
    const result = step({ navigated: 'http://127.0.0.1:4173/app/b', navigatedFrom: 'http://127.0.0.1:4173/app/a', sameDocument: true });
    expect((passed('Done: click "Go to B".', { retries: 0, result }).content[0] as { text: string }).text).toBe(
      'Done: click "Go to B". (no re-sends)\nThe page went from http://127.0.0.1:4173/app/a to http://127.0.0.1:4173/app/b within its document (no page loaded).',
    );
  });

  it('[MCP-PAGE-TROUBLE] the page\u2019s errors and failed requests are said after the warnings, at most five of each', () => {
    const errors = Array.from({ length: 7 }, (_, i) => ({ kind: 'error' as const, text: `TypeError: x${i} is undefined\n    at app.js:1`, url: 'http://127.0.0.1:4173/' }));
    const text = (passed('Done: click "Send".', { retries: 0, trouble: { errors, failedRequests: [{ method: 'GET', url: 'http://127.0.0.1:4173/api', status: 500, type: 'fetch' }] } }).content[0] as { text: string }).text;
    expect(text.split('\n')).toEqual([
      'Done: click "Send". (no re-sends)',
      ...errors.slice(0, 5).map((_, i) => `The page reported an error (error): TypeError: x${i} is undefined on http://127.0.0.1:4173/`),
      '… and 2 more errors.',
      'A request failed: GET http://127.0.0.1:4173/api → 500',
    ]);
  });

  it('[MCP-DOWNLOAD] a download is said in one line: started and still coming, saved where and how big, or canceled', () => {
    const d = { suggestedFilename: 'report.csv', url: 'http://127.0.0.1:4173/report.csv' };
    expect(passed('Done: click "Export CSV".', { retries: 0, downloads: [{ ...d, state: 'in-progress' }] }).content[0]).toEqual({
      type: 'text',
      text: 'Done: click "Export CSV". (no re-sends)\nA download started: "report.csv" from http://127.0.0.1:4173/report.csv; it is still in progress (a later answer says where it was saved).',
    });
    expect(passed('Done.', { retries: 0, downloads: [{ ...d, state: 'completed', path: '/tmp/p/aite-downloads/1f2e', bytes: 18 }, { ...d, state: 'canceled' }] }).content[0]).toEqual({
      type: 'text',
      text: 'Done. (no re-sends)\nA download finished: "report.csv" from http://127.0.0.1:4173/report.csv, saved at /tmp/p/aite-downloads/1f2e (18 bytes).\nA download was canceled: "report.csv" from http://127.0.0.1:4173/report.csv.',
    });
  });

  it('[MCP-IMAGE] a picture is an image block beside the sentence', () => {
    const answer = passed('Screenshot.', { retries: 0 }, new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    expect(answer.content[1]).toEqual({ type: 'image', data: 'iVBORw==', mimeType: 'image/png' });
  });

  it('[MCP-ERROR] [MCP-REFUSE-CANDIDATES] a failure is a tool error: [reason], the message, and the candidates of a refusal', () => {
    const error = new AiteError('ambiguous', 'The target "Remove" matches 2 visible elements.', {
      detail: { candidates: [{ descriptor: { tag: 'button', role: 'button', name: 'Remove', xpath: '/html/body/button[1]' } }, { descriptor: { tag: 'button', text: 'Remove', xpath: '/html/body/button[2]' } }] },
    });
    expect(failed(error, { retries: 0 })).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: [
            '[ambiguous] The target "Remove" matches 2 visible elements.',
            'Candidates (none was acted on; name one to act on it):',
            '  1. button "Remove": target {"xpath":"/html/body/button[1]"}',
            '  2. button "Remove": target {"xpath":"/html/body/button[2]"}',
          ].join('\n'),
        },
      ],
    });
    expect(failed(new AiteError('drifted', 'Nothing was done.', { detail: { candidate: { tag: 'a', text: 'Open it', xpath: '/a' }, score: 0.62, changes: ['text "Open" -> "Open it"'] } }), { retries: 1 }).content[0]).toEqual({
      type: 'text',
      text: '[drifted] Nothing was done.\nCandidates (none was acted on; name it only if it is the element you mean):\n  1. a "Open it" (score 0.62; the closest to the remembered element, too unlike it to act on; changed: text "Open" -> "Open it"): target {"xpath":"/a"}\n(re-sent 1 time; an action is never sent twice)',
    });
    expect(failed(new InputError('verify was not run: value: expected number.'), { retries: 0 }).content[0]).toEqual({ type: 'text', text: '[usage] verify was not run: value: expected number.' });
    // A dialog answered while a failing step ran is said too, before a notice.
    const prompt = { type: 'prompt', message: 'Name?', accepted: true, promptText: 'Ana', url: 'http://127.0.0.1:4173/', by: 'armed' } as const;
    expect(failed(new AiteError('mismatch', 'It shows "Bob".'), { retries: 0, notice: 'Chrome had exited.', dialogs: [prompt] }).content[0]).toEqual({
      type: 'text',
      text: '[mismatch] It shows "Bob".\nA prompt dialog opened: "Name?"; it was accepted with "Ana".\nChrome had exited.',
    });
  });

  it('[MCP-REFUSE-CANDIDATES] a drifted exact match is said as refused, without a target; the element most like the remembered one is the candidate, or none is', () => {
    const refused = { tag: 'button', text: 'Add to cart', context: { heading: 'Rice Cooker' }, xpath: '/html/body/div[4]/button' };
    const meant = { tag: 'button', text: 'Add to cart', context: { heading: 'Steel Bottle' }, xpath: '/html/body/div[9]/button' };
    const detail = { exact: true, candidate: refused, score: 0.78, changes: ['context.heading "Steel Bottle" -> "Rice Cooker"'] };
    expect(failed(new AiteError('drifted', 'Nothing was done.', { detail: { ...detail, better: meant, runnerUp: 1, betterChanges: [] } }), { retries: 0 }).content[0]).toEqual({
      type: 'text',
      text: [
        '[drifted] Nothing was done.',
        'Candidates (none was acted on; name the first only if it is the element you mean):',
        '  1. button "Add to cart" under "Steel Bottle" (score 1; the element most like the remembered one): target {"xpath":"/html/body/div[9]/button"}',
        'Refused (do not act on it):',
        '  - button "Add to cart" under "Rice Cooker" (score 0.78; refused: what the target finds now, not the remembered element; changed: context.heading "Steel Bottle" -> "Rice Cooker")',
      ].join('\n'),
    });
    expect(failed(new AiteError('drifted', 'Nothing was done.', { detail }), { retries: 0 }).content[0]).toEqual({
      type: 'text',
      text: [
        '[drifted] Nothing was done.',
        'Nothing on the page resembles the remembered element; the only element considered was refused (nothing was acted on):',
        '  - button "Add to cart" under "Rice Cooker" (score 0.78; refused: what the target finds now, not the remembered element; changed: context.heading "Steel Bottle" -> "Rice Cooker")',
      ].join('\n'),
    });
  });

  it('[MCP-DIALOG] [MCP-ERROR] the SDK\'s advice on arming a dialog answer becomes the dialog tool\'s', () => {
    const advice = 'call session.dialogs.next({ accept: true })';
    const kept = new AiteError('timeout', `navigate did not finish. The page stayed; ${advice} before leaving it.`, { detail: { dialogAdvice: advice } });
    expect(failed(kept, { retries: 0 }).content[0]).toEqual({
      type: 'text',
      text: '[timeout] navigate did not finish. The page stayed; call the dialog tool with {"accept": true} (or give click "dialog": {"accept": true}) before leaving it.',
    });
  });

  it('[MCP-EVALUATE-RUN] [MCP-ERROR] a page exception from evaluate keeps its reason and says it is the page\'s own, not a bug in aite', () => {
    const thrown = new AiteError('internal', 'The page threw during evaluate: TypeError: x is undefined', { detail: { exception: { name: 'TypeError', message: 'x is undefined' }, pageException: true } });
    expect(failed(thrown, { retries: 0 }).content[0]).toEqual({
      type: 'text',
      text: "[internal] The page threw during evaluate: TypeError: x is undefined\nThe page's own code threw (not a bug in aite): change the expression, or look at the page first (it may not be in the state the expression expects).",
    });
    // A real internal error is not told so.
    expect(failed(new AiteError('internal', 'boom'), { retries: 0 }).content[0]).toEqual({ type: 'text', text: '[internal] boom' });
  });
});

describe('aite mcp: what is wrong before it serves', () => {
  const mcp = async (args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> => {
    const stdout = new Capture();
    const stderr = new Capture();
    const cwd = await tempDir('aite-mcp-unit-');
    const code = await runCli(['mcp', ...args], { stdout, stderr, env: { NO_COLOR: '1', ...env }, cwd });
    return { code, stdout: stdout.text, stderr: stderr.text };
  };

  it('[MCP-ALLOW] no allow list, a bad origin, an unknown profile, --headed without a display: exit 2 with what to do, nothing on stdout (the protocol channel)', async () => {
    const none = await mcp([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/aite mcp needs the origins the agent may open: pass --allow/);
    const bad = await mcp(['--allow', 'localhost']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/`allow` entry "localhost" is not an origin like "http:\/\/127\.0\.0\.1:4173"/);
    // An origin with a path is refused as launch refuses it, not widened to the whole origin.
    const path = await mcp(['--allow', 'http://127.0.0.1:4173/app']);
    expect(path.code).toBe(2);
    expect(path.stderr).toMatch(/`allow` entry "http:\/\/127\.0\.0\.1:4173\/app" must be an http\(s\) origin without a path, like "http:\/\/127\.0\.0\.1:4173"/);
    const profile = await mcp(['--allow', 'http://127.0.0.1:4173', '--profile', 'qian']);
    expect(profile.code).toBe(2);
    expect(profile.stderr).toMatch(/unknown profile "qian"/);
    const headed = await mcp(['--allow', 'http://127.0.0.1:4173', '--headed']);
    expect(headed.code).toBe(2);
    expect(headed.stderr).toMatch(/--headed shows a Chrome window, but there is no display here/);
    for (const run of [none, bad, path, profile, headed]) expect(run.stdout).toBe('');
  });

  it('[MCP-ATTACH] --attach alone looks in the folder `aite extension` writes by default; with no extension there, exit 2 says how to write and load it', async () => {
    const home = await tempDir('aite-mcp-home-');
    const bare = await mcp(['--attach', '--allow', 'http://127.0.0.1:4173'], { HOME: home });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain(`--attach: no aite extension in ${join(home, '.aite', 'extension')}. Write it with \`aite extension --allow http://127.0.0.1:4173\``);
    expect(bare.stderr).toMatch(/Load unpacked/);
    const named = await mcp(['--allow', 'http://127.0.0.1:4173', '--attach', 'nowhere'], { HOME: home });
    expect(named.code).toBe(2);
    expect(named.stderr).toMatch(/--attach: no aite extension in \S+nowhere\. Write it with `aite extension --out \S+nowhere --allow/);
    for (const run of [bare, named]) expect(run.stdout).toBe('');
  });
});
