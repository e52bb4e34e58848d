import type { Descriptor } from 'aite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageHarness, type TestPage } from './support/harness.js';

const h = new PageHarness();
let t: TestPage;

beforeAll(async () => {
  await h.start();
  t = await h.open('locate.html');
});
afterAll(() => h.stop());

async function descriptorOf(target: Record<string, unknown>, p: TestPage = t): Promise<Descriptor> {
  return (await p.ok({ cmd: 'resolve', target, timeoutMs: 1000 } as never)).descriptor as Descriptor;
}

type Located = { x: number; y: number; rect: { x: number; y: number; width: number; height: number }; tag: string; editable: boolean; kind?: string; checked?: boolean };

/** What is at a point of the top viewport, as the page sees it (descending into the iframe). */
function idAt(x: number, y: number): Promise<string> {
  return t.page.evaluate(
    ([px, py]) => {
      let el = document.elementFromPoint(px!, py!);
      if (el instanceof HTMLIFrameElement) {
        const r = el.getBoundingClientRect();
        el = el.contentDocument!.elementFromPoint(px! - r.left - el.clientLeft - 7, py! - r.top - el.clientTop - 7);
      }
      return el?.id ?? '';
    },
    [x, y],
  );
}

describe('locate', () => {
  it('answers the middle of the element in top-viewport pixels after scrolling it into view', async () => {
    const d = await descriptorOf({ css: '#far' });
    const a = (await t.ok({ cmd: 'locate', descriptor: d })) as unknown as Located;
    expect(a).toMatchObject({ ok: true, tag: 'button', editable: false });
    expect(a.kind).toBeUndefined();
    expect(a.x).toBeCloseTo(a.rect.x + a.rect.width / 2, 1);
    expect(a.y).toBeCloseTo(a.rect.y + a.rect.height / 2, 1);
    const vh = await t.page.evaluate(() => innerHeight);
    expect(a.y).toBeGreaterThan(0);
    expect(a.y).toBeLessThan(vh);
    expect(await idAt(a.x, a.y)).toBe('far');
    expect(await t.page.evaluate(() => scrollY)).toBeGreaterThan(1000);
  });

  it('reports editable, and kind/checked for native and role checkboxes and radios', async () => {
    expect(await t.ok({ cmd: 'locate', descriptor: await descriptorOf({ css: '#editable' }) })).toMatchObject({ tag: 'input', editable: true });
    expect(await t.ok({ cmd: 'locate', descriptor: await descriptorOf({ css: '#readonly' }) })).toMatchObject({ editable: false });
    expect(await t.ok({ cmd: 'locate', descriptor: await descriptorOf({ css: '#checkbox' }) })).toMatchObject({ kind: 'checkbox', checked: true, editable: false });
    expect(await t.ok({ cmd: 'locate', descriptor: await descriptorOf({ role: 'radio' }) })).toMatchObject({ kind: 'radio', checked: true, tag: 'div' });
  });

  it('accepts a checkbox drawn by its label (the label is hit at its middle)', async () => {
    const a = await t.ok({ cmd: 'locate', descriptor: await descriptorOf({ css: '#custom' }) });
    expect(a).toMatchObject({ kind: 'checkbox', checked: false });
  });

  it('gives top-viewport coordinates for an element in a same-origin iframe', async () => {
    const d = await descriptorOf({ text: 'Frame button', frame: 'inner' });
    expect(d.frame).toBe('inner');
    const a = (await t.ok({ cmd: 'locate', descriptor: d })) as unknown as Located;
    const frame = await t.page.evaluate(() => {
      const r = document.getElementById('inner')!.getBoundingClientRect();
      return { x: r.x, y: r.y };
    });
    // 5px border + 7px padding, then the button's 30px margin inside the frame.
    expect(a.rect.x).toBeCloseTo(frame.x + 5 + 7 + 30, 0);
    expect(await idAt(a.x, a.y)).toBe('frame-btn');
  });

  it('not-visible with coveredBy when another element lies over its middle', async () => {
    const d = await descriptorOf({ css: '#covered' });
    const f = await t.fail({ cmd: 'locate', descriptor: d, timeoutMs: 300 });
    expect(f.reason).toBe('not-visible');
    expect(f.detail).toMatchObject({ coveredBy: { tag: 'div', id: 'overlay', text: 'Loading…', xpath: '/html/body/div[1]/div' } });
    expect(f.message).toMatch(/<button#covered> "Covered button" is covered by <div#overlay> "Loading…" at its middle \(\d+(\.\d+)?, \d+(\.\d+)?\); close or wait for the covering element \(waited 300 ms\)\./);
  });

  it('waits for a covering overlay to go away', async () => {
    await t.page.evaluate(() => setTimeout(() => (document.getElementById('overlay')!.style.display = 'none'), 200));
    const a = await t.ok({ cmd: 'locate', descriptor: await descriptorOf({ css: '#covered' }), timeoutMs: 3000 });
    expect(a.tag).toBe('button');
    await t.page.evaluate(() => (document.getElementById('overlay')!.style.display = ''));
  });

  it('not-enabled: disabled attribute, aria-disabled, disabled fieldset', async () => {
    for (const [css, why] of [
      ['#disabled', 'it has the disabled attribute'],
      ['#aria-disabled', 'it has aria-disabled="true"'],
      ['#in-fieldset', 'it is inside a disabled <fieldset>'],
    ] as const) {
      const f = await t.fail({ cmd: 'locate', descriptor: await descriptorOf({ css }), timeoutMs: 150 });
      expect(f.reason).toBe('not-enabled');
      expect(f.message).toContain(why);
    }
  });

  it('not-visible for a hidden element, and for one that cannot be scrolled into the window', async () => {
    // A hidden element cannot be resolved; a remembered descriptor (no handle) still names it.
    const hidden: Descriptor = { v: 1, tag: 'button', xpath: '/html/body/button[3]' };
    const f = await t.fail({ cmd: 'locate', descriptor: hidden, timeoutMs: 150 });
    expect(f.reason).toBe('not-visible');
    expect(f.message).toMatch(/display: none/);
    const off = await t.fail({ cmd: 'locate', descriptor: await descriptorOf({ css: '#offscreen' }), timeoutMs: 150 });
    expect(off.reason).toBe('not-visible');
    expect(off.message).toMatch(/could not be scrolled into view: its middle \(.*\) is outside the window/);
  });

  it('times out on an element that keeps moving', async () => {
    const f = await t.fail({ cmd: 'locate', descriptor: await descriptorOf({ css: '#moving' }), timeoutMs: 300 });
    expect(f.reason).toBe('timeout');
    expect(f.message).toMatch(/kept moving/);
  });
});

describe('locate: the element must be the resolved one', () => {
  it('refuses a handle whose element was removed (even if an identical one replaced it)', async () => {
    const d = await descriptorOf({ css: '#btn' });
    await t.page.evaluate(() => {
      const old = document.getElementById('btn')!;
      old.replaceWith(old.cloneNode(true));
    });
    const f = await t.fail({ cmd: 'locate', descriptor: d });
    expect(f).toMatchObject({ reason: 'not-found', detail: { stale: 'removed' } });
    expect(f.message).toBe('The <button> "Plain button" was removed from the page since resolve (the page re-rendered it); resolve again.');
  });

  it('refuses a handle from another document (the page reloaded)', async () => {
    const p = await h.open('locate.html');
    const d = await descriptorOf({ css: '#btn' }, p);
    await p.reload();
    const f = await p.fail({ cmd: 'locate', descriptor: d });
    expect(f).toMatchObject({ reason: 'not-found', detail: { stale: 'other-document' } });
    expect(f.message).toMatch(/resolved in another document: the page changed \(navigated or reloaded\) since resolve; resolve again\./);
    await p.close();
  });

  it('without a handle finds the element by xpath, and refuses another tag there', async () => {
    const d = await descriptorOf({ css: '#editable' });
    const { handle: _h, ...plain } = d;
    expect(await t.ok({ cmd: 'locate', descriptor: plain })).toMatchObject({ tag: 'input' });
    const f = await t.fail({ cmd: 'locate', descriptor: { ...plain, tag: 'textarea' } });
    expect(f.reason).toBe('not-found');
    expect(f.message).toMatch(/there is now <input#editable>, not the remembered <textarea>/);
    const gone = await t.fail({ cmd: 'locate', descriptor: { v: 1, tag: 'div', xpath: '/html/body/div[9]/span' } });
    expect(gone.message).toMatch(/Nothing is at \/html\/body\/div\[9\]\/span any more/);
  });
});

describe('[RS-PREPARE] resolve with prepare click: a still page is not waited on, a moving box still is', () => {
  let p: TestPage;
  beforeAll(async () => {
    p = await h.open('locate.html');
    await p.page.evaluate(() => {
      document.getElementById('moving')!.remove();
      document.body.insertAdjacentHTML(
        'afterbegin',
        `<div id="panel" style="height:0;overflow:hidden;transition:height 3s linear">panel</div><button id="pushed">Pushed</button>
         <button id="raf" style="position:relative">By rAF</button>
         <div id="scroller" style="height:60px;overflow:hidden"><div style="height:40px"></div><button id="carried">Carried</button><div style="height:400px"></div></div>`,
      );
      // Frames asked for by aite's checks are counted; the page's own loops below use the
      // uncounted original.
      const w = window as unknown as { __frames: number; __raf: typeof requestAnimationFrame };
      w.__frames = 0;
      w.__raf = window.requestAnimationFrame.bind(window);
      window.requestAnimationFrame = (cb) => ((w.__frames += 1), w.__raf(cb));
    });
    // The page's changes are watched from the first command on (what came before is not known).
    await p.ok({ cmd: 'resolve', target: { css: '#pushed' } } as never);
  });
  afterAll(() => p.close());

  const prepared = (css: string) => ({ cmd: 'resolve', target: { css }, prepare: 'click', timeoutMs: 300 }) as never;
  const frames = (): Promise<number> => p.page.evaluate(() => (window as unknown as { __frames: number }).__frames);
  // Whether a box moved between two frames is only seen if they show different times (Chromium
  // may show the same one twice, more often on a busy machine): what is checked is that the
  // frame is waited for at all.
  const framesWaited = async (css: string): Promise<number> => {
    const before = await frames();
    await p.run(prepared(css));
    return (await frames()) - before;
  };
  const still = (): Promise<void> => new Promise((r) => setTimeout(r, 150));

  it('answers the point of a button on a page that is still without waiting a frame; locate still waits one', async () => {
    await still();
    const before = await frames();
    const a = await p.ok(prepared('#pushed'));
    expect(a.point).toMatchObject({ tag: 'button' });
    expect((await frames()) - before).toBe(0);
    await p.ok({ cmd: 'locate', descriptor: a.descriptor } as never);
    expect((await frames()) - before).toBe(1);
    // Just after a DOM change the same resolve waits its frame.
    await p.page.evaluate(() => document.getElementById('pushed')!.setAttribute('data-n', '1'));
    expect(await framesWaited('#pushed')).toBe(1);
  });

  it('waits a frame on a button a script moves once a frame', async () => {
    await p.page.evaluate(() => {
      const w = window as unknown as { __moving: boolean; __raf: typeof requestAnimationFrame };
      const el = document.getElementById('raf')!;
      w.__moving = true;
      const step = (t: number): void => {
        el.style.left = `${Math.round(t / 4) % 200}px`;
        if (w.__moving) w.__raf(step);
      };
      w.__raf(step);
    });
    // On a busy machine frames can come more than the still period apart, and a look between
    // two of them finds the page still (the guard covers that click): the look is tried again.
    await expect.poll(() => framesWaited('#raf'), { timeout: 5_000 }).toBeGreaterThan(0);
    await p.page.evaluate(() => ((window as unknown as { __moving: boolean }).__moving = false));
  });

  it('waits a frame on a button another element pushes with a CSS transition, though the DOM is quiet meanwhile', async () => {
    await p.page.evaluate(() => (document.getElementById('panel')!.style.height = '300px'));
    // Long past the still period: the transition runs without a DOM change.
    await still();
    expect(await framesWaited('#pushed')).toBeGreaterThan(0);
    await p.page.evaluate(() => {
      const panel = document.getElementById('panel')!;
      panel.style.transition = 'none';
      panel.style.height = '0';
    });
  });

  it('waits a frame on a button a script scrolls once a frame (scrolling changes no DOM)', async () => {
    await p.page.evaluate(() => {
      const w = window as unknown as { __scrolling: boolean; __raf: typeof requestAnimationFrame };
      const box = document.getElementById('scroller')!;
      w.__scrolling = true;
      const step = (t: number): void => {
        box.scrollTop = Math.round(t / 8) % 30;
        if (w.__scrolling) w.__raf(step);
      };
      w.__raf(step);
    });
    await still();
    expect(await framesWaited('#carried')).toBeGreaterThan(0);
    await p.page.evaluate(() => ((window as unknown as { __scrolling: boolean }).__scrolling = false));
  });
});
