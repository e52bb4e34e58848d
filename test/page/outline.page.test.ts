import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageHarness, type TestPage } from './support/harness.js';

const h = new PageHarness();
let t: TestPage;

beforeAll(async () => {
  await h.start();
  t = await h.open('targets.html');
});
afterAll(() => h.stop());

interface Box {
  tone: string | null;
  label: string | null;
  style: string;
  parent: string;
  left: number;
  top: number;
  width: number;
  height: number;
}

function boxes(): Promise<Box[]> {
  return t.page.evaluate(() =>
    Array.from(document.querySelectorAll('[data-aite-overlay]'), (b) => {
      const r = b.getBoundingClientRect();
      return {
        tone: b.getAttribute('data-aite-overlay'),
        label: b.firstElementChild?.textContent ?? null,
        style: (b as HTMLElement).style.cssText,
        parent: b.parentElement?.localName ?? '',
        left: r.left,
        top: r.top,
        width: r.width,
        height: r.height,
      };
    }),
  );
}

describe('outline', () => {
  it('draws a box per item over the element, by xpath, with tone colours and text labels', async () => {
    const send = (await t.ok({ cmd: 'resolve', target: { css: '#send' } })).descriptor as { xpath: string };
    const shadow = (await t.ok({ cmd: 'resolve', target: { css: '#shadow-btn' } })).descriptor as { xpath: string };
    const a = await t.ok({
      cmd: 'outline',
      items: [
        { xpath: send.xpath, label: 'wanted', tone: 'wanted' },
        { xpath: shadow.xpath, label: '<b>possible match 0.74</b>', tone: 'candidate' },
        { xpath: '/html/body/ul/li[2]', tone: 'whatever' },
        { xpath: '/html/body/nothing/here', label: 'skipped' },
      ],
    });
    expect(a).toEqual({ id: 1, ok: true, drawn: 3 });
    const drawn = await boxes();
    expect(drawn).toHaveLength(3);
    expect(drawn.map((b) => b.parent)).toEqual(['html', 'html', 'html']);
    expect(drawn[0]!.style).toMatch(/border: 3px solid rgb\(26, 115, 232\)/);
    expect(drawn[1]!.style).toMatch(/border: 3px solid rgb\(233, 30, 99\)/);
    expect(drawn[2]!.style).toMatch(/border: 3px solid rgb\(245, 124, 0\)/);
    for (const b of drawn) expect(b.style).toMatch(/pointer-events: none/);
    // Labels are text, never HTML.
    expect(drawn[1]!.label).toBe('<b>possible match 0.74</b>');
    expect(await t.page.evaluate(() => document.querySelector('[data-aite-overlay] b'))).toBeNull();
    // The box surrounds the element.
    const r = await t.page.$eval('#send', (e) => e.getBoundingClientRect().toJSON() as DOMRect);
    expect(drawn[0]!.left).toBeCloseTo(r.left - 3, 0);
    expect(drawn[0]!.top).toBeCloseTo(r.top - 3, 0);
    expect(drawn[0]!.width).toBeCloseTo(r.width + 6, 0);
    // Boxes take no clicks: the element under them is still hit.
    expect(await t.page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.id, { x: r.left + r.width / 2, y: r.top + r.height / 2 })).toBe('send');
    // And they are not matched as page content.
    expect((await t.fail({ cmd: 'resolve', target: { text: 'wanted' }, timeoutMs: 100 })).reason).toBe('not-found');
  });

  it('cuts labels to 80 characters and draws at most 10 boxes', async () => {
    const items = Array.from({ length: 12 }, (_, i) => ({ xpath: '/html/body/h1', label: `${i} ${'x'.repeat(100)}` }));
    expect((await t.ok({ cmd: 'outline', items })).drawn).toBe(10);
    const drawn = await boxes();
    expect(drawn).toHaveLength(10);
    expect(drawn[0]!.label).toHaveLength(80);
  });

  it('drawing again replaces the boxes; clear removes them and counts what is left', async () => {
    await t.ok({ cmd: 'outline', items: [{ xpath: '/html/body/h1', label: 'one' }, { xpath: '/html/body/nav', label: 'two' }] });
    await t.ok({ cmd: 'outline', items: [{ xpath: '/html/body/h1', label: 'three' }] });
    expect((await boxes()).map((b) => b.label)).toEqual(['three']);
    expect(await t.ok({ cmd: 'outline', clear: true })).toEqual({ id: 1, ok: true, removed: 1, remaining: 0 });
    expect(await boxes()).toEqual([]);
    expect(await t.ok({ cmd: 'outline', clear: true })).toEqual({ id: 1, ok: true, removed: 0, remaining: 0 });
  });

  it('the page removes the boxes by itself after their lifetime (shortened through the test-only option)', async () => {
    await t.page.evaluate(() => (window as unknown as { __aitePage: { setOutlineLifetimeForTests(ms?: number): void } }).__aitePage.setOutlineLifetimeForTests(200));
    try {
      await t.ok({ cmd: 'outline', items: [{ xpath: '/html/body/h1', label: 'temporary' }] });
      expect(await boxes()).toHaveLength(1);
      await t.page.waitForFunction(() => document.querySelectorAll('[data-aite-overlay]').length === 0, { timeout: 5000 });
    } finally {
      await t.page.evaluate(() => (window as unknown as { __aitePage: { setOutlineLifetimeForTests(ms?: number): void } }).__aitePage.setOutlineLifetimeForTests());
    }
  });

  it('leaves the page itself untouched: no attribute or style sheet changed', async () => {
    const before = await t.page.evaluate(() => document.documentElement.outerHTML.length + ':' + document.styleSheets.length);
    await t.ok({ cmd: 'outline', items: [{ xpath: '/html/body/h1', label: 'x', tone: 'wanted' }] });
    await t.ok({ cmd: 'outline', clear: true });
    expect(await t.page.evaluate(() => document.documentElement.outerHTML.length + ':' + document.styleSheets.length)).toBe(before);
  });
});
