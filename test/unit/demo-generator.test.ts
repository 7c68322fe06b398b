import { createHash } from "node:crypto";
import { describe, it, expect } from "vitest";
import {
  generateDemo,
  generateDemoStream,
  generateDemoWithTruth,
  type DemoData,
  type DemoOptions,
  type DemoOrder,
} from "../../src/demo/generator.js";

// A fixed clock with milliseconds, so the window edges are exercised.
const NOW = new Date("2026-08-23T14:05:09.456Z");
const DAY_MS = 86_400_000;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
const MONEY = /^\d+\.\d{2}$/;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const SMALL = { seed: 7, products: 300, customers: 300, now: NOW } as const;
const small = generateDemoWithTruth(SMALL);

// One run at the default size: ratios are checked where the sample is large enough to be stable.
const full = generateDemoWithTruth({ now: NOW });

const ms = (timestamp: string): number => Date.parse(timestamp);
const share = (part: number, whole: number): number => part / whole;

function expectUnique(values: readonly (number | string)[], what: string): void {
  expect(new Set(values).size, `${what} unique`).toBe(values.length);
}

function expectIds(values: readonly number[], what: string): void {
  expectUnique(values, what);
  for (const id of values) expect(Number.isSafeInteger(id) && id > 0, `${what} ${id}`).toBe(true);
}

/** Orders per period for a set of products, by line. */
function linesBetween(orders: DemoOrder[], productIds: Set<number>, fromMs: number, toMs: number): number {
  let n = 0;
  for (const o of orders) {
    const t = ms(o.created_at);
    if (t < fromMs || t >= toMs) continue;
    for (const line of o.line_items) if (productIds.has(line.product_id)) n++;
  }
  return n;
}

/**
 * Lift of a set of product pairs: baskets holding both, over what independent
 * choice would give (sum of count(a)·count(b)/N). 1 means no association.
 */
function pairLift(orders: DemoOrder[], pairs: readonly (readonly [number, number])[]): number {
  const counts = new Map<number, number>();
  const together = new Map<string, number>();
  for (const o of orders) {
    const items = [...new Set(o.line_items.map((l) => l.product_id))].sort((a, b) => a - b);
    for (const p of items) counts.set(p, (counts.get(p) ?? 0) + 1);
    for (let i = 0; i < items.length; i++) {
      for (let j = i + 1; j < items.length; j++) {
        const key = `${items[i]}:${items[j]}`;
        together.set(key, (together.get(key) ?? 0) + 1);
      }
    }
  }
  let observed = 0;
  let expected = 0;
  for (const [a, b] of pairs) {
    const [x, y] = a < b ? [a, b] : [b, a];
    observed += together.get(`${x}:${y}`) ?? 0;
    expected += ((counts.get(a) ?? 0) * (counts.get(b) ?? 0)) / orders.length;
  }
  return observed / expected;
}

function bundlePairs(bundles: number[][]): [number, number][] {
  const pairs: [number, number][] = [];
  for (const members of bundles) {
    for (let i = 0; i < members.length; i++) {
      for (let j = i + 1; j < members.length; j++) pairs.push([members[i] ?? 0, members[j] ?? 0]);
    }
  }
  return pairs;
}

/** Deterministic pseudo-random pairs that are not bundle pairs. */
function randomPairs(data: DemoData, exclude: [number, number][], count: number): [number, number][] {
  const ids = data.products.map((p) => p.id);
  const excluded = new Set(exclude.map(([a, b]) => `${Math.min(a, b)}:${Math.max(a, b)}`));
  const pairs: [number, number][] = [];
  for (let k = 1; pairs.length < count && k < count * 10; k++) {
    const a = ids[(k * 7919) % ids.length] ?? 0;
    const b = ids[(k * 104_729 + 13) % ids.length] ?? 0;
    if (a !== b && !excluded.has(`${Math.min(a, b)}:${Math.max(a, b)}`)) pairs.push([a, b]);
  }
  return pairs;
}

