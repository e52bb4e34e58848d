/**
 * The listener of each event, by name, as {@link SessionEvents} and {@link BridgeEvents} are.
 *
 * @example
 * ```ts
 * import type { EventMap, SessionEvents } from 'aite';
 *
 * const events: EventMap = {} as SessionEvents;
 * console.log(Object.keys(events));
 * ```
 * @public
 */
// `any[]`, not `unknown[]`: a map of listeners with narrower parameters must still satisfy it.
export type EventMap = { [event: string]: (...args: any[]) => void };

/**
 * Node's EventEmitter with its events' names and listeners typed by a map; Session and Bridge
 * extend Node's EventEmitter cast to it.
 *
 * Declared here, not imported from a package: the published declarations must read the same
 * under every module resolution a consumer may use (nodenext ESM and CJS, bundler, node10), and a
 * types-only CommonJS package's default export reads as a namespace under nodenext. Node's own
 * generic EventEmitter would tie the events' types to the version of the consumer's `@types/node`.
 *
 * @example
 * ```ts
 * import type { Session, SessionEvents, TypedEmitter } from 'aite';
 *
 * declare const session: Session;
 * const events: TypedEmitter<SessionEvents> = session;
 * events.once('step', (record) => console.log(record.name, record.ok));
 * ```
 * @public
 */
export interface TypedEmitter<Events extends EventMap> {
  addListener<E extends keyof Events>(event: E, listener: Events[E]): this;
  on<E extends keyof Events>(event: E, listener: Events[E]): this;
  once<E extends keyof Events>(event: E, listener: Events[E]): this;
  prependListener<E extends keyof Events>(event: E, listener: Events[E]): this;
  prependOnceListener<E extends keyof Events>(event: E, listener: Events[E]): this;
  off<E extends keyof Events>(event: E, listener: Events[E]): this;
  removeAllListeners<E extends keyof Events>(event?: E): this;
  removeListener<E extends keyof Events>(event: E, listener: Events[E]): this;
  emit<E extends keyof Events>(event: E, ...args: Parameters<Events[E]>): boolean;
  eventNames(): (keyof Events | string | symbol)[];
  rawListeners<E extends keyof Events>(event: E): Events[E][];
  listeners<E extends keyof Events>(event: E): Events[E][];
  listenerCount<E extends keyof Events>(event: E): number;
  getMaxListeners(): number;
  setMaxListeners(maxListeners: number): this;
}

/** What a class with typed events extends: `class Session extends (EventEmitter as TypedEmitterClass<SessionEvents>)`. */
export type TypedEmitterClass<Events extends EventMap> = new () => TypedEmitter<Events>;
