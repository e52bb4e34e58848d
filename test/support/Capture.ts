import { Writable } from 'node:stream';

/** A stdout or stderr for the CLI in a test: keeps what was written; `tty` makes it look like a terminal. */
export class Capture extends Writable {
  text = '';
  isTTY: boolean;
  constructor(tty = false) {
    super();
    this.isTTY = tty;
  }
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}
