// Orders, the customer → orders index, daily sales and the bought-together
// model (its counts, lists, list versions and stale marks): an order write
// moves all of them, and its customers' counters, in one transaction.
import type { Database } from "lmdb";
import {
  basketUnit,
  CopurchaseDelta,
  topNeighbours,
  type CopurchaseConfig,
  type PairRow,
  type Tally,
  type WeightedIds,
} from "../core/recs/copurchase.js";
import { addOrderChange, type SalesDelta } from "../core/recs/sales.js";
import type { MerchantId, Order } from "../core/types.js";
import type { CatalogueStore, Located } from "./catalogue-store.js";
import { CopurchaseCounts } from "./copurchase-counts.js";
import { CustomerPurchases } from "./customer-purchases.js";
import { DailyCounts, type CountChange } from "./daily-counts.js";
import type { Environment } from "./environment.js";
import { merchantRange, type Key } from "./merchant-keys.js";
import type { AppliedEventLog } from "./session-index.js";

export class OrderStore {
  /** [merchant, order id] → the order; the catalogue's listings page through it too (idsAfter, countOf). */
  readonly table: Database<Order, Key>;
  private readonly customerOrders: Database<true, Key>;
  /** Each customer's purchases summed, written with their orders (a derived build of its own). */
  readonly purchases: CustomerPurchases;
  /** Units sold per day and product: an order touches only its own lines. */
  readonly dailySales: DailyCounts;
  private readonly coCounts: CopurchaseCounts;
  private readonly coNeighbours: Database<WeightedIds, Key>;
  private readonly coListVersions: Database<number, Key>;
  /** [merchant, product] of bought-together lists that carts changed and that are not recomputed yet. */
  private readonly staleLists: Database<true, Key>;

  constructor(
    private readonly env: Environment,
    /** The bought-together model's settings; evaluations try others. */
    readonly copurchase: CopurchaseConfig,
    /** Whose order counters an order write recounts. */
    private readonly customers: Pick<CatalogueStore, "recountCustomers">,
    /** Where a rebuild replays the applied carts from. */
    private readonly appliedLog: AppliedEventLog,
  ) {
    this.table = env.table("orders");
    this.customerOrders = env.table("customer_orders");
    this.purchases = new CustomerPurchases(env.table("customer_purchases"), {
      ordersOfCustomer: (merchant, customerId) => this.ordersOfCustomer(merchant, customerId),
      customersWithOrdersAfter: (merchant, after, limit) => this.customersWithOrdersAfter(merchant, after, limit),
    });
    this.dailySales = new DailyCounts(env.root, "sales_by_day_product", "sales_day_stamps");
    this.coCounts = new CopurchaseCounts(env.root);
    this.coNeighbours = env.table("copurchase_neighbours");
    this.coListVersions = env.table("copurchase_list_versions");
    this.staleLists = env.table("copurchase_stale_lists");
  }

  order(merchant: MerchantId, id: number): Order | undefined {
    return this.table.get([merchant, id]);
  }

  ordersOfCustomer(merchant: MerchantId, customerId: number): Order[] {
    const range = this.customerOrders.getKeys({ start: [merchant, customerId], end: [merchant, customerId + 1] });
    const found: Order[] = [];
    for (const key of range) {
      const order = this.table.get([merchant, key[2] as number]);
      if (order) found.push(order);
    }
    return found;
  }

  /** Up to `limit` ids of customers with orders after `after` (null: from the first), in order. */
  customersWithOrdersAfter(merchant: MerchantId, after: number | null, limit: number): number[] {
    const ids: number[] = [];
    let start: Key = after === null ? [merchant] : [merchant, after + 1];
    while (ids.length < limit) {
      // One key per customer: the range starts again after each customer found.
      const [key] = this.customerOrders.getKeys({ start, end: merchantRange(merchant).end, limit: 1 });
      if (key === undefined || typeof key[1] !== "number") break;
      ids.push(key[1]);
      start = [merchant, key[1] + 1];
    }
    return ids;
  }

  /** Every order of a merchant, in id order (model rebuilds and evaluations). */
  *allOrders(merchant: MerchantId): Generator<Order> {
    for (const { value } of this.table.getRange(merchantRange(merchant))) yield value;
  }

