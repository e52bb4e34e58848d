import { mkdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeReports, parseScript, resolveConfig, UsageError, writeReport } from 'aite';
import { runScript } from '../../../src/sdk/script/runScript.js';
import { fakeLauncher } from '../script/fakeSession.js';
import { failingRun } from './sampleReport.js';
import { tempDirs } from '../../support/tempDirs.js';

const tempDir = tempDirs();

const SECRET = 'the secret of another folder';

/** A root with a secret outside the shard, and a shard whose report names `screenshot`. */
async function craftedShard(screenshot: string): Promise<{ root: string; shard: string }> {
  const root = await tempDir('aite-confined-');
  await writeFile(join(root, 'secret.txt'), SECRET);
  const shard = join(root, 'shards', 'one');
  await writeReport(shard, failingRun());
  const report = JSON.parse(await readFile(join(shard, 'report.json'), 'utf8'));
  report.scripts[0].steps.at(-1).screenshot = screenshot;
  await writeFile(join(shard, 'report.json'), JSON.stringify(report));
  return { root, shard };
}

describe('[RPT-CONFINED] report paths stay inside their folder', () => {
  for (const crafted of ['../../secret.txt', '/etc/passwd', 'screenshots/../../../secret.txt']) {
    it(`merge-reports refuses a report naming the screenshot ${crafted}, and reads nothing outside the shard`, async () => {
      const { root, shard } = await craftedShard(crafted);
      const error = await mergeReports([shard], { cwd: root }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).message).toMatch(/screenshot.*(climbs out of its folder|absolute)/);
    });
  }

  it('merge-reports does not follow a symbolic link inside the shard: the picture is dropped with a warning, the secret never embedded', async () => {
    const { root, shard } = await craftedShard('screenshots/send-step-3-failed.png');
    await mkdir(join(shard, 'screenshots'), { recursive: true });
    await symlink(join(root, 'secret.txt'), join(shard, 'screenshots', 'send-step-3-failed.png'));
    const { report, attachments } = await mergeReports([shard], { cwd: root });
    expect(attachments).toEqual([]);
    const step = report.scripts[0]!.steps.at(-1)!;
    expect(step.screenshot).toBeUndefined();
    expect(step.warnings.map((w) => w.message).join()).toMatch(/symbolic link; it is not followed/);
    const out = join(root, 'merged');
    await writeReport(out, report, attachments);
    expect(await readFile(join(out, 'index.html'), 'utf8')).not.toContain(Buffer.from(SECRET).toString('base64'));
  });

  it('a folder of the shard that is a link is not followed either', async () => {
    const { root, shard } = await craftedShard('screenshots/send-step-3-failed.png');
    await mkdir(join(root, 'elsewhere'));
    await writeFile(join(root, 'elsewhere', 'send-step-3-failed.png'), SECRET);
    await symlink(join(root, 'elsewhere'), join(shard, 'screenshots'));
    const { attachments, report } = await mergeReports([shard], { cwd: root });
    expect(attachments).toEqual([]);
    expect(report.scripts[0]!.steps.at(-1)!.warnings.at(-1)!.message).toMatch(/screenshots is a symbolic link/);
  });

  it('writeReport refuses an attachment outside the folder and writes nothing there', async () => {
    const root = await tempDir('aite-confined-');
    const out = join(root, 'report');
    for (const file of ['../escaped.png', '/tmp/aite-escaped.png']) {
      const error = await writeReport(out, failingRun(), [{ file, bytes: new Uint8Array([1]) }]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(/not written: .*(climbs out|absolute)/);
    }
    await expect(readFile(join(root, 'escaped.png'))).rejects.toThrow(/ENOENT/);
  });

  it('writeReport does not write through a planted link (report.json, a screenshots folder)', async () => {
    const root = await tempDir('aite-confined-');
    const out = join(root, 'report');
    await mkdir(out);
    await writeFile(join(root, 'victim.txt'), SECRET);
    await symlink(join(root, 'victim.txt'), join(out, 'report.json'));
    await expect(writeReport(out, failingRun())).rejects.toThrow(/report\.json: it is a symbolic link/);
    expect(await readFile(join(root, 'victim.txt'), 'utf8')).toBe(SECRET);

    const out2 = join(root, 'report2');
    await mkdir(out2);
    await symlink(root, join(out2, 'screenshots'));
    await expect(writeReport(out2, failingRun(), [{ file: 'screenshots/victim.txt', bytes: new Uint8Array([1]) }])).rejects.toThrow(/screenshots is a symbolic link/);
    expect(await readFile(join(root, 'victim.txt'), 'utf8')).toBe(SECRET);
  });
});

describe('[SCRIPT-SCREENSHOT-PATH] a screenshot step writes only inside the working directory', () => {
  it('refuses "..", absolute paths, at parse time (exit 2 before Chrome starts)', () => {
    for (const path of ['../out.png', '/tmp/out.png', 'a/../../out.png']) {
      expect(() => parseScript(JSON.stringify({ steps: [{ navigate: 'http://127.0.0.1:4173/' }, { screenshot: { path } }] }), 's.aite.json')).toThrow(
        /field "screenshot.path": the path (climbs out of its folder|is absolute)/,
      );
    }
  });

  it('never overwrites the target of a symbolic link: the step fails and the file keeps its bytes', async () => {
    const cwd = await tempDir('aite-confined-');
    await writeFile(join(cwd, 'precious.txt'), SECRET);
    await mkdir(join(cwd, 'out'));
    await symlink(join(cwd, 'precious.txt'), join(cwd, 'out', 'shot.png'));
    const fake = fakeLauncher();
    const loaded = parseScript(JSON.stringify({ steps: [{ navigate: '/' }, { screenshot: { path: 'out/shot.png' } }] }), 's.aite.json');
    const config = resolveConfig({ allow: ['http://127.0.0.1:4173'], baseUrl: 'http://127.0.0.1:4173/' }, cwd);
    const { report } = await runScript(loaded, { config, launch: fake.launch, cwd });
    expect(report.steps[1]).toMatchObject({ status: 'failed', reason: 'unsupported' });
    expect(report.steps[1]!.message).toMatch(/not written to out\/shot\.png: it is a symbolic link/);
    expect(await readFile(join(cwd, 'precious.txt'), 'utf8')).toBe(SECRET);
    expect(await readlink(join(cwd, 'out', 'shot.png'))).toBe(join(cwd, 'precious.txt'));
  });

  it('writes a plain relative path, creating its folders', async () => {
    const cwd = await tempDir('aite-confined-');
    const fake = fakeLauncher();
    const loaded = parseScript(JSON.stringify({ steps: [{ navigate: '/' }, { screenshot: { path: 'out/deep/shot.png' } }] }), 's.aite.json');
    const config = resolveConfig({ allow: ['http://127.0.0.1:4173'], baseUrl: 'http://127.0.0.1:4173/' }, cwd);
    const { report } = await runScript(loaded, { config, launch: fake.launch, cwd });
    expect(report.steps[1]!.status).toBe('passed');
    expect(await readFile(join(cwd, 'out', 'deep', 'shot.png'))).toEqual(Buffer.from(fake.PNG));
  });
});
