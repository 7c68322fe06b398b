// Collections by title for data.collections, in FlexSearch: a few hundred short
// titles per shop, matched word by word with every word as a prefix, which is
// what FlexSearch's forward tokenizer does well and cheaply. Each worker keeps
// one per shop, built again from the stored titles whenever the shop's
// collections change: bounded by the shop's collections, it stays small.
import { Index } from "flexsearch";
import { terms } from "../core/search/text.js";
import type { MerchantId } from "../core/types.js";
import { PerStore } from "../stores/per-store.js";
import type { Store } from "../stores/store.js";

export class CollectionIndex {
  // Titles go through the product normaliser, so "Lights" finds "Lighting" as products do.
  private readonly index = new Index({ tokenize: "forward", encode: (text: string) => terms(text) });

  constructor(collections: readonly { id: number; title: string }[]) {
    for (const { id, title } of collections) this.index.add(id, title);
  }

  /** Collection ids whose titles contain every query word (as a word prefix), best first. */
  search(query: string, limit: number): number[] {
    if (terms(query).length === 0) return [];
    return (this.index.search(query, { limit }) as (number | string)[]).map(Number);
  }
}

const indexes = new PerStore<MerchantId, { version: number; index: CollectionIndex }>();

/** This thread's collection index of a merchant, as of the collections of the current snapshot. */
export function collectionIndexOf(store: Store, merchant: MerchantId): CollectionIndex {
  const version = store.version(merchant, "collections");
  const kept = indexes.of(store).get(merchant);
  if (kept?.version === version) return kept.index;
  const index = new CollectionIndex(store.searchIndex.collectionTitles(merchant));
  indexes.of(store).set(merchant, { version, index });
  return index;
}
