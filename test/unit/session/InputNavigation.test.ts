import { EventEmitter } from 'node:events';
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { InputNavigation, pipeNavigationSource } from '../../../src/sdk/session/pipe/InputNavigation.js';

const TOP = 'TOP';
const URL_TWO = 'http://127.0.0.1:4173/two.html';

/**
 * A page's CDP session as the pipe shows it: the test sends its events; `Runtime.evaluate` (the
 * round trip after the input's acknowledgement) first lets `inFlight` arrive, as the renderer's
 * events sent before its answer do.
 */
function pipePage(from?: string) {
  const session = new EventEmitter();
  const inFlight: Array<[string, unknown]> = [];
  let roundTrips = 0;
  Object.assign(session, {
    send: (method: string) => {
      if (method === 'Runtime.evaluate') roundTrips += 1;
      for (const [event, params] of inFlight.splice(0)) session.emit(event, params);
      return Promise.resolve({});
    },
  });
  const page = Object.assign(new EventEmitter(), { target: () => ({ _session: () => session }), mainFrame: () => ({ _id: TOP }) });
  return {
    navigation: new InputNavigation(pipeNavigationSource(page as unknown as Page), from),
    emit: (event: string, params: unknown) => session.emit(event, params),
    inFlight,
    roundTrips: () => roundTrips,
    listeners: () => session.eventNames().length,
  };
}

describe('the navigation an input started in the top frame', () => {
  it('[INPUT-NAV-NONE] none heard by the round trip after the acknowledgement: none, and nothing listens after', async () => {
    const pipe = pipePage();
    await expect(pipe.navigation.settled(1_000)).resolves.toBe('none');
    expect(pipe.roundTrips()).toBe(1);
    expect(pipe.listeners()).toBe(0);
  });

  it('[INPUT-NAV-COMMIT] asked for before the acknowledgement: waits for its commit', async () => {
    const pipe = pipePage();
    pipe.emit('Page.frameRequestedNavigation', { frameId: TOP, disposition: 'currentTab', url: URL_TWO, reason: 'anchorClick' });
    const settled = pipe.navigation.settled(1_000);
    pipe.emit('Page.frameStartedNavigating', { frameId: TOP, navigationType: 'differentDocument', url: URL_TWO });
    pipe.emit('Page.frameStoppedLoading', { frameId: 'CHILD' });
    pipe.emit('Page.frameNavigated', { frame: { id: TOP, url: URL_TWO } });
    await expect(settled).resolves.toBe('committed');
    expect(pipe.navigation.url).toBe(URL_TWO);
    expect(pipe.roundTrips()).toBe(0);
  });

  it('[INPUT-NAV-COMMIT] asked for after the acknowledgement arrived: the round trip hears it, and the commit is waited for', async () => {
    const pipe = pipePage();
    pipe.inFlight.push(['Page.frameRequestedNavigation', { frameId: TOP, disposition: 'currentTab', url: URL_TWO, reason: 'formSubmissionGet' }]);
    const settled = pipe.navigation.settled(1_000);
    await new Promise((resolve) => setImmediate(resolve));
    pipe.emit('Page.frameNavigated', { frame: { id: TOP, url: URL_TWO } });
    await expect(settled).resolves.toBe('committed');
  });

  it('[INPUT-NAV-NONE] into another tab, in another frame, or a move within the document the page dropped: none', async () => {
    const pipe = pipePage();
    pipe.emit('Page.frameRequestedNavigation', { frameId: TOP, disposition: 'newTab', url: URL_TWO, reason: 'anchorClick' });
    pipe.emit('Page.frameRequestedNavigation', { frameId: 'CHILD', disposition: 'currentTab', url: URL_TWO, reason: 'anchorClick' });
    pipe.emit('Page.navigatedWithinDocument', { frameId: 'CHILD', url: `${URL_TWO}#child` });
    pipe.emit('Page.frameStartedNavigating', { frameId: TOP, navigationType: 'historySameDocument', url: `${URL_TWO}#below` });
    const settled = pipe.navigation.settled(1_000);
    pipe.emit('Page.frameStoppedLoading', { frameId: TOP });
    await expect(settled).resolves.toBe('none');
  });

  it('[SPA-REPORTED] a route change the input made (pushState) is heard by the round trip: committed within the document, from where the tab was', async () => {
    const pipe = pipePage('http://127.0.0.1:4173/app/a');
    pipe.inFlight.push(['Page.navigatedWithinDocument', { frameId: TOP, url: 'http://127.0.0.1:4173/app/b', navigationType: 'historyApi' }]);
    await expect(pipe.navigation.settled(1_000)).resolves.toBe('committed');
    expect(pipe.navigation).toMatchObject({ committedUrl: 'http://127.0.0.1:4173/app/b', from: 'http://127.0.0.1:4173/app/a', sameDocument: true });
    expect(pipe.listeners()).toBe(0);
  });

  it('[SPA-REPORTED] the page\u2019s history.back() between entries of its document is waited for until it moves; a move back to where the tab was is none', async () => {
    const pipe = pipePage('http://127.0.0.1:4173/app/b#more');
    pipe.emit('Page.frameStartedNavigating', { frameId: TOP, navigationType: 'historySameDocument', url: 'http://127.0.0.1:4173/app/b' });
    const settled = pipe.navigation.settled(1_000);
    await new Promise((resolve) => setImmediate(resolve));
    pipe.emit('Page.navigatedWithinDocument', { frameId: TOP, url: 'http://127.0.0.1:4173/app/b', navigationType: 'fragment' });
    await expect(settled).resolves.toBe('committed');
    expect(pipe.navigation).toMatchObject({ committedUrl: 'http://127.0.0.1:4173/app/b', sameDocument: true });
    const stayed = pipePage('http://127.0.0.1:4173/app/b');
    stayed.inFlight.push(['Page.navigatedWithinDocument', { frameId: TOP, url: 'http://127.0.0.1:4173/app/b', navigationType: 'historyApi' }]);
    await expect(stayed.navigation.settled(1_000)).resolves.toBe('none');
  });

  it('[INPUT-NAV-COMMIT] ended without a document (a 204), or dropped before it started (a dismissed beforeunload): ended', async () => {
    const started = pipePage();
    started.emit('Page.frameStartedNavigating', { frameId: TOP, navigationType: 'differentDocument', url: URL_TWO });
    started.emit('Page.frameStoppedLoading', { frameId: TOP });
    await expect(started.navigation.settled(1_000)).resolves.toBe('ended');
    const dropped = pipePage();
    dropped.emit('Page.frameRequestedNavigation', { frameId: TOP, disposition: 'currentTab', url: URL_TWO, reason: 'anchorClick' });
    dropped.emit('Page.javascriptDialogClosed', { result: false, userInput: '' });
    await expect(dropped.navigation.settled(1_000)).resolves.toBe('ended');
  });

  it('[INPUT-NAV-DEADLINE] not committed by the deadline: pending, and nothing listens after', async () => {
    const pipe = pipePage();
    pipe.emit('Page.frameRequestedNavigation', { frameId: TOP, disposition: 'currentTab', url: URL_TWO, reason: 'anchorClick' });
    await expect(pipe.navigation.settled(30)).resolves.toBe('pending');
    expect(pipe.listeners()).toBe(0);
  });
});
