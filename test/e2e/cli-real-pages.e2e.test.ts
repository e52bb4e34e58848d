import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/sdk/index.js';
import { runCli } from '../../src/cli/program.js';
import { startFixtureServer, type FixtureServer } from '../support/FixtureServer.js';
import { Capture } from '../support/Capture.js';

let server: FixtureServer;
let dir: string;

beforeAll(async () => {
  server = await startFixtureServer();
  dir = await mkdtemp(join(tmpdir(), 'aite-cli-real-pages-'));
  await writeFile(join(dir, 'aite.config.json'), JSON.stringify({ allow: [server.origin], baseUrl: server.url }));
  await mkdir(join(dir, 'fixtures'));
  await writeFile(join(dir, 'fixtures', 'receipt.txt'), 'receipt #1\n');
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

async function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await runCli(args, { stdout, stderr, env: { NO_COLOR: '1', ...env }, cwd: dir });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('aite run with the real-page steps', () => {
  it('[DLG-STEP, DLG-NEXT, FILE-INPUT, FILE-DOWNLOAD, MK-BUTTON, MK-CHORD, DRAG-HTML5] dialog, upload, download, right click, chords and a sortable drag as script steps; the report lists the dialogs', async () => {
    await writeFile(
      join(dir, 'real.aite.json'),
      JSON.stringify({
        name: 'real pages',
        steps: [
          { navigate: 'dialogs.html' },
          { dialog: { accept: true, promptText: 'Zephyr' } },
          { click: 'Prompt' },
          { verify: { kind: 'targetText', target: { label: 'Out' }, value: 'name: Zephyr' } },
          { click: 'Alert' },
          { navigate: 'files.html' },
          { upload: { label: 'Receipt' }, files: ['fixtures/receipt.txt'] },
          { verify: { kind: 'targetText', target: { label: 'Log' }, value: 'receipt: receipt.txt (11 bytes)' } },
          { download: 'Export CSV', saveAs: 'out/export.csv' },
          { navigate: 'mouse-keys.html' },
          { click: 'budget.xlsx', button: 'right' },
          { verify: { kind: 'targetText', target: { label: 'Log' }, value: 'menu for budget.xlsx (button 2)' } },
          { press: 'Control+A', target: { label: 'Note' } },
          { press: 'Backspace' },
          { verify: { kind: 'value', target: { label: 'Note' }, value: '' } },
          { navigate: 'sortable.html' },
          { drag: 'Alpha', to: 'Gamma' },
          { verify: { kind: 'targetText', target: { label: 'Order' }, value: 'Beta,Gamma,Alpha' } },
        ],
      }),
    );
    const result = await run(['run', 'real.aite.json', '--report', 'report']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(await readFile(join(dir, 'out', 'export.csv'), 'utf8')).toBe('id,amount\n1,4\n2,5\n');
    const report = JSON.parse(await readFile(join(dir, 'report', 'report.json'), 'utf8')) as RunReport;
    const steps = report.scripts[0]!.steps;
    expect(steps[2]!.dialogs).toEqual([expect.objectContaining({ type: 'prompt', accepted: true, promptText: 'Zephyr', by: 'armed', profile: 'default' })]);
    expect(steps[4]!.dialogs).toEqual([expect.objectContaining({ type: 'alert', message: 'Saved', accepted: false, by: 'policy' })]);
    const html = await readFile(join(dir, 'report', 'index.html'), 'utf8');
    expect(html).toContain('class="dialog-chip"');
    expect(html).toMatch(/<code>alert<\/code> <q>Saved<\/q> dismissed/);
    // The progress lines say it under the step too: a dismissed confirm is why a page did nothing.
    expect(result.stdout).toMatch(/click "Prompt".*\n\s+A prompt dialog opened: "Your name\?"; it was accepted with "Zephyr"\.\n/);
    expect(result.stdout).toMatch(/click "Alert".*\n\s+An alert dialog opened: "Saved"; it was dismissed \(no answer was armed\)\.\n/);
  }, 120_000);

  it('[INPUT-NAV-COMMIT] a click step on a link, then a back step, lands on the page the link was on, every time', async () => {
    const round = [{ navigate: 'files.html' }, { navigate: 'click-nav.html' }, { click: 'Go on' }, { back: true }, { verify: { kind: 'title', value: 'Click and go' } }];
    await writeFile(join(dir, 'click-back.aite.json'), JSON.stringify({ name: 'click then back', steps: [...round, ...round, ...round] }));
    const result = await run(['run', 'click-back.aite.json']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  }, 120_000);

  it('[SCRIPT-ENV] ${NOTE} is filled with the environment\u2019s value; the terminal, report.json, report.html and junit say ${NOTE}, never the value', async () => {
    const secret = 'correct horse battery staple';
    await writeFile(
      join(dir, 'env.aite.yaml'),
      ['name: env values', 'steps:', '  - navigate: mouse-keys.html', '  - fill: { label: Note }', '    text: ${NOTE}', '  - verify: { kind: value, target: { label: Note }, value: "${NOTE}" }', '  - verify: { kind: value, target: { label: Note }, value: "not ${NOTE}" }', '    timeoutMs: 500', ''].join('\n'),
    );
    const result = await run(['run', 'env.aite.yaml', '--report', 'env-report', '--reporter', 'list,junit'], { NOTE: secret });
    expect(result.code, result.stdout + result.stderr).toBe(1);
    const report = JSON.parse(await readFile(join(dir, 'env-report', 'report.json'), 'utf8')) as RunReport;
    expect(report.scripts[0]!.steps.map((s) => s.status)).toEqual(['passed', 'passed', 'passed', 'failed']);
    expect(report.scripts[0]!.steps[1]!.title).toBe('fill "${NOTE}" into label "Note"');
    expect(report.scripts[0]!.steps[3]!.message).toContain('${NOTE}');
    for (const text of [result.stdout, result.stderr, JSON.stringify(report), await readFile(join(dir, 'env-report', 'index.html'), 'utf8'), await readFile(join(dir, 'env-report', 'junit.xml'), 'utf8')]) {
      expect(text).not.toContain(secret);
    }
    const unset = await run(['run', 'env.aite.yaml']);
    expect(unset.code).toBe(2);
    expect(unset.stderr).toMatch(/env\.aite\.yaml:5:\d+, step 2 \(fill\), field "text": \$\{NOTE\} is not set in the environment/);
  }, 60_000);

  it('[DLG-ARMED-UNUSED] a dialog step whose next step opened no dialog: that step warns that the answer stays armed; the dialog that opens later gets it', async () => {
    await writeFile(
      join(dir, 'armed.aite.json'),
      JSON.stringify({ steps: [{ navigate: 'dialogs.html' }, { dialog: { accept: true } }, { click: 'Guard unsaved changes' }, { click: 'Confirm' }] }),
    );
    const result = await run(['run', 'armed.aite.json', '--report', 'armed-report']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const steps = (JSON.parse(await readFile(join(dir, 'armed-report', 'report.json'), 'utf8')) as RunReport).scripts[0]!.steps;
    expect(steps[2]!.warnings).toEqual([expect.objectContaining({ code: 'dialog', message: expect.stringMatching(/^The dialog answer armed by step 2 was not used: no dialog opened during this step\. It stays armed/) })]);
    expect(result.stdout).toMatch(/3 click "Guard unsaved changes" .* · 1 warning/);
    expect(steps[3]!.warnings).toEqual([]);
    expect(steps[3]!.dialogs).toEqual([expect.objectContaining({ type: 'confirm', accepted: true, by: 'armed' })]);
  }, 60_000);

  it('[MK-BAD-KEY] a key name that does not exist is a script error (exit 2) before Chrome starts', async () => {
    await writeFile(join(dir, 'bad-key.aite.json'), JSON.stringify({ steps: [{ navigate: 'mouse-keys.html' }, { press: 'Control+Foo' }] }));
    const started = performance.now();
    const result = await run(['run', 'bad-key.aite.json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/step 2 \(press\).*"Foo" in "Control\+Foo" is not a key name/);
    // Chrome never started: a launch takes far longer than parsing.
    expect(performance.now() - started).toBeLessThan(1500);
  });
});

describe('the dialog policy from the command line and the config', () => {
  const confirmScript = JSON.stringify({
    name: 'policy',
    steps: [{ navigate: 'dialogs.html' }, { click: 'Confirm' }],
  });
  const outOf = async (report: string): Promise<RunReport['scripts'][number]['steps'][number]['dialogs']> => {
    const parsed = JSON.parse(await readFile(join(dir, report, 'report.json'), 'utf8')) as RunReport;
    return parsed.scripts[0]!.steps[1]!.dialogs;
  };

  it('[DLG-POLICY-CLI] `--dialogs accept` accepts a dialog no step armed, and beats the config; the config\u2019s `dialogs` applies without the flag', async () => {
    const policyDir = join(dir, 'policy');
    await mkdir(policyDir, { recursive: true });
    await writeFile(join(policyDir, 'aite.config.json'), JSON.stringify({ allow: [server.origin], baseUrl: server.url, dialogs: 'accept' }));
    await writeFile(join(policyDir, 'confirm.aite.json'), confirmScript);
    const inPolicy = async (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
      const stdout = new Capture();
      const stderr = new Capture();
      const code = await runCli(args, { stdout, stderr, env: { NO_COLOR: '1' }, cwd: policyDir });
      return { code, stdout: stdout.text, stderr: stderr.text };
    };
    const accepted = await inPolicy(['run', 'confirm.aite.json', '--report', 'accepted']);
    expect(accepted.code, accepted.stdout + accepted.stderr).toBe(0);
    const dismissed = await inPolicy(['run', 'confirm.aite.json', '--report', 'dismissed', '--dialogs', 'dismiss']);
    expect(dismissed.code, dismissed.stdout + dismissed.stderr).toBe(0);
    expect(await outOf('policy/accepted')).toEqual([expect.objectContaining({ type: 'confirm', message: 'Delete the file?', accepted: true, by: 'policy' })]);
    expect(await outOf('policy/dismissed')).toEqual([expect.objectContaining({ type: 'confirm', accepted: false, by: 'policy' })]);
  }, 120_000);

  it('[DLG-POLICY-CLI] a --dialogs value that is not a policy is a usage error (exit 2) naming the choices, before Chrome starts', async () => {
    await writeFile(join(dir, 'confirm.aite.json'), confirmScript);
    const result = await run(['run', 'confirm.aite.json', '--dialogs', 'maybe']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--dialogs/);
    expect(result.stderr).toMatch(/dismiss, accept/);
  });
});
