import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidInput, parseId, slugify } from "../../src/core/ingest/fields.js";
import { normaliseProduct } from "../../src/core/ingest/product.js";
import { normaliseMarket, normaliseOrder, normaliseRateLimits } from "../../src/core/ingest/records.js";
import { ratingsOf } from "../../src/core/search/suggestion.js";
import type { Metafield } from "../../src/core/types.js";
import { customerCounters } from "../../src/core/customer-counters.js";
import { formatCents, toCents } from "../../src/core/money.js";
import { normaliseTimestamp } from "../../src/core/timestamps.js";

const NOW = "2026-05-01T00:00:00+00:00";

describe("money", () => {
  it("reads decimals exactly and round-trips cents", () => {
    expect(toCents("19.99")).toBe(1999);
    expect(toCents("19.9")).toBe(1990);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents("1.999")).toBeNull();
    expect(toCents("abc")).toBeNull();
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (cents) => toCents(formatCents(cents)) === cents));
  });
});

describe("ingest fields", () => {
  it("accepts numeric-string ids and refuses others", () => {
    expect(parseId("42")).toBe(42);
    expect(parseId(42)).toBe(42);
    for (const bad of [0, -1, 1.5, "042", "1e3", "", null, "99999999999999999"]) expect(parseId(bad)).toBeNull();
  });

  it("normalises timestamps to one shape with an offset", () => {
    expect(normaliseTimestamp("2026-01-01T10:00:00Z")).toBe("2026-01-01T10:00:00+00:00");
    expect(normaliseTimestamp("2026-01-01T10:00:00-04:00")).toBe("2026-01-01T10:00:00-04:00");
    expect(normaliseTimestamp("2026-01-01")).toBeNull();
    expect(normaliseTimestamp("2026-13-45T99:00:00Z")).toBeNull();
  });

  it("slugifies titles into handles", () => {
    expect(slugify("Crème Brûlée — Mug (12 oz)")).toBe("creme-brulee-mug-12-oz");
  });
});

describe("normaliseProduct", () => {
  const minimal = { id: 7, title: "Trail Mug", variants: [{ id: 70, price: 12 }] };

  it("fills every default the spec shows", () => {
    const { product, metafields } = normaliseProduct(minimal, "p", NOW);
    expect(product).toMatchObject({
      handle: "trail-mug",
      status: "active",
      tags: "",
      body_html: "",
      published_at: NOW,
      published_scope: "web",
      template_suffix: null,
      image: null,
      options: [{ id: 7, name: "Title", position: 1, values: ["Default Title"] }],
    });
    expect(product.variants[0]).toMatchObject({
      price: "12.00",
      title: "Default Title",
      position: 1,
      inventory_policy: "deny",
      inventory_management: "platform",
      inventory_item_id: 70,
      weight_unit: "lb",
      admin_graphql_api_id: "gid://platform/ProductVariant/70",
    });
    expect(metafields).toEqual([]);
  });

  it("joins tag arrays and orders images by position", () => {
    const { product } = normaliseProduct(
      {
        ...minimal,
        tags: [" a ", "b", ""],
        images: [
          { id: 2, src: "https://x/2.jpg", position: 2 },
          { id: 1, src: "https://x/1.jpg", position: 1 },
        ],
      },
      "p",
      NOW,
    );
    expect(product.tags).toBe("a, b");
    expect(product.images.map((i) => i.id)).toEqual([1, 2]);
    expect(product.image?.id).toBe(1);
  });

  it("names the exact field of the first problem", () => {
    const attempt = (input: unknown) => {
      try {
        normaliseProduct(input, "products[4]", NOW);
        return "ok";
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidInput);
        return (error as Error).message;
      }
    };
    expect(attempt("x")).toBe("products[4]: must be a JSON object");
    expect(attempt({ ...minimal, id: "x" })).toBe("products[4].id: must be a positive integer id");
    expect(attempt({ ...minimal, status: "gone" })).toBe("products[4].status: must be active, draft or archived");
    expect(
      attempt({
        ...minimal,
        variants: [
          { id: 70, price: "1" },
          { id: 70, price: "2" },
        ],
      }),
    ).toBe("products[4].variants: variant id 70 appears more than once");
    expect(attempt({ ...minimal, images: [{ id: 1, src: "ftp://x" }] })).toBe("products[4].images[0].src: must be an http(s) address");
    expect(attempt({ ...minimal, metafields: [{ id: 1, namespace: "a", key: "b" }] })).toBe("products[4].metafields[0].value: is required");
    expect(attempt({ ...minimal, created_at: "yesterday" })).toBe(
      "products[4].created_at: must be an ISO 8601 timestamp with a UTC offset",
    );
  });
});

