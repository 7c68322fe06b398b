// Token buckets per subject (a merchant's key, the admin token, a webhook's
// merchant) and class of endpoint: a bucket holds up to `burst` requests and
// refills at `perSecond`. Pure: the caller passes the clock.

/** Endpoint classes with limits of their own: a flood of one does not starve another. */
export const RATE_CLASSES = ["product_reads", "customer_reads", "events", "search", "admin", "webhooks"] as const;
export type RateClass = (typeof RATE_CLASSES)[number];

export interface RateLimit {
  perSecond: number;
  burst: number;
}

/** null: no limit for that class. */
export type RateLimits = Record<RateClass, RateLimit | null>;

/**
 * Sized for a real storefront, where every shopper of a shop shares its public
 * key: a busy shop's page views call a few widgets each and every keystroke
 * searches. Customer records (purchased) are read far more rarely, and their
 * ids are guessable: a low limit brakes enumeration.
 */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  product_reads: { perSecond: 2_000, burst: 4_000 },
  customer_reads: { perSecond: 20, burst: 100 },
  events: { perSecond: 2_000, burst: 4_000 },
  search: { perSecond: 1_000, burst: 2_000 },
  admin: { perSecond: 200, burst: 1_000 },
  webhooks: { perSecond: 100, burst: 1_000 },
};

export interface Verdict {
  allowed: boolean;
  limit: number;
  /** Whole requests left in the bucket after this one. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until one request is allowed (0 when this one was). */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets kept at most; beyond this the oldest goes (a forgotten bucket starts full, so only idle subjects should age out). */
const MAX_BUCKETS = 100_000;

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  take(rateClass: RateClass, subject: string, limit: RateLimit, nowMs: number): Verdict {
    const key = `${rateClass}\u0000${subject}`;
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      if (this.buckets.size >= MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value!);
      bucket = { tokens: limit.burst, at: nowMs };
      this.buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(limit.burst, bucket.tokens + ((nowMs - bucket.at) / 1000) * limit.perSecond);
    bucket.at = nowMs;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    return {
      allowed,
      limit: limit.burst,
      remaining: Math.floor(bucket.tokens),
      resetSeconds: Math.ceil((limit.burst - bucket.tokens) / limit.perSecond),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / limit.perSecond)),
    };
  }
}
