import { describe, expectTypeOf, it } from 'vitest';
import {
  BridgeEvent,
  SessionEvent,
  SessionFixture,
  type Bridge,
  type BridgeEvents,
  type ExtensionEvent,
  type Hello,
  type Rejection,
  type RetryInfo,
  type Session,
  type SessionEvents,
  type StepRecord,
  type TestFailure,
  type Warning,
} from 'aite';

// Pins the event names and the listener types of Bridge and Session. Checked by `tsc --noEmit`
// (npm run typecheck); at run time these assertions do nothing.
describe('typed events', () => {
  it('BridgeEvent names exactly the keys of BridgeEvents', () => {
    expectTypeOf(BridgeEvent).toEqualTypeOf<{
      readonly Hello: 'hello';
      readonly Connected: 'connected';
      readonly Disconnected: 'disconnected';
      readonly Event: 'event';
      readonly Retry: 'retry';
      readonly Rejected: 'rejected';
      readonly Warning: 'warning';
    }>();
    expectTypeOf<(typeof BridgeEvent)[keyof typeof BridgeEvent]>().toEqualTypeOf<keyof BridgeEvents>();
  });

  it('BridgeEvents carries one typed payload per event', () => {
    expectTypeOf<Parameters<BridgeEvents['hello']>>().toEqualTypeOf<[hello: Hello]>();
    expectTypeOf<Parameters<BridgeEvents['connected']>>().toEqualTypeOf<[info: { resumed: boolean }]>();
    expectTypeOf<Parameters<BridgeEvents['disconnected']>>().toEqualTypeOf<[info: { code: number; reason: string }]>();
    expectTypeOf<Parameters<BridgeEvents['event']>>().toEqualTypeOf<[event: ExtensionEvent]>();
    expectTypeOf<Parameters<BridgeEvents['retry']>>().toEqualTypeOf<[info: RetryInfo]>();
    expectTypeOf<Parameters<BridgeEvents['rejected']>>().toEqualTypeOf<[info: Rejection]>();
    expectTypeOf<Parameters<BridgeEvents['warning']>>().toEqualTypeOf<[message: string]>();
  });

  it('SessionEvent names exactly the keys of SessionEvents', () => {
    expectTypeOf(SessionEvent).toEqualTypeOf<{
      readonly Step: 'step';
      readonly Retry: 'retry';
      readonly Event: 'event';
      readonly Warning: 'warning';
      readonly Dialog: 'dialog';
    }>();
    expectTypeOf<(typeof SessionEvent)[keyof typeof SessionEvent]>().toEqualTypeOf<keyof SessionEvents>();
  });

  it('SessionEvents carries one typed payload per event', () => {
    expectTypeOf<Parameters<SessionEvents['step']>>().toEqualTypeOf<[record: StepRecord]>();
    expectTypeOf<Parameters<SessionEvents['retry']>>().toEqualTypeOf<[info: { cmd: import('aite').Command; retries: number }]>();
    expectTypeOf<Parameters<SessionEvents['event']>>().toEqualTypeOf<[event: ExtensionEvent]>();
    expectTypeOf<Parameters<SessionEvents['warning']>>().toEqualTypeOf<[warning: Warning]>();
  });

  it('on() of a Bridge and a Session takes the constants and types the listener from them', () => {
    const onBridge = (bridge: Bridge): void => {
      bridge.on(BridgeEvent.Rejected, (info) => expectTypeOf(info).toEqualTypeOf<Rejection>());
      bridge.on(BridgeEvent.Hello, (hello) => expectTypeOf(hello).toEqualTypeOf<Hello>());
      // @ts-expect-error: not an event of the bridge
      bridge.on('step', () => undefined);
    };
    const onSession = (session: Session): void => {
      session.on(SessionEvent.Step, (record) => expectTypeOf(record).toEqualTypeOf<StepRecord>());
      session.on(SessionEvent.Retry, (info) => expectTypeOf(info.retries).toEqualTypeOf<number>());
      // @ts-expect-error: not an event of the session
      session.on('hello', () => undefined);
    };
    expectTypeOf(onBridge).toBeFunction();
    expectTypeOf(onSession).toBeFunction();
  });

  it('SessionFixture answers a Session and reports failures as TestFailure', () => {
    expectTypeOf<SessionFixture['session']>().toEqualTypeOf<Session>();
    expectTypeOf<SessionFixture['start']>().returns.toEqualTypeOf<Promise<Session>>();
    expectTypeOf<SessionFixture['testFailed']>().returns.toEqualTypeOf<Promise<TestFailure>>();
    expectTypeOf<TestFailure['screenshot']>().toEqualTypeOf<string | undefined>();
  });
});