describe("normaliseMarket", () => {
  it("checks country and currency codes and variant price keys", () => {
    expect(() => normaliseMarket({ id: 1, name: "x", countries: ["CAN"], currency: "CAD" }, "m")).toThrow(
      "m.countries[0]: must be an ISO 3166-1 alpha-2 code",
    );
    expect(() => normaliseMarket({ id: 1, name: "x", countries: ["CA"], currency: "C" }, "m")).toThrow("m.currency");
    expect(() =>
      normaliseMarket({ id: 1, name: "x", countries: ["CA"], currency: "CAD", variant_prices: { abc: { price: "1" } } }, "m"),
    ).toThrow("m.variant_prices.abc");
    // Past 2^53 this key would be read as 9007199254740992, another variant's.
    expect(() =>
      normaliseMarket(
        { id: 1, name: "x", countries: ["CA"], currency: "CAD", variant_prices: { "9007199254740993": { price: "1" } } },
        "m",
      ),
    ).toThrow("m.variant_prices.9007199254740993: must be keyed by a variant id");
  });
});

describe("numbers that must stay exact", () => {
  it("make an option's id from the product's only while it is an exact integer", () => {
    const withOptions = (id: number) => ({
      id,
      title: "Tee",
      variants: [{ id: 1, price: "10.00", option1: "S" }],
      options: [
        { name: "Size", values: ["S"] },
        { name: "Colour", values: ["Red"] },
      ],
    });
    expect(normaliseProduct(withOptions(7_100_000_000_001), "products[0]", NOW).product.options.map((o) => o.id)).toEqual([
      71_000_000_000_011, 71_000_000_000_012,
    ]);
    expect(() => normaliseProduct(withOptions(9_007_199_254_740_000), "products[0]", NOW)).toThrow(
      "products[0].options[0].id: is required with a product id this large",
    );
    const given = { ...withOptions(9_007_199_254_740_000), options: [{ id: 5, name: "Size", values: ["S"] }] };
    expect(normaliseProduct(given, "products[0]", NOW).product.options[0]!.id).toBe(5);
  });

  it("bound a rate limit so that its default burst stays exact", () => {
    expect(normaliseRateLimits({ search: { per_second: 1_000_000_000 } })).toEqual({ search: { perSecond: 1e9, burst: 2e9 } });
    expect(() => normaliseRateLimits({ search: { per_second: 9_007_199_254_740_991 } })).toThrow(
      "rate_limits.search.per_second: must be at most 1000000000",
    );
  });

  it("read a review count only when it is a whole number, not one too long to be one", () => {
    const count = (value: string) => ratingsOf([{ namespace: "reviews", key: "rating_count", value } as Metafield]).count;
    expect([count("12"), count("12.7"), count("-3"), count("many"), count("9".repeat(400))]).toEqual([12, 12, 0, 0, 0]);
  });
});

describe("order lines and what customers spent", () => {
  const NOW = "2026-03-03T00:00:00+00:00";
  const orderWith = (quantity: number, price = "1.00") => ({
    id: 1,
    created_at: "2026-03-02T12:00:00+00:00",
    line_items: [{ product_id: 7, quantity, price }],
  });

  it("take a line of up to 999,999 units, as a cart does, and name a larger one", () => {
    expect(normaliseOrder(orderWith(999_999), "orders[0]", NOW).line_items[0]!.quantity).toBe(999_999);
    expect(() => normaliseOrder(orderWith(1_000_000), "orders[0]", NOW)).toThrow(
      "orders[0].line_items[0].quantity: must be at most 999999",
    );
  });

  it("hold total_spent at the largest decimal amount, exact below it and a decimal amount still", () => {
    const order = normaliseOrder(orderWith(999_999, "9999999999999.99"), "orders[0]", NOW);
    const { total_spent } = customerCounters([order, { ...order, id: 2 }]);
    expect(total_spent).toBe("9999999999999.99");
    expect(toCents(total_spent)).toBe(999_999_999_999_999);
    expect(customerCounters([normaliseOrder(orderWith(3, "0.10"), "orders[0]", NOW)]).total_spent).toBe("0.30");
  });
});

describe("order dates", () => {
  const placed = (created_at: string) => ({ id: 1, created_at, line_items: [{ product_id: 7, price: "1.00" }] });
  const now = "2026-03-03T00:00:00+00:00";

  it("take any past date and one a day ahead at most, as clocks differ", () => {
    expect(normaliseOrder(placed("1999-01-01T00:00:00Z"), "orders[0]", now).created_at).toMatch(/^1999-01-01/);
    expect(normaliseOrder(placed("2026-03-04T00:00:00+00:00"), "orders[0]", now).created_at).toMatch(/^2026-03-04/);
    expect(() => normaliseOrder(placed("2026-03-04T00:00:01+00:00"), "orders[0]", now)).toThrow(
      "orders[0].created_at: must not be more than a day in the future",
    );
    expect(() => normaliseOrder(placed("2400-01-01T00:00:00Z"), "orders[0]", now)).toThrow(/more than a day in the future/);
  });
});
