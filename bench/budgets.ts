// The one place for performance budgets. Every figure the report compares
// against a budget reads its limit from here, so changing a budget is a
// one-line diff that reviewers can see. Budgets are targets for the report,
// never assertions: `npm test` has no timing checks (DESIGN §9).

/** Units a budget is stated in; the measured figure is converted to the same unit before comparing. */
export type Unit = "µs" | "ms" | "s" | "MB" | "× ceiling" | "events/s";

export interface Budget {
  /** "max": the figure must not exceed the limit; "min": it must reach it. */
  readonly bound: "max" | "min";
  readonly limit: number;
  readonly unit: Unit;
  /** Why this number: what it protects. */
  readonly why: string;
}

export const BUDGETS = {
  staticHitP99: {
    bound: "max",
    limit: 1,
    unit: "ms",
    why: "a cache hit only writes cached bytes on the uWS thread; a storefront renders several lists per page view",
  },
  staticHitThroughput: {
    bound: "min",
    limit: 0.5,
    unit: "× ceiling",
    why: "share of a raw uWS server's req/s for the same bytes, measured in the same run (a ratio survives noisy machines)",
  },
  staticMissP99: {
    bound: "max",
    limit: 5,
    unit: "ms",
    why: "a miss is one pool hop plus five product reads, projection and JSON; it must stay invisible on a page view",
  },
  recommendedHitP99: {
    bound: "max",
    limit: 1,
    unit: "ms",
    why: "a recommended hit takes the same path as a static hit (parse, key, cache get, write): no reason to cost more",
  },
  recommendedMissP99: {
    bound: "max",
    limit: 5,
    unit: "ms",
    why: "a product page asks for recommendations on every view; a recompute (pool hop, neighbour lists, fallbacks, render) must stay invisible",
  },
  trendingMissP99: {
    bound: "max",
    limit: 5,
    unit: "ms",
    why: "trending expires by age, so every merchant pays a recompute every few minutes per parameter set, under whatever load there is",
  },
  eventIngestThroughput: {
    bound: "min",
    limit: 30_000,
    unit: "events/s",
    why: "the issue's target: every storefront page view posts an event, and each is acknowledged only once LMDB has committed it (p99 reported beside it)",
  },
  topSellersMissP99: {
    bound: "max",
    limit: 5,
    unit: "ms",
    why: "as trending: a recompute per parameter set (collection, window) whenever the cached list ages out",
  },
  rankingDemoP99: {
    bound: "max",
    limit: 1,
    unit: "ms",
    why: "ranking + render in the worker for a demo-sized shop (3k products): the pool hop and HTTP must keep most of the 5 ms miss budget",
  },
  rankingScaleP99: {
    bound: "max",
    limit: 5,
    unit: "ms",
    why: "the same work at 100k products / 340k orders: a large shop must still fit the cache-miss budget",
  },
  orderUpdateP99: {
    bound: "max",
    limit: 5,
    unit: "ms",
    why: "one order written with its sales and bought-together update, committed: webhooks arrive one order at a time and are acked after the commit",
  },
  searchKeystrokeP99: {
    bound: "max",
    limit: 2,
    unit: "ms",
    why: "quick-view search answers every keystroke; the worker's share (index catch-up, ranking over 54k products, render) must leave the keystroke room for the hop and HTTP",
  },
  poolRoundTripP50: {
    bound: "max",
    limit: 150,
    unit: "µs",
    why: "0.15 ms: the hop must stay cheap enough that moving work off the uWS thread pays",
  },
  similarBuildDemo: {
    bound: "max",
    limit: 10,
    unit: "s",
    why: "the issue: training takes seconds for thousands of products; the demo's model is built during the first start",
  },
  similarBuildScale: {
    bound: "max",
    limit: 120,
    unit: "s",
    why: "a 100k-product shop retrains in the background; minutes would leave new products on the text-only path too long",
  },
  similarEmbedP99: {
    bound: "max",
    limit: 500,
    unit: "µs",
    why: "embedding a search query sits on the request path of the semantic fallback; PERFORMANCE-NOTES expects tens of µs for a model this small",
  },
  similarRefreshP99: {
    bound: "max",
    limit: 50,
    unit: "ms",
    why: "a product edit re-embeds it and patches the lists it reaches in the background; a bulk edit of hundreds must finish in seconds",
  },
  demoSeed: {
    bound: "max",
    limit: 5,
    unit: "s",
    why: "a first `npm start` seeds the demo; a newcomer should not wait",
  },
  coldStart: {
    bound: "max",
    limit: 8,
    unit: "s",
    why: "spawn to a healthz answer on an empty data dir, demo seed included: restarts and first runs",
  },
  rssAfterStart: {
    bound: "max",
    limit: 400,
    unit: "MB",
    why: "one uWS thread, the worker pool and the LMDB map must fit small boxes",
  },
} as const satisfies Record<string, Budget>;

export type BudgetName = keyof typeof BUDGETS;

export type Verdict = "pass" | "over";

export function verdict(budget: Budget, value: number): Verdict {
  return (budget.bound === "max" ? value <= budget.limit : value >= budget.limit) ? "pass" : "over";
}

export function describeBudget(budget: Budget): string {
  return `${budget.bound === "max" ? "≤" : "≥"} ${budget.limit.toLocaleString("en-US")} ${budget.unit}`;
}
