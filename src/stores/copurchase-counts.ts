// The bought-together model's sufficient statistics: each product's basket
// weight, and its co-occurrence row (partners with pair weights and counts).
// Orders rewrite the rows they touch, once per transaction. Carts come from
// the event applier, a slice of events every few milliseconds under load, and
// each slice touches many rows a little: rewriting them cost the applier more
// per event the longer the rows grew (17 µs an event at first, 90 µs after
// 1.4M events of the event bench's shape), and so did a pair each in a table
// of its own (dirtying a page per pair). So a slice's carts are logged as one
// record, and folded into the rows when lists are refreshed: a row is
// rewritten once per round of refreshes, however many slices touched it.
import type { Database, RootDatabase } from "lmdb";
import { applyItemDelta, applyRowDelta, CopurchaseDelta, type PairRow, type Tally } from "../core/recs/copurchase.js";
import type { MerchantId } from "../core/types.js";
import { merchantRange, type Key } from "./merchant-keys.js";

/** One slice's carts, flattened: [product, weight, count] per item, [product, partner, weight, count] per pair. */
interface CartChanges {
  items: number[];
  pairs: number[];
}

export class CopurchaseCounts {
  /** [merchant, product] → the product's basket weight. */
  private readonly items: Database<Tally, Key>;
  /** [merchant, product] → its co-occurrence row. */
  private readonly rows: Database<PairRow, Key>;
  /** [merchant, last event sequence of the slice] → carts not folded into items and rows yet. */
  private readonly cartChanges: Database<CartChanges, Key>;

  constructor(root: RootDatabase) {
    const options = { encoding: "msgpack", sharedStructuresKey: Symbol.for("structures") } as const;
    this.items = root.openDB<Tally, Key>({ name: "copurchase_items", ...options });
    this.rows = root.openDB<PairRow, Key>({ name: "copurchase_pairs", ...options });
    this.cartChanges = root.openDB<CartChanges, Key>({ name: "copurchase_cart_changes", ...options });
  }

  /** The product's basket weight, without carts that are not folded in yet. */
  item(merchant: MerchantId, productId: number): Tally | undefined {
    return this.items.get([merchant, productId]);
  }

  /** The product's row, without carts that are not folded in yet. */
  row(merchant: MerchantId, productId: number): PairRow | undefined {
    return this.rows.get([merchant, productId]);
  }

  /** Products with a basket weight. */
  productIds(merchant: MerchantId): number[] {
    return [...this.items.getKeys(merchantRange(merchant)).map((key) => key[1] as number)];
  }

  /** Applies changes (of orders, a rebuild or folded carts) to items and rows in the caller's write transaction, each touched row rewritten once. */
  applyChanges(merchant: MerchantId, delta: CopurchaseDelta): void {
    for (const [id, change] of delta.items) {
      const item = applyItemDelta(this.items.get([merchant, id]), change);
      if (item) this.items.put([merchant, id], item);
      else this.items.remove([merchant, id]);
    }
    for (const [id, change] of delta.pairs) {
      const row = applyRowDelta(this.rows.get([merchant, id]), change);
      if (row.ids.length > 0) this.rows.put([merchant, id], row);
      else this.rows.remove([merchant, id]);
    }
  }

  /** Logs a slice's carts, in the caller's write transaction; foldCarts applies them. Keys must grow. */
  addCarts(merchant: MerchantId, sequence: number, delta: CopurchaseDelta): void {
    const changes: CartChanges = { items: [], pairs: [] };
    for (const [id, { weight, count }] of delta.items) changes.items.push(id, weight, count);
    for (const [id, partners] of delta.pairs)
      for (const [partner, { weight, count }] of partners) changes.pairs.push(id, partner, weight, count);
    this.cartChanges.put([merchant, sequence], changes);
  }

  /** Applies every logged slice of carts to items and rows, in the caller's write transaction. */
  foldCarts(merchant: MerchantId): void {
    const delta = new CopurchaseDelta();
    const folded: Key[] = [];
    for (const { key, value } of this.cartChanges.getRange(merchantRange(merchant))) {
      const { items, pairs } = value;
      for (let i = 0; i < items.length; i += 3) delta.addToItem(items[i]!, items[i + 1]!, items[i + 2]!);
      for (let i = 0; i < pairs.length; i += 4) delta.addToPair(pairs[i]!, pairs[i + 1]!, pairs[i + 2]!, pairs[i + 3]!);
      folded.push(key);
    }
    if (folded.length === 0) return;
    this.applyChanges(merchant, delta);
    for (const key of folded) this.cartChanges.remove(key);
  }

  /** Removes the merchant's statistics, in the caller's write transaction. */
  clear(merchant: MerchantId): void {
    for (const db of [this.items, this.rows, this.cartChanges]) for (const key of [...db.getKeys(merchantRange(merchant))]) db.remove(key);
  }
}
