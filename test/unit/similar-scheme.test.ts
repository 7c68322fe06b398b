import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bucketsFor, DEFAULT_HASHING, productFeatures, type ProductText } from "../../src/core/embedding/features.js";
import { schemeFor } from "../../src/similar/build.js";

/** The oracle: every product's features counted with the collision-free mask, as the build once did. */
function countedScheme(products: readonly ProductText[]): number {
  const probe = { ...DEFAULT_HASHING, buckets: 2 ** 30 };
  const distinct = new Set<number>();
  for (const product of products) for (const id of productFeatures(product, probe).ids) distinct.add(id);
  return bucketsFor(distinct.size);
}

const product = (id: number, title: string, description = ""): ProductText => ({
  id,
  title,
  product_type: "Thing",
  vendor: "Acme",
  tags: "a,b",
  body_html: description,
});

/** Counts how many products a consumer pulled. */
function* counted(products: readonly ProductText[], pulled: { n: number }): Generator<ProductText> {
  for (const p of products) {
    pulled.n++;
    yield p;
  }
}

describe("schemeFor", () => {
  it("gives the buckets of counting every product (small random catalogues)", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ maxLength: 40 }), fc.lorem({ maxCount: 12 })), { maxLength: 60 }), (texts) => {
        const products = texts.map(([title, description], i) => product(i + 1, title, description));
        expect(schemeFor(products).buckets).toBe(countedScheme(products));
      }),
    );
  });

  it("stops reading once the bucket count is at its cap, with the same scheme", () => {
    // Distinct words in every title: the distinct-token count passes the cap after a few thousand products.
    const products = Array.from({ length: 8_000 }, (_, i) =>
      product(i + 1, `item${i} model${i * 7} series${i * 13}`, `part${i} code${i * 3}`),
    );
    const pulled = { n: 0 };
    const scheme = schemeFor(counted(products, pulled));
    expect(scheme.buckets).toBe(countedScheme(products));
    expect(scheme.buckets).toBe(bucketsFor(Number.MAX_SAFE_INTEGER));
    expect(pulled.n).toBeLessThan(products.length);
  });

  it("reads the whole of a small catalogue", () => {
    const products = Array.from({ length: 50 }, (_, i) => product(i + 1, `Red sofa ${i}`));
    const pulled = { n: 0 };
    expect(schemeFor(counted(products, pulled)).buckets).toBe(countedScheme(products));
    expect(pulled.n).toBe(50);
  });
});
