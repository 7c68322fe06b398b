// Shopping behaviour shared by orders and browsing sessions: the latent
// structure both are drawn from (bundles, rising products, daily volume), when
// in a day people shop, and how one product leads to the next.

import type { Rng } from "../core/random.js";
import { APPAREL, BUNDLE_TEMPLATES, HOME, OUTDOOR, STYLES, TYPES } from "./catalogue-vocabulary.js";
import type { Catalogue } from "./catalogue.js";
import type { CustomerPool } from "./customers.js";
import { DAY_S, type Config } from "./options.js";
import { at, Sampler, stream } from "./random.js";

/** Rising products ramp up over the window's last two weeks. */
const RISING_WINDOW_DAYS = 14;

/** The latent structure both orders and browsing sessions are drawn from. */
export interface Shopper {
  cfg: Config;
  catalogue: Catalogue;
  customers: CustomerPool;
  global: Sampler;
  byDept: Sampler[];
  byType: Sampler[];
  /** [type][style] → sellable product indices. */
  byTypeStyle: number[][][];
  /** Product indices, one per bundle template type, same style. */
  bundles: number[][];
  bundlesOf: Map<number, number[]>;
  bundleSampler: Sampler;
  rising: number[];
  /** Per-day volume multiplier (weekday, trend, noise), shared by orders and sessions. */
  dayFactor: number[];
}

export function buildShopper(cfg: Config, catalogue: Catalogue, customers: CustomerPool): Shopper {
  const rng = stream(cfg.seed, "structure");
  const { type, style } = catalogue;
  const weight = (i: number): number => catalogue.weight[i] ?? 0;
  // One pass groups sellable products by type × style; type and department lists derive from it.
  const sellable: number[] = [];
  const byTypeStyle = TYPES.map(() => STYLES.map((): number[] => []));
  const byType = TYPES.map((): number[] => []);
  const byDept = [APPAREL, OUTDOOR, HOME].map((): number[] => []);
  for (let i = 0; i < catalogue.ids.length; i++) {
    if (catalogue.sellable[i] !== 1) continue;
    const t = type[i] ?? 0;
    sellable.push(i);
    at(at(byTypeStyle, t), style[i] ?? 0).push(i);
    at(byType, t).push(i);
    at(byDept, at(TYPES, t).dept).push(i);
  }

  const bundles = buildBundles(cfg, rng, byTypeStyle);
  const bundlesOf = new Map<number, number[]>();
  bundles.forEach((members, b) => {
    for (const p of members) bundlesOf.set(p, [...(bundlesOf.get(p) ?? []), b]);
  });
  // A bundle sells in proportion to how popular its members are, times its own appeal.
  const appeal = bundles.map((members) => members.reduce((sum, p) => sum + weight(p), 0) * (0.5 + rng.next()));

  return {
    cfg,
    catalogue,
    customers,
    global: new Sampler(sellable, weight),
    byDept: byDept.map((list) => new Sampler(list, weight)),
    byType: byType.map((list) => new Sampler(list, weight)),
    byTypeStyle,
    bundles,
    bundlesOf,
    bundleSampler: new Sampler(
      bundles.map((_, b) => b),
      (b) => at(appeal, b),
    ),
    rising: pickRising(cfg, rng, catalogue, sellable),
    dayFactor: dayFactors(cfg, rng),
  };
}

/** About one bundle per six products; each takes one product per template type in a single style. */
function buildBundles(cfg: Config, rng: Rng, byTypeStyle: number[][][]): number[][] {
  const typeIndex = new Map(TYPES.map((t, i) => [t.name, i]));
  const target = Math.max(4, Math.round(cfg.products / 6));
  const bundles: number[][] = [];
  const seen = new Set<string>();
  for (let attempt = 0; attempt < target * 3 && bundles.length < target; attempt++) {
    const template = at(BUNDLE_TEMPLATES, rng.weighted(BUNDLE_TEMPLATES.map((t) => t.weight)));
    const style = rng.int(0, STYLES.length - 1);
    const members: number[] = [];
    for (const name of template.types) {
      const pool = at(at(byTypeStyle, typeIndex.get(name) ?? -1), style);
      if (pool.length > 0) members.push(rng.pick(pool));
    }
    const key = [...members].sort((a, b) => a - b).join(",");
    if (members.length < 2 || seen.has(key)) continue;
    seen.add(key);
    bundles.push(members);
  }
  return bundles;
}

/**
 * Eight mid-tail, in-stock products that existed well before the ramp: a trending
 * detector has to notice growth, not just newness or a best seller.
 */
function pickRising(cfg: Config, rng: Rng, catalogue: Catalogue, sellable: number[]): number[] {
  const { weight, outOfStock, createdS } = catalogue;
  const byWeight = [...sellable].sort((a, b) => (weight[b] ?? 0) - (weight[a] ?? 0) || a - b);
  const from = Math.floor(byWeight.length * 0.1);
  const to = Math.max(from + 1, Math.floor(byWeight.length * 0.5));
  // Old enough to have sales before the ramp to compare against.
  const established = (i: number): boolean => outOfStock[i] === 0 && (createdS[i] ?? Infinity) < cfg.nowS - 35 * DAY_S;
  const candidates = byWeight.slice(from, to).filter(established);
  return rng.shuffle(candidates).slice(0, 8);
}

