import type { Frame, Page } from 'puppeteer-core';

// nest.html pages name themselves (?name=) and count the clicks they get (window.__clicks).

/** The page's nest.html frame named `name`, once it has loaded. */
export async function frameNamed(page: Page, name: string): Promise<Frame> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const f = page.frames().find((fr) => fr.url().includes('/nest.html') && new URL(fr.url()).searchParams.get('name') === name);
    if (f && (await f.evaluate(() => document.readyState).catch(() => '')) === 'complete') return f;
    if (Date.now() > deadline) throw new Error(`no frame ${name}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The clicks each named document recorded (every click that reached it, on anything). */
export async function clicks(page: Page, names: string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const n of names) out[n] = await (await frameNamed(page, n)).evaluate(() => (window as unknown as { __clicks: number }).__clicks);
  return out;
}
