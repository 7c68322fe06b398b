// The stored search index against what it must equal, after random
// interleavings of the catalogue writes that feed it: product upserts with
// new text, availability changes alone, deletes and re-adds, drafts,
// collections, and orders that move the stored top sellers. Patched by those
// writes, it must hold exactly what a rebuild from the catalogue holds, and
// rank every query exactly as the brute-force oracle over the same catalogue
// does (test/helpers/search-oracle.ts).
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RankOptions } from "../../src/core/search/ranker.js";
import { POSTING_BLOCK_MAX } from "../../src/core/search/postings.js";
import { ingest } from "../../src/ingest/ingest.js";
import { Store } from "../../src/stores/store.js";
import { product, variant } from "../helpers/fixtures.js";
import { oracleOf, rankingsOf, rebuildSearchIndex, searchIndexDump } from "../helpers/search-index.js";
import { storedMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-search-property-", "all");

/** Few products, so upserts often replace a live product and re-add a removed one. */
const PRODUCT_IDS = 10;

/**
 * Words whose terms share prefixes (more than a completion list holds start
 * with "dr"), lie an edit or two apart, stem alike, join into compounds, and
 * hold digits and units.
 */
const WORDS = [
  "Drill",
  "Drills",
  "Driller",
  "Drip",
  "Drive",
  "Drum",
  "Dry",
  "Draft",
  "Drag",
  "Drain",
  "Drape",
  "Draw",
  "Drawer",
  "Dress",
  "Drop",
  "Drift",
  "Drink",
  "Drone",
  "Dryer",
  "Hammer",
  "Hamper",
  "Lantern",
  "Lanterns",
  "Light",
  "Lighting",
  "Dish",
  "Washer",
  "Dishwasher",
  "Cordless",
  "18",
  "in.",
  "Steel",
  "with",
  "(Blue)",
];

const CODES = ["SKU-1", " sku-1 ", "SKU-2", "0001", ""];

const textArb = (maxLength: number) => fc.array(fc.constantFrom(...WORDS), { maxLength }).map((words) => words.join(" "));

const upsertArb = fc.record({
  id: fc.integer({ min: 1, max: PRODUCT_IDS }),
  title: textArb(5).filter((title) => title !== ""),
  vendor: textArb(1),
  tags: textArb(3),
  option: fc.constantFrom("Default Title", "Crimson", "Large Drum"),
  sku: fc.constantFrom(...CODES),
  barcode: fc.constantFrom(...CODES),
  inStock: fc.boolean(),
  draft: fc.integer({ min: 0, max: 4 }).map((roll) => roll === 0),
});
type Upsert = typeof upsertArb extends fc.Arbitrary<infer T> ? T : never;

const operationArb = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ op: fc.constant("upsert" as const), products: fc.array(upsertArb, { minLength: 1, maxLength: 4 }) }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("delete" as const), id: fc.integer({ min: 1, max: PRODUCT_IDS }) }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant("stock" as const), id: fc.integer({ min: 1, max: PRODUCT_IDS }), inStock: fc.boolean() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("order" as const),
      lines: fc.array(fc.tuple(fc.integer({ min: 1, max: PRODUCT_IDS }), fc.integer({ min: 1, max: 5 })), { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("collection" as const), id: fc.integer({ min: 1, max: 3 }), title: textArb(2) }),
  },
);
type Operation = typeof operationArb extends fc.Arbitrary<infer T> ? T : never;

function payload(spec: Upsert): Record<string, unknown> {
  return product(spec.id, {
    title: spec.title,
    vendor: spec.vendor,
    product_type: "",
    tags: spec.tags,
    status: spec.draft ? "draft" : "active",
    variants: [
      variant({
        id: spec.id * 10 + 1,
        option1: spec.option,
        sku: spec.sku,
        barcode: spec.barcode,
        inventory_quantity: spec.inStock ? 5 : 0,
      }),
    ],
  });
}

let store: Store;
let runs = 0;

beforeAll(() => {
  store = Store.open(tempDir());
});
afterAll(() => store.close());

