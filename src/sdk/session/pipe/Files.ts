import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CDPSession, ElementHandle, Frame, Page, Protocol } from 'puppeteer-core';
import { AiteError } from '../../errors/AiteError.js';
import { FIND_FILE_INPUT, FIND_FRAME, type Descriptor } from '../../protocol/index.js';
import { describeValue } from '../../errors/zodIssues.js';
import { frameSessionOf } from './sessions.js';

/** The absolute paths of `files`, each checked to be a file, else an error naming the one that is not. */
export async function checkFiles(files: string | readonly string[], cwd = process.cwd()): Promise<string[]> {
  if (typeof files !== 'string' && !Array.isArray(files)) {
    throw new AiteError('unsupported', `upload takes a path or a list of paths ([] clears the input); it was given ${describeValue(files)}. Nothing was sent.`, { command: 'upload' });
  }
  const list = typeof files === 'string' ? [files] : [...files];
  return Promise.all(
    list.map(async (file) => {
      if (typeof file !== 'string' || file.length === 0) throw new AiteError('unsupported', 'upload: each file is a path (a non-empty string).', { command: 'upload' });
      const path = resolve(cwd, file);
      const info = await stat(path).catch(() => undefined);
      if (!info?.isFile()) throw new AiteError('unsupported', `upload: there is no file at ${path}${info ? ' (it is a folder)' : ''}.`, { command: 'upload', detail: { file: path } });
      return path;
    }),
  );
}

/**
 * The `<input type=file>` a resolved element stands for: the input itself, the input of its
 * `<label>` (a hidden input behind a styled label is the common case), or undefined when it is
 * neither (then it is a control that opens a chooser when clicked). The element is found over
 * the pipe in the page's main world by the descriptor's path, in its frame; a path that leads
 * nowhere is the "re-rendered" failure, so the step resolves it again.
 */
export async function fileInputOf(page: Page, d: Descriptor): Promise<ElementHandle | undefined> {
  const frame = d.frame === undefined ? page.mainFrame() : await frameOf(page, d.frame);
  const handle = await frame.evaluateHandle(`(${FIND_FILE_INPUT})(${JSON.stringify(d.xpath)}, ${JSON.stringify(d.tag)})`);
  const value = handle.asElement();
  if (value) return value as ElementHandle;
  const kind = await handle.jsonValue();
  if (kind === 'gone') {
    throw new AiteError('not-found', `The <${d.tag}> to upload into was removed from the page since resolve (the page re-rendered it); resolve again.`, {
      command: 'upload',
      detail: { xpath: d.xpath, stale: 'removed' },
    });
  }
  return undefined;
}

/** The frame a descriptor's `frame` path names, outermost first, each key as a target's `frame` names it. */
async function frameOf(page: Page, path: string | string[]): Promise<Frame> {
  let frame = page.mainFrame();
  for (const spec of typeof path === 'string' ? [path] : path) {
    const element = await frame.evaluateHandle(`(${FIND_FRAME})(${JSON.stringify(spec)})`);
    const iframe = element.asElement();
    if (!iframe && ((await element.jsonValue()) as number) > 1) {
      throw new AiteError('ambiguous', `Several iframes answer to "${spec}" now, so the file input's frame is not known; nothing was uploaded. Resolve again, with a frame key that names one.`, {
        command: 'upload',
        detail: { frame: spec },
      });
    }
    const inner = await iframe?.contentFrame();
    if (!inner) throw new AiteError('not-found', `The iframe "${spec}" that held the file input is not in the page any more; resolve again.`, { command: 'upload', detail: { frame: spec } });
    frame = inner;
  }
  return frame;
}

