import { createHash } from "node:crypto";
import { withTopLevelField } from "../../core/json.js";
import type { EndpointDef } from "../../core/api/endpoints.js";
import { canonicalParams, parseParams, type ParsedParams } from "../../core/params/parse.js";
import type { QueryParams } from "../../core/params/query.js";
import type { Merchant } from "../../core/types.js";
import { ApiError } from "../../errors.js";
import { PoolSaturatedError } from "../../pool/pool.js";
import type { Task } from "../../pool/protocol.js";
import type { DataDomain } from "../../stores/store.js";
import { merchantForKey } from "../auth.js";
import { jsonReply, PARTIAL_HEADER, type Reply } from "../respond.js";
import type { Route } from "../router.js";
import type { Services } from "../services.js";

/** What a product endpoint computes for one request, and what its answer depends on. */
export interface ProductPlan {
  task: Task;
  /** Data whose change must invalidate the cached answer. */
  dependsOn: DataDomain[];
  /** Finer versions the answer depends on (e.g. the input products' model lists). */
  versionTag?: string;
  /** Behaviour-driven lists also expire by age. */
  ttlMs?: number;
  /** Add metadata.cache_info (the spec shows it on recommended). */
  cacheInfo?: boolean;
  /** false: computed for every request (lists that change with every event). */
  cacheable?: boolean;
}

export interface ProductEndpointOptions {
  /**
   * How the request names its merchant; by default the `key` parameter. null:
   * no merchant has anything for this request (an unknown session), so the
   * answer is an empty list.
   */
  merchantOf?: (params: ParsedParams) => Merchant | null;
}

/** An answer from an index still warming up, saying what it may lack. */
function warmingReply(body: Uint8Array, warming: string, headers: Record<string, string> = {}): Reply {
  return { status: 200, body, headers: { ...headers, [PARTIAL_HEADER]: warming } };
}

/** The cache key as clients see it: stable and opaque (it embeds nothing of the request). */
function opaqueKey(cacheKey: string): string {
  return createHash("sha256").update(cacheKey).digest("base64url").slice(0, 32);
}

export function parseOrThrow(endpoint: EndpointDef, query: QueryParams): ParsedParams {
  const parsed = parseParams(endpoint.params, query);
  if (!parsed.ok) throw new ApiError("invalid_params", parsed.message);
  return parsed.params;
}

/**
 * The shared shape of every product endpoint: validate, authenticate, answer
 * from the response cache without leaving this thread, or compute in the pool
 * and cache the bytes.
 */
export function productEndpoint(
  services: Services,
  endpoint: EndpointDef,
  plan: (params: ParsedParams, merchant: Merchant) => ProductPlan,
  options: ProductEndpointOptions = {},
): Route {
  const { store, cache, pool } = services;
  const merchantOf = options.merchantOf ?? ((params: ParsedParams) => merchantForKey(store, params.key as string | undefined));
  return {
    method: endpoint.method,
    pattern: endpoint.path,
    cors: true,
    readsBody: false,
    errorStyle: endpoint.errorStyle,
    handle(request): Reply | Promise<Reply> {
      const params = parseOrThrow(endpoint, request.query);
      const merchant = merchantOf(params);
      if (merchant === null) return jsonReply(200, { data: [] }, params.format === true);
      const { task, dependsOn, versionTag = "", ttlMs, cacheInfo = false, cacheable = true } = plan(params, merchant);
      if (!cacheable)
        return runTask(task).then(({ body, warming }) => (warming === undefined ? { status: 200, body } : warmingReply(body, warming)));
      const versions = dependsOn.map((domain) => store.version(merchant.id, domain)).join(".");
      const cacheKey = `${merchant.id}|${endpoint.path}|${canonicalParams(params)}|v${versions}|${versionTag}`;
      if (params.bust_cache !== true) {
        const now = services.now();
        const hit = cache.get(cacheKey, now);
        if (hit) return { status: 200, body: hit.body, headers: { Age: String(Math.floor((now - hit.storedAt) / 1000)) } };
      }
      return runTask(task).then(({ body: computed, warming }) => {
        const now = services.now();
        const pretty = params.format === true;
        const stamp = (cachedAt: string) =>
          cacheInfo
            ? withTopLevelField(computed, "metadata", { cache_info: { cache_key: opaqueKey(cacheKey), cached_at_time: cachedAt } }, pretty)
            : computed;
        // Never cached: the same request finds more once the index is complete.
        if (warming !== undefined) return warmingReply(stamp("never"), warming, { Age: "0" });
        // The stored copy says when it was cached; this answer was computed for this request.
        cache.set(cacheKey, stamp(new Date(now).toISOString()), now, ttlMs);
        return { status: 200, body: stamp("never"), headers: { Age: "0" } };
      });
    },
  };

  /** The answer's bytes, and what a warming index left out of it, if one did. */
  async function runTask(task: Task): Promise<{ body: Uint8Array; warming?: string }> {
    try {
      const result = await pool.run(task);
      if (!result.ok) throw new Error(`worker task ${task.kind} failed: ${result.code} ${result.message}`);
      return result;
    } catch (error) {
      if (error instanceof PoolSaturatedError) throw new ApiError("overloaded");
      throw error;
    }
  }
}
