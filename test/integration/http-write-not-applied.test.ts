// A cluster write stored in the stream but not applied by this node in time
// answers 503, and names the sequence the write was given (X-Aisle-Seq), as
// an applied write does: it will be applied, and a read sent after it with
// X-Aisle-After-Seq waits for it. A real uWS server on an ephemeral loopback port.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpServer } from "../../src/http/server.js";
import { Router, type Route } from "../../src/http/router.js";
import { WriteNotApplied } from "../../src/ingest/write-not-applied.js";

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

let server: HttpServer;
let base: string;
const faults: unknown[] = [];

beforeAll(async () => {
  server = new HttpServer(new Router(routes), {
    host: "127.0.0.1",
    port: 0,
    maxBodyBytes: 1024,
    maxUrlBytes: 1024,
    onInternalError: (error) => faults.push(error),
  });
  base = `http://127.0.0.1:${await server.listen()}`;
});
afterAll(() => server.drain(1_000));

describe("a write stored in the stream but not applied in time", () => {
  it("answers 503 with the write's sequence, and is no fault of the service", async () => {
    const response = await fetch(`${base}/slow-write`, { method: "POST" });
    expect(response.status).toBe(503);
    expect(response.headers.get("x-aisle-seq")).toBe("57");
    expect(((await response.json()) as { error: string }).error).toContain("sequence 57");
    expect(faults).toEqual([]);
  });

  it("is the only failure that names a sequence", async () => {
    const response = await fetch(`${base}/refused-write`, { method: "POST" });
    expect(response.status).toBe(500);
    expect(response.headers.get("x-aisle-seq")).toBeNull();
    expect(faults).toHaveLength(1);
  });
});
