import { afterEach, describe, expect, it } from "vitest";
import type { LeaderSettings } from "../../src/core/search/leaders.js";
import { DEFAULT_RANKING, planQuery } from "../../src/core/search/query-plan.js";
import { rankProducts } from "../../src/core/search/ranker.js";
import { ingest } from "../../src/ingest/ingest.js";
import { Store } from "../../src/stores/store.js";
import { product, variant } from "../helpers/fixtures.js";
import { tablesOf } from "../helpers/search-index.js";
import { storedMerchant } from "../helpers/store.js";
import { tempDirs } from "../helpers/temp-dirs.js";

const tempDir = tempDirs("aisle-search-leaders-");
let store: Store | undefined;

afterEach(async () => {
  await store?.close();
  store = undefined;
});

/** A shop small enough for a test, big enough for its settings: every word of VOCABULARY is held by far more than minDf products. */
const SMALL: LeaderSettings = { minShop: 100, minDf: 20, perTerm: 8, maxChanged: 16 };
/** Words matching more than this many postings take their candidates from the lists. */
const LEADING = { ...DEFAULT_RANKING, leaderSlotMass: 20 };

const VOCABULARY = ["cordless", "drill", "hammer", "led", "light", "brass", "lantern", "copper", "pipe", "steel", "saw", "garden"];
const QUERIES = ["drill", "drill ", "dr", "copper pipe", "steel saw ", "led l", "garden hose", "brass lantern light", "c", "hammer dri"];

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

async function openShop(settings: LeaderSettings, products = 240): Promise<Store> {
  store = Store.open(tempDir(), { leaders: settings });
  await store.catalogue.createMerchant(storedMerchant("shop"));
  const next = random(7);
  const title = () =>
    Array.from({ length: 2 + Math.floor(next() * 4) }, () => VOCABULARY[Math.floor(next() * VOCABULARY.length)]!).join(" ");
  await ingest(
    store,
    "shop",
    "products",
    Array.from({ length: products }, (_, i) => product(i + 1, { title: title() })),
  );
  return store;
}

/** At most `k` products; by default fewer than a list holds, so the lists' answer stands. */
function rank(query: string, config = LEADING, k = SMALL.perTerm - 2): number[] {
  const view = store!.searchIndex.view("shop");
  return rankProducts(view, planQuery(view, query, config), { k, outOfStock: "last" }, config);
}

