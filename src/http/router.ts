import type { ErrorStyle } from "../core/api/endpoints.js";
import type { Abandonment } from "../pool/abandonment.js";
import type { QueryParams } from "../core/params/query.js";
import type { RouteLimit } from "./rate-limiting.js";
import type { Reply } from "./respond.js";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Everything a handler may use, copied out of uWS's request before any await. */
export interface RequestInfo {
  method: string;
  path: string;
  /** The query string as sent, without its '?': what a route may key work derived from the query alone by. */
  rawQuery: string;
  query: QueryParams;
  /** The route's `readsHeaders` that the request carries, by lower-case name. */
  headers: Record<string, string>;
  body: Uint8Array | null;
  /** Values of `:name` segments of the route pattern. */
  params: Record<string, string>;
  /**
   * Set by a route that hands the request to the pool (cached-task.ts): the server abandons it when the
   * client goes away before its answer. A plain field, null until then: most answers are written at once.
   */
  abandonment?: Abandonment | null;
}

export interface Route {
  method: Method;
  pattern: string;
  /** Called from storefront browsers: answer with CORS headers. */
  cors: boolean;
  readsBody: boolean;
  /** The largest body this route reads (default: the server's); checked before reading, and while reading a chunked one. */
  maxBodyBytes?: number;
  /**
   * Request headers the handler reads (lower case). Only these are copied out
   * of uWS's request, not every header a browser sends with each call.
   */
  readsHeaders?: readonly string[];
  errorStyle: ErrorStyle;
  /** The rate limit the request counts against, checked before `handle` (and before a body is read). */
  limit?: RouteLimit;
  handle(request: RequestInfo): Reply | Promise<Reply>;
}

export type Match = { route: Route; params: Record<string, string> } | { allowed: Method[] } | null;

interface CompiledRoute {
  route: Route;
  segments: string[];
}

/** No `:params`: shared by every match of an exact route, never written to. */
const NO_PARAMS: Record<string, string> = Object.freeze({});

/** Exact paths by map lookup; patterns with `:params` by segment comparison. */
export class Router {
  /** Per exact path, per method: the match, built once (the hot path allocates nothing). */
  private readonly exact = new Map<string, Map<string, { route: Route; params: Record<string, string> }>>();
  private readonly patterns: CompiledRoute[] = [];

  constructor(routes: readonly Route[]) {
    for (const route of routes) {
      if (route.pattern.includes(":")) {
        this.patterns.push({ route, segments: route.pattern.split("/") });
      } else {
        const byMethod = this.exact.get(route.pattern) ?? new Map();
        if (!byMethod.has(route.method)) byMethod.set(route.method, { route, params: NO_PARAMS });
        this.exact.set(route.pattern, byMethod);
      }
    }
  }

  match(method: string, path: string): Match {
    const normalised = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
    const exact = this.exact.get(normalised);
    const exactHit = exact?.get(method);
    // An exact path wins over a pattern that also fits it.
    if (exactHit) return exactHit;
    const candidates: { route: Route; params: Record<string, string> }[] = [...(exact?.values() ?? [])];
    const segments = normalised.split("/");
    for (const compiled of this.patterns) {
      const params = matchSegments(compiled.segments, segments);
      if (params) candidates.push({ route: compiled.route, params });
    }
    if (candidates.length === 0) return null;
    const hit = candidates.find(({ route }) => route.method === method);
    return hit ?? { allowed: [...new Set(candidates.map(({ route }) => route.method))] };
  }
}

function matchSegments(pattern: string[], path: string[]): Record<string, string> | null {
  if (pattern.length !== path.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i]!;
    const actual = path[i]!;
    if (expected.startsWith(":")) {
      if (actual === "") return null;
      try {
        params[expected.slice(1)] = decodeURIComponent(actual);
      } catch {
        return null;
      }
    } else if (expected !== actual) {
      return null;
    }
  }
  return params;
}
