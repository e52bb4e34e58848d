import { copyFile, mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Browser, CDPSession } from 'puppeteer-core';
import { AiteError } from '../../errors/AiteError.js';

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

interface Begun {
  guid: string;
  url: string;
  suggestedFilename: string;
}

/**
 * Downloads over the pipe: Chrome saves each into a folder of the session's
 * (`Browser.setDownloadBehavior`) and tells when one begins and ends; `next()` waits for the
 * one the step's click starts.
 */
export class Downloads {
  readonly #browser: Browser;
  #ready: Promise<{ cdp: CDPSession; dir: string }> | undefined;

  constructor(browser: Browser) {
    this.#browser = browser;
  }

  /**
   * Arms a wait for the next download, before the click that starts it. `done` answers it
   * once complete, saved at `saveAs` when given, or fails within `timeoutMs`.
   */
  async next(options: { timeoutMs: number; saveAs?: string; what: string }): Promise<{ done: Promise<Download>; cancel: () => void }> {
    const { cdp, dir } = await this.#setUp();
    let began: Begun | undefined;
    let timer: NodeJS.Timeout | undefined;
    let settle: { resolve: (d: Download) => void; reject: (e: unknown) => void } | undefined;
    const onBegin = (event: Begun): void => {
      began ??= event;
    };
    const onProgress = (event: { guid: string; state: 'inProgress' | 'completed' | 'canceled'; receivedBytes: number }): void => {
      if (!began || event.guid !== began.guid || event.state === 'inProgress') return;
      if (event.state === 'canceled') settle?.reject(new AiteError('load-failed', `The download of ${began.suggestedFilename} (${began.url}) was canceled.`, { command: 'download' }));
      else void this.#keep(dir, began, options.saveAs).then(settle?.resolve, settle?.reject);
    };
    cdp.on('Browser.downloadWillBegin', onBegin);
    cdp.on('Browser.downloadProgress', onProgress);
    const stop = (): void => {
      clearTimeout(timer);
      cdp.off('Browser.downloadWillBegin', onBegin);
      cdp.off('Browser.downloadProgress', onProgress);
    };
    const done = new Promise<Download>((res, rej) => {
      settle = { resolve: res, reject: rej };
      timer = setTimeout(() => {
        rej(
          new AiteError(
            'timeout',
            began ? `The download of ${began.suggestedFilename} did not finish within ${options.timeoutMs} ms.` : `${options.what} started no download within ${options.timeoutMs} ms.`,
            { command: 'download' },
          ),
        );
      }, options.timeoutMs);
    }).finally(stop);
    done.catch(() => undefined);
    return { done, cancel: stop };
  }

  /** Removes the session's download folder (files saved elsewhere stay). */
  async dispose(): Promise<void> {
    const ready = this.#ready;
    this.#ready = undefined;
    if (!ready) return;
    const { cdp, dir } = await ready.catch(() => ({ cdp: undefined, dir: undefined }));
    await cdp?.detach().catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  }

  #setUp(): Promise<{ cdp: CDPSession; dir: string }> {
    this.#ready ??= (async () => {
      const dir = await mkdtemp(join(tmpdir(), 'aite-downloads-'));
      const cdp = await this.#browser.target().createCDPSession();
      await cdp.send('Browser.setDownloadBehavior', { behavior: 'allowAndName', downloadPath: dir, eventsEnabled: true });
      return { cdp, dir };
    })();
    this.#ready.catch(() => (this.#ready = undefined));
    return this.#ready;
  }

  async #keep(dir: string, began: Begun, saveAs: string | undefined): Promise<Download> {
    // Chrome names the file by its guid ("allowAndName"), so two downloads of one name never clash.
    const saved = join(dir, began.guid);
    let path = saved;
    if (saveAs) {
      path = resolve(saveAs);
      await mkdir(dirname(path), { recursive: true });
      await rename(saved, path).catch(() => copyFile(saved, path));
    }
    const { size } = await stat(path);
    return { path, suggestedFilename: began.suggestedFilename, bytes: size, url: began.url };
  }
}
