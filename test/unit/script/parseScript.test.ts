import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScript, parseScript, STEP_ACTIONS, UsageError } from 'aite';
import { KIND_EXAMPLES, STEP_EXAMPLES } from '../../../src/sdk/script/schema.js';
import { tempDirs } from '../../support/tempDirs.js';

const tempDir = tempDirs();

function failure(text: string, file = 'send.aite.json'): UsageError {
  try {
    parseScript(text, file);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error('expected a UsageError');
}

describe('parseScript', () => {
  it('reads the demo script and its YAML twin into the same steps', async () => {
    const json = await loadScript('examples/demo/send.aite.json');
    const yaml = await loadScript('examples/demo/send.aite.yaml');
    expect(json.script.steps).toHaveLength(11);
    expect(yaml.script.steps).toEqual(json.script.steps);
    expect(yaml.script.pre).toEqual(json.script.pre);
    expect(json.locate(['steps', 2])).toEqual({ line: 11, column: 5 });
  });

  it('[TARGET-REGEX] takes a pattern as { regex, flags } where a target takes words, and says so when its source cannot be read', async () => {
    const { describeStep } = await import('../../../src/sdk/script/describeStep.js');
    const { script } = parseScript('{ "steps": [ { "click": { "role": "button", "name": { "regex": "^Sign (in|up)$", "flags": "i" } } } ] }', 'p.aite.json');
    expect(script.steps[0]).toEqual({ click: { role: 'button', name: { regex: '^Sign (in|up)$', flags: 'i' } } });
    expect(describeStep(script.steps[0]!)).toBe('click button /^Sign (in|up)$/i');
    const bad = failure('{ "steps": [ { "click": { "text": { "regex": "(" } } } ] }');
    expect(bad.message).toMatch(/not a regular expression JavaScript can read/);
  });

  it('[ROLE-STATES] a script target takes a role\u2019s filters (level, checked, pressed, expanded, selected, disabled), and refuses them without role', async () => {
    const { describeStep } = await import('../../../src/sdk/script/describeStep.js');
    const { script } = parseScript(
      '{ "steps": [ { "click": { "role": "checkbox", "name": "Notify", "checked": "mixed" } }, { "verify": { "kind": "exists", "target": { "role": "heading", "name": "Settings", "level": 2 } } }, { "click": { "role": "button", "name": "Save", "disabled": false, "pressed": false, "expanded": true } }, { "click": { "role": "tab", "selected": true } } ] }',
      'f.aite.json',
    );
    expect(script.steps[0]).toEqual({ click: { role: 'checkbox', name: 'Notify', checked: 'mixed' } });
    expect(describeStep(script.steps[0]!)).toBe('click checkbox "Notify" checked "mixed"');
    expect(describeStep(script.steps[2]!)).toBe('click button "Save" not pressed expanded not disabled');
    expect(describeStep(script.steps[3]!)).toBe('click tab selected');
    expect((script.steps[1] as { verify: { target: unknown } }).verify.target).toEqual({ role: 'heading', name: 'Settings', level: 2 });
    const bare = failure('{ "steps": [ { "click": { "text": "Notify", "checked": true } } ] }');
    expect(bare.message).toContain('step 1 (click), field "click.checked": "checked" filters the elements of a role, as Playwright\'s getByRole options do: add the role ({ role: \'checkbox\', checked: true })');
    expect(failure('{ "steps": [ { "click": { "role": "heading", "level": 0 } } ] }').message).toContain('field "click.level"');
    expect(failure('{ "steps": [ { "click": { "role": "link", "pressed": true } } ] }').message).toContain('field "click.pressed": "pressed" applies to the roles "button"');
  });

  it('accepts a correct example of every step kind', () => {
    for (const action of STEP_ACTIONS) {
      const { script } = parseScript(`{ "steps": [ ${STEP_EXAMPLES[action]} ] }`, 'x.json');
      expect(Object.keys(script.steps[0]!)).toContain(action);
    }
  });

  it('accepts every verify and wait kind, and per-step profile, timeoutMs and name', () => {
    const steps = [
      { verify: { kind: 'exists', target: 'Save', within: 'Actions', negate: true } },
      { verify: { kind: 'text', value: 'x', within: { role: 'dialog', name: 'Review' } } },
      { verify: { kind: 'targetText', target: { css: '#s' }, value: 'Done' } },
      { verify: { kind: 'value', target: { label: 'Email' }, value: 'a@b' } },
      { verify: { kind: 'state', target: { label: 'Subscribe' }, state: 'checked' } },
      { verify: { kind: 'count', target: { text: 'Delete' }, value: 2 } },
      { verify: { kind: 'url', value: '/pay' } },
      { verify: { kind: 'title', value: 'Pay' } },
      { verify: { kind: 'numberChange', target: { css: '#value' }, from: 10, by: 1 } },
      { wait: { kind: 'visible', target: 'Done' } },
      { wait: { kind: 'gone', target: 'Loading' } },
      { wait: { kind: 'textChanges', target: { css: '#status' } } },
      { wait: { kind: 'url', contains: '/navigated' } },
      { wait: { kind: 'networkIdle', idleMs: 300 } },
      { click: 'Send', profile: 'sender', timeoutMs: 2000, name: 'open the form' },
      { switchTab: { new: true } },
      { switchTab: { titleContains: 'Pay' } },
      { closeTab: true },
      { screenshot: { name: 'x', path: 'out/x.png' } },
    ];
    const { script } = parseScript(JSON.stringify({ steps }), 'all.json');
    expect(script.steps).toEqual(steps);
  });

  it('names the file, step, field and line of a wrong field type', () => {
    const error = failure('{\n  "steps": [\n    { "type": { "label": "Amount" }, "text": 1 }\n  ]\n}');
    expect(error.code).toBe('invalid');
    expect(error.issues).toEqual([
      expect.objectContaining({ file: 'send.aite.json', step: { section: 'steps', number: 1, action: 'type' }, field: 'text', line: 3, column: 46 }),
    ]);
    expect(error.message).toMatch(/^send\.aite\.json:3:46, step 1 \(type\), field "text": expected a string, got the number 1\. Example: /);
    expect(error.message).not.toContain('\n');
  });

  it('suggests the step kind a typo meant', () => {
    const error = failure('{ "steps": [ { "navigate": "http://x/" }, { "clik": { "text": "Send" } } ] }');
    expect(error.message).toContain('step 2: unknown step "clik". Did you mean "click"?');
    expect(error.issues[0]).toMatchObject({ line: 1, column: 45 });
  });

  it('suggests the field a typo meant, in a target and at the top', () => {
    const error = failure('{ "stepz": [], "steps": [ { "click": { "lable": "Amount" } } ] }');
    const text = error.message;
    expect(text).toContain('field "stepz": unknown field "stepz". Did you mean "steps"?');
    expect(text).toContain('step 1 (click), field "click.lable": unknown field "lable". Did you mean "label"?');
  });

  it('says where a step\'s timeoutMs goes when it was written into the target', () => {
    const error = failure('{ "steps": [ { "click": { "text": "Send", "timeoutMs": 1500 } } ] }');
    expect(error.message).toContain('step 1 (click), field "click.timeoutMs": unknown field "timeoutMs". "timeoutMs" belongs to the step, beside "click": { "click": …, "timeoutMs": 1500 }.');
  });

  it('lists the kinds of verify when the kind is wrong', () => {
    const error = failure('{ "steps": [ { "verify": { "kind": "txt", "value": "x" } } ] }');
    expect(error.message).toContain('field "verify.kind": must be one of "exists", "text"');
    expect(error.message).toContain('Did you mean "text"?');
  });

  it('a wrong verify or wait shows an example of its own kind, and every kind example parses', () => {
    const state = failure('{ "steps": [ { "verify": { "kind": "state", "target": "Subscribe", "state": "on" } } ] }');
    expect(state.message).toContain(`Example: ${KIND_EXAMPLES.verify.state}`);
    expect(state.message).not.toContain('"kind": "text"');
    const gone = failure('{ "steps": [ { "wait": { "kind": "gone" } } ] }');
    expect(gone.message).toContain(`Example: ${KIND_EXAMPLES.wait.gone}`);
    for (const example of [...Object.values(KIND_EXAMPLES.verify), ...Object.values(KIND_EXAMPLES.wait)]) {
      expect(parseScript(`{ "steps": [ ${example} ] }`, 'x.json').script.steps).toHaveLength(1);
    }
  });

  it('reports invalid JSON with its line and column', () => {
    const error = failure('{\n  "steps": [\n    { "click": "Send" }\n  ]\n', 'broken.json');
    expect(error.code).toBe('syntax');
    expect(error.message).toMatch(/^broken\.json:\d+(:\d+)?: this is not valid JSON: /);
  });

  it('reports invalid YAML with its line', () => {
    const error = failure('steps:\n  - click: [text: Send\n', 'broken.yaml');
    expect(error.code).toBe('syntax');
    expect(error.message).toMatch(/^broken\.yaml:\d+:\d+: this is not valid YAML: /);
  });

  it('refuses a step with two actions, a step that is not an object, and an empty file', () => {
    expect(failure('{ "steps": [ { "click": "Send", "type": "x" } ] }').message).toContain('a step does one thing, but this one has "click" and "type"');
    expect(failure('{ "steps": [ "click Send" ] }').message).toContain('a step is an object with one action, got the text "click Send"');
    expect(failure('').message).toContain('the file is empty');
    expect(failure('{ "steps": [] }').message).toContain('a script needs at least one step');
    expect(failure('[]').message).toContain('a script is an object with a "steps" list, got a list');
  });

  it('refuses a target with no locating key', () => {
    expect(failure('{ "steps": [ { "click": { "nth": 1 } } ] }').message).toContain('a target needs at least one of: text, role');
  });

  it('says when the file is missing', async () => {
    const dir = await tempDir('aite-parse-');
    await expect(loadScript('missing.aite.json', { cwd: dir })).rejects.toMatchObject({
      code: 'file-not-found',
      message: expect.stringMatching(/^missing\.aite\.json: no such file \(looked in .*missing\.aite\.json\)/),
    });
    await writeFile(join(dir, 'ok.aite.yaml'), 'steps:\n  - navigate: http://127.0.0.1:1/\n');
    expect((await loadScript('ok.aite.yaml', { cwd: dir })).script.steps).toEqual([{ navigate: 'http://127.0.0.1:1/' }]);
  });
});
