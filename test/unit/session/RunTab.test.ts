import { afterEach, describe, expect, it, vi } from 'vitest';
import { RunTab } from '../../../src/sdk/session/RunTab.js';

const TAB = 7;
const at = (route: string): string => `http://127.0.0.1:4173/app/${route}`;
const navigated = (url: string) => ({ type: 'event' as const, kind: 'navigated' as const, tab: TAB, url, sameDocument: true as const });

async function runTabAt(url: string): Promise<RunTab> {
  const runTab = new RunTab(undefined);
  await runTab.track({ cmd: 'navigate' }, { id: 1, ok: true, tab: TAB, url });
  return runTab;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('[SPA-URL-ORDER] the run tab\u2019s address is not taken back by a late event', () => {
  it('the extension\u2019s events for routes the tab left, heard after the step heard the last, leave the address there; a move after it is heard', async () => {
    const runTab = await runTabAt(at('a'));
    runTab.onEvent(navigated(at('r1')));
    runTab.onEvent(navigated(at('r2')));
    // The clicks' steps heard r3, r4 and r5 commit before the extension told of r3.
    runTab.landed(at('r3'), 'click');
    runTab.landed(at('r4'), 'click');
    runTab.landed(at('r5'), 'click');
    for (const late of ['r3', 'r4']) {
      runTab.onEvent(navigated(at(late)));
      expect(runTab.url).toBe(at('r5'));
    }
    runTab.onEvent(navigated(at('r5')));
    expect(runTab.url).toBe(at('r5'));
    // Caught up: a route the page moves to by itself is the address.
    runTab.onEvent(navigated(at('r6')));
    expect(runTab.url).toBe(at('r6'));
  });

  it('an event that came before the step heard its move is no reason to wait: the next is heard', async () => {
    const runTab = await runTabAt(at('a'));
    runTab.onEvent(navigated(at('r1')));
    runTab.landed(at('r1'), 'click');
    runTab.onEvent(navigated(at('r2')));
    expect(runTab.url).toBe(at('r2'));
  });

  it('an event that never comes is waited for a bounded time: then the extension\u2019s last word is the address', async () => {
    vi.useFakeTimers();
    const runTab = await runTabAt(at('a'));
    runTab.landed(at('r1'), 'click');
    runTab.onEvent(navigated(at('r2')));
    expect(runTab.url).toBe(at('r1'));
    vi.advanceTimersByTime(5_000);
    expect(runTab.url).toBe(at('r2'));
    runTab.onEvent(navigated(at('r3')));
    expect(runTab.url).toBe(at('r3'));
  });

  it('a load the run asked for ends the wait', async () => {
    const runTab = await runTabAt(at('a'));
    runTab.landed(at('r1'), 'click');
    await runTab.track({ cmd: 'navigate' }, { id: 2, ok: true, tab: TAB, url: at('b') });
    runTab.onEvent(navigated(at('c')));
    expect(runTab.url).toBe(at('c'));
  });
});

describe('[SPA-URL-CHECKED] a url check that passed is where the run tab is', () => {
  it('verify.url and wait for a url move the address to what the page read, before the extension’s event; an older late event does not take it back', async () => {
    const runTab = await runTabAt(at('a'));
    await runTab.track({ cmd: 'verify', kind: 'url' }, { id: 2, ok: true, found: at('r1') });
    expect(runTab.url).toBe(at('r1'));
    runTab.onEvent(navigated(at('a')));
    expect(runTab.url).toBe(at('r1'));
    runTab.onEvent(navigated(at('r1')));
    await runTab.track({ cmd: 'wait', kind: 'url' }, { id: 3, ok: true, found: at('r2') });
    expect(runTab.url).toBe(at('r2'));
  });

  it('a negated check, a check of another tab and other checks leave the address alone', async () => {
    const runTab = await runTabAt(at('a'));
    await runTab.track({ cmd: 'verify', kind: 'url', negate: true }, { id: 2, ok: true, found: at('b') });
    await runTab.track({ cmd: 'verify', kind: 'url', tab: TAB + 1 }, { id: 3, ok: true, found: at('c') });
    await runTab.track({ cmd: 'verify', kind: 'title' }, { id: 4, ok: true, found: 'Title' });
    expect(runTab.url).toBe(at('a'));
  });
});
