import { AiteError } from '../errors/AiteError.js';
import type { Target } from '../protocol/index.js';
import type { DragHow, Found, Input, PointerHow } from './Input.js';
import type { Download, DownloadRecord } from './pipe/Downloads.js';
import type { StepContext } from './StepContext.js';

/**
 * Plain-event input (attach mode without chrome.debugger): each action is one `act` request,
 * which the extension performs as plain DOM events after its own checks. What needs trusted
 * input says so. {@link DebuggerInput} falls back to it.
 */
export class AttachInput implements Input {
  readonly prepares = false;
  readonly pictures = false;
  /** Attach mode without chrome.debugger hears no downloads: Chrome keeps them. */
  readonly downloads: readonly DownloadRecord[] = [];

  async pointer(step: StepContext, found: Found, action: 'click' | 'doubleClick' | 'hover', how?: PointerHow): Promise<void> {
    if (how && (how.button !== undefined || how.modifiers.length > 0 || how.clickCount !== undefined || how.position !== undefined || how.delay !== undefined)) {
      throw new AiteError('unsupported', `${action} with button, modifiers, clickCount, position or delay needs trusted input (launch mode, or attach mode with the debugger); these plain events go to the middle of the element, with the left button.`, { command: action });
    }
    await step.locator.act(action, found.descriptor, { timeoutMs: step.timeoutMs });
  }

  async type(step: StepContext, found: Found, text: string): Promise<void> {
    await step.locator.act('type', found.descriptor, { text, timeoutMs: step.timeoutMs });
  }

  async fill(step: StepContext, found: Found, text: string): Promise<void> {
    await step.locator.act('fill', found.descriptor, { text, timeoutMs: step.timeoutMs });
  }

  async press(step: StepContext, key: string, found: Found | undefined): Promise<void> {
    if (!found) throw new AiteError('unsupported', 'press without a target needs the debugging pipe; name the element to press the key in.');
    await step.locator.act('press', found.descriptor, { key, timeoutMs: step.timeoutMs });
  }

  navigating(_step: StepContext, _action: string, command: () => Promise<void>): Promise<void> {
    return command();
  }

  async toggle(step: StepContext, found: Found, want: boolean, _check: Target): Promise<void> {
    await step.locator.act(want ? 'check' : 'uncheck', found.descriptor, { timeoutMs: step.timeoutMs });
  }

  async drag(step: StepContext, from: Found, to: Found, how: DragHow = {}): Promise<void> {
    if (how.sourcePosition || how.targetPosition) {
      throw new AiteError('unsupported', 'sourcePosition and targetPosition need trusted input (launch mode, or attach mode with the debugger); these plain drag events go from and to the middles. Drop the positions, or drag to an element at the point you want.', { command: 'drag' });
    }
    await step.locator.act('drag', from.descriptor, { to: to.descriptor, timeoutMs: step.timeoutMs });
  }

  wheel(step: StepContext): Promise<boolean> {
    step.warn({ code: 'scroll', message: 'Nothing on the page can scroll there; wheel input (for a page that moves on wheel events itself) needs the debugging pipe, so none was sent.' });
    return Promise.resolve(false);
  }

  upload(): Promise<void> {
    return Promise.reject(new AiteError('unsupported', 'upload needs the debugging pipe; attach mode cannot set the files of an input.', { command: 'upload' }));
  }

  download(): Promise<Download> {
    return Promise.reject(new AiteError('unsupported', 'download needs the debugging pipe; attach mode leaves downloads to Chrome.', { command: 'download' }));
  }

  dispose(): Promise<void> {
    return Promise.resolve();
  }

  networkIdle(): Promise<void> {
    return Promise.reject(new AiteError('unsupported', 'waitForNetworkIdle needs the debugging pipe (not available in attach mode).'));
  }

  screenshot(step: StepContext): Promise<undefined> {
    step.warn({ code: 'screenshot', message: 'Screenshots need the debugging pipe; attach mode has none.' });
    return Promise.resolve(undefined);
  }
}