  /**
   * Orders, the customer index, daily sales and the bought-together model move
   * together in one transaction, so the next request sees all of it. Bulk loads
   * pass `deferNeighbours` and call rebuildNeighbours once at the end.
   */
  async upsertOrders(merchant: MerchantId, items: Located<Order>[], options: { deferNeighbours?: boolean } = {}): Promise<void> {
    await this.env.root.childTransaction(() => {
      const sales: SalesDelta = new Map();
      const copurchase = new CopurchaseDelta();
      const customers = new Set<number>();
      for (const { value: order } of items) {
        const old = this.table.get([merchant, order.id]);
        if (old?.customer_id != null) {
          this.customerOrders.remove([merchant, old.customer_id, old.id]);
          customers.add(old.customer_id);
        }
        this.table.put([merchant, order.id], order);
        if (order.customer_id !== null) {
          this.customerOrders.put([merchant, order.customer_id, order.id], true);
          customers.add(order.customer_id);
        }
        addOrderChange(sales, old, order);
        copurchase.addOrderChange(old, order, this.copurchase);
      }
      // Each customer's orders read once, for their counters and their purchases.
      const ordersOf = new Map([...customers].map((id) => [id, this.ordersOfCustomer(merchant, id)]));
      if (this.customers.recountCustomers(merchant, customers, (id) => ordersOf.get(id)!)) this.env.bump(merchant, "customers");
      this.purchases.summarise(merchant, customers, (id) => ordersOf.get(id)!);
      this.dailySales.add(merchant, salesChanges(sales));
      // The carts applied so far first, so the lists recomputed below count them (their stale marks stay).
      this.coCounts.foldCarts(merchant);
      this.coCounts.applyChanges(merchant, copurchase);
      if (!options.deferNeighbours) this.refreshNeighbours(merchant, copurchase.touched);
      this.env.bump(merchant, "orders");
    });
  }

  /**
   * Rebuilds the bought-together model of a merchant from all its orders: after
   * a change of model settings, or to repair drift. Orders are read in id order
   * and counted in memory, then written in chunked transactions.
   */
  async rebuildCopurchase(merchant: MerchantId): Promise<void> {
    const delta = new CopurchaseDelta();
    for (const order of this.allOrders(merchant)) delta.addOrderChange(undefined, order, this.copurchase);
    // Carts are replayed from the event log, in order, as writeDerived saw them, up to the
    // applied watermark as this snapshot has it. Run it with the service stopped (`aisle
    // rebuild`): carts the applier thread applies meanwhile would be cleared with the rest.
    const carts = new Map<string, number[]>();
    const derived = this.appliedLog.derivedSequence(merchant);
    for (const { sequence, event } of this.appliedLog.eventsSince(merchant, 0)) {
      if (sequence > derived) break;
      if (event.verb !== "added" || event.uuid === null) continue;
      const cart = carts.get(event.uuid) ?? [];
      delta.addCartItem(cart, event.product_id, event.at, this.copurchase);
      cart.push(event.product_id);
      carts.set(event.uuid, cart);
    }
    await this.env.root.childTransaction(() => {
      this.coCounts.clear(merchant);
      for (const key of [...this.coNeighbours.getKeys(merchantRange(merchant))]) this.coNeighbours.remove(key);
    });
    const ids = [...delta.items.keys()];
    const CHUNK = 5_000;
    for (let start = 0; start < ids.length; start += CHUNK) {
      const part = new CopurchaseDelta();
      for (const id of ids.slice(start, start + CHUNK)) {
        part.items.set(id, delta.items.get(id)!);
        const row = delta.pairs.get(id);
        if (row) part.pairs.set(id, row);
      }
      await this.env.root.childTransaction(() => this.coCounts.applyChanges(merchant, part));
    }
    await this.rebuildNeighbours(merchant);
  }

