import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { _runStep as runStep, parseScript, type ExtensionEvent, type Warning } from '../../src/sdk/index.js';
import { failure } from './support/failure.js';
import { useSession } from './support/harness.js';
import { runPage } from './support/runPage.js';

// A port with nothing behind it, in the allow list, for load-failed.
const deadPort = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const port = (probe.address() as { port: number }).port;
    probe.close(() => resolve(port));
  });
});
const ctx = useSession({ extraAllow: () => [`http://127.0.0.1:${deadPort}`] });
const events: ExtensionEvent[] = [];
const warnings: Warning[] = [];

async function ready(): Promise<void> {
  if (events.length > 0) return;
  ctx.session.on('event', (e) => events.push(e));
  ctx.session.on('warning', (w) => warnings.push(w));
}

describe('tabs, switchTab, closeTab and tab events', () => {
  it('[SW-MATCH, SW-WAIT, SW-FRONT, EV-TAB-OPENED, EV-NAVIGATED] switches to a popup by url once it has loaded, and brings it to the front', async () => {
    await ready();
    const opener = await ctx.session.tab.navigate(ctx.page('popup.html'));
    expect(events.some((e) => e.kind === 'navigated' && e.tab === opener.tab && e.url === ctx.page('popup.html'))).toBe(true);
    await ctx.session.click({ text: 'Open payment' });
    const pay = await ctx.session.tab.switchTo({ urlContains: '/pay' });
    expect(pay.url).toBe(ctx.page('pay.html'));
    expect(pay.title).toBe('Pay');
    expect(ctx.session.tab.current).toBe(pay.tab);
    expect(events.some((e) => e.kind === 'tab-opened' && e.tab === pay.tab)).toBe(true);
    const tabs = await ctx.session.tab.list();
    expect(tabs.find((t) => t.id === pay.tab)?.active).toBe(true);
    await ctx.session.verify.exists({ text: 'Pay now' });
  });

  it('[SW-CURRENT, SW-TIMEOUT] answers the run\u2019s own tab at once when it is the only match, and times out listing the open tabs', async () => {
    const pay = ctx.session.tab.current!;
    const started = Date.now();
    const same = await ctx.session.tab.switchTo({ titleContains: 'Pay' }, { timeoutMs: 5_000 });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(same).toMatchObject({ tab: pay, url: ctx.page('pay.html'), title: 'Pay' });
    expect(ctx.session.tab.current).toBe(pay);
    const error = await failure(ctx.session.tab.switchTo({ urlContains: '/receipt' }, { timeoutMs: 300 }));
    expect(error.reason).toBe('timeout');
    expect(error.detail.tabs).toEqual(expect.arrayContaining([ctx.page('popup.html')]));
  });

  it('[CT-BACK, EV-TAB-CLOSED] closeTab goes back to the tab the run switched from', async () => {
    const pay = ctx.session.tab.current!;
    const warned = warnings.length;
    const closed = await ctx.session.tab.close();
    // Closed by the run: nothing to warn of.
    await ctx.session.tab.list();
    expect(warnings.slice(warned).filter((w) => w.code === 'tab-closed')).toEqual([]);
    expect(closed.closed).toBe(pay);
    expect(ctx.session.tab.current).toBe(closed.tab);
    expect((await ctx.session.tab.list()).find((t) => t.id === closed.tab)?.url).toBe(ctx.page('popup.html'));
    await expect.poll(() => events.some((e) => e.kind === 'tab-closed' && e.tab === pay)).toBe(true);
  });

  it('[CT-ALREADY] closing a tab that is already gone answers alreadyClosed', async () => {
    await ctx.session.click({ text: 'Open payment' });
    const pay = await ctx.session.tab.switchTo({ new: true });
    await ctx.session.click({ text: 'Close tab' });
    // window.close() finishes after the click: wait until the tab is really gone.
    await expect.poll(async () => (await ctx.session.tab.list()).some((t) => t.id === pay.tab)).toBe(false);
    const closed = await ctx.session.tab.close(pay.tab);
    expect(closed).toMatchObject({ closed: pay.tab, alreadyClosed: true });
    expect(closed.tab).not.toBe(pay.tab);
  });

  it('[CT-SELF, EV-TAB-CLOSED] a run tab that closes itself (a popup\u2019s window.close()) leaves the run on the tab it came from, as closeTab does', async () => {
    await ready();
    const opener = await ctx.session.tab.navigate(ctx.page('popup.html'));
    await ctx.session.click({ text: 'Open payment' });
    const pay = await ctx.session.tab.switchTo({ new: true });
    const warned = warnings.length;
    await ctx.session.click({ text: 'Close tab' });
    // window.close() finishes after the click; the run moves when the extension sees the tab go.
    await expect.poll(() => ctx.session.tab.current).toBe(opener.tab);
    expect(events.find((e) => e.kind === 'tab-closed' && e.tab === pay.tab)).toMatchObject({ runTab: opener.tab });
    await ctx.session.verify.exists({ text: 'Open payment' });
    // The report says the run moved, in the click's step or the next one: once.
    expect(warnings.slice(warned).filter((w) => w.code === 'tab-closed')).toEqual([
      {
        code: 'tab-closed',
        message: `The run's tab ${pay.tab} (${ctx.page('pay.html')}) closed (the page closed itself, or Chrome closed it); the run goes on in tab ${opener.tab} (${ctx.page('popup.html')}), the one it came from.`,
      },
    ]);
    expect((await ctx.session.tab.list()).find((t) => t.id === opener.tab)?.active).toBe(true);
  });

  it('[CT-SELF-EARLY] a step sent right after a popup closed itself, before the runner heard of it, runs in the opener', async () => {
    for (let round = 0; round < 3; round += 1) {
      const opener = await ctx.session.tab.navigate(ctx.page('popup.html'));
      await ctx.session.click({ text: 'Open payment' });
      const pay = await ctx.session.tab.switchTo({ new: true });
      await ctx.session.click({ text: 'Close tab' });
      // No waiting for the close: the next step may reach the extension before it saw the tab go.
      await ctx.session.verify.exists({ text: 'Open payment' });
      expect(ctx.session.tab.current).toBe(opener.tab);
      expect((await ctx.session.tab.list()).some((t) => t.id === pay.tab)).toBe(false);
    }
    // An action right after the close lands in the opener, once.
    const opener = await ctx.session.tab.navigate(ctx.page('popup.html'));
    await ctx.session.click({ text: 'Open payment' });
    await ctx.session.tab.switchTo({ new: true });
    await ctx.session.click({ text: 'Close tab' });
    await ctx.session.click({ text: 'Open payment' });
    expect(ctx.session.tab.current).toBe(opener.tab);
    expect(await ctx.session.evaluate('window.__opened')).toBe(2);
    for (const t of await ctx.session.tab.list()) if (t.id !== ctx.session.tab.current) await ctx.session.tab.close(t.id);
  });

  it('[CT-CLOSING] a step that reaches a popup after it closed itself, before Chrome took it away, runs in the opener, once', async () => {
    const opener = await ctx.session.tab.navigate(ctx.page('closing.html'));
    /** Opens the receipt popup, makes it the run's tab, and has it close itself (on its own time: no step asks it to). */
    const closeReceipt = async (): Promise<number> => {
      await ctx.session.click({ text: 'Open receipt' });
      const { tab } = await ctx.session.tab.switchTo({ new: true });
      await (await runPage(ctx.session)).evaluate(() => window.close());
      return tab;
    };
    const receipt = await closeReceipt();
    // The receipt is busy in its beforeunload as this arrives: it has closed itself, and is still there.
    const verifies = ctx.session.retries.byCommand.verify ?? 0;
    await ctx.session.verify.exists({ text: 'Open receipt' });
    // Sent to the receipt and not taken there, then to the opener: one re-send, counted (none
    // when the extension had already seen the tab go: on a busy machine the close can win).
    expect(ctx.session.retries.byCommand.verify ?? 0).toBeLessThanOrEqual(verifies + 1);
    expect(ctx.session.tab.current).toBe(opener.tab);
    expect((await ctx.session.tab.list()).some((t) => t.id === receipt)).toBe(false);
    // An action sent to the closing page is not run there: it runs in the opener, once.
    await closeReceipt();
    await ctx.session.click({ text: 'Open receipt' });
    expect(ctx.session.tab.current).toBe(opener.tab);
    expect(await ctx.session.evaluate('window.__opened')).toBe(3);
    for (const t of await ctx.session.tab.list()) if (t.id !== ctx.session.tab.current) await ctx.session.tab.close(t.id);
  });

  it('[SW-UNCOMMITTED] switchTo waits for a popup with no address yet before answering the run\u2019s own tab', async () => {
    const opener = await ctx.session.tab.navigate(ctx.page('opens-slow.html'));
    await ctx.session.click({ text: 'Open slow page' });
    // The opener's address and title match too; the popup has neither until its page answers.
    const byUrl = await ctx.session.tab.switchTo({ urlContains: '127.0.0.1' }, { timeoutMs: 10_000 });
    expect(byUrl.tab).not.toBe(opener.tab);
    expect(byUrl.url).toContain('/status/200');
    await ctx.session.tab.close();
    await ctx.session.click({ text: 'Open slow page' });
    const byTitle = await ctx.session.tab.switchTo({ titleContains: 'Status' }, { timeoutMs: 10_000 });
    expect(byTitle).toMatchObject({ title: 'Status 200' });
    expect(byTitle.tab).not.toBe(opener.tab);
    await ctx.session.tab.close();
  });

  it('[SW-MATCH, SW-AMBIGUOUS] finds a tab by title, and refuses two matching tabs', async () => {
    await ctx.session.tab.navigate(ctx.page('popup.html'));
    await ctx.session.click({ text: 'Open payment' });
    await ctx.session.click({ text: 'Open payment' });
    // Both popups must have loaded (and so have their title) for the match to see two.
    await expect.poll(async () => (await ctx.session.tab.list()).filter((t) => t.title === 'Pay').length).toBe(2);
    const error = await failure(ctx.session.tab.switchTo({ titleContains: 'Pay' }, { timeoutMs: 2000 }));
    expect(error.reason).toBe('ambiguous');
    expect((error.detail.candidates as unknown[]).length).toBe(2);
    const newest = await ctx.session.tab.switchTo({ new: true });
    expect(newest.title).toBe('Pay');
    await ctx.session.tab.close();
    const other = await ctx.session.tab.switchTo({ titleContains: 'Pay' });
    expect(other.tab).not.toBe(newest.tab);
    await ctx.session.tab.close();
  });

  it('[SW-NOT-CURRENT, SW-WAIT] does not count the run\u2019s tab while another tab matches, even one still loading', async () => {
    const opener = await ctx.session.tab.navigate(ctx.page('popup.html'));
    await ctx.session.click({ text: 'Open payment' });
    // The run's tab matches too, and would be the answer if no other tab did yet: wait until
    // Chrome has the popup and its address (window.open() reaches it after the click returns).
    await expect.poll(async () => (await ctx.session.tab.list()).some((t) => t.url === ctx.page('pay.html'))).toBe(true);
    // Both pages end in .html: the popup, perhaps still loading, is the one switched to.
    const pay = await ctx.session.tab.switchTo({ urlContains: '.html' });
    expect(pay.tab).not.toBe(opener.tab);
    expect(pay.url).toBe(ctx.page('pay.html'));
    expect((await ctx.session.tab.close()).tab).toBe(opener.tab);
  });

  it('[CT-NO-PROMPT] closeTab closes a tab whose page asks before leaving (beforeunload) at once: no prompt, no wait', async () => {
    const opener = await ctx.session.tab.navigate(ctx.page('popups.html'));
    const dialogs = ctx.session.dialogs.seen.length;
    // The run's own tab, then another tab by its id: each page holds a beforeunload that would ask.
    for (const which of ['run tab', 'other tab'] as const) {
      await ctx.session.click('Open guarded page');
      const guarded = await ctx.session.tab.switchTo({ new: true });
      await ctx.session.click('Guard unsaved changes');
      await ctx.session.verify.targetText({ label: 'Out' }, 'guarded');
      if (which === 'other tab') await ctx.session.tab.switchTo({ urlContains: 'popups.html' });
      const started = Date.now();
      const closed = await ctx.session.tab.close(which === 'run tab' ? undefined : guarded.tab);
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(closed).toMatchObject({ closed: guarded.tab, tab: opener.tab });
      expect(closed.alreadyClosed).toBeUndefined();
      expect((await ctx.session.tab.list()).some((t) => t.id === guarded.tab)).toBe(false);
      expect(ctx.session.tab.current).toBe(opener.tab);
    }
    expect(ctx.session.dialogs.seen.slice(dialogs)).toEqual([]);
    await ctx.session.verify.exists({ text: 'Open guarded page' });
  });

  it('[SW-ID] switchTo({ id }) switches to that exact tab, by the id tabs() and tab-opened give; the step script takes it too', async () => {
    await ready();
    const opener = await ctx.session.tab.navigate(ctx.page('popup.html'));
    const seen = events.length;
    await ctx.session.click({ text: 'Open payment' });
    await ctx.session.click({ text: 'Open payment' });
    await expect.poll(async () => (await ctx.session.tab.list()).filter((t) => t.title === 'Pay').length).toBe(2);
    const opened = events.slice(seen).flatMap((e) => (e.kind === 'tab-opened' ? [e.tab] : []));
    expect(opened.length).toBe(2);
    // Both show the same page: only the id tells them apart.
    const first = await ctx.session.tab.switchTo({ id: opened[0]! });
    expect(first).toMatchObject({ tab: opened[0], url: ctx.page('pay.html'), title: 'Pay' });
    expect(ctx.session.tab.current).toBe(opened[0]);
    expect((await ctx.session.tab.list()).find((t) => t.id === opened[0])?.active).toBe(true);
    // The run's own tab by its id answers at once; a step script names a tab by id too.
    expect((await ctx.session.tab.switchTo({ id: opened[0]! })).tab).toBe(opened[0]);
    await runStep(ctx.session, { switchTab: { id: opener.tab } });
    expect(ctx.session.tab.current).toBe(opener.tab);
    const listed = (await ctx.session.tab.list()).find((t) => t.id === opened[1])!;
    expect((await ctx.session.tab.switchTo({ id: listed.id })).tab).toBe(opened[1]);
    // A tab taken by id is not given again as the new one.
    const error = await failure(ctx.session.tab.switchTo({ new: true }, { timeoutMs: 300 }));
    expect(error.reason).toBe('timeout');
    // A tab that is not open fails at once, naming the open ones.
    await ctx.session.tab.close();
    const started = Date.now();
    const gone = await failure(ctx.session.tab.switchTo({ id: opened[1]! }, { timeoutMs: 5_000 }));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(gone.reason).toBe('tab-closed');
    expect(gone.message).toContain(`No tab has the id ${opened[1]}`);
    expect(gone.message).toContain(`${ctx.page('pay.html')} "Pay"`);
    await ctx.session.tab.close(opened[0]);
  });

  it('[SW-FORMS] a tab match with no known key, or several, is refused before anything is sent, naming the forms it takes', async () => {
    await ctx.session.tab.navigate(ctx.page('popup.html'));
    const sent: string[] = [];
    const request = ctx.session.bridge.request.bind(ctx.session.bridge);
    ctx.session.bridge.request = ((r: Parameters<typeof request>[0]) => {
      sent.push(r.cmd);
      return request(r);
    }) as typeof request;
    try {
      for (const match of [{ url: 'pay' }, { urlContains: 'pay', titleContains: 'Pay' }, {}, { new: false }, { id: 'x' }]) {
        const error = await failure(ctx.session.tab.switchTo(match as never));
        expect(error.reason).toBe('unsupported');
        expect(error.message).toMatch(/^switchTo: a tab match takes exactly one of \{ urlContains: "…" \}, \{ titleContains: "…" \}, \{ new: true \} or \{ id: <tab id> \}/);
        expect(error.message).toContain(JSON.stringify(match));
        expect(error.message).toMatch(/Nothing was sent\.$/);
      }
    } finally {
      ctx.session.bridge.request = request;
    }
    expect(sent).toEqual([]);
    // A step script says the same, before it runs.
    expect(() => parseScript(JSON.stringify({ steps: [{ switchTab: { url: 'pay' } }] }), 'tabs.json')).toThrow(/switchTab.*a tab match takes exactly one of \{ urlContains: "…" \}, \{ titleContains: "…" \}, \{ new: true \} or \{ id: <tab id> \}/);
  });

  it('[SW-LIST] a switch that finds no tab in time names each open tab by its address and title', async () => {
    const opener = await ctx.session.tab.navigate(ctx.page('popup.html'));
    await ctx.session.click({ text: 'Open payment' });
    const pay = await ctx.session.tab.switchTo({ new: true });
    const error = await failure(ctx.session.tab.switchTo({ titleContains: 'Receipt' }, { timeoutMs: 300 }));
    expect(error.reason).toBe('timeout');
    expect(error.message).toContain(`Open tabs: ${opener.tab} ${ctx.page('popup.html')} "Checkout"`);
    expect(error.message).toContain(`${pay.tab} ${ctx.page('pay.html')} "Pay" (the run's)`);
    expect(error.detail.open).toEqual(expect.arrayContaining([{ tab: opener.tab, url: ctx.page('popup.html'), title: 'Checkout' }]));
    await ctx.session.tab.close();
  });

  it('[SW-NEW-BLANK] a popup opened blank is waited for until it has its real address, then switched to; one that stays blank fails clearly', async () => {
    await ctx.session.tab.navigate(ctx.page('popups.html?ms=800'));
    for (const [button, via] of [['Open blank, then pay', 'blank'], ['Open about:blank, write, then pay', 'about-blank']] as const) {
      await ctx.session.click(button);
      const pay = await ctx.session.tab.switchTo({ new: true }, { timeoutMs: 10_000 });
      expect(pay).toMatchObject({ url: ctx.page(`pay.html?via=${via}`), title: 'Pay' });
      await ctx.session.verify.exists({ text: 'Pay now' });
      await ctx.session.tab.close();
    }
    await ctx.session.click('Open blank and write');
    const started = Date.now();
    const error = await failure(ctx.session.tab.switchTo({ new: true }, { timeoutMs: 1_500 }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    expect(error.reason).toBe('timeout');
    expect(error.message).toMatch(/still at about:blank after 1500 ms/);
    for (const t of await ctx.session.tab.list()) if (t.id !== ctx.session.tab.current) await ctx.session.tab.close(t.id);
  });

  it('[SW-NEW-SECOND] two popups one click opened are given by new: true in the order they opened, each once it has loaded; a popup an earlier step opened comes after them', async () => {
    await ready();
    await ctx.session.tab.navigate(ctx.page('popups.html?ms=800'));
    const seen = events.length;
    await ctx.session.click('Open guarded page');
    await ctx.session.click('Open two');
    // The first (the script's) answers 800 ms later than the second (the link's).
    const first = await ctx.session.tab.switchTo({ new: true }, { timeoutMs: 10_000 });
    expect(first).toMatchObject({ url: ctx.page('status/200?ms=800&n=1'), title: 'Status 200' });
    const second = await ctx.session.tab.switchTo({ new: true }, { timeoutMs: 10_000 });
    expect(second).toMatchObject({ url: ctx.page('pay.html?n=2'), title: 'Pay' });
    const earlier = await ctx.session.tab.switchTo({ new: true }, { timeoutMs: 10_000 });
    expect(earlier).toMatchObject({ url: ctx.page('dialogs.html') });
    expect(events.slice(seen).flatMap((e) => (e.kind === 'tab-opened' ? [e.tab] : []))).toEqual([earlier.tab, first.tab, second.tab]);
    await ctx.session.tab.close();
    await ctx.session.tab.close();
    await ctx.session.tab.close();
  });

  it('[NAV-LOAD, NAV-FAILED-TAB] navigate times out on a page that does not finish loading in time; the tab it opened stays the run\u2019s, and the next navigate loads there', async () => {
    // No run tab (as before a first navigate): the timed-out navigate opens the tab.
    for (const t of await ctx.session.tab.list()) if (t.id !== ctx.session.tab.current) await ctx.session.tab.close(t.id);
    if (ctx.session.tab.current !== null) await ctx.session.tab.close();
    expect(ctx.session.tab.current).toBeNull();
    const error = await failure(ctx.session.tab.navigate(ctx.page('slow?ms=3000'), { timeoutMs: 300 }));
    expect(error.reason).toBe('timeout');
    expect(error.detail.tab).toEqual(expect.any(Number));
    expect(ctx.session.tab.current).toBe(error.detail.tab);
    const next = await ctx.session.tab.navigate(ctx.page('popup.html'));
    expect(next.tab).toBe(error.detail.tab);
    expect(await ctx.session.tab.list()).toEqual([expect.objectContaining({ id: next.tab, url: ctx.page('popup.html') })]);
  });

  it('[NAV-LOAD-FAILED] row 42: a page the browser cannot load is load-failed, not a timeout', async () => {
    const error = await failure(ctx.session.tab.navigate(`http://127.0.0.1:${deadPort}/`, { timeoutMs: 10_000 }));
    expect(error.reason).toBe('load-failed');
    expect(String(error.detail.error)).toMatch(/ERR_CONNECTION_REFUSED/);
  });

  it('[EV-CONSOLE] page errors reach the session as console events', async () => {
    await ctx.session.tab.navigate(ctx.page('console-error.html'));
    await expect.poll(() => ctx.session.consoleErrors.map((e) => e.text).join('\n')).toMatch(/kaboom/);
    expect(events.some((e) => e.kind === 'console' && e.level === 'error' && /kaboom/.test(e.text))).toBe(true);
  });

  it('[NAV-NEW-WINDOW] after the run closed its last tab, the next navigate opens one in a new window', async () => {
    await ctx.session.tab.navigate(ctx.page('popup.html'));
    for (const t of await ctx.session.tab.list()) if (t.id !== ctx.session.tab.current) await ctx.session.tab.close(t.id);
    await ctx.session.tab.close();
    expect(await ctx.session.tab.list()).toEqual([]);
    const opened = await ctx.session.tab.navigate(ctx.page('popup.html'));
    expect(await ctx.session.tab.list()).toEqual([expect.objectContaining({ id: opened.tab, url: ctx.page('popup.html') })]);
    await ctx.session.verify.exists({ text: 'Open payment' });
  });
});
