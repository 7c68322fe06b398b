// Rate limits, checked on this thread before a route does any work: a token
// bucket per subject (a merchant's key, the admin token, a webhook's merchant)
// and class of endpoint. Over the limit is a 429 in the endpoint's own error
// shape, saying when to retry.
import { TokenBuckets, type RateClass, type RateLimits } from "../core/rate-limit.js";
import type { Merchant } from "../core/types.js";
import { ApiError } from "../errors.js";
import type { Store } from "../stores/store.js";
import { merchantForKey } from "./auth.js";
import { errorReply, type Reply } from "./respond.js";
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

export class RateLimiting {
  private readonly buckets = new TokenBuckets();

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
    const error = new ApiError(
      "too_many_requests",
      `Over the ${rateClass} rate limit of ${limit.perSecond} requests a second (bursts of ${limit.burst}); retry in ${verdict.retryAfterSeconds} s`,
    );
    return errorReply(error, route.errorStyle, request.query.get("format") === "pretty", {
      "Retry-After": String(verdict.retryAfterSeconds),
      "RateLimit-Limit": String(verdict.limit),
      "RateLimit-Remaining": String(verdict.remaining),
      "RateLimit-Reset": String(verdict.resetSeconds),
    });
  }
}