  /** Recomputes every neighbour list of a merchant from the stored co-occurrence rows. */
  async rebuildNeighbours(merchant: MerchantId): Promise<void> {
    await this.env.root.childTransaction(() => this.coCounts.foldCarts(merchant));
    const ids = this.coCounts.productIds(merchant);
    const CHUNK = 2_000;
    for (let start = 0; start < ids.length; start += CHUNK) {
      await this.env.root.childTransaction(() => this.refreshNeighbours(merchant, ids.slice(start, start + CHUNK)));
    }
    await this.env.root.childTransaction(() => this.env.bump(merchant, "orders"));
  }

  /**
   * The model's sufficient statistics: basket weight of a product and its
   * co-occurrence row, with the carts folded in by the last list refresh.
   */
  copurchaseCounts(merchant: MerchantId, productId: number): { item: Tally | undefined; row: PairRow | undefined } {
    return { item: this.coCounts.item(merchant, productId), row: this.coCounts.row(merchant, productId) };
  }

  /** Bumped whenever the product's neighbour list is rewritten: cached answers for it go stale. */
  copurchaseListVersion(merchant: MerchantId, productId: number): number {
    return this.coListVersions.get([merchant, productId]) ?? 0;
  }

  copurchaseNeighbours(merchant: MerchantId, productId: number): WeightedIds | undefined {
    return this.coNeighbours.get([merchant, productId]);
  }

  /** Logs applied carts for the next list refresh to fold into the counts (in the caller's transaction). */
  addCarts(merchant: MerchantId, through: number, carts: CopurchaseDelta): void {
    this.coCounts.addCarts(merchant, through, carts);
  }

  /** Marks the products' lists as stale, in the caller's transaction. */
  markListsStale(merchant: MerchantId, productIds: readonly number[]): void {
    // Under load most are marked already, and a put would dirty their page again.
    for (const id of productIds) if (!this.staleLists.doesExist([merchant, id])) this.staleLists.put([merchant, id], true);
  }

  /** Products whose bought-together lists applied carts changed and no refresh has recomputed yet (they survive a restart). */
  staleListProducts(merchant: MerchantId, limit = Number.POSITIVE_INFINITY): number[] {
    return [...this.staleLists.getKeys({ ...merchantRange(merchant), limit })].map((key) => (key as Key)[1] as number);
  }

  /**
   * Folds the carts applied so far into the counts, recomputes the
   * bought-together lists of these products from them, and clears their stale
   * marks, in one transaction.
   */
  refreshNeighboursSync(merchant: MerchantId, productIds: readonly number[]): void {
    this.env.root.transactionSync(() => this.refreshLists(merchant, productIds));
  }

  /** Every list the carts left stale, also those an interrupted service left, refreshed in the caller's transaction. */
  refreshStaleLists(merchant: MerchantId): void {
    this.refreshLists(merchant, this.staleListProducts(merchant));
  }

  private refreshLists(merchant: MerchantId, productIds: readonly number[]): void {
    this.coCounts.foldCarts(merchant);
    this.refreshNeighbours(merchant, productIds);
    for (const id of productIds) this.staleLists.remove([merchant, id]);
  }

  private refreshNeighbours(merchant: MerchantId, ids: Iterable<number>): void {
    const unit = basketUnit(Date.now(), this.copurchase);
    // Touched products share partners: read each partner's weight once per refresh.
    const weights = new Map<number, number>();
    const weightOf = (id: number) => {
      let weight = weights.get(id);
      if (weight === undefined) {
        weight = this.coCounts.item(merchant, id)?.weight ?? 0;
        weights.set(id, weight);
      }
      return weight;
    };
    for (const id of ids) {
      const row = this.coCounts.row(merchant, id);
      const weight = weightOf(id);
      const neighbours = row && weight > 0 ? topNeighbours(weight, row, weightOf, this.copurchase, unit) : null;
      if (neighbours && neighbours.ids.length > 0) this.coNeighbours.put([merchant, id], neighbours);
      else this.coNeighbours.remove([merchant, id]);
      this.coListVersions.put([merchant, id], this.copurchaseListVersion(merchant, id) + 1);
    }
  }
}

function* salesChanges(sales: SalesDelta): Generator<CountChange> {
  for (const [day, change] of sales) for (const [productId, units] of change) yield [day, productId, units];
}
