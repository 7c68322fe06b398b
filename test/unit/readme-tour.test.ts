import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateDemo } from "../../src/demo/generator.js";

// The README's curl tour names demo products by id and handle; the demo is
// deterministic, so those must stay real, listable products of every market.
const readme = readFileSync(join(import.meta.dirname, "../../README.md"), "utf8");
const demo = generateDemo({ now: new Date("2026-01-01T00:00:00Z") });

describe("the README tour", () => {
  it("names demo products that are active, in stock and sold in every active market", () => {
    const ids = [...readme.matchAll(/ids=([\d,]+)/g)].flatMap((m) => m[1]!.split(",").map(Number));
    const handles = [...readme.matchAll(/handles=([\w,-]+)/g)].flatMap((m) => m[1]!.split(","));
    expect(ids.length).toBeGreaterThan(0);
    expect(handles.length).toBeGreaterThan(0);
    const markets = demo.markets.filter((m) => m.active);
    for (const product of [
      ...ids.map((id) => demo.products.find((p) => p.id === id)),
      ...handles.map((h) => demo.products.find((p) => p.handle === h)),
    ]) {
      expect(product).toBeDefined();
      expect(product!.status).toBe("active");
      expect(product!.variants.some((v) => v.inventory_quantity > 0)).toBe(true);
      for (const market of markets) expect(market.product_ids === null || market.product_ids.includes(product!.id)).toBe(true);
    }
  });

  it("names a collection the demo has", () => {
    const collections = [...readme.matchAll(/platform_collection_id=(\d+)/g)].map((m) => Number(m[1]));
    for (const id of collections) expect(demo.collections.some((c) => c.id === id)).toBe(true);
  });
});
