import { copyFile, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Browser, CDPSession } from 'puppeteer-core';
import { AiteError } from '../../errors/AiteError.js';
import { browserSession } from '../../launch/browserSession.js';
import { withTimeout } from '../../protocol/index.js';
import { makeFolder } from '../../system/folders.js';

/** How long Chrome may take to open the downloads' CDP session, and to say where downloads go. */
const DOWNLOADS_SETUP_MS = 5_000;

/**
 * A file the page downloaded.
 *
 * @example
 * ```ts
 * import type { Download, Session } from 'aite';
 *
 * declare const session: Session;
 * const file: Download = await session.download('Export CSV', { saveAs: 'out/export.csv' });
 * console.log(file.suggestedFilename, file.bytes, file.path);
 * ```
 * @public
 */
export interface Download {
  /** Where the file is: `saveAs`, else a folder of the session's that `close()` removes. */
  path: string;
  /** The name the page or server gave it. */
  suggestedFilename: string;
  /** Its size. */
  bytes: number;
  /** The address it came from. */
  url: string;
}

/**
 * A download a page of the run started, as far as it has got: also one no `download()` waited
 * for (a plain click on an export link). The object is updated in place as it finishes.
 *
 * @example
 * ```ts
 * import type { DownloadRecord, Session } from 'aite';
 *
 * declare const session: Session;
 * await session.click('Export CSV');
 * const last: DownloadRecord | undefined = session.downloads.at(-1);
 * console.log(last?.suggestedFilename, last?.state, last?.path, last?.bytes);
 * ```
 * @public
 */
export interface DownloadRecord {
  /** The name the page or server gave it. */
  suggestedFilename: string;
  /** The address it came from. */
  url: string;
  /** Still coming, saved, or canceled. */
  state: 'in-progress' | 'completed' | 'canceled';
  /**
   * Where the file is once completed: over the pipe, in a folder of the session's that `close()`
   * removes (named by Chrome's id for it, not by `suggestedFilename`); in attach mode, where the
   * person's Chrome saved it. Undefined while in progress, or when Chrome did not say.
   */
  path?: string;
  /** Its size once completed. */
  bytes?: number;
}

/** What a download source tells: one began, and how it ended (`path`: where the file is now). */
export type DownloadEvent =
  | { guid: string; state: 'began'; url: string; suggestedFilename: string }
  | { guid: string; state: 'completed'; path?: string }
  | { guid: string; state: 'canceled' };

/**
 * Where a session hears of its downloads: the pipe's Browser domain ({@link pipeDownloads}), or
 * attach mode's extension, which watches the run's tabs through chrome.debugger and chrome.downloads.
 */
export interface DownloadSource {
  /** Starts hearing downloads (once, before the first click); answers how to stop this listener. */
  listen(listener: (event: DownloadEvent) => void): Promise<() => void>;
  /** Whether a finished file is the session's own (moved to `saveAs`) or the person's (copied, left where Chrome saved it). */
  readonly owned: boolean;
  /** Whether it hears downloads from the start (else only from the first `download()` on). */
  readonly fromStart: boolean;
  /** Why a completed download has no `path`. */
  readonly noPath: string;
  dispose(): Promise<void>;
}

type Begun = Extract<DownloadEvent, { state: 'began' }>;

/** At most this many downloads are kept in {@link Downloads.seen}, the latest. */
const KEPT = 100;

/**
 * `next()` waits for the download the step's click starts, from its source; `seen` keeps every
 * download the source hears, waited for or not, so none goes unsaid.
 */
export class Downloads {
  /** The downloads heard, oldest first, the latest {@link KEPT}. */
  readonly seen: DownloadRecord[] = [];
  #watching: Promise<() => void> | undefined;

  constructor(private readonly source: DownloadSource) {
    if (source.fromStart) this.#watch();
  }