/**
 * sha256 of JSON.stringify(generateDemoWithTruth(options)), computed once from
 * the generator and pinned: demo data, tests and evals depend on exact output,
 * so a refactor of the generator must leave every byte alone. Regenerate only
 * for a deliberate change to the demo shop.
 */
const GOLDEN: readonly { name: string; options: DemoOptions; sha256: string }[] = [
  { name: "the default sizes", options: { now: NOW }, sha256: "1206aef91527b8f27e816f9173286e1a6df98c517b2b41a026af46b063a79bb7" },
  {
    name: "300 products, 200 customers",
    options: { products: 300, customers: 200, now: NOW },
    sha256: "1aad5e785fcc974939dd64150a3e1effc2c37b9b1ad6b4ee20a960d72dd1b971",
  },
  {
    name: "2,000 products, 1,500 customers, another seed",
    options: { seed: 987_654_321, products: 2000, customers: 1500, now: NOW },
    sha256: "38ecdcff703e5c3903c4c26d1ceb90ae07b8d91088acee8c5674cc760d629601",
  },
  // A seed past 2^32 (the high half is mixed in), a shorter window, no sessions (what the scale bench asks for).
  {
    name: "a seed past 2^32, 30 days, no sessions",
    options: { seed: 2 ** 40 + 7, products: 400, customers: 300, days: 30, sessions: 0, now: NOW },
    sha256: "95812408467e27ac6ff7b31797cf102a9b64a7f910408a2c64f5ccdf1aafb74c",
  },
  // Sessions crowded into few days: many overlap day boundaries, run past now or are clamped to the window start.
  {
    name: "a tiny catalogue, 3 days of dense sessions",
    options: { seed: 3, products: 5, customers: 4, days: 3, sessions: 3000, now: NOW },
    sha256: "b6cf7e4c5278b781016b4e00eb678d2ea42cd4be773e0bea0c44feb2f9ec695b",
  },
  {
    name: "one product, one day",
    options: { seed: 11, products: 1, customers: 1, days: 1, sessions: 400, now: NOW },
    sha256: "1b0080a2523fe8b4789f106a0b244f6c40b24ea357b5d71f6005cedebb3133d1",
  },
];

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

describe("generateDemo golden output", () => {
  for (const { name, options, sha256: expected } of GOLDEN) {
    it(`is byte-identical for ${name}`, () => {
      expect(sha256(JSON.stringify(generateDemoWithTruth(options)))).toBe(expected);
    });
  }
});

describe("generateDemo determinism", () => {
  it("returns byte-identical JSON for the same seed, counts and clock", () => {
    expect(JSON.stringify(generateDemo(SMALL))).toBe(JSON.stringify(small.data));
  });

  it("changes with the seed and with the clock", () => {
    const json = JSON.stringify(small.data);
    expect(JSON.stringify(generateDemo({ ...SMALL, seed: 8 }))).not.toBe(json);
    expect(JSON.stringify(generateDemo({ ...SMALL, now: new Date(NOW.getTime() + DAY_MS) }))).not.toBe(json);
  });

  it("rejects nonsense sizes", () => {
    expect(() => generateDemo({ products: 0, now: NOW })).toThrow(RangeError);
    expect(() => generateDemo({ customers: 1.5, now: NOW })).toThrow(RangeError);
    expect(() => generateDemo({ now: new Date(Number.NaN) })).toThrow(RangeError);
  });
});

