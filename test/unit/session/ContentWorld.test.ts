import type { Browser, Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { AITE_EXTENSION_ORIGIN } from '../../../src/sdk/identity/ExtensionIdentity.js';
import type { Request } from '../../../src/sdk/protocol/index.js';
import { ContentWorld } from '../../../src/sdk/session/pipe/ContentWorld.js';
import { GuardVerdicts } from '../../../src/sdk/session/pipe/GuardVerdicts.js';

const ORIGIN = 'http://127.0.0.1:4173';
const FRAME = 'TOP';

/**
 * A page's CDP session as the pipe would show it: the test sends its events; a
 * `Runtime.callFunctionOn` answers which context it was sent to.
 */
function pipePage(call?: () => Promise<unknown>) {
  const listeners = new Map<string, Array<(params: unknown) => void>>();
  const session = {
    on: (event: string, listener: (params: unknown) => void) => listeners.set(event, [...(listeners.get(event) ?? []), listener]),
    send: (method: string, params: { executionContextId?: number }) =>
      method === 'Runtime.callFunctionOn' && call
        ? call()
        : Promise.resolve(method === 'Runtime.callFunctionOn' ? { result: { value: { id: 1, ok: true, context: params.executionContextId } } } : {}),
    connection: () => ({ on: () => undefined, off: () => undefined }),
  };
  const target = { type: () => 'page', _session: () => session };
  const page = { isClosed: () => false, url: () => `${ORIGIN}/`, target: () => target, mainFrame: () => ({ _id: FRAME }) };
  const browser = { targets: () => [target] };
  return {
    world: new ContentWorld(browser as unknown as Browser, () => page as unknown as Page, [ORIGIN], new GuardVerdicts()),
    emit(event: string, params: unknown): void {
      for (const listener of listeners.get(event) ?? []) listener(params);
    },
    made(id: number, uniqueId: string): void {
      this.emit('Runtime.executionContextCreated', {
        context: { id, uniqueId, origin: AITE_EXTENSION_ORIGIN, name: 'aite', auxData: { frameId: FRAME, type: 'isolated', isDefault: false } },
      });
    },
  };
}

const read = { id: 1, cmd: 'read', tab: 1, target: { css: '#status' } } as unknown as Request;

describe('the extension world a page command goes to over the pipe', () => {
  it('[PIPE-PAGE-DIRECT] a context the old document destroys late, under an id the new document\u2019s world reuses, leaves the new world known', async () => {
    const pipe = pipePage();
    pipe.made(2, 'old-process-2');
    // A cross-process navigation: the new renderer numbers its contexts from 1 again, and the
    // old one's destruction of its context 2 arrives after the new world 2 was made.
    pipe.made(2, 'new-process-2');
    pipe.emit('Runtime.executionContextDestroyed', { executionContextId: 2, executionContextUniqueId: 'old-process-2' });
    await expect(pipe.world.run(read)).resolves.toEqual({ answer: { id: 1, ok: true, context: 2 } });
    // The new world's own end is heard: the command is the worker's to carry then.
    pipe.emit('Runtime.executionContextDestroyed', { executionContextId: 2, executionContextUniqueId: 'new-process-2' });
    expect(pipe.world.run(read)).toBeUndefined();
  });

  it('[PIPE-PAGE-DIRECT] without a unique id on either side, a destroyed context is matched by its id', async () => {
    const pipe = pipePage();
    pipe.emit('Runtime.executionContextCreated', {
      context: { id: 5, origin: AITE_EXTENSION_ORIGIN, name: 'aite', auxData: { frameId: FRAME, type: 'isolated' } },
    });
    await expect(pipe.world.run(read)).resolves.toEqual({ answer: { id: 1, ok: true, context: 5 } });
    pipe.emit('Runtime.executionContextDestroyed', { executionContextId: 5 });
    expect(pipe.world.run(read)).toBeUndefined();
  });

  it('[PIPE-PAGE-RESEND-COUNTED] a command whose document went away under it is told as navigated, for the bridge to send again (counted) or fail; an act never goes this way', async () => {
    const pipe = pipePage(() => Promise.reject(new Error('Protocol error (Runtime.callFunctionOn): Execution context was destroyed.')));
    pipe.made(3, 'world-3');
    await expect(pipe.world.run(read)).resolves.toEqual({ navigated: 'Protocol error (Runtime.callFunctionOn): Execution context was destroyed.' });
    const act = { id: 2, cmd: 'act', tab: 1, action: 'click', descriptor: { v: 1, tag: 'button', xpath: '/html/body/button' } } as unknown as Request;
    expect(pipe.world.run(act)).toBeUndefined();
  });
});
