// The one path of every answer computed in the worker pool: from the response
// cache without leaving this thread, or computed by a task and cached as bytes.
// Product lists and quick-view search share it.
import { ByteBuilder } from "../core/byte-builder.js";
import type { Task } from "../pool/protocol.js";
import type { Reply } from "./respond.js";
import type { RequestInfo } from "./router.js";
import type { Services } from "./services.js";

export interface CachedTaskPlan {
  task: Task;
  /** null: computed for every request (lists that change with every event). */
  cacheKey: string | null;
  /** Recompute even when a cached answer exists (bust_cache=yes). */
  bypassCache?: boolean;
  /** Answers that follow sales also expire by age. */
  ttlMs?: number;
  /**
   * The bytes to answer and to store, from the computed ones: `cachedAt` is
   * when the stored copy was cached, or "never" for the answer computed for
   * this request (metadata.cache_info). Into `out` when given (a view of it),
   * else a new buffer: `computed` may be a view that the thread's next answer overwrites.
   */
  stamp?: (computed: Uint8Array, cachedAt: string, out?: ByteBuilder) => Uint8Array;
  /** The request, whose client going away drops its task while it waits for a worker. */
  request?: RequestInfo;
}

/**
 * Where a miss answered on this thread stamps its answer: the server writes a
 * reply its handler returns synchronously before anything else runs (see
 * HttpServer), and uWS copies what it writes, so the answer needs no buffer of
 * its own; only the cached copy does.
 */
const inlineReply = new ByteBuilder();

/**
 * A cache hit, and a miss answered on this thread, answer synchronously: the
 * hot path never awaits. The body of such a miss's reply may be a view that
 * this thread's next answer overwrites: write it at once.
 */
export function cachedTask(services: Services, plan: CachedTaskPlan): Reply | Promise<Reply> {
  const { cache, pool } = services;
  const { task, cacheKey, bypassCache = false, ttlMs, stamp } = plan;
  if (cacheKey !== null && !bypassCache) {
    const now = services.now();
    const hit = cache.get(cacheKey, now);
    if (hit) return { status: 200, body: hit.body, headers: { Age: String(Math.floor((now - hit.storedAt) / 1000)) } };
  }
  // `transient`: the computed bytes are a view that the next answer overwrites, so what is cached is a copy.
  const answered = (computed: Uint8Array, transient: boolean): Reply => {
    const body = stamp ? stamp(computed, "never", transient ? inlineReply : undefined) : transient ? computed.slice() : computed;
    if (cacheKey !== null) {
      const now = services.now();
      cache.set(cacheKey, stamp ? stamp(computed, new Date(now).toISOString()) : body, now, ttlMs);
    }
    return { status: 200, body, headers: { Age: "0" } };
  };
  const inline = answerInline(services, task);
  if (inline !== null) return answered(inline, true);
  let abandoned: AbortSignal | undefined;
  if (plan.request) abandoned = (plan.request.abandon ??= new AbortController()).signal;
  return pool.run(task, abandoned).then(({ body }) => answered(body, false));
}

function answerInline(services: Services, task: Task): Uint8Array | null {
  if (!services.answerInline) return null;
  const started = performance.now();
  const body = services.answerInline(task);
  if (body !== null) services.metrics?.inlineAnswer(task.kind, (performance.now() - started) / 1000);
  return body;
}
