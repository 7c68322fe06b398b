import { describe, expect, it } from "vitest";
import { decodeSession, encodeSession, readSessionViews, sessionViews } from "../../src/core/recs/session-index-codec.js";

/** `bytes` as lmdb's getBinaryFast answers a value: a view at an odd offset into a larger buffer, with other bytes after it. */
function asReadFast(bytes: Uint8Array): Uint8Array {
  const buffer = new Uint8Array(bytes.length + 64).fill(0xab);
  buffer.set(bytes, 3);
  return buffer.subarray(3, 3 + bytes.length);
}

describe("the session index's session values", () => {
  it("read back the views they were written with, from a view into a larger buffer whatever the uuid's length", () => {
    for (const uuid of ["s", "3f2b8c1e-9d4a-4c7b-8e21-5a6f0d9c1b2e", "é-session"]) {
      const views = [7_000_000_123, 2, 2 ** 53 - 1, 7_000_000_123];
      const stored = asReadFast(encodeSession({ uuid, firstViewAt: 1_700_000_000_000, views: views.slice(0, 3) }, views.slice(3)));
      expect([...sessionViews(stored)]).toEqual(views);
      expect(decodeSession(stored)).toEqual({ uuid, firstViewAt: 1_700_000_000_000, views: Float64Array.from(views) });
      // Into a longer array: only the session's views are written.
      const into = new Float64Array(6).fill(-1);
      readSessionViews(stored, into);
      expect([...into]).toEqual([...views, -1, -1]);
    }
  });
});