describe("generateDemoStream", () => {
  // Dense sessions over a few days: many run across day boundaries, where the streamed sort has to wait for the next day.
  const DENSE: DemoOptions = { seed: 5, products: 200, customers: 100, days: 4, sessions: 4000, now: NOW };

  it("reads orders and events in any interleaving, and again, as the arrays of generateDemo", () => {
    const { orders, events } = generateDemo(DENSE);
    const stream = generateDemoStream(DENSE);
    const streamedOrders: unknown[] = [];
    const streamedEvents: unknown[] = [];
    const orderReader = stream.orders[Symbol.iterator]();
    const eventReader = stream.events[Symbol.iterator]();
    // Alternate pulls: lazily generated parts must not disturb one another.
    for (let done = false; !done;) {
      const order = orderReader.next();
      const event = eventReader.next();
      if (!order.done) streamedOrders.push(order.value);
      if (!event.done) streamedEvents.push(event.value);
      done = Boolean(order.done && event.done);
    }
    expect(JSON.stringify(streamedOrders)).toBe(JSON.stringify(orders));
    expect(JSON.stringify(streamedEvents)).toBe(JSON.stringify(events));
    expect(JSON.stringify([...stream.events])).toBe(JSON.stringify(events));
  });

  it("yields the first events of a window too big to hold, without generating the rest", () => {
    // Seven million sessions: generating all their events (some 35 million) would take minutes and gigabytes.
    const { events } = generateDemoStream({ products: 300, customers: 50, days: 700, sessions: 7_000_000, now: NOW });
    const first: number[] = [];
    for (const event of events) {
      first.push(event.at);
      if (first.length === 5_000) break;
    }
    expect(first).toHaveLength(5_000);
    expect(first).toEqual([...first].sort((a, b) => a - b));
    expect(first[0]).toBeGreaterThanOrEqual(NOW.getTime() - 700 * DAY_MS);
  });
});

describe("generateDemo at the default size", () => {
  const { data, truth } = full;

  // Generation time is a benchmark figure (npm run bench), never a test assertion.
  it("has the documented volumes", () => {
    expect(data.products).toHaveLength(3000);
    expect(data.customers).toHaveLength(2000);
    const perDay = data.orders.length / 90;
    expect(perDay).toBeGreaterThan(130);
    expect(perDay).toBeLessThan(170);
    const sessions = new Set(data.events.map((e) => e.uuid)).size;
    expect(sessions).toBeGreaterThan(19_500);
    expect(sessions).toBeLessThanOrEqual(20_000);
  });

  it("has the documented catalogue ratios", () => {
    const n = data.products.length;
    const outOfStock = data.products.filter((p) =>
      p.variants.every((v) => v.inventory_quantity <= 0 && v.inventory_policy === "deny" && v.inventory_management === "platform"),
    );
    expect(share(outOfStock.length, n)).toBeGreaterThan(0.035);
    expect(share(outOfStock.length, n)).toBeLessThan(0.07);
    const drafts = data.products.filter((p) => p.published_at === null);
    expect(share(drafts.length, n)).toBeGreaterThan(0.018);
    expect(share(drafts.length, n)).toBeLessThan(0.045);
    for (const p of drafts) expect(p.status).toBe("draft");
    const excluded = data.products.filter((p) => p.tags.split(", ").includes("exclude_service"));
    expect(share(excluded.length, n)).toBeGreaterThan(0.01);
    expect(share(excluded.length, n)).toBeLessThan(0.03);
    expect(data.products.some((p) => p.variants.some((v) => v.inventory_policy === "continue"))).toBe(true);
    expect(data.products.some((p) => p.variants.some((v) => v.inventory_management === null))).toBe(true);
    const reviewed = data.products.filter((p) => p.metafields.some((m) => m.namespace === "reviews" && m.key === "rating"));
    expect(share(reviewed.length, n)).toBeGreaterThan(0.65);
    expect(share(reviewed.length, n)).toBeLessThan(0.75);
    expect(new Set(data.products.map((p) => p.product_type)).size).toBeGreaterThanOrEqual(12);
    const vendors = new Set(data.products.map((p) => p.vendor)).size;
    expect(vendors).toBeGreaterThanOrEqual(20);
    expect(vendors).toBeLessThanOrEqual(30);
    expect(data.products.some((p) => p.variants.length === 1 && p.options[0]?.name === "Title")).toBe(true);
    expect(Math.max(...data.products.map((p) => p.variants.length))).toBeGreaterThan(6);
  });

  it("has the documented order and session ratios", () => {
    const orders = data.orders.length;
    expect(share(data.orders.filter((o) => o.customer === null).length, orders)).toBeGreaterThan(0.12);
    expect(share(data.orders.filter((o) => o.customer === null).length, orders)).toBeLessThan(0.18);
    expect(share(data.orders.filter((o) => o.cancelled_at !== null).length, orders)).toBeGreaterThan(0.01);
    expect(share(data.orders.filter((o) => o.cancelled_at !== null).length, orders)).toBeLessThan(0.03);
    const sessions = new Map<string, number | null>();
    for (const e of data.events) sessions.set(e.uuid ?? "", e.customer_id);
    const linked = [...sessions.values()].filter((c) => c !== null).length;
    expect(share(linked, sessions.size)).toBeGreaterThan(0.08);
    expect(share(linked, sessions.size)).toBeLessThan(0.12);
  });

  it("sells every rising product more in the last 14 days than in the 14 before", () => {
    expect(truth.rising).toHaveLength(8);
    const now = NOW.getTime();
    for (const id of truth.rising) {
      const ids = new Set([id]);
      const recent = linesBetween(data.orders, ids, now - 14 * DAY_MS, now + 1);
      const before = linesBetween(data.orders, ids, now - 28 * DAY_MS, now - 14 * DAY_MS);
      expect(recent, `rising product ${id}`).toBeGreaterThan(2 * before);
    }
  });

  it("skews popularity: the top 10% of products take most of the sales", () => {
    const sold = new Map<number, number>();
    for (const o of data.orders) for (const l of o.line_items) sold.set(l.product_id, (sold.get(l.product_id) ?? 0) + 1);
    const counts = [...sold.values()].sort((a, b) => b - a);
    const total = counts.reduce((a, b) => a + b, 0);
    const top = counts.slice(0, Math.round(data.products.length * 0.1)).reduce((a, b) => a + b, 0);
    expect(share(top, total)).toBeGreaterThan(0.4);
  });
});