/** Applies an operation through the store's writes; `catalogue` follows what each product is now. */
async function apply(merchant: string, operation: Operation, catalogue: Map<number, Upsert>, orderIds: { next: number }): Promise<void> {
  switch (operation.op) {
    case "upsert":
      await ingest(store, merchant, "products", operation.products.map(payload));
      for (const spec of operation.products) catalogue.set(spec.id, spec);
      return;
    case "delete":
      await store.catalogue.deleteProduct(merchant, operation.id);
      catalogue.delete(operation.id);
      return;
    case "stock": {
      const spec = catalogue.get(operation.id);
      if (!spec) return;
      const restocked = { ...spec, inStock: operation.inStock };
      await ingest(store, merchant, "products", [payload(restocked)]);
      catalogue.set(spec.id, restocked);
      return;
    }
    case "order":
      await ingest(store, merchant, "orders", [
        {
          id: orderIds.next++,
          created_at: new Date(Date.now() - 86_400_000).toISOString(),
          customer: null,
          line_items: operation.lines.map(([id, quantity]) => ({ product_id: id, variant_id: id * 10 + 1, quantity, price: "1.00" })),
          cancelled_at: null,
        },
      ]);
      store.rankingWriter.refreshSync(merchant, Date.now());
      return;
    case "collection":
      if (operation.title === "") await store.catalogue.deleteCollection(merchant, operation.id);
      else await ingest(store, merchant, "collections", [{ id: operation.id, title: operation.title, product_ids: [1, 2] }]);
      return;
  }
}

/** Queries a shopper types: prefixes of every word, whole words, typos of them, compounds, phrases and codes. */
function probes(): string[] {
  const found = new Set(["", " ", "lantren", "drilll ", "hamer", "ligth", "dish washer", "dishwasher ", "18 in steel", "SKU-1", "0001"]);
  for (const word of WORDS) {
    const lower = word.toLowerCase();
    for (let end = 1; end <= lower.length; end++) found.add(lower.slice(0, end));
    found.add(`${lower} `);
    found.add(`cordless ${lower}`);
    // Typos: a letter dropped, two swapped, one doubled, one replaced.
    found.add(`${lower[0]}${lower.slice(2)} `);
    if (lower.length > 2) found.add(`${lower[0]}${lower[2]}${lower[1]}${lower.slice(3)} `);
    found.add(`${lower}${lower.slice(-1)}`);
    found.add(`${lower.slice(0, -1)}x`);
  }
  return [...found];
}

const OPTIONS: RankOptions[] = [
  { k: 10, outOfStock: "last" },
  { k: 3, outOfStock: "hide" },
  { k: 50, outOfStock: "last", eligible: (id) => id % 2 === 0 },
  // A merchant's boost lifts docs out of the bands the ranker would otherwise leave unread.
  { k: 3, outOfStock: "last", boosted: new Set(Array.from({ length: PRODUCT_IDS }, (_, i) => i + 1).filter((id) => id % 3 === 0)) },
];

function expectOracleRankings(merchant: string): void {
  const oracle = oracleOf(store, merchant);
  for (const query of probes()) {
    for (const options of OPTIONS) {
      const { stored, oracle: expected } = rankingsOf(store, merchant, oracle, query, options);
      const restricted = `${options.eligible ? " (even ids)" : ""}${options.boosted ? " (every third id boosted)" : ""}`;
      expect(stored, `"${query}" k=${options.k} ${options.outOfStock}${restricted}`).toEqual(expected);
    }
  }
}

describe("the stored search index under random catalogue writes", () => {
  it("holds what a rebuild from the catalogue holds, and ranks as the oracle does", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operationArb, { minLength: 1, maxLength: 25 }), async (operations) => {
        const merchant = `shop-${runs++}`;
        await store.catalogue.createMerchant(storedMerchant(merchant));
        const catalogue = new Map<number, Upsert>();
        const orderIds = { next: 1 };
        for (const operation of operations) await apply(merchant, operation, catalogue, orderIds);
        const patched = searchIndexDump(store, merchant);
        expect(patched.size).toBe([...catalogue.values()].filter((spec) => !spec.draft).length);
        expectOracleRankings(merchant);
        await rebuildSearchIndex(store, merchant);
        expect(searchIndexDump(store, merchant)).toEqual(patched);
      }),
      { numRuns: 40 },
    );
  });
});

