import { describe, expect, it } from "vitest";
import { ByteBuilder } from "../../src/core/byte-builder.js";

describe("ByteBuilder", () => {
  it("grows past its capacity and gives back exactly what was appended, in a buffer of its own", () => {
    const builder = new ByteBuilder();
    const piece = Uint8Array.from({ length: 50_000 }, (_, i) => i % 251);
    for (let i = 0; i < 30; i++) builder.append(piece);
    builder.appendByte(7);
    const taken = builder.take();
    expect(taken.length).toBe(30 * 50_000 + 1);
    expect(taken.subarray(49_990, 50_010)).toEqual(Uint8Array.from([...piece.subarray(49_990), ...piece.subarray(0, 10)]));
    expect(taken[taken.length - 1]).toBe(7);
    builder.append(Uint8Array.of(1, 2, 3));
    expect(builder.take()).toEqual(Uint8Array.of(1, 2, 3));
  });

  it("appends text as TextEncoder encodes it, also past its capacity and in characters of several bytes", () => {
    const builder = new ByteBuilder();
    const text = 'a"é€😀\u2028'.repeat(9_000);
    builder.append(Uint8Array.of(1));
    builder.appendText(text);
    builder.appendText("");
    builder.appendByte(2);
    expect(builder.take()).toEqual(Uint8Array.from([1, ...new TextEncoder().encode(text), 2]));
  });

  it("gives what it takes a buffer of exactly its bytes, which later answers leave alone", () => {
    const builder = new ByteBuilder();
    builder.append(Uint8Array.of(1, 2, 3));
    const taken = builder.take();
    builder.append(Uint8Array.of(7, 8, 9, 10));
    builder.take();
    expect(taken).toEqual(Uint8Array.of(1, 2, 3));
    expect([taken.byteOffset, taken.buffer.byteLength]).toEqual([0, 3]);
  });

  it("starts again on a new buffer when its own was moved to another thread", () => {
    const builder = new ByteBuilder();
    builder.append(Uint8Array.of(1));
    structuredClone(builder.view(), { transfer: [builder.view().buffer as ArrayBuffer] });
    builder.reset();
    builder.append(Uint8Array.of(4, 5));
    expect(builder.take()).toEqual(Uint8Array.of(4, 5));
  });

  it("starts empty after a reset, and its view is overwritten by the next use", () => {
    const builder = new ByteBuilder();
    builder.append(Uint8Array.of(9, 9));
    builder.reset();
    builder.append(Uint8Array.of(1, 2));
    const view = builder.view();
    expect(view).toEqual(Uint8Array.of(1, 2));
    builder.reset();
    builder.append(Uint8Array.of(5));
    expect(view[0]).toBe(5);
  });
});
