import { describe, expect, it } from "vitest";
import { ResponseCache } from "../../src/cache/response-cache.js";
import { cachedTask } from "../../src/http/cached-task.js";
import type { Reply } from "../../src/http/respond.js";
import type { RequestInfo } from "../../src/http/router.js";
import type { Services } from "../../src/http/services.js";
import type { Abandonment } from "../../src/pool/abandonment.js";
import type { Task } from "../../src/pool/protocol.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Answers inline as the list code does: a view of one buffer that each answer overwrites. */
function servicesAnsweringInViews(): Services {
  const shared = new Uint8Array(64);
  let answers = 0;
  const answerInline = () => {
    const bytes = encoder.encode(`{"data":[${++answers}]}`);
    shared.fill(0).set(bytes);
    return shared.subarray(0, bytes.length);
  };
  return { cache: new ResponseCache(1 << 20), answerInline, now: () => 1_000 } as unknown as Services;
}

const task = { kind: "trending" } as unknown as Task;
const bodyOf = (reply: Reply | Promise<Reply>) => decoder.decode((reply as Reply).body as Uint8Array);

describe("cachedTask with answers computed on the HTTP thread", () => {
  // The reply itself may be a view that the next answer overwrites: the server writes it at once.
  it("caches a copy of an inline answer, which the next answer does not overwrite", () => {
    const services = servicesAnsweringInViews();
    expect(bodyOf(cachedTask(services, { task, cacheKey: "a" }))).toBe('{"data":[1]}');
    expect(bodyOf(cachedTask(services, { task, cacheKey: "b" }))).toBe('{"data":[2]}');
    expect(bodyOf(cachedTask(services, { task, cacheKey: "a" }))).toBe('{"data":[1]}');
  });

  it("stamps the answer and the cached copy from the same computed bytes", () => {
    const services = servicesAnsweringInViews();
    const stamp = (computed: Uint8Array, cachedAt: string) => encoder.encode(`${decoder.decode(computed)}@${cachedAt}`);
    expect(bodyOf(cachedTask(services, { task, cacheKey: "a", stamp }))).toBe('{"data":[1]}@never');
    void cachedTask(services, { task, cacheKey: "b", stamp });
    expect(bodyOf(cachedTask(services, { task, cacheKey: "a", stamp }))).toBe(`{"data":[1]}@${new Date(1_000).toISOString()}`);
  });
});

/** A pool whose tasks end when the test says: each run is recorded with its deferred outcome and what abandons it. */
function servicesWithHeldPool(cacheBytes = 1 << 20) {
  const runs: { resolve: (body: Uint8Array) => void; reject: (error: unknown) => void; drop: Abandonment | undefined }[] = [];
  const pool = {
    run: (_task: Task, drop?: Abandonment) =>
      new Promise<{ body: Uint8Array }>((resolve, reject) => {
        runs.push({ resolve: (body) => resolve({ body }), reject, drop });
      }),
  };
  const services = { cache: new ResponseCache(cacheBytes), pool, now: () => 1_000 } as unknown as Services;
  return { services, runs };
}

/** A request as the server hands it to a route: its client's going away abandons `abandonment`. */
const clientRequest = () => ({ abandonment: null }) as unknown as RequestInfo;
const stamp = (computed: Uint8Array, cachedAt: string) => encoder.encode(`${decoder.decode(computed)}@${cachedAt}`);

describe("cachedTask with answers computed in the pool", () => {
  it("lets a request for an answer a task is computing wait for that task rather than queue its own", async () => {
    const { services, runs } = servicesWithHeldPool();
    const first = cachedTask(services, { task, cacheKey: "a", stamp });
    const second = cachedTask(services, { task, cacheKey: "a", stamp });
    const other = cachedTask(services, { task, cacheKey: "b", stamp });
    // bust_cache: an answer computed after it arrived, so its own task.
    const busting = cachedTask(services, { task, cacheKey: "a", bypassCache: true, stamp });
    expect(runs).toHaveLength(3);
    runs[0]!.resolve(encoder.encode('{"data":[1]}'));
    runs[1]!.resolve(encoder.encode('{"data":[2]}'));
    runs[2]!.resolve(encoder.encode('{"data":[3]}'));
    const cachedAt = new Date(1_000).toISOString();
    expect(bodyOf(await first)).toBe('{"data":[1]}@never');
    // The waiting request answers what the task cached, as a hit would.
    expect(bodyOf(await second)).toBe(`{"data":[1]}@${cachedAt}`);
    expect(bodyOf(await other)).toBe('{"data":[2]}@never');
    expect(bodyOf(await busting)).toBe('{"data":[3]}@never');
    // Once it has ended, the next request finds the cached answer.
    expect(bodyOf(await cachedTask(services, { task, cacheKey: "a", stamp }))).toBe(`{"data":[3]}@${cachedAt}`);
    expect(runs).toHaveLength(3);
  });

  it("gives the waiting requests the task's failure, and computes afresh for a request after it", async () => {
    const { services, runs } = servicesWithHeldPool();
    const failing = cachedTask(services, { task, cacheKey: "a" });
    const waitingOnFailure = cachedTask(services, { task, cacheKey: "a" });
    runs[0]!.reject(new Error("worker failed"));
    await expect(failing).rejects.toThrow("worker failed");
    await expect(waitingOnFailure).rejects.toThrow("worker failed");
    void cachedTask(services, { task, cacheKey: "a" });
    expect(runs).toHaveLength(2);
  });

  it("drops the task only once every request waiting for it has gone away", () => {
    const { services, runs } = servicesWithHeldPool();
    const [first, second] = [clientRequest(), clientRequest()];
    void cachedTask(services, { task, cacheKey: "a", request: first });
    void cachedTask(services, { task, cacheKey: "a", request: second });
    expect(runs).toHaveLength(1);
    first.abandonment!.abandon();
    expect(runs[0]!.drop?.abandoned).toBe(false);
    second.abandonment!.abandon();
    expect(runs[0]!.drop?.abandoned).toBe(true);
    // A request arriving after that gets a task of its own.
    void cachedTask(services, { task, cacheKey: "a", request: clientRequest() });
    expect(runs).toHaveLength(2);
    expect(runs[1]!.drop?.abandoned).toBe(false);
  });

  it("gives the waiting requests the computed answer when the cache does not keep it, without computing it again", async () => {
    // A cache too small for any answer: each waiting request must still not queue a task of its own.
    const { services, runs } = servicesWithHeldPool(16);
    const replies = [1, 2, 3].map(() => cachedTask(services, { task, cacheKey: "a", stamp }));
    expect(runs).toHaveLength(1);
    runs[0]!.resolve(encoder.encode('{"data":[5]}'));
    for (const reply of replies) expect(bodyOf(await reply)).toBe('{"data":[5]}@never');
    expect(runs).toHaveLength(1);
  });
});
