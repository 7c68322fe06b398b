// An answer made of many stored pieces (a list's products), appended into one
// buffer that is kept and reused, then copied out once at its exact length.
// Copying each piece into a buffer of its own first cost a list one
// allocation per product, each a backing store the collector later sweeps:
// on the demo shop's list misses that garbage cost more than the reads.
import { grownTo } from "./typed-arrays.js";

const INITIAL_CAPACITY = 64 * 1024;
const encoder = new TextEncoder();
/** A buffer grown past this for one huge answer is let go at the next reset, so one such answer does not hold its memory for good. */
const KEPT_CAPACITY_AT_MOST = 1024 * 1024;

export class ByteBuilder {
  private buffer = new Uint8Array(INITIAL_CAPACITY);
  private length = 0;

  /** Empties the builder (what a failed answer left behind is dropped), and lets go of a buffer one huge answer grew. */
  reset(): void {
    this.length = 0;
    // Detached (byteLength 0) if a view of it was ever moved to another thread: start again rather than fail every later answer.
    if (this.buffer.length > KEPT_CAPACITY_AT_MOST || this.buffer.byteLength === 0) this.buffer = new Uint8Array(INITIAL_CAPACITY);
  }

  append(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** Appends text as UTF-8, encoded in place rather than into a buffer of its own first. */
  appendText(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    this.reserve(text.length * 3);
    this.length += encoder.encodeInto(text, this.buffer.subarray(this.length)).written;
  }

  appendByte(byte: number): void {
    this.reserve(1);
    this.buffer[this.length++] = byte;
  }

  /** What was appended since the last reset, as a view that the builder's next use overwrites. */
  view(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }

  /** What was appended since the last reset, in a buffer of its own; the builder is then empty. */
  take(): Uint8Array {
    const out = this.buffer.slice(0, this.length);
    this.reset();
    return out;
  }

  private reserve(more: number): void {
    const needed = this.length + more;
    if (needed <= this.buffer.length) return;
    let capacity = Math.max(this.buffer.length * 2, INITIAL_CAPACITY);
    while (capacity < needed) capacity *= 2;
    this.buffer = grownTo(this.buffer, capacity);
  }
}
