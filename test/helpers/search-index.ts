// The stored search index as plain data, for tests that compare an index
// patched by catalogue writes with one rebuilt from the catalogue, and the
// answers it ranks with the brute-force oracle's (test/helpers/search-oracle.ts).
import { expect } from "vitest";
import { docBounds, docGrids, docProducts, LIVE, slotOf } from "../../src/core/search/doc-columns.js";
import { indexedProduct } from "../../src/core/search/indexed-product.js";
import { readPostingBlock } from "../../src/core/search/postings.js";
import { planQuery } from "../../src/core/search/query-plan.js";
import { rankProducts, type RankOptions } from "../../src/core/search/ranker.js";
import type { MerchantId } from "../../src/core/types.js";
import { DEFAULT_TOP_SELLERS } from "../../src/stores/ranked-lists.js";
import { ChunkEdits } from "../../src/stores/search-index-write.js";
import { searchKeysOf, type SearchTables } from "../../src/stores/search-tables.js";
import type { Store } from "../../src/stores/store.js";
import { SearchOracle } from "./search-oracle.js";

/**
 * Everything a merchant's stored index holds, keyed by what the catalogue
 * decides (product ids, terms), not by what its history decided (doc
 * numbers, block boundaries, versions of cached reads).
 */
export interface SearchIndexDump {
  size: number;
  totalLength: number;
  ranked: number;
  dfs: Record<string, number>;
  /** Per term, [product id, doc length, mark] by product id. */
  postings: Record<string, [number, number, number][]>;
  docs: Record<number, { titleTerms: string[]; extraTerms: string[]; head: string | null; codes: string[]; columns: number[] }>;
  codes: Record<string, number[]>;
  completions: Record<string, [string, number][]>;
  typoKeys: string[];
  ranks: Record<number, number>;
  collections: Record<number, string>;
}

/** The stored index's tables, for tests that look at what a part of it holds. */
export function tablesOf(store: Store): SearchTables {
  return store.searchIndex["tables"];
}

/** The merchant's stored index as plain data, after checking how it is laid out (see checkLayout). */
export function searchIndexDump(store: Store, merchant: MerchantId): SearchIndexDump {
  const tables = tablesOf(store);
  checkLayout(tables, merchant);
  const meta = tables.metaOf(merchant);
  const productOf = new Map<number, number>();
  const docs: SearchIndexDump["docs"] = {};
  for (const { key, value } of tables.docs.getRange(searchKeysOf(merchant))) {
    const doc = key[1] as number;
    productOf.set(doc, value.productId);
    docs[value.productId] = {
      titleTerms: value.titleTerms,
      extraTerms: value.extraTerms,
      head: value.head,
      codes: value.codes,
      columns: columnsOf(tables, merchant, doc),
    };
  }
  const dfs: SearchIndexDump["dfs"] = {};
  for (const { term, df } of tables.termsStartingWith(merchant, "")) dfs[term] = df;
  const postings: SearchIndexDump["postings"] = {};
  for (const term of Object.keys(dfs)) {
    const entries: [number, number, number][] = [];
    for (const bytes of tables.postingBlocks(merchant, term)) {
      const { count, docs: blockDocs, lengths, marks } = readPostingBlock(bytes);
      for (let i = 0; i < count; i++) entries.push([productOf.get(blockDocs[i]!)!, lengths[i]!, marks[i]!]);
    }
    postings[term] = entries.sort((a, b) => a[0] - b[0]);
  }
  const codes: SearchIndexDump["codes"] = {};
  for (const key of tables.codes.getKeys(searchKeysOf(merchant))) (codes[key[1] as string] ??= []).push(key[2] as number);
  const completions: SearchIndexDump["completions"] = {};
  for (const { key, value } of tables.completions.getRange(searchKeysOf(merchant))) {
    completions[key[1] as string] = value.map(({ term, df }): [string, number] => [term, df]);
  }
  const ranks: SearchIndexDump["ranks"] = {};
  for (const { key, value } of tables.ranks.getRange(searchKeysOf(merchant))) ranks[key[1] as number] = value;
  const collections: SearchIndexDump["collections"] = {};
  for (const { id, title } of store.searchIndex.collectionTitles(merchant)) collections[id] = title;
  return {
    size: meta.size,
    totalLength: meta.totalLength,
    ranked: meta.ranked,
    dfs,
    postings,
    docs,
    codes,
    completions,
    typoKeys: [...tables.typoKeys.getKeys(searchKeysOf(merchant))].map((key) => `${key[1] as string}|${key[2] as string}`),
    ranks,
    collections,
  };
}

