// What product lists read instead of decoding products: per product its
// eligibility record and its JSON in each projection, and per market the
// prices it sells the product at, for the products whose JSON they change.
// Written in the transaction of every catalogue write that changes them
// (products, markets), so they never disagree with the catalogue, also across
// a crash; rebuilt from the catalogue when a data dir lacks them (DerivedBuild).
// Opened by Store (src/stores/store.ts), which owns the LMDB environment;
// read by pool workers through merchantCatalog (src/stores/catalog.ts).
import type { Database, RootDatabase } from "lmdb";
import { decodeEligibility, eligibilityOf, encodeEligibility, type Eligibility } from "../core/products/eligibility.js";
import { decodeMarketPricing, encodeMarketPricing, marketPricingOf, type MarketPricing } from "../core/products/market-pricing.js";
import type { Projection } from "../core/products/projection.js";
import { encodeStoredJson } from "../core/products/stored-json.js";
import type { MerchantId, Product, VariantPrice } from "../core/types.js";
import type { DerivedBuild } from "./derived-builds.js";
import { merchantRange, type Key } from "./merchant-keys.js";

/** The catalogue reads the render data is derived from. */
export interface RenderSource {
  product(merchant: MerchantId, id: number): Product | undefined;
  productIdsAfter(merchant: MerchantId, after: number | null, limit: number): number[];
  productIdByVariant(merchant: MerchantId, variantId: number): number | undefined;
  marketIds(merchant: MerchantId): number[];
  marketPrice(merchant: MerchantId, marketId: number, variantId: number): VariantPrice | undefined;
}

const PROJECTIONS: readonly Projection[] = ["full", "reduced"];

/** Products per build slice: each costs about 0.2 ms (decode, two projections and their compression, its market prices). */
const BUILD_SLICE = 16;

/**
 * LZ4 with a dictionary of what every product's JSON repeats (the spec's
 * field names in the projections' order, common values), which roughly halves
 * what the default dictionary leaves of a product's JSON. The stored values
 * can only be read with the dictionary they were written with: changing it
 * means a new `layout`.
 */
const JSON_DICTIONARY = Buffer.from(
  JSON.stringify({
    id: 1,
    title: "",
    body_html: "<p></p>",
    vendor: "",
    product_type: "",
    handle: "",
    status: "active",
    tags: "",
    created_at: "2026-01-01T00:00:00+00:00",
    updated_at: "2026-01-01T00:00:00+00:00",
    published_at: "2026-01-01T00:00:00+00:00",
    template_suffix: null,
    published_scope: "web",
    admin_graphql_api_id: "gid://platform/Product/1",
    variants: [
      {
        id: 1,
        product_id: 1,
        title: "Default Title",
        price: "0.00",
        compare_at_price: null,
        sku: "",
        position: 1,
        inventory_policy: "deny",
        fulfillment_service: "manual",
        inventory_management: "platform",
        option1: null,
        option2: null,
        option3: null,
        created_at: "2026-01-01T00:00:00+00:00",
        updated_at: "2026-01-01T00:00:00+00:00",
        taxable: true,
        barcode: "",
        grams: 0,
        image_id: null,
        weight: 0,
        weight_unit: "lb",
        inventory_item_id: 1,
        inventory_quantity: 0,
        old_inventory_quantity: 0,
        requires_shipping: true,
        admin_graphql_api_id: "gid://platform/ProductVariant/1",
      },
      { id: 1, product_id: 1, title: "", price: "0.00", sku: "", compare_at_price: null, inventory_quantity: 0, option1: null },
    ],
    options: [{ id: 1, product_id: 1, name: "Title", position: 1, values: ["Default Title"] }],
    images: [
      {
        id: 1,
        product_id: 1,
        position: 1,
        created_at: "2026-01-01T00:00:00+00:00",
        updated_at: "2026-01-01T00:00:00+00:00",
        alt: null,
        width: 0,
        height: 0,
        src: "https://",
        variant_ids: [],
        admin_graphql_api_id: "gid://platform/ProductImage/1",
      },
      { id: 1, src: "https://", width: 0, height: 0 },
    ],
    image: { id: 1, src: "https://" },
  }),
);

