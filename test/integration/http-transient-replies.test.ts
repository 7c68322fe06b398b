// A handler may answer synchronously with a view of a buffer its thread
// reuses for the next answer (cachedTask does, for a list miss answered on
// the HTTP thread): the server must write such a reply in the same turn on
// every path, also after waiting for a cluster sequence (X-Aisle-After-Seq),
// where the waits of many requests end together. A real uWS server on an
// ephemeral loopback port.
import { describe, expect, it } from "vitest";
import type { Route } from "../../src/http/router.js";
import { loopbackServer } from "../helpers/loopback-server.js";

const encoder = new TextEncoder();
/** One buffer every answer is written into, as cachedTask's inline replies are. */
const shared = new Uint8Array(256);

function transientAnswer(text: string): Uint8Array {
  const bytes = encoder.encode(JSON.stringify({ echo: text }));
  shared.fill(0x20).set(bytes);
  return shared.subarray(0, bytes.length);
}

const routes: Route[] = [
  {
    method: "GET",
    pattern: "/echo",
    cors: false,
    readsBody: false,
    errorStyle: "message",
    handle: (request) => ({ status: 200, body: transientAnswer(request.query.get("n") ?? "") }),
  },
];

/** Requests waiting for their sequence, and the one wait they all share (as a node's applied sequence ends many at once). */
let waiting = 0;
let release: () => void = () => {};
const applied = new Promise<void>((resolve) => (release = resolve));

const server = loopbackServer(routes, {
  onInternalError: (error) => {
    throw error;
  },
  appliedSeq: () => {
    waiting++;
    return applied;
  },
});

const echoOf = async (response: Promise<Response>) => ((await (await response).json()) as { echo: string }).echo;

describe("synchronous replies with reused bodies", () => {
  it("are each written before the next handler runs, when many sequence waits end together", async () => {
    const sent = Array.from({ length: 40 }, (_, i) => `request-${i}`);
    const answers = sent.map((n) => echoOf(fetch(`${server.origin()}/echo?n=${n}`, { headers: { "X-Aisle-After-Seq": "7" } })));
    while (waiting < sent.length) await new Promise((resolve) => setTimeout(resolve, 5));
    release();
    expect(await Promise.all(answers)).toEqual(sent);
  });
});