describe("generateDemo catalogue shape", () => {
  const { data } = small;
  const products = data.products;
  const now = NOW.getTime();

  it("uses distinct positive safe-integer ids per kind", () => {
    expectIds(
      products.map((p) => p.id),
      "product ids",
    );
    expectIds(
      products.flatMap((p) => p.variants.map((v) => v.id)),
      "variant ids",
    );
    expectIds(
      products.flatMap((p) => p.options.map((o) => o.id)),
      "option ids",
    );
    expectIds(
      products.flatMap((p) => p.images.map((i) => i.id)),
      "image ids",
    );
    expectIds(
      products.flatMap((p) => [...p.metafields, ...p.variants.flatMap((v) => v.metafields)].map((m) => m.id)),
      "metafield ids",
    );
    expectIds(
      data.collections.map((c) => c.id),
      "collection ids",
    );
    expectIds(
      data.customers.map((c) => c.id),
      "customer ids",
    );
    expectIds(
      data.customers.flatMap((c) => c.addresses.map((a) => a.id)),
      "address ids",
    );
    expectIds(
      data.orders.map((o) => o.id),
      "order ids",
    );
    expect(data.markets.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(data.merchant).toEqual({ id: "demo", name: expect.any(String), domain: "demo-outfitters.example", currency: "USD" });
  });

  it("gives unique slug handles and unique non-empty SKUs", () => {
    expectUnique(
      products.map((p) => p.handle),
      "handles",
    );
    for (const p of products) expect(p.handle).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    const skus = products.flatMap((p) => p.variants.map((v) => v.sku));
    expectUnique(skus, "skus");
    for (const sku of skus) expect(sku).not.toBe("");
  });

  it("builds consistent products, variants, options and images", () => {
    for (const p of products) {
      expect(p.body_html).toMatch(/^<p>.+<\/p>/);
      expect(p.tags.split(", ").every((t) => t.trim() === t && t !== "")).toBe(true);
      expect(p.variants.length).toBeGreaterThanOrEqual(1);
      expect(p.variants.length).toBeLessThanOrEqual(12);
      expect(p.images.length).toBeGreaterThanOrEqual(1);
      expect(p.images.length).toBeLessThanOrEqual(4);
      for (const stamp of [p.created_at, p.updated_at, p.published_at ?? p.created_at]) {
        expect(stamp).toMatch(TIMESTAMP);
        expect(ms(stamp)).toBeLessThanOrEqual(now);
      }
      expect(ms(p.updated_at)).toBeGreaterThanOrEqual(ms(p.created_at));
      const variantIds = new Set(p.variants.map((v) => v.id));
      p.variants.forEach((v, i) => {
        expect(v.position).toBe(i + 1);
        expect(v.price).toMatch(MONEY);
        if (v.compare_at_price !== null) expect(Number(v.compare_at_price)).toBeGreaterThan(Number(v.price));
        // Each option value belongs to the option at the same position.
        [v.option1, v.option2, v.option3].forEach((value, k) => {
          const option = p.options[k];
          if (option === undefined) expect(value).toBeNull();
          else expect(option.values).toContain(value);
        });
        if (v.image_id !== null) expect(p.images.find((img) => img.id === v.image_id)?.variant_ids).toContain(v.id);
      });
      p.images.forEach((img, i) => {
        expect(img.position).toBe(i + 1);
        expect(img.src).toBe(`https://cdn.aisle.example/demo/${p.handle}-${i + 1}.jpg`);
        expect(img.width).toBeGreaterThan(500);
        for (const id of img.variant_ids) expect(variantIds.has(id)).toBe(true);
      });
    }
    expect(products.some((p) => p.images.some((img) => img.variant_ids.length > 0))).toBe(true);
    expect(products.some((p) => p.variants.some((v) => v.compare_at_price !== null))).toBe(true);
  });

  it("writes review and custom metafields in the platform's formats", () => {
    const ratings = products.flatMap((p) => p.metafields.filter((m) => m.namespace === "reviews" && m.key === "rating"));
    expect(ratings.length).toBeGreaterThan(150);
    for (const m of ratings) {
      expect(m.type).toBe("rating");
      const parsed = JSON.parse(m.value) as { value: string; scale_min: string; scale_max: string };
      expect(parsed.scale_min).toBe("1.0");
      expect(parsed.scale_max).toBe("5.0");
      expect(Number(parsed.value)).toBeGreaterThanOrEqual(1);
      expect(Number(parsed.value)).toBeLessThanOrEqual(5);
    }
    for (const p of products) {
      const hasRating = p.metafields.some((m) => m.key === "rating");
      const count = p.metafields.find((m) => m.key === "rating_count");
      expect(count !== undefined).toBe(hasRating);
      if (count) {
        expect(count.type).toBe("number_integer");
        expect(count.value).toMatch(/^[1-9]\d*$/);
      }
    }
    expect(products.some((p) => p.metafields.some((m) => m.namespace === "custom" && m.key === "care_guide"))).toBe(true);
    expect(
      products.some((p) => p.variants.some((v) => v.metafields.some((m) => m.namespace === "custom" && m.key === "fabric_weight"))),
    ).toBe(true);
  });

  it("has one collection per product type plus thematic ones", () => {
    const ids = new Set(products.map((p) => p.id));
    expect(data.collections.length).toBeGreaterThanOrEqual(18);
    expect(data.collections.length).toBeLessThanOrEqual(22);
    for (const c of data.collections) for (const id of c.product_ids) expect(ids.has(id)).toBe(true);
    expectUnique(
      data.collections.map((c) => c.handle),
      "collection handles",
    );
    const titles = data.collections.map((c) => c.title);
    expect(titles).toEqual(expect.arrayContaining(["Summer Essentials", "Gifts Under $50", "New Arrivals", "Sale"]));
    const hoodies = data.collections.find((c) => c.title === "Hoodies");
    expect(hoodies?.product_ids.sort()).toEqual(
      products
        .filter((p) => p.product_type === "Hoodie")
        .map((p) => p.id)
        .sort(),
    );
  });
});

describe("generateDemo customers", () => {
  const { data } = small;
  const countries: Record<string, { name: string; currency: string }> = {
    US: { name: "United States", currency: "USD" },
    CA: { name: "Canada", currency: "CAD" },
    GB: { name: "United Kingdom", currency: "GBP" },
  };

  it("have 1–2 consistent addresses with exactly one default", () => {
    expectUnique(
      data.customers.map((c) => c.email),
      "emails",
    );
    for (const c of data.customers) {
      expect(c.email).toMatch(/^[a-z.]+\d*@example\.(com|net|org)$/);
      expect(c.created_at).toMatch(TIMESTAMP);
      expect(c.addresses.length).toBeGreaterThanOrEqual(1);
      expect(c.addresses.length).toBeLessThanOrEqual(2);
      expect(c.addresses.filter((a) => a.default)).toHaveLength(1);
      for (const a of c.addresses) {
        const country = countries[a.country_code];
        expect(country, a.country_code).toBeDefined();
        expect(a.country_name).toBe(country?.name);
        expect(a.country).toBe(country?.name);
        expect(a.province_code).toMatch(/^[A-Z]{2,3}$/);
        expect(a.zip).not.toBe("");
      }
      const home = c.addresses.find((a) => a.default);
      expect(c.currency).toBe(countries[home?.country_code ?? ""]?.currency);
    }
    expect(new Set(data.customers.flatMap((c) => c.addresses.map((a) => a.country_code)))).toEqual(new Set(["US", "CA", "GB"]));
  });
});

describe("generateDemo orders and sessions", () => {
  const { data, truth } = small;
  const now = NOW.getTime();
  const windowStart = now - 90 * DAY_MS;
  const products = new Map(data.products.map((p) => [p.id, p]));
  const customers = new Set(data.customers.map((c) => c.id));

  it("reference existing products, their own variants and current prices", () => {
    expect(data.orders.length).toBeGreaterThan(1_500);
    for (const o of data.orders) {
      expect(o.line_items.length).toBeGreaterThanOrEqual(1);
      expect(o.line_items.length).toBeLessThanOrEqual(5);
      if (o.customer !== null) expect(customers.has(o.customer.id)).toBe(true);
      for (const line of o.line_items) {
        const product = products.get(line.product_id);
        expect(product, `product ${line.product_id}`).toBeDefined();
        expect(product?.status).toBe("active");
        const variant = product?.variants.find((v) => v.id === line.variant_id);
        expect(variant, `variant ${line.variant_id}`).toBeDefined();
        expect(line.price).toBe(variant?.price);
        expect(line.quantity).toBeGreaterThanOrEqual(1);
      }
    }
  });

  it("fall inside [now - days, now], in time order, with formatted timestamps", () => {
    let previous = 0;
    for (const o of data.orders) {
      expect(o.created_at).toMatch(TIMESTAMP);
      const t = ms(o.created_at);
      expect(t).toBeGreaterThanOrEqual(windowStart);
      expect(t).toBeLessThanOrEqual(now);
      expect(t).toBeGreaterThanOrEqual(previous);
      previous = t;
      if (o.cancelled_at !== null) {
        expect(o.cancelled_at).toMatch(TIMESTAMP);
        expect(ms(o.cancelled_at)).toBeGreaterThanOrEqual(t);
        expect(ms(o.cancelled_at)).toBeLessThanOrEqual(now);
      }
    }
  });

  it("buy bundle members together far above chance", () => {
    const inBundles = bundlePairs(truth.bundles);
    expect(inBundles.length).toBeGreaterThan(50);
    const bundleLift = pairLift(data.orders, inBundles);
    const randomLift = pairLift(data.orders, randomPairs(data, inBundles, 2_000));
    expect(bundleLift).toBeGreaterThan(10);
    expect(randomLift).toBeLessThan(2);
    expect(bundleLift).toBeGreaterThan(5 * randomLift);
  });

  it("make rising products sell more in the last 14 days than in the 14 before", () => {
    const rising = new Set(truth.rising);
    expect(rising.size).toBe(8);
    const recent = linesBetween(data.orders, rising, now - 14 * DAY_MS, now + 1);
    const before = linesBetween(data.orders, rising, now - 28 * DAY_MS, now - 14 * DAY_MS);
    expect(recent).toBeGreaterThan(1.5 * before);
  });

  it("emit sessions of 2–12 ordered views on existing products", () => {
    // ~18k events: collect problems and assert once, so the test stays fast.
    const problems: string[] = [];
    const sessions = new Map<string, typeof data.events>();
    let previous = 0;
    for (const e of data.events) {
      if (!products.has(e.product_id)) problems.push(`unknown product ${e.product_id}`);
      if (e.at < windowStart || e.at > now) problems.push(`at ${e.at} outside the window`);
      if (e.at < previous) problems.push(`at ${e.at} out of order`);
      previous = e.at;
      if (!UUID_V4.test(e.uuid ?? "")) problems.push(`uuid ${e.uuid}`);
      if (e.theme_id !== null) problems.push("theme_id set");
      if (e.customer_id !== null && !customers.has(e.customer_id)) problems.push(`unknown customer ${e.customer_id}`);
      const list = sessions.get(e.uuid ?? "") ?? [];
      list.push(e);
      sessions.set(e.uuid ?? "", list);
    }
    expect(problems.slice(0, 5)).toEqual([]);
    expect(sessions.size).toBe(3_000);
    let sameType = 0;
    let transitions = 0;
    for (const events of sessions.values()) {
      const views = events.filter((e) => e.verb === "viewed");
      expect(views.length).toBeGreaterThanOrEqual(2);
      expect(views.length).toBeLessThanOrEqual(12);
      expect(new Set(events.map((e) => e.customer_id)).size).toBe(1);
      for (let i = 1; i < views.length; i++) {
        transitions++;
        if (products.get(views[i]?.product_id ?? 0)?.product_type === products.get(views[i - 1]?.product_id ?? 0)?.product_type) sameType++;
      }
    }
    expect(data.events.some((e) => e.verb === "added")).toBe(true);
    expect(data.events.some((e) => e.verb === "removed")).toBe(true);
    // Browsing stays within a type far more than the ~1/12 chance of random hops.
    expect(share(sameType, transitions)).toBeGreaterThan(0.3);
  });
});

describe("generateDemo markets", () => {
  const { data } = small;
  const byId = new Map(data.products.map((p) => [p.id, p]));

  it("has active Canada and UK markets and an inactive Canadian one", () => {
    const [canada, uk, inactive] = data.markets;
    expect(canada).toMatchObject({ id: 1, name: "Canada", active: true, countries: ["CA"], currency: "CAD" });
    expect(uk).toMatchObject({ id: 2, name: "United Kingdom", active: true, countries: ["GB"], currency: "GBP" });
    expect(inactive).toMatchObject({ id: 3, active: false, countries: ["CA"] });
    expect(share(canada?.product_ids?.length ?? 0, data.products.length)).toBeGreaterThan(0.84);
    expect(share(canada?.product_ids?.length ?? 0, data.products.length)).toBeLessThan(0.96);
    expect(share(uk?.product_ids?.length ?? 0, data.products.length)).toBeGreaterThan(0.72);
    expect(share(uk?.product_ids?.length ?? 0, data.products.length)).toBeLessThan(0.88);
  });

  it("prices every variant of each market's catalogue with local endings", () => {
    const rates: Record<number, [number, number]> = { 1: [1.3, 1.45], 2: [0.75, 0.87] };
    for (const market of data.markets) {
      const catalogue = market.product_ids ?? data.products.map((p) => p.id);
      for (const productId of catalogue) {
        const product = byId.get(productId);
        expect(product).toBeDefined();
        for (const v of product?.variants ?? []) {
          const local = market.variant_prices[String(v.id)];
          expect(local, `variant ${v.id} in market ${market.id}`).toBeDefined();
          expect(local?.price).toMatch(/^\d+\.(99|00)$/);
          const range = rates[market.id];
          if (range) {
            const ratio = Number(local?.price) / Number(v.price);
            expect(ratio).toBeGreaterThan(range[0]);
            expect(ratio).toBeLessThan(range[1]);
          }
          if (local?.compare_at_price != null) expect(Number(local.compare_at_price)).toBeGreaterThan(Number(local.price));
        }
      }
    }
  });
});
