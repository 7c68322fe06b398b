import * as crypto from "node:crypto";
import type { EndpointDef } from "../../core/api/endpoints.js";
import { withTopLevelField } from "../../core/json.js";
import type { ParamDef } from "../../core/params/definitions.js";
import type { RateClass } from "../../core/rate-limit.js";
import { canonicalParams, type ParamValue, type ParsedParams } from "../../core/params/parse.js";
import type { QueryParams } from "../../core/params/query.js";
import type { Merchant } from "../../core/types.js";
import type { Task } from "../../pool/protocol.js";
import type { DataDomain } from "../../stores/environment.js";
import { merchantForKey } from "../auth.js";
import { cachedTask } from "../cached-task.js";
import { keySubject } from "../rate-limiting.js";
import { QueryMemo } from "../query-memo.js";
import { parseQueryParams } from "../request.js";
import { jsonReply } from "../respond.js";
import type { RequestInfo, Route } from "../router.js";
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

export interface ProductEndpointOptions<Params> {
  /** Default: product_reads. */
  rateClass?: RateClass;
  /**
   * How the request names its merchant; by default the `key` parameter. null:
   * no merchant has anything for this request (an unknown session), so the
   * answer is an empty list.
   */
  merchantOf?: (params: Params) => Merchant | null;
  /** Checks the query as sent, before its parameters are parsed: a 400 the spec gives whatever else is wrong. */
  beforeParsing?: (query: QueryParams) => void;
}

/** The cache key a query last built, and what it was built from. */
interface BuiltKey {
  merchant: string;
  path: string;
  canonical: string;
  versions: string;
  key: string;
}

/**
 * Per query as QueryMemo keeps it (its derived value), the cache key it last
 * built (not for bust_cache, whose query is not kept): while its parts are the
 * same strings (the merchant's id, the path and the canonical parameters are
 * the very same objects each time), a hit takes that very key, whose hash V8
 * keeps, rather than a new one joined and hashed again by the cache's lookup
 * (8% of a static hit's time on the HTTP thread).
 */
const builtKeys = new WeakMap<object, BuiltKey>();
/** A built key's bytes beyond its canonical parameters (merchant id, path, versions), and its record. */
const BUILT_KEY_EXTRA = 160;

/**
 * `${merchant}|${path}|${canonical}|${versions}`: the string built last time
 * for this query when its parts are the same (query null: one not kept, built afresh).
 */
function cacheKeyOf(query: object | null, merchant: string, path: string, canonical: string, versions: string): string {
  const built = query === null ? undefined : builtKeys.get(query);
  if (
    built !== undefined &&
    built.merchant === merchant &&
    built.path === path &&
    built.canonical === canonical &&
    built.versions === versions
  )
    return built.key;
  const key = `${merchant}|${path}|${canonical}|${versions}`;
  if (query !== null) builtKeys.set(query, { merchant, path, canonical, versions, key });
  return key;
}

/** What every product endpoint reads itself, whichever of them it is; the plan reads the rest. */
interface CommonParams {
  key: string | undefined;
  format: boolean;
  bustCache: boolean;
}

type AnyParams = Readonly<Record<string, ParamValue | undefined>>;

function keyParam(params: AnyParams): string | undefined {
  return typeof params.key === "string" ? params.key : undefined;
}

function commonParams(params: AnyParams): CommonParams {
  return {
    key: keyParam(params),
    format: params.format === true,
    bustCache: params.bust_cache === true,
  };
}

/** A request's query as the endpoint reads it: shared by every request with the same query text (see QueryMemo). */
interface ReadQuery<Params> {
  params: Params;
  common: CommonParams;
  /** canonicalParams of `params`: the request's part of the cache key. */
  canonical: string;
}

/**
 * One-shot where this Node has it (20.12 on; engines admit any Node 20): a
 * Hash object per cached miss cost about twice as much. A namespace import,
 * since a named import of a missing export would fail to load on an older 20.
 */
const sha256Base64url: (text: string) => string =
  typeof crypto.hash === "function"
    ? (text) => crypto.hash("sha256", text, "base64url")
    : (text) => crypto.createHash("sha256").update(text).digest("base64url");

/** The cache key as clients see it: stable and opaque (it embeds nothing of the request). */
function opaqueKey(cacheKey: string): string {
  return sha256Base64url(cacheKey).slice(0, 32);
}

/**
 * The shared shape of every product endpoint: validate, authenticate, then
 * answer from the response cache or compute in the pool (see cachedTask).
 */
export function productEndpoint<Defs extends readonly ParamDef[]>(
  services: Services,
  endpoint: EndpointDef<Defs>,
  plan: (params: ParsedParams<Defs>, merchant: Merchant, request: RequestInfo) => ProductPlan,
  options: ProductEndpointOptions<ParsedParams<Defs>> = {},
): Route {
  const { store } = services;
  const merchantOf = options.merchantOf ?? ((params: ParsedParams<Defs>) => merchantForKey(store, keyParam(params)));
  const queries = new QueryMemo<ReadQuery<ParsedParams<Defs>>>(
    (query) => {
      const params = parseQueryParams(endpoint, query);
      return { params, common: commonParams(params), canonical: canonicalParams(endpoint.params, params) };
    },
    // The text, the canonical form, and the parsed values (about the text's size again), in one-byte strings; and
    // the cache key last built from it (builtKeys: the canonical form with the merchant, path and versions).
    (text, read) => 2 * text.length + 2 * read.canonical.length + BUILT_KEY_EXTRA,
  );
  return {
    method: endpoint.method,
    pattern: endpoint.path,
    cors: true,
    readsBody: false,
    errorStyle: endpoint.errorStyle,
    limit: {
      rateClass: options.rateClass ?? "product_reads",
      subjectOf: (request) => keySubject(store, request.query.get("key")?.trim() || null),
    },
    handle(request) {
      options.beforeParsing?.(request.query);
      const query = queries.get(request.rawQuery, request.query);
      const { params, common, canonical } = query.value;
      const { format: pretty, bustCache } = common;
      const merchant = merchantOf(params);
      if (merchant === null) return jsonReply(200, { data: [] }, pretty);
      const { task, dependsOn, versionTag = "", ttlMs, cacheInfo = false, cacheable = true } = plan(params, merchant, request);
      if (!cacheable) return cachedTask(services, { task, cacheKey: null, request });
      // Asked again, this query may be a cache hit (unless it busts the cache): worth not deriving again.
      if (!query.known && !bustCache) queries.keep(request.rawQuery, query.value);
      const versions = dependsOn.map((domain) => store.recentVersions.of(merchant.id, domain)).join(".");
      const cacheKey = cacheKeyOf(bustCache ? null : query.value, merchant.id, endpoint.path, canonical, `v${versions}|${versionTag}`);
      // A miss stamps twice (its answer, and the cached copy): the key is hashed once.
      let shownKey: string | undefined;
      const cacheInfoOf = (cachedAt: string) => ({
        cache_info: { cache_key: (shownKey ??= opaqueKey(cacheKey)), cached_at_time: cachedAt },
      });
      return cachedTask(services, {
        task,
        cacheKey,
        bypassCache: bustCache,
        request,
        ...(ttlMs === undefined ? {} : { ttlMs }),
        ...(cacheInfo
          ? { stamp: (computed, cachedAt, out) => withTopLevelField(computed, "metadata", cacheInfoOf(cachedAt), pretty, out) }
          : {}),
      });
    },
  };
}
