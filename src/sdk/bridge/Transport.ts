/**
 * One authenticated link to the extension, as the bridge's protocol sees it: text out, text in,
 * a close. The bridge's server hands out one per accepted socket; tests link two in memory.
 */
export interface Transport {
  /** Sends one message (JSON text). */
  send(text: string): void;
  /** Closes with a code and a reason (the closing handshake). */
  close(code: number, reason: string): void;
  /** Drops the link at once. */
  terminate(): void;
  /** Each message that arrives: its text, or undefined for a binary frame. */
  onmessage?: (text: string | undefined) => void;
  /** The link closed, with the close code and reason. */
  onclose?: (code: number, reason: string) => void;
}
