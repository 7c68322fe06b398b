// A cluster write stored in the stream but not applied by this node in time
// answers 503, and names the sequence the write was given (X-Aisle-Seq), as
// an applied write does: it will be applied, and a read sent after it with
// X-Aisle-After-Seq waits for it. A real uWS server on an ephemeral loopback port.
import { describe, expect, it } from "vitest";
import type { Route } from "../../src/http/router.js";
import { WriteNotApplied } from "../../src/ingest/write-not-applied.js";
import { loopbackServer } from "../helpers/loopback-server.js";

const routes: Route[] = [
  {
    method: "POST",
    pattern: "/slow-write",
    cors: true,
    readsBody: false,
    errorStyle: "message",
    handle: async () => {
      throw new WriteNotApplied(57, 30_000);
    },
  },
  {
    method: "POST",
    pattern: "/refused-write",
    cors: true,
    readsBody: false,
    errorStyle: "message",
    handle: async () => {
      throw new Error("stream down");
    },
  },
];

const faults: unknown[] = [];
const server = loopbackServer(routes, { onInternalError: (error) => faults.push(error) });

describe("a write stored in the stream but not applied in time", () => {
  it("answers 503 with the write's sequence, and is no fault of the service", async () => {
    const response = await fetch(`${server.origin()}/slow-write`, { method: "POST" });
    expect(response.status).toBe(503);
    expect(response.headers.get("x-aisle-seq")).toBe("57");
    expect(((await response.json()) as { error: string }).error).toContain("sequence 57");
    expect(faults).toEqual([]);
  });

  it("is the only failure that names a sequence", async () => {
    const response = await fetch(`${server.origin()}/refused-write`, { method: "POST" });
    expect(response.status).toBe(500);
    expect(response.headers.get("x-aisle-seq")).toBeNull();
    expect(faults).toHaveLength(1);
  });
});