/** The doc's value in every column: rank steps, prior steps, flags, grid sum, title count, product id. */
function columnsOf(tables: SearchTables, merchant: MerchantId, doc: number): number[] {
  const slot = slotOf(doc);
  // Read as a write reads them before changing them (nothing is written back).
  const { rankSteps, priorSteps, flags } = docBounds(new ChunkEdits(tables, merchant, "bounds").edit(doc));
  const { grids, titleCounts } = docGrids(new ChunkEdits(tables, merchant, "grids").edit(doc));
  const productIds = docProducts(new ChunkEdits(tables, merchant, "products").edit(doc));
  return [rankSteps[slot]!, priorSteps[slot]!, flags[slot]!, grids[slot]!, titleCounts[slot]!, productIds[slot]!];
}

/**
 * What no dump shows but every layout must keep: each term's first block at
 * key 0 and its blocks sorted and summing to its df; each doc below the
 * capacity, found by its product; each free doc's columns and product id zero.
 */
function checkLayout(tables: SearchTables, merchant: MerchantId): void {
  const { capacity } = tables.metaOf(merchant);
  for (const { term, df } of tables.termsStartingWith(merchant, "")) {
    const docs: number[] = [];
    for (const bytes of tables.postingBlocks(merchant, term)) {
      const block = readPostingBlock(bytes);
      expect(block.count, term).toBeGreaterThan(0);
      docs.push(...block.docs);
    }
    expect(tables.firstPostingBlock(merchant, term), term).toBeDefined();
    expect(docs, term).toEqual([...docs].sort((a, b) => a - b));
    expect(docs.length, term).toBe(df);
  }
  const live = new Set<number>();
  for (const { key, value } of tables.productDocs.getRange(searchKeysOf(merchant))) {
    expect(tables.docs.get([merchant, value])?.productId).toBe(key[1]);
    expect(value).toBeLessThan(capacity);
    live.add(value);
  }
  for (let doc = 0; doc < capacity; doc++) {
    const columns = columnsOf(tables, merchant, doc);
    expect((columns[2]! & LIVE) !== 0, `doc ${doc}`).toBe(live.has(doc));
    expect(tables.freeDocs.get([merchant, doc]) === true, `doc ${doc} free`).toBe(!live.has(doc));
    if (live.has(doc)) expect(columns[5], `doc ${doc}`).toBe(tables.docs.get([merchant, doc])!.productId);
    else expect(columns, `free doc ${doc}`).toEqual([0, 0, 0, 0, 0, 0]);
  }
}

/** The merchant's index cleared and built again from the catalogue, a slice per transaction, as the applier builds it. */
export async function rebuildSearchIndex(store: Store, merchant: MerchantId): Promise<number> {
  const build = store.searchIndex;
  await store.atomically(() => build.clear(merchant));
  let cursor: number | null = null;
  let slices = 0;
  do {
    cursor = await store.atomically(() => build.buildSlice(merchant, cursor));
    slices++;
  } while (cursor !== null);
  return slices;
}

/** The oracle over the merchant's catalogue as it is: its searchable products, with the popularity of the stored top sellers. */
export function oracleOf(store: Store, merchant: MerchantId): SearchOracle {
  const products = store.catalogue.productIds(merchant).flatMap((id) => indexedProduct(store.catalogue.product(merchant, id)!) ?? []);
  const ranked = [...store.rankings.read(merchant, DEFAULT_TOP_SELLERS)];
  const scale = Math.log(1 + ranked.length);
  return new SearchOracle(products, new Map(ranked.map((id, rank) => [id, 1 - Math.log(1 + rank) / scale])));
}

/** The stored index's ranking of a query and the oracle's. */
export function rankingsOf(store: Store, merchant: MerchantId, oracle: SearchOracle, query: string, options: RankOptions) {
  const view = store.searchIndex.view(merchant);
  return { stored: rankProducts(view, planQuery(view, query), options), oracle: oracle.rank(query, options) };
}
