import type { Mouse, MouseClickOptions } from 'puppeteer-core';

/** Asks a tracked mouse (see {@link restTracked}) where its pointer rests, and to forget it. */
const RESTS_AT = Symbol('aite.restsAt');
const FORGET = Symbol('aite.forgetRest');

/** Where the pointer rests, in which document of the page (a new document has seen no pointer yet). */
type Place = { x: number; y: number; document: string };

/** Where each page's mouse left the pointer, while that is known for sure (by the page's target: a step's page object may be a new wrapper of it). */
const resting = new WeakMap<object, Place>();

/**
 * `mouse` of `page` (its target), remembering where its moves and clicks leave the pointer: a move or a click sets the
 * place once acknowledged (it is forgotten while one is on its way, and after one that failed);
 * a press, a release or a wheel leaves it; anything else (a reset, a drag) forgets it. Only where
 * nothing but the runner moves the pointer: a headless Chrome driven over the pipe. A place is
 * known only in the document it was reached in: the page's next document gets a move first, as
 * it would have seen the pointer arrive (a hand resting over a page that loads is rare, a test
 * that expects the move is not).
 */
export function restTracked(mouse: Mouse, page: object, documentOf: () => string | undefined): Mouse {
  return new Proxy(mouse, {
    get: (target, key) => {
      if (key === RESTS_AT) {
        const place = resting.get(page);
        const now = documentOf();
        return place && now && place.document === now ? place : undefined;
      }
      if (key === FORGET) return () => resting.delete(page);
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      const call = value as (...args: unknown[]) => unknown;
      if (key === 'down' || key === 'up' || key === 'wheel') return call.bind(target);
      return async (...args: unknown[]): Promise<unknown> => {
        resting.delete(page);
        const result = await call.apply(target, args);
        const document = documentOf();
        if ((key === 'move' || key === 'click') && document) resting.set(page, { x: args[0] as number, y: args[1] as number, document });
        return result;
      };
    },
  });
}

/** Forgets where `mouse`'s pointer rests (what moved it went around the mouse: an HTML5 drag's events). */
export function forgetRest(mouse: Mouse): void {
  (mouse as unknown as { [FORGET]?: () => void })[FORGET]?.();
}

/**
 * A click at (x, y). Where the pointer already rests exactly there, it is pressed and released
 * without a move first, as a hand that did not move sends none: Chrome still hit-tests the press
 * and sends the boundary events (mouseover, pointerover) if what is under it changed since. Else
 * puppeteer's click: a move there, then the presses and releases.
 */
export async function clickAt(mouse: Mouse, x: number, y: number, options: MouseClickOptions = {}): Promise<void> {
  const place = (mouse as unknown as { [RESTS_AT]?: Place })[RESTS_AT];
  if (!place || place.x !== x || place.y !== y || options.delay !== undefined) return mouse.click(x, y, options);
  const { count = 1, clickCount = count } = options;
  const actions: Promise<void>[] = [];
  // As puppeteer's click sends them: the presses of a multiple click count up.
  if (clickCount === count) for (let i = 1; i < count; ++i) actions.push(mouse.down({ ...options, clickCount: i }), mouse.up({ ...options, clickCount: i }));
  actions.push(mouse.down({ ...options, clickCount }), mouse.up({ ...options, clickCount }));
  await Promise.all(actions);
}
