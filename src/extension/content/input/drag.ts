import { windowOf } from '../dom/nodes.js';
import { inOwnViewport } from '../dom/geometry.js';
import { mouse, pointer, hover, type Aim } from './mouse.js';

const MOVE_STEPS = 5;

function dragEvent(type: string, aim: Aim, data: DataTransfer): boolean {
  const at = inOwnViewport(aim.el, aim);
  return aim.el.dispatchEvent(
    new DragEvent(type, {
      bubbles: true,
      cancelable: type !== 'dragend' && type !== 'dragleave',
      composed: true,
      view: windowOf(aim.el),
      clientX: at.x,
      clientY: at.y,
      buttons: type === 'dragend' || type === 'drop' ? 0 : 1,
      dataTransfer: data,
    }),
  );
}

/**
 * A drag from one element to another. A draggable source gets HTML5 drag and drop (dragstart,
 * drag, dragenter, dragover, drop when dragover was accepted, dragend) sharing one
 * DataTransfer, as Chrome does; once a native drag starts Chrome sends no more mouse events.
 * Any other source, or one whose dragstart is cancelled, gets the pointer/mouse sequence
 * pointer-driven libraries listen to: down on the source, moves in steps, up on the target.
 */
export function drag(from: Aim, to: Aim): void {
  hover(from);
  pointer('pointerdown', from, { buttons: 1 });
  mouse('mousedown', from, { buttons: 1, detail: 1 });
  const draggable = (from.el as HTMLElement).draggable === true;
  if (draggable) {
    const data = new DataTransfer();
    if (dragEvent('dragstart', from, data)) {
      pointer('pointerout', from);
      dragEvent('drag', from, data);
      dragEvent('dragenter', to, data);
      const accepted = !dragEvent('dragover', to, data);
      if (accepted) dragEvent('drop', to, data);
      else dragEvent('dragleave', to, data);
      dragEvent('dragend', from, data);
      return;
    }
  }
  for (let i = 1; i <= MOVE_STEPS; i++) {
    const f = i / MOVE_STEPS;
    const at: Aim = { el: i === MOVE_STEPS ? to.el : from.el, x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f };
    pointer('pointermove', at, { buttons: 1 });
    mouse('mousemove', at, { buttons: 1 });
  }
  pointer('pointerup', to);
  mouse('mouseup', to, { detail: 1 });
}