  /** Keeps every download the source hears in `seen` (once; a source not set up yet is set up by `next()`). */
  #watch(): void {
    if (this.#watching) return;
    const byGuid = new Map<string, DownloadRecord>();
    this.#watching = this.source.listen((event) => {
      if (event.state === 'began') {
        const record: DownloadRecord = { suggestedFilename: event.suggestedFilename, url: event.url, state: 'in-progress' };
        byGuid.set(event.guid, record);
        this.seen.push(record);
        if (this.seen.length > KEPT) this.seen.splice(0, this.seen.length - KEPT);
        return;
      }
      const record = byGuid.get(event.guid);
      if (!record) return;
      byGuid.delete(event.guid);
      if (event.state === 'canceled') {
        record.state = 'canceled';
        return;
      }
      // Completed once its size is known: a reader never sees a completed record without it.
      if (event.path === undefined) record.state = 'completed';
      else void stat(event.path).then(
        ({ size }) => Object.assign(record, { state: 'completed', path: event.path, bytes: size }),
        () => Object.assign(record, { state: 'completed', path: event.path }),
      );
    });
    this.#watching.catch(() => (this.#watching = undefined));
  }

  /**
   * Arms a wait for the next download, before the click that starts it. `done` answers it
   * once complete, saved at `saveAs` when given, or fails within `timeoutMs`.
   */
  async next(options: { timeoutMs: number; saidMs?: number; saveAs?: string; what: string }): Promise<{ done: Promise<Download>; cancel: () => void }> {
    // The step's timeout, when the wait gets only what is left of it.
    const said = options.saidMs ?? options.timeoutMs;
    this.#watch();
    let began: Begun | undefined;
    let timer: NodeJS.Timeout | undefined;
    let settle: { resolve: (d: Download) => void; reject: (e: unknown) => void } | undefined;
    const unlisten = await this.source.listen((event) => {
      if (event.state === 'began') {
        began ??= event;
        return;
      }
      if (!began || event.guid !== began.guid) return;
      if (event.state === 'canceled') settle?.reject(new AiteError('load-failed', `The download of ${began.suggestedFilename} (${began.url}) was canceled.`, { command: 'download' }));
      else if (event.path === undefined) settle?.reject(new AiteError('unsupported', `${began.suggestedFilename} was downloaded, but ${this.source.noPath}.`, { command: 'download' }));
      else void this.#keep(began, event.path, options.saveAs).then(settle?.resolve, settle?.reject);
    });
    const stop = (): void => {
      clearTimeout(timer);
      unlisten();
    };
    const done = new Promise<Download>((res, rej) => {
      settle = { resolve: res, reject: rej };
      timer = setTimeout(() => {
        rej(
          new AiteError(
            'timeout',
            began ? `The download of ${began.suggestedFilename} did not finish within ${said} ms.` : `${options.what} started no download within ${said} ms.`,
            { command: 'download' },
          ),
        );
      }, options.timeoutMs);
    }).finally(stop);
    done.catch(() => undefined);
    return { done, cancel: stop };
  }

  /** Removes the session's download folder, if it has one (files saved elsewhere stay). */
  async dispose(): Promise<void> {
    const watching = this.#watching;
    this.#watching = undefined;
    (await watching?.catch(() => undefined))?.();
    return this.source.dispose();
  }

  async #keep(began: Begun, saved: string, saveAs: string | undefined): Promise<Download> {
    let path = saved;
    if (saveAs) {
      path = resolve(saveAs);
      try {
        await makeFolder(dirname(path));
        if (this.source.owned) await rename(saved, path).catch(() => copyFile(saved, path));
        else await copyFile(saved, path);
      } catch (error) {
        // The file is there, where Chrome saved it: say where, so nothing is lost.
        throw new AiteError('unsupported', `download: "${began.suggestedFilename}" was downloaded but cannot be saved as ${path} (${error instanceof Error ? error.message : String(error)}); it is at ${saved}${this.source.owned ? ' until the session closes' : ''}. Name a file in a folder you can write as saveAs.`, {
          command: 'download',
          detail: { path: saved, suggestedFilename: began.suggestedFilename },
          cause: error,
        });
      }
    }
    const { size } = await stat(path);
    return { path, suggestedFilename: began.suggestedFilename, bytes: size, url: began.url };
  }
}

/**
 * Downloads over the pipe: Chrome saves each into a folder of the session's
 * (`Browser.setDownloadBehavior`), named by its guid ("allowAndName", so two downloads of one
 * name never clash), and tells when one begins and ends. With `folder` (the temp profile's), every
 * download goes there from the start, so a plain click that downloads never writes into the
 * person's Downloads folder; without it, from the first `download()` on.
 */
export function pipeDownloads(browser: Browser, folder?: string, setupMs = DOWNLOADS_SETUP_MS): DownloadSource {
  let ready: Promise<{ cdp: CDPSession; dir: string }> | undefined;
  const late = (what: string) => () => new AiteError('timeout', `Chrome did not ${what} within ${setupMs} ms, so no download can be heard yet; the next download() asks again.`, { command: 'download' });
  const setUp = (): Promise<{ cdp: CDPSession; dir: string }> => {
    ready ??= (async () => {
      const dir = folder ?? (await mkdtemp(join(tmpdir(), 'aite-downloads-')));
      if (folder) await makeFolder(folder);
      const cdp = await withTimeout(browserSession(browser), setupMs, late('open a session for downloads'));
      await withTimeout(cdp.send('Browser.setDownloadBehavior', { behavior: 'allowAndName', downloadPath: dir, eventsEnabled: true }), setupMs, late('say where downloads go (Browser.setDownloadBehavior)'));
      return { cdp, dir };
    })();
    ready.catch(() => (ready = undefined));
    return ready;
  };
  // At once, not at the first download(): a plain click that downloads must not write outside
  // the temp profile (Playwright keeps downloads in a temp folder too).
  if (folder) setUp().catch(() => undefined);
  return {
    owned: true,
    fromStart: folder !== undefined,
    noPath: 'Chrome did not say where it saved it',
    async listen(listener) {
      const { cdp, dir } = await setUp();
      const onBegin = (e: { guid: string; url: string; suggestedFilename: string }): void => listener({ guid: e.guid, state: 'began', url: e.url, suggestedFilename: e.suggestedFilename });
      const onProgress = (e: { guid: string; state: 'inProgress' | 'completed' | 'canceled' }): void => {
        if (e.state === 'completed') listener({ guid: e.guid, state: 'completed', path: join(dir, e.guid) });
        if (e.state === 'canceled') listener({ guid: e.guid, state: 'canceled' });
      };
      cdp.on('Browser.downloadWillBegin', onBegin);
      cdp.on('Browser.downloadProgress', onProgress);
      return () => {
        cdp.off('Browser.downloadWillBegin', onBegin);
        cdp.off('Browser.downloadProgress', onProgress);
      };
    },
    async dispose() {
      const was = ready;
      ready = undefined;
      if (!was) return;
      // The browser's session is shared (launch/browserSession.ts): it ends with the browser.
      const { dir } = await was.catch(() => ({ dir: undefined }));
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}