/** Sets an input's files (or clears them for `[]`); the page gets its `input` and `change` events. */
export async function setInputFiles(input: ElementHandle, paths: readonly string[]): Promise<void> {
  const state = await input.evaluate((el) => {
    const field = el as unknown as { isConnected: boolean; multiple: boolean };
    return field.isConnected ? (field.multiple ? 'multiple' : 'single') : 'detached';
  });
  if (state === 'detached') {
    throw new AiteError('not-found', 'The file input was removed from the page before the files could be set; nothing was uploaded.', { command: 'upload', detail: { stale: 'removed' } });
  }
  if (paths.length > 1 && state !== 'multiple') {
    throw new AiteError('unsupported', `upload: ${paths.length} files for an input that takes one (it has no \`multiple\`).`, { command: 'upload' });
  }
  // puppeteer types the input as HTMLInputElement, a DOM type the SDK is built without.
  await (input as unknown as ThisParameterType<ElementHandle['uploadFile']>).uploadFile(...paths);
}

/** A file chooser a frame of the page opened, intercepted: answered over the session it opened in. */
export interface OpenedChooser {
  readonly multiple: boolean;
  /** Sets the chooser's input's files (`[]` clears it); the page gets its `input` and `change` events. */
  accept(paths: readonly string[]): Promise<void>;
  /** Closes the chooser without files, as a person's "cancel" does. */
  cancel(): Promise<void>;
}

/**
 * Intercepts the next file chooser any frame of `page` opens within `timeoutMs`. Chrome hands a
 * chooser only to the session of the process its frame runs in, so each session of the page (its
 * own and each cross-site frame's) intercepts, until one opens or the time is up; then none does
 * (an intercepted chooser nobody answers would hold the page's next one). Answers once every
 * session intercepts, so a click sent after it is heard; `opened` is undefined when none opened.
 */
export async function interceptChooser(page: Page, timeoutMs: number): Promise<{ opened: Promise<OpenedChooser | undefined>; stop: () => void }> {
  const sessions = new Set(page.frames().flatMap((frame) => frameSessionOf(frame) ?? []));
  let settle: (chooser: OpenedChooser | undefined) => void = () => undefined;
  const opened = new Promise<OpenedChooser | undefined>((resolve) => (settle = resolve));
  const ends: Array<() => void> = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ended = false;
  const stop = (chooser?: OpenedChooser): void => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    for (const end of ends) end();
    settle(chooser);
  };
  const enabled = [...sessions].map((session) => {
    const onOpened = (event: Protocol.Page.FileChooserOpenedEvent): void => stop(chooserIn(session, event));
    session.on('Page.fileChooserOpened', onOpened);
    ends.push(() => {
      session.off('Page.fileChooserOpened', onOpened);
      void session.send('Page.setInterceptFileChooserDialog', { enabled: false }).catch(() => undefined);
    });
    // A frame that went away meanwhile opens no chooser: its refusal is no failure.
    return session.send('Page.setInterceptFileChooserDialog', { enabled: true }).catch(() => undefined);
  });
  timer = setTimeout(() => stop(undefined), timeoutMs);
  await Promise.race([Promise.all(enabled), opened]);
  return { opened, stop: () => stop(undefined) };
}

function chooserIn(session: CDPSession, event: Protocol.Page.FileChooserOpenedEvent): OpenedChooser {
  const input = (): number => {
    if (event.backendNodeId === undefined) throw new AiteError('unsupported', 'The file chooser did not come from a file input of the page, so aite cannot answer it.', { command: 'upload' });
    return event.backendNodeId;
  };
  const run = async (functionDeclaration: string): Promise<void> => {
    const { object } = await session.send('DOM.resolveNode', { backendNodeId: input() });
    try {
      await session.send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration });
    } finally {
      void session.send('Runtime.releaseObject', { objectId: object.objectId! }).catch(() => undefined);
    }
  };
  return {
    multiple: event.mode === 'selectMultiple',
    accept: async (paths) => {
      // Chrome sets no empty list: the input is cleared as a person's "cancel" would, with its events.
      if (paths.length === 0) return run(CLEAR_INPUT);
      await session.send('DOM.setFileInputFiles', { backendNodeId: input(), files: [...paths] });
    },
    cancel: () => run("function () { this.dispatchEvent(new Event('cancel', { bubbles: true })); }"),
  };
}

const CLEAR_INPUT = "function () { this.value = ''; this.dispatchEvent(new Event('input', { bubbles: true })); this.dispatchEvent(new Event('change', { bubbles: true })); }";