/**
 * Enough products that a word they all hold has its postings in several
 * stored blocks (POSTING_BLOCK_MAX entries each) and its docs in several
 * chunks of columns: the writes below then split, empty and refill blocks.
 */
const LARGE_SHOP = 2 * POSTING_BLOCK_MAX + 300;

/** A large shop's product: "Widget" (every product at first) and a word by its id, or the word alone. */
function widget(id: number, withWidget: boolean, inStock = true): Record<string, unknown> {
  const word = WORDS[id % WORDS.length]!;
  return product(id, {
    title: withWidget ? `Widget ${word}` : word,
    product_type: "",
    variants: [variant({ id: id * 10 + 1, inventory_quantity: inStock ? 5 : 0 })],
  });
}

/**
 * Runs of consecutive product ids: a batch rewritten with or without the
 * common word, deleted, or added past the shop's first ids. Runs from the
 * first id, as long as a block, often empty the first block, whose key the
 * next block then takes.
 */
const largeOperationArb = fc.record({
  op: fc.constantFrom("rewrite" as const, "delete" as const),
  from: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: LARGE_SHOP + 400 })),
  length: fc.integer({ min: 1, max: POSTING_BLOCK_MAX + 200 }),
  withWidget: fc.boolean(),
  inStock: fc.boolean(),
});

const LARGE_PROBES = ["widget", "widget ", "wid", "w", "widget dr", "widget drill", "drill", "lantern widget", "widgte "];

describe("the stored search index of a shop whose common word's postings fill several blocks", () => {
  it("holds what a rebuild holds, and ranks as the oracle does, after runs of rewrites, deletes and additions", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(largeOperationArb, { minLength: 1, maxLength: 8 }), async (operations) => {
        const merchant = `large-${runs++}`;
        await store.catalogue.createMerchant(storedMerchant(merchant));
        const ids = Array.from({ length: LARGE_SHOP }, (_, i) => i + 1);
        await ingest(
          store,
          merchant,
          "products",
          ids.map((id) => widget(id, true)),
        );
        const live = new Set(ids);
        for (const { op, from, length, withWidget, inStock } of operations) {
          const run = Array.from({ length }, (_, i) => from + i);
          if (op === "rewrite") {
            await ingest(
              store,
              merchant,
              "products",
              run.map((id) => widget(id, withWidget, inStock)),
            );
            run.forEach((id) => live.add(id));
          } else {
            const deleted = run.filter((id) => live.has(id));
            for (const id of deleted) await store.catalogue.deleteProduct(merchant, id);
            deleted.forEach((id) => live.delete(id));
          }
        }
        const patched = searchIndexDump(store, merchant);
        expect(patched.size).toBe(live.size);
        const oracle = oracleOf(store, merchant);
        for (const query of LARGE_PROBES) {
          for (const options of [OPTIONS[0]!, OPTIONS[1]!]) {
            const { stored, oracle: expected } = rankingsOf(store, merchant, oracle, query, options);
            expect(stored, `"${query}" k=${options.k} ${options.outOfStock}`).toEqual(expected);
          }
        }
        await rebuildSearchIndex(store, merchant);
        expect(searchIndexDump(store, merchant)).toEqual(patched);
      }),
      // A failing run takes seconds: reported as found, not shrunk for minutes. The example empties the first
      // block outright, which random runs do only now and then: its key must then pass to the block after it.
      {
        numRuns: 6,
        endOnFailure: true,
        examples: [[[{ op: "rewrite", from: 1, length: POSTING_BLOCK_MAX, withWidget: false, inStock: true }]]],
      },
    );
  }, 120_000);
});
