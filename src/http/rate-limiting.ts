// Rate limits, checked on this thread before a route does any work: a token
// bucket per subject (a merchant's key, the admin token, a webhook's merchant)
// and class of endpoint. Over the limit is a 429 in the endpoint's own error
// shape, saying when to retry.
import { TokenBuckets, type RateClass, type RateLimit, type RateLimits, type Verdict } from "../core/rate-limit.js";
import type { ErrorStyle } from "../core/api/endpoints.js";
import type { Merchant } from "../core/types.js";
import { ApiError } from "../errors.js";
import type { Store } from "../stores/store.js";
import { merchantForKey } from "./auth.js";
import { encodeReply, errorReply, type Reply } from "./respond.js";
import type { RequestInfo, Route } from "./router.js";

/** Who a request counts against, with that subject's own limits where it has them. */
export interface RateSubject {
  id: string;
  own?: Partial<RateLimits> | undefined;
}

export interface RouteLimit {
  rateClass: RateClass;
  /** null: the request counts against no one (the route itself refuses it, e.g. an unknown webhook merchant). */
  subjectOf(request: RequestInfo): RateSubject | null;
}

/** A storefront request counts against its key's merchant; one without a key, against every keyless request. */
export function keySubject(store: Store, key: string | null): RateSubject {
  if (key === null) return { id: "keyless" };
  return merchantSubject(merchantForKey(store, key));
}

export function merchantSubject(merchant: Merchant): RateSubject {
  return { id: merchant.id, own: merchant.rate_limits };
}

/**
 * Distinct refusals kept. Their variety is small (a class, its limit, the
 * seconds of Retry-After and RateLimit-Reset, the error shape); the bound only
 * matters if merchants' own limits come in thousands of kinds.
 */
const MAX_REFUSALS = 1_000;

export class RateLimiting {
  private readonly buckets = new TokenBuckets();
  /**
   * 429 answers by everything they say, encoded once: a flooding key is
   * refused tens of thousands of times a second with the same bytes, and
   * building each (an error, its JSON, header strings) cost more of this
   * thread than looking the bucket up.
   */
  private readonly refusals = new Map<string, Reply>();

  constructor(
    private readonly limits: RateLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** null: within the limits (or none apply); otherwise the 429 to answer. */
  check(route: Route, request: RequestInfo): Reply | null {
    if (!route.limit) return null;
    const { rateClass } = route.limit;
    const subject = route.limit.subjectOf(request);
    if (subject === null) return null;
    const own = subject.own?.[rateClass];
    const limit = own === undefined ? this.limits[rateClass] : own;
    if (limit === null) return null;
    const verdict = this.buckets.take(rateClass, subject.id, limit, this.now());
    if (verdict.allowed) return null;
    return this.refusal(rateClass, limit, verdict, route.errorStyle, request.query.get("format") === "pretty");
  }

  private refusal(rateClass: RateClass, limit: RateLimit, verdict: Verdict, style: ErrorStyle, pretty: boolean): Reply {
    const key = `${rateClass} ${limit.perSecond} ${verdict.limit} ${verdict.remaining} ${verdict.resetSeconds} ${verdict.retryAfterSeconds} ${style} ${pretty}`;
    let reply = this.refusals.get(key);
    if (reply === undefined) {
      const error = new ApiError(
        "too_many_requests",
        `Over the ${rateClass} rate limit of ${limit.perSecond} requests a second (bursts of ${limit.burst}); retry in ${verdict.retryAfterSeconds} s`,
      );
      reply = encodeReply(
        errorReply(error, style, pretty, {
          "Retry-After": String(verdict.retryAfterSeconds),
          "RateLimit-Limit": String(verdict.limit),
          "RateLimit-Remaining": String(verdict.remaining),
          "RateLimit-Reset": String(verdict.resetSeconds),
        }),
      );
      if (this.refusals.size >= MAX_REFUSALS) this.refusals.clear();
      this.refusals.set(key, reply);
    }
    return reply;
  }
}