export class ProductRenderStore implements DerivedBuild {
  readonly name = "product_render";
  readonly layout = 1;
  /** [merchant, product] → the product's eligibility record (encodeEligibility). */
  private readonly records: Database<Uint8Array, Key>;
  /** [merchant, product, projection] → the product's JSON (encodeStoredJson). */
  private readonly json: Database<Uint8Array, Key>;
  /** [merchant, market, product] → the market's prices of the product (encodeMarketPricing), when they change its JSON. */
  private readonly pricing: Database<Uint8Array, Key>;

  constructor(
    root: RootDatabase,
    private readonly source: RenderSource,
  ) {
    this.records = root.openDB<Uint8Array, Key>({ name: "product_render_records", encoding: "binary" });
    this.json = root.openDB<Uint8Array, Key>({
      name: "product_render_json",
      encoding: "binary",
      compression: { dictionary: JSON_DICTIONARY },
    });
    this.pricing = root.openDB<Uint8Array, Key>({ name: "product_render_market_prices", encoding: "binary" });
  }

  // ── reads ──

  eligibility(merchant: MerchantId, id: number): Eligibility | undefined {
    const bytes = this.records.getBinaryFast([merchant, id]);
    return bytes && decodeEligibility(bytes);
  }

  marketPricing(merchant: MerchantId, marketId: number, id: number): MarketPricing | null {
    const bytes = this.pricing.getBinaryFast([merchant, marketId, id]);
    return bytes ? decodeMarketPricing(bytes) : null;
  }

  /** A view, valid until the catalogue's next read: a list copies it into its answer at once, with no copy of its own. */
  storedJsonView(merchant: MerchantId, id: number, projection: Projection): Uint8Array | undefined {
    return this.json.getBinaryFast([merchant, id, projection]);
  }

  // ── writes, in the caller's transaction ──

  /** After the products were written. */
  writeProducts(merchant: MerchantId, products: readonly Product[]): void {
    const marketIds = this.source.marketIds(merchant);
    for (const product of products) this.write(merchant, product, marketIds);
  }

  removeProduct(merchant: MerchantId, id: number): void {
    this.records.remove([merchant, id]);
    for (const projection of PROJECTIONS) this.json.remove([merchant, id, projection]);
    for (const marketId of this.source.marketIds(merchant)) this.pricing.remove([merchant, marketId, id]);
  }

  /** After the market's price list was replaced by one pricing these variants. */
  rewriteMarket(merchant: MerchantId, marketId: number, pricedVariants: Iterable<number>): void {
    for (const key of this.pricing.getKeys({ start: [merchant, marketId], end: [merchant, marketId, "\uffff"] })) this.pricing.remove(key);
    const productIds = new Set<number>();
    for (const variantId of pricedVariants) {
      const productId = this.source.productIdByVariant(merchant, variantId);
      if (productId !== undefined) productIds.add(productId);
    }
    for (const id of productIds) {
      const product = this.source.product(merchant, id);
      if (product) this.writePricing(merchant, marketId, product);
    }
  }

  private write(merchant: MerchantId, product: Product, marketIds: readonly number[]): void {
    this.records.put([merchant, product.id], encodeEligibility(eligibilityOf(product)));
    for (const projection of PROJECTIONS) this.json.put([merchant, product.id, projection], encodeStoredJson(product, projection));
    for (const marketId of marketIds) this.writePricing(merchant, marketId, product);
  }

  private writePricing(merchant: MerchantId, marketId: number, product: Product): void {
    const pricing = marketPricingOf(product, (variantId) => this.source.marketPrice(merchant, marketId, variantId));
    if (pricing) this.pricing.put([merchant, marketId, product.id], encodeMarketPricing(pricing));
    else this.pricing.remove([merchant, marketId, product.id]);
  }

  // ── rebuild (DerivedBuild) ──

  clear(merchant: MerchantId): void {
    for (const db of [this.records, this.json, this.pricing]) {
      for (const key of db.getKeys(merchantRange(merchant))) db.remove(key);
    }
  }

  buildSlice(merchant: MerchantId, cursor: number | null): number | null {
    const ids = this.source.productIdsAfter(merchant, cursor, BUILD_SLICE);
    const marketIds = this.source.marketIds(merchant);
    for (const id of ids) this.write(merchant, this.source.product(merchant, id)!, marketIds);
    return ids.length < BUILD_SLICE ? null : ids[ids.length - 1]!;
  }
}
