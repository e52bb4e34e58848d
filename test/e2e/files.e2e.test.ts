import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';
import { profileDirOf } from './support/processes.js';

// Uploads into file inputs and choosers, and downloads (FAULTS row 45). One Chrome for the file.
// The fixture server as another site too (localhost), for a cross-site frame.
const ctx = useSession({ timeoutMs: 3000, extraAllow: () => [crossSite(ctx.server.origin)] });
const crossSite = (origin: string): string => origin.replace('127.0.0.1', 'localhost');
const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/upload/${name}`, import.meta.url));
const out = await mkdtemp(join(tmpdir(), 'aite-files-test-'));
afterAll(() => rm(out, { recursive: true, force: true }));

/** Every file in the download folder of this file's session (its temp profile's aite-downloads). */
async function sessionDownloads(): Promise<string[]> {
  const folder = join(profileDirOf(ctx.session.browser!.process()!.spawnargs)!, 'aite-downloads');
  return (await readdir(folder).catch(() => [])).map((n) => join(folder, n));
}

describe('files', () => {
  it('[FILE-DOWNLOAD] a plain click that downloads saves into the session\u2019s folder, not the Downloads folder of the machine', async () => {
    await ctx.session.tab.navigate(ctx.page('files.html'));
    const home = join(homedir(), 'Downloads');
    const inHome = new Set(await readdir(home).catch(() => []));
    const before = new Set(await sessionDownloads());
    await ctx.session.click('Export CSV');
    await expect.poll(async () => (await sessionDownloads()).filter((f) => !before.has(f)).length, { timeout: 5_000 }).toBe(1);
    expect((await readdir(home).catch(() => [])).filter((f) => !inHome.has(f))).toEqual([]);
  });

  it('[FILE-DOWNLOAD-SEEN] a download no download() waited for is in session.downloads: its name, address, and once saved where and how big', async () => {
    await ctx.session.tab.navigate(ctx.page('files.html'));
    const before = ctx.session.downloads.length;
    await ctx.session.click('Export CSV');
    await expect.poll(() => ctx.session.downloads[before]?.state, { timeout: 5_000 }).toBe('completed');
    const seen = ctx.session.downloads[before]!;
    expect(seen).toMatchObject({ suggestedFilename: 'report.csv', url: ctx.page('report.csv') });
    expect(await readFile(seen.path!, 'utf8')).toBe(await readFile(fileURLToPath(new URL('../fixtures/pages/report.csv', import.meta.url)), 'utf8'));
    expect(seen.bytes).toBe((await readFile(seen.path!)).length);
  });

  it('[FILE-INPUT] a plain input named by its label gets the file; the page hears input and change', async () => {
    await ctx.session.tab.navigate(ctx.page('files.html'));
    await ctx.session.upload({ label: 'Receipt' }, fixture('receipt.txt'));
    await ctx.session.verify.targetText({ label: 'Log' }, 'receipt: receipt.txt (11 bytes)');
    await ctx.session.verify.targetText({ label: 'Events' }, 'input:receipt change:receipt');
  });

  it('[FILE-INPUT] [] clears the input, with its events', async () => {
    await ctx.session.upload({ label: 'Receipt' }, []);
    await ctx.session.verify.targetText({ label: 'Log' }, 'receipt: empty');
  });

  it('[FILE-LABEL] a hidden multiple input behind a styled label, named by the label\u2019s text, gets two files', async () => {
    await ctx.session.upload('Attach photos', [fixture('a.png'), fixture('b.png')]);
    await ctx.session.verify.targetText({ label: 'Log' }, 'photos: a.png (7 bytes), b.png (8 bytes)');
  });

  it('[FILE-LABEL] an input wrapped in its label', async () => {
    await ctx.session.upload({ label: 'Contract' }, fixture('receipt.txt'));
    await ctx.session.verify.targetText({ label: 'Log' }, 'contract: receipt.txt (11 bytes)');
  });

  it('[FILE-CHOOSER] [FAULT-45] a chooser a plain click opened and nobody answered holds nothing; then upload through the chooser button', async () => {
    await ctx.session.click('Choose file');
    await ctx.session.verify.targetText({ label: 'Log' }, 'contract: receipt.txt (11 bytes)');
    await ctx.session.upload('Choose file', fixture('b.png'));
    await ctx.session.verify.targetText({ label: 'Log' }, 'chosen: b.png (8 bytes)');
  });

  it('[FILE-FAILS] [FAULT-45] a control that opens no chooser fails within the timeout; a missing file or a removed input fails clearly; the next step works', async () => {
    const started = performance.now();
    const none = await failure(ctx.session.upload('Not a chooser', fixture('a.png'), { timeoutMs: 1500 }));
    expect(none.reason).toBe('timeout');
    expect(none.message).toMatch(/opened no file chooser within 1500 ms; name the file input or its label instead/);
    expect(performance.now() - started).toBeLessThan(1500 + 2000);
    const missing = await failure(ctx.session.upload({ label: 'Receipt' }, fixture('nope.txt')));
    expect(missing.message).toMatch(/there is no file at .*nope\.txt/);
    const page = (await ctx.session.browser!.pages()).find((p) => p.url().endsWith('files.html'))!;
    await page.evaluate(() => document.getElementById('receipt')!.remove());
    const gone = await failure(ctx.session.upload({ label: 'Receipt' }, fixture('a.png'), { timeoutMs: 1000 }));
    expect(gone.reason).toBe('not-found');
    await ctx.session.upload({ label: 'Contract' }, fixture('a.png'));
    await ctx.session.verify.targetText({ label: 'Log' }, 'contract: a.png (7 bytes)');
  });

  it('[FILE-DOWNLOAD] download waits for the file the click starts, saves it where asked, and answers its name and size', async () => {
    const saveAs = join(out, 'nested', 'export.csv');
    const file = await ctx.session.download('Export CSV', { saveAs });
    expect(file).toMatchObject({ path: saveAs, suggestedFilename: 'report.csv', bytes: 18, url: ctx.page('report.csv') });
    expect(await readFile(saveAs, 'utf8')).toBe('id,amount\n1,4\n2,5\n');
    const kept = await ctx.session.download('Export CSV');
    expect(kept.suggestedFilename).toBe('report.csv');
    expect(await readFile(kept.path, 'utf8')).toBe('id,amount\n1,4\n2,5\n');
  });

  it('[FOLDERS, FILE-DOWNLOAD] a saveAs whose folder the system refuses (under /proc) fails at once naming it, and says where the downloaded file is', async () => {
    const error = await failure(ctx.session.download('Export CSV', { saveAs: '/proc/aite-none/export.csv' }));
    expect(error.reason).toBe('unsupported');
    expect(error.message).toMatch(/"report\.csv" was downloaded but cannot be saved as \/proc\/aite-none\/export\.csv \(cannot make the folder \/proc\/aite-none: ENOENT/);
    const kept = error.detail.path as string;
    expect(error.message).toContain(`it is at ${kept} until the session closes`);
    expect(await readFile(kept, 'utf8')).toBe('id,amount\n1,4\n2,5\n');
  });

  it('[FILE-DOWNLOAD] a click that starts no download fails within the timeout, saying so', async () => {
    await ctx.session.tab.navigate(ctx.page('files.html'));
    const error = await failure(ctx.session.download('Not a download', { timeoutMs: 1500 }));
    expect(error.reason).toBe('timeout');
    expect(error.message).toMatch(/started no download within 1500 ms/);
  });

  it('[FILE-HIDDEN-INPUT] a hidden file input named directly (display: none behind a styled button, a drop zone\u2019s zero-size one) gets the files; a visible match wins, two hidden inputs are ambiguous, a hidden element that is no file input is refused', async () => {
    await ctx.session.tab.navigate(ctx.page('files.html'));
    await ctx.session.upload({ css: '#avatar' }, fixture('a.png'));
    await ctx.session.verify.targetText({ label: 'Log' }, 'avatar: a.png (7 bytes)');
    await ctx.session.upload({ css: '.drop input[type=file]' }, fixture('b.png'));
    await ctx.session.verify.targetText({ label: 'Log' }, 'dropped: b.png (8 bytes)');
    await ctx.session.upload({ css: '#avatar, #receipt' }, fixture('receipt.txt'));
    await ctx.session.verify.targetText({ label: 'Log' }, 'receipt: receipt.txt (11 bytes)');
    const two = await failure(ctx.session.upload({ css: '#avatar, #photos' }, fixture('a.png'), { timeoutMs: 1000 }));
    expect(two.reason).toBe('ambiguous');
    const secret = await failure(ctx.session.upload({ css: '#secret' }, fixture('a.png'), { timeoutMs: 500 }));
    expect(secret.reason).toBe('not-visible');
    await ctx.session.verify.targetText({ label: 'Log' }, 'receipt: receipt.txt (11 bytes)');
  });

  it('[FILE-CHOOSER-XSITE] a chooser a control opens inside a cross-site (out-of-process) frame is intercepted and answered there', async () => {
    await ctx.session.tab.navigate(ctx.page(`xframe.html?outer=${encodeURIComponent(`${crossSite(ctx.server.origin)}/files.html`)}`));
    await ctx.session.upload({ text: 'Choose file', frame: 'outer' }, fixture('b.png'));
    await ctx.session.verify.targetText({ label: 'Log', frame: 'outer' }, 'chosen: b.png (8 bytes)');
  });
});
