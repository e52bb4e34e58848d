import type { Transport } from '../../src/sdk/bridge/Transport.js';

/**
 * Two linked transports, for protocol tests without sockets: what one sends the other receives
 * (on a later turn, as over a socket), and a close on either closes both.
 */
export function linkedPair(): [Transport, Transport] {
  let open = true;
  const make = (): Transport & { peer?: Transport } => {
    const end: Transport & { peer?: Transport } = {
      send: (text) => {
        if (!open) throw new Error('the link is closed');
        setImmediate(() => end.peer?.onmessage?.(text));
      },
      close: (code, reason) => shut(code, reason),
      terminate: () => shut(1006, ''),
    };
    return end;
  };
  const a = make();
  const b = make();
  a.peer = b;
  b.peer = a;
  const shut = (code: number, reason: string): void => {
    if (!open) return;
    open = false;
    setImmediate(() => {
      a.onclose?.(code, reason);
      b.onclose?.(code, reason);
    });
  };
  return [a, b];
}
