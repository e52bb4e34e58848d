import type { Keyboard, Mouse } from 'puppeteer-core';
import type { ActDispatched } from '../protocol/index.js';

/** What trusted input goes through: a puppeteer Page over the pipe, or attach mode's debugger devices. */
export interface Devices {
  readonly mouse: Mouse;
  readonly keyboard: Keyboard;
}

/**
 * Counts the trusted input a composed step sends (over the pipe, or attach mode's debugger), so
 * that when the channel breaks mid-step the runner can say whether the page got any of it: no input call sent → `false`;
 * sent, none acknowledged → `"unknown"`; one acknowledged → `true` (the input reached the page).
 */
export class InputLedger<D extends Devices = Devices> {
  #sent = 0;
  #acknowledged = 0;
  /** The page (or devices) whose `mouse` and `keyboard` count what goes through them. */
  readonly page: D;

  constructor(page: D) {
    const mouse = this.#count(page.mouse);
    const keyboard = this.#count(page.keyboard);
    this.page = new Proxy(page, {
      get: (target, key) => {
        if (key === 'mouse') return mouse;
        if (key === 'keyboard') return keyboard;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  get dispatched(): ActDispatched {
    if (this.#acknowledged > 0) return true;
    return this.#sent > 0 ? 'unknown' : false;
  }

  #count<T extends Mouse | Keyboard>(device: T): T {
    return new Proxy(device, {
      get: (target, key) => {
        const value: unknown = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]): unknown => {
          this.#sent += 1;
          const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
          if (result instanceof Promise) return result.then((v: unknown) => ((this.#acknowledged += 1), v));
          this.#acknowledged += 1;
          return result;
        };
      },
    });
  }
}