/** Weekends busier, gentle growth over the window, ±10% day-to-day noise. */
function dayFactors(cfg: Config, rng: Rng): number[] {
  const weekday = [1.15, 0.9, 0.92, 0.95, 1.0, 1.05, 1.2]; // Sun..Sat
  return Array.from({ length: cfg.days }, (_, d) => {
    const dow = new Date((cfg.windowStartS + d * DAY_S + DAY_S / 2) * 1000).getUTCDay();
    const trend = 0.9 + (0.2 * d) / Math.max(1, cfg.days - 1);
    return at(weekday, dow) * trend * (0.9 + 0.2 * rng.next());
  });
}

/** Share of orders/sessions that go to a rising product: 0 before the ramp, climbing to 30%. */
function risingShare(cfg: Config, tS: number): number {
  const rampStart = cfg.nowS - RISING_WINDOW_DAYS * DAY_S;
  if (tS < rampStart) return 0;
  return 0.3 * Math.pow((tS - rampStart) / (RISING_WINDOW_DAYS * DAY_S), 1.5);
}

/** Orders come mostly in North American evenings (UTC hours). */
const HOURLY = [
  1.0, 1.0, 0.95, 0.85, 0.65, 0.45, 0.3, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.85, 0.9, 0.9, 0.9, 0.95, 1.0, 1.0, 1.0,
];

/**
 * `total` moments (seconds) spread over the window's days by the day factors,
 * a day at a time: each day's sorted, drawn only when the caller asks for that
 * day, so what the caller draws in between stays in the same place in `rng`'s stream.
 */
export function* timesByDay(cfg: Config, s: Shopper, rng: Rng, total: number): Generator<number[], void, undefined> {
  for (const [d, count] of perDayCounts(s.dayFactor, total).entries()) {
    yield Array.from({ length: count }, () => timeInDay(cfg, rng, d)).sort((a, b) => a - b);
  }
}

/** A second in day slot d of the window, shaped by time of day (rejection sampling). */
function timeInDay(cfg: Config, rng: Rng, d: number): number {
  const lo = cfg.windowStartS + d * DAY_S;
  const hi = Math.min(lo + DAY_S - 1, cfg.nowS);
  let t = lo;
  for (let tries = 0; tries < 20; tries++) {
    t = rng.int(lo, hi);
    if (rng.next() < at(HOURLY, Math.floor((t % DAY_S) / 3600))) return t;
  }
  return t;
}

/** Splits `total` across days in proportion to the day factors, exactly (largest remainder). */
function perDayCounts(factors: number[], total: number): number[] {
  const sum = factors.reduce((a, b) => a + b, 0);
  const raw = factors.map((f) => (total * f) / sum);
  const counts = raw.map(Math.floor);
  let left = total - counts.reduce((a, b) => a + b, 0);
  const order = raw.map((r, i) => [r - Math.floor(r), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left-- <= 0) break;
    counts[i] = at(counts, i) + 1;
  }
  return counts;
}

/** Only products that existed at time t can be bought or viewed then. */
export function existed(s: Shopper, p: number, tS: number): boolean {
  return p >= 0 && (s.catalogue.createdS[p] ?? Infinity) <= tS;
}

export function pickPopular(s: Shopper, rng: Rng, tS: number, sampler: Sampler = s.global): number {
  for (let tries = 0; tries < 8; tries++) {
    const p = sampler.sample(rng);
    if (existed(s, p, tS)) return p;
  }
  return -1;
}

/** A popular product; for a known customer, 40% of the time one from the department they lean to. */
export function pickForCustomer(s: Shopper, rng: Rng, tS: number, customer: number): number {
  const leaning = customer >= 0 && rng.chance(0.4);
  return pickPopular(s, rng, tS, leaning ? at(s.byDept, at(s.customers.dept, customer)) : s.global);
}

/** Another member of one of p's bundles: the co-purchase / co-view signal. */
export function pickComplement(s: Shopper, rng: Rng, p: number, tS: number): number {
  const bundles = s.bundlesOf.get(p);
  if (!bundles) return -1;
  const others = at(s.bundles, rng.pick(bundles)).filter((q) => q !== p);
  if (others.length === 0) return -1;
  const q = rng.pick(others);
  return existed(s, q, tS) ? q : -1;
}

/** Same type, half the time also the same style (shoppers compare alternatives). */
export function pickSimilar(s: Shopper, rng: Rng, p: number, tS: number): number {
  const type = s.catalogue.type[p] ?? 0;
  if (rng.chance(0.5)) {
    const pool = at(at(s.byTypeStyle, type), s.catalogue.style[p] ?? 0);
    const q = rng.pick(pool);
    return q !== p && existed(s, q, tS) ? q : -1;
  }
  const q = pickPopular(s, rng, tS, at(s.byType, type));
  return q !== p ? q : -1;
}

/** During the ramp, a growing share of baskets and sessions start from a rising product. */
export function pickRisingProduct(s: Shopper, rng: Rng, tS: number): number {
  if (s.rising.length === 0 || !rng.chance(risingShare(s.cfg, tS))) return -1;
  return rng.pick(s.rising);
}