describe("quick-view's leader lists", () => {
  it("rank exactly as every posting does when each list holds all of its term's postings", async () => {
    await openShop({ ...SMALL, perTerm: 1_000 });
    store!.searchIndex.leaders.buildSync("shop");
    expect(store!.searchIndex.view("shop").leaders()).not.toBeNull();
    for (const query of QUERIES) expect(rank(query, LEADING, 20), query).toEqual(rank(query, DEFAULT_RANKING, 20));
  });

  it("find what was written after the build before the next one, and no longer show what was deleted", async () => {
    await openShop(SMALL);
    store!.searchIndex.leaders.buildSync("shop");
    const before = rank("drill ");
    expect(before.length).toBe(SMALL.perTerm - 2);

    // A drill that ranks high: its title says little else.
    await ingest(store!, "shop", "products", [product(1_000, { title: "Drill Drill" })]);
    await store!.catalogue.deleteProduct("shop", before[0]!);
    expect(store!.searchIndex.view("shop").leaders()!.changed.size).toBe(2);
    const after = rank("drill ");
    expect(after).toContain(1_000);
    expect(after).not.toContain(before[0]);
    expect(after).toEqual(rank("drill ", DEFAULT_RANKING));

    store!.searchIndex.leaders.buildSync("shop");
    expect(store!.searchIndex.view("shop").leaders()!.changed.size).toBe(0);
    expect(rank("drill ")).toEqual(after);
  });

  it("are left aside once more docs were written since the build than queries take apart, and are due again", async () => {
    await openShop(SMALL);
    const leaders = store!.searchIndex.leaders;
    const now = Date.now();
    expect(leaders.due("shop", now)).toBe(true);
    leaders.buildSync("shop", now);
    expect(leaders.due("shop", now)).toBe(false);

    await ingest(store!, "shop", "products", [product(2_000, { title: "Brass Drill" })]);
    expect(leaders.due("shop", now + 1_000)).toBe(false);
    expect(leaders.due("shop", now + 60_000)).toBe(true);

    await ingest(
      store!,
      "shop",
      "products",
      Array.from({ length: SMALL.maxChanged }, (_, i) => product(3_000 + i, { title: "Copper Drill" })),
    );
    expect(leaders.due("shop", now + 1_000)).toBe(true);
    expect(store!.searchIndex.view("shop").leaders()).toBeNull();
    expect(rank("copper drill")).toEqual(rank("copper drill", DEFAULT_RANKING));
  });

  it("give way to every posting when a filter leaves fewer products than the page asks for", async () => {
    await openShop(SMALL);
    store!.searchIndex.leaders.buildSync("shop");
    const view = store!.searchIndex.view("shop");
    const everyDrill = rank("drill ", DEFAULT_RANKING, 1_000);
    // Only products the lists cannot hold: a leader-only answer would be empty.
    const allowed = new Set(everyDrill.slice(-20));
    const options = { k: 10, outOfStock: "last" as const, eligible: (id: number) => allowed.has(id) };
    const filtered = rankProducts(view, planQuery(view, "drill ", LEADING), options, LEADING);
    expect(filtered).toEqual(rankProducts(view, planQuery(view, "drill "), options));
    expect(filtered.length).toBe(10);
  });

  it("find a product bought again after the build, which the build ranked last", async () => {
    await openShop(SMALL);
    const drill = (inventory_quantity: number) =>
      product(1_000, { title: "Drill Drill", variants: [variant({ id: 9_000, inventory_quantity })] });
    await ingest(store!, "shop", "products", [drill(0)]);
    store!.searchIndex.leaders.buildSync("shop");
    expect(rank("drill ")).not.toContain(1_000);

    await ingest(store!, "shop", "products", [drill(5)]);
    expect(rank("drill ")).toContain(1_000);
    expect(rank("drill ")).toEqual(rank("drill ", DEFAULT_RANKING));
  });

  it("are left aside for a request that boosts products, which must compete wherever they match", async () => {
    await openShop(SMALL);
    store!.searchIndex.leaders.buildSync("shop");
    const view = store!.searchIndex.view("shop");
    const weakest = rank("drill ", DEFAULT_RANKING, 1_000).slice(-3);
    const options = { k: 5, outOfStock: "last" as const, boosted: new Set(weakest) };
    const boosted = rankProducts(view, planQuery(view, "drill ", LEADING), options, LEADING);
    expect(boosted).toEqual(rankProducts(view, planQuery(view, "drill "), options));
    expect(boosted.filter((id) => weakest.includes(id)).length).toBeGreaterThan(0);
  });

  it("have the changed-doc entries no reader needs pruned, and a shop that shrank below their size loses them", async () => {
    await openShop(SMALL);
    const leaders = store!.searchIndex.leaders;
    const entries = () => [...tablesOf(store!).changedDocs.getKeys({ start: ["shop"], end: ["shop", "\u{10ffff}"] })].length;
    expect(entries()).toBe(240);
    // A shop without lists is pruned a slice's worth at a time: 240 entries wait.
    expect(leaders.prunable("shop")).toBe(false);
    while (leaders.prune("shop"));
    expect(entries()).toBe(0);

    leaders.buildSync("shop");
    await ingest(store!, "shop", "products", [product(4_000, { title: "Steel Saw" })]);
    expect(entries()).toBe(1);
    expect(leaders.prunable("shop")).toBe(false);

    for (let id = 1; id <= 150; id++) await store!.catalogue.deleteProduct("shop", id);
    expect(store!.searchIndex.view("shop").size).toBeLessThan(SMALL.minShop);
    expect(leaders.prunable("shop")).toBe(true);
    while (leaders.prune("shop"));
    expect(tablesOf(store!).leaderBuilds.get("shop")).toBeUndefined();
    expect(entries()).toBe(0);
  });

  it("are not kept or used for a shop below the size that needs them", async () => {
    await openShop({ ...SMALL, minShop: 1_000 });
    expect(store!.searchIndex.leaders.due("shop", Date.now())).toBe(false);
    store!.searchIndex.leaders.buildSync("shop");
    expect(store!.searchIndex.view("shop").leaders()).toBeNull();
  });
});
