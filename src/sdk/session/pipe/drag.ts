import type { CDPSession, Mouse, Page, Protocol } from 'puppeteer-core';

/** Pointer moves between press and release: each one a real mousemove/pointermove (or dragover). */
const STEPS = 10;

/**
 * What a drag travels through: the mouse, the CDP calls of the page's own session, the
 * `Input.dragIntercepted` event, and a wait for the page to render a frame. Over the pipe (see
 * {@link pageDragSurface}) or attach mode's debugger.
 */
export interface DragSurface {
  mouse: Mouse;
  send(method: 'Input.setInterceptDrags' | 'Input.dispatchDragEvent', params: object): Promise<unknown>;
  /** Listens for `Input.dragIntercepted`; answers how to stop listening. */
  onDragIntercepted(listener: (data: Protocol.Input.DragData) => void): () => void;
  nextFrame(): Promise<void>;
}

/** Where a drag ends: a point, or how to find it once the drag is held (the page may scroll for it). */
export type DragEnd = { x: number; y: number } | (() => Promise<{ x: number; y: number }>);

/** How far the first move goes before a drag's end is found: past the few pixels drag code waits for. */
const START_PX = 8;

/**
 * A drag that travels like a hand: press at `a`, move to `b` in steps with the real
 * intermediate events, release. When the page starts an HTML5 drag (draggable elements,
 * SortableJS and the like), Chrome hands the drag to the runner (`Input.setInterceptDrags`),
 * and the rest of the way is dragenter/dragover events and a drop (`Input.dispatchDragEvent`),
 * as the browser would send them; otherwise the moves stay mouse moves. An end to be found
 * (`b` a function) is asked for after the press and a first short move, with the drag held.
 */
export async function travel(surface: DragSurface, a: { x: number; y: number }, b: DragEnd): Promise<void> {
  let data: Protocol.Input.DragData | undefined;
  const off = surface.onDragIntercepted((intercepted) => {
    data ??= intercepted;
  });
  await surface.send('Input.setInterceptDrags', { enabled: true });
  try {
    await surface.mouse.move(a.x, a.y);
    await surface.mouse.down();
    let entered = false;
    const moveTo = async (x: number, y: number): Promise<void> => {
      if (!data) {
        await surface.mouse.move(x, y);
      } else {
        if (!entered) {
          await surface.send('Input.dispatchDragEvent', { type: 'dragEnter', x, y, data });
          entered = true;
        }
        await surface.send('Input.dispatchDragEvent', { type: 'dragOver', x, y, data });
      }
      // A hand's moves are frames apart: the page's drag code (timers, animation frames) runs between them.
      await surface.nextFrame();
    };
    let from = a;
    if (typeof b === 'function') {
      from = { x: a.x, y: a.y + START_PX };
      await moveTo(from.x, from.y);
      b = await b();
    }
    for (let i = 1; i <= STEPS; i++) await moveTo(from.x + ((b.x - from.x) * i) / STEPS, from.y + ((b.y - from.y) * i) / STEPS);
    if (data) {
      // Held over the target a moment, as a person does before letting go.
      await surface.send('Input.dispatchDragEvent', { type: 'dragOver', x: b.x, y: b.y, data });
      await surface.nextFrame();
      await surface.send('Input.dispatchDragEvent', { type: 'drop', x: b.x, y: b.y, data });
    }
    await surface.mouse.up();
  } finally {
    off();
    await surface.send('Input.setInterceptDrags', { enabled: false }).catch(() => undefined);
  }
}

/** A page's drag surface over the pipe: drags are intercepted and dispatched on the session its mouse uses. */
export function pageDragSurface(page: Page): DragSurface {
  const client = pageClient(page);
  return {
    mouse: page.mouse,
    send: (method, params) => client.send(method, params as never),
    onDragIntercepted: (listener) => {
      const on = (event: Protocol.Input.DragInterceptedEvent): void => listener(event.data);
      client.on('Input.dragIntercepted', on);
      return () => client.off('Input.dragIntercepted', on);
    },
    nextFrame: () => nextFrame(page),
  };
}

/** Waits for the page to render a frame and run its timers (at most 100 ms: a busy page is not waited for). */
export async function nextFrame(page: Page): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, 100);
  });
  const frame = page.evaluate('new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))').catch(() => undefined);
  await Promise.race([frame, cap]);
  clearTimeout(timer);
}

// The page's own session: drags are intercepted and dispatched on the session its mouse uses.
function pageClient(page: Page): CDPSession {
  return (page as unknown as { _client(): CDPSession })._client();
}
