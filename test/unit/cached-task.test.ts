import { describe, expect, it } from "vitest";
import { ResponseCache } from "../../src/cache/response-cache.js";
import { cachedTask } from "../../src/http/cached-task.js";
import type { Reply } from "../../src/http/respond.js";
import type { Services } from "../../src/http/services.js";
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
  it("keeps and answers its own copy of an inline answer, which the next answer does not overwrite", () => {
    const services = servicesAnsweringInViews();
    const first = cachedTask(services, { task, cacheKey: "a" }) as Reply;
    expect(bodyOf(first)).toBe('{"data":[1]}');
    expect(bodyOf(cachedTask(services, { task, cacheKey: "b" }))).toBe('{"data":[2]}');
    expect(bodyOf(first)).toBe('{"data":[1]}');
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
