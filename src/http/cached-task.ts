// The one path of every answer computed in the worker pool: from the response
// cache without leaving this thread, or computed by a task and cached as bytes.
// Product lists and quick-view search share it. A request for an answer that a
// task is computing already waits for that task instead of queueing its own:
// a popular product's list after its cached answer expired, or a keystroke
// many shoppers type, is computed once however many ask for it meanwhile. The
// task is dropped (before it starts) only once every request waiting for it
// has gone away: a typeahead's stale keystrokes are cancelled all the time.
import type { CachedResponse } from "../cache/response-cache.js";
import { ByteBuilder } from "../core/byte-builder.js";
import { Abandonment } from "../pool/abandonment.js";
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
 * its own.
 */
const inlineReply = new ByteBuilder();
/** Where every miss stamps what it caches, for the cache to copy. */
const stampedForCache = new ByteBuilder();

/** A pool task under way, and how many requests still wait for its answer. */
interface SharedTask {
  computed: Promise<Uint8Array>;
  /** Abandoned once every request waiting for it has gone away: the pool then drops it, if it has not started. */
  drop: Abandonment;
  waiting: number;
}

/** Per service, the tasks under way for cache keys. */
const underWayByService = new WeakMap<Services, Map<string, SharedTask>>();

function underWayOf(services: Services): Map<string, SharedTask> {
  let tasks = underWayByService.get(services);
  if (tasks === undefined) underWayByService.set(services, (tasks = new Map()));
  return tasks;
}

/** Counts the request among those waiting for the task until its client goes away (a request with no client never does). */
function waitFor(shared: SharedTask, request: RequestInfo | undefined): void {
  shared.waiting++;
  if (request === undefined) return;
  (request.abandonment ??= new Abandonment()).onAbandon(() => {
    if (--shared.waiting === 0) shared.drop.abandon();
  });
}

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
    if (hit) return hitReply(hit, now);
  }
  // `inline`: answered on this thread, so written before anything else runs; a
  // pool's answer is written after its promise settles, so it needs bytes of its own.
  const answered = (computed: Uint8Array, inline: boolean): Reply => {
    const body = stamp ? stamp(computed, "never", inline ? inlineReply : undefined) : computed;
    if (cacheKey !== null) {
      const now = services.now();
      cache.set(cacheKey, stamp ? stamp(computed, new Date(now).toISOString(), stampedForCache) : computed, now, ttlMs);
    }
    return { status: 200, body, headers: { Age: "0" } };
  };
  const inline = answerInline(services, task);
  if (inline !== null) return answered(inline, true);
  const tasks = cacheKey === null ? null : underWayOf(services);
  // bust_cache asks for an answer computed after it arrived: it never takes one already under way.
  const underWay = bypassCache ? undefined : tasks?.get(cacheKey!);
  if (underWay !== undefined && !underWay.drop.abandoned) {
    waitFor(underWay, plan.request);
    return underWay.computed.then((body) => sharedReply(services, plan, body));
  }
  const drop = new Abandonment();
  const shared: SharedTask = { computed: pool.run(task, drop).then(({ body }) => body), drop, waiting: 0 };
  waitFor(shared, plan.request);
  if (tasks !== null) {
    tasks.set(cacheKey!, shared);
    // Whichever way it ends, later requests compute or find it in the cache themselves.
    const settled = () => {
      if (tasks.get(cacheKey!) === shared) tasks.delete(cacheKey!);
    };
    shared.computed.then(settled, settled);
  }
  return shared.computed.then((body) => answered(body, false));
}

/**
 * The reply to a request that waited for another's task: the answer that task
 * cached, as a hit right after would find it; or, where the cache did not
 * keep it (a body larger than the cache, or one that would expire at once),
 * its bytes as computed.
 */
function sharedReply(services: Services, plan: CachedTaskPlan, computed: Uint8Array): Reply {
  const now = services.now();
  const hit = services.cache.get(plan.cacheKey!, now);
  if (hit) return hitReply(hit, now);
  return { status: 200, body: plan.stamp ? plan.stamp(computed, "never") : computed, headers: { Age: "0" } };
}

function hitReply(hit: CachedResponse, now: number): Reply {
  return { status: 200, body: hit.body, headers: { Age: String(Math.floor((now - hit.storedAt) / 1000)) } };
}

function answerInline(services: Services, task: Task): Uint8Array | null {
  if (!services.answerInline) return null;
  const started = performance.now();
  const body = services.answerInline(task);
  if (body !== null) services.metrics?.inlineAnswer(task.kind, (performance.now() - started) / 1000);
  return body;
}
