// Collections by title for data.collections, in FlexSearch: a few hundred short
// titles per shop, matched word by word with every word as a prefix, which is
// what FlexSearch's forward tokenizer does well and cheaply.
import { Index } from "flexsearch";
import { terms } from "../core/search/text.js";

export class CollectionIndex {
  // Titles go through the product normaliser, so "Lights" finds "Lighting" as products do.
  private readonly index = new Index({ tokenize: "forward", encode: (text: string) => terms(text) });
  private readonly ids = new Set<number>();

  get size(): number {
    return this.ids.size;
  }

  upsert(id: number, title: string): void {
    if (this.ids.has(id)) this.index.update(id, title);
    else this.index.add(id, title);
    this.ids.add(id);
  }

  remove(id: number): void {
    if (!this.ids.delete(id)) return;
    this.index.remove(id);
  }

  /** Collection ids whose titles contain every query word (as a word prefix), best first. */
  search(query: string, limit: number): number[] {
    if (terms(query).length === 0) return [];
    return (this.index.search(query, { limit }) as (number | string)[]).map(Number);
  }
}
