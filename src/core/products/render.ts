import { ByteBuilder } from "../byte-builder.js";
import { jsonBytes } from "../json.js";
import type { MarketSettings } from "../types.js";
import type { RenderCatalog } from "./catalog.js";
import { showing, type Showing } from "./eligibility.js";
import type { MarketPricing } from "./market-pricing.js";
import { isSoldInMarket, marketForCountry, withMarketPrices } from "./market.js";
import { applyPriceFilter } from "./price-filter.js";
import { projectProduct, type FullProductJson, type OutputObject, type ReducedProductJson } from "./projection.js";
import { OWN_ANSWER, type AnswerMode, type ListOptions } from "./query.js";
import { pricedJson } from "./stored-json.js";

/** What an endpoint adds to a list's answer: fields on each product (after its own) and on the answer (after `data`). */
export interface ListAdditions {
  productFields?: (id: number) => OutputObject;
  answerFields?: OutputObject;
}

/** A candidate the list shows, with the market's prices for it (null: its own). */
interface Shown {
  id: number;
  pricing: MarketPricing | null;
  showing: Exclude<Showing, "hidden">;
}

const encoder = new TextEncoder();
/**
 * Every list answer of this thread is built in it, one at a time:
 * productListBody never awaits, and nothing it calls (candidates, fields) builds a list.
 */
const answer = new ByteBuilder();
const DATA_OPEN = encoder.encode('{"data":[');
const COMMA = 0x2c;

/**
 * The answer of a product list, `{"data":[…]}`: up to `limit` of the ranked
 * candidates that pass the list's filters, in order. Candidates are read
 * lazily and judged on their stored eligibility, so a ranking can offer many
 * more than `limit` and none of them is decoded. A shown product is its
 * stored JSON, with the market's prices spliced in; what the stored JSON
 * lacks (metafields, selling plans, variants unset_variants leaves out, pretty
 * printing) is rendered from the product itself, exactly as the stored JSON was.
 * `mode` bounds what the list may cost and says whether the answer may be a
 * view of this thread's list buffer (AnswerMode).
 */
export function productListBody(
  catalog: RenderCatalog,
  candidates: Iterable<number>,
  list: ListOptions,
  additions: ListAdditions = {},
  mode: AnswerMode = OWN_ANSWER,
): Uint8Array {
  // Markets are only read when asked for: their settings hold whole catalogues.
  const market = list.countryCode === null ? null : marketForCountry(catalog.markets(), list.countryCode);
  const shown = shownProducts(catalog, candidates, list, market, mode);
  const render = productRenderer(catalog, list, market);
  if (list.pretty) {
    const data = shown.map((product) => Object.assign(render(product), additions.productFields?.(product.id)));
    return jsonBytes({ data, ...additions.answerFields }, true);
  }
  const fromProduct = storedJsonLacks(list);
  let bytes = 0;
  const bytesAtMost = mode.budget?.bytes ?? Number.POSITIVE_INFINITY;
  answer.reset();
  answer.append(DATA_OPEN);
  shown.forEach((product, i) => {
    if (i > 0) answer.appendByte(COMMA);
    const fields = additions.productFields?.(product.id);
    // Appended before anything else is read: the stored JSON is a view the catalogue's next read overwrites.
    const json =
      fromProduct || product.showing === "passing_variants"
        ? encoder.encode(JSON.stringify(render(product)))
        : pricedJson(catalog.storedJsonView(product.id, list.projection)!, product.pricing);
    if ((bytes += json.length) > bytesAtMost) throw new OverBudget(`more than ${bytesAtMost} bytes of products`);
    appendWithFields(json, fields);
  });
  const members = additions.answerFields ? JSON.stringify(additions.answerFields).slice(1, -1) : "";
  answer.appendText(members === "" ? "]}" : `],${members}}`);
  // A view when the caller uses it at once (AnswerMode.transient); otherwise a buffer of its own, as it is moved between threads.
  return mode.transient ? answer.view() : answer.take();
}

/** Whether the list asks for what products' stored JSON lacks (metafields, selling plans), so each is rendered from the product itself. */
export function storedJsonLacks(list: ListOptions): boolean {
  return list.metafields.product !== null || list.metafields.variant !== null || (list.sellingPlans && list.projection === "full");
}

/**
 * The ids of the candidates a list with these options shows, in order, without
 * rendering them: for answers that arrange their products before rendering.
 */
export function shownProductIds(catalog: RenderCatalog, candidates: Iterable<number>, list: ListOptions): number[] {
  const market = list.countryCode === null ? null : marketForCountry(catalog.markets(), list.countryCode);
  return shownProducts(catalog, candidates, list, market, OWN_ANSWER).map((shown) => shown.id);
}

/** A list passed its AnswerMode.budget before it was done. */
export class OverBudget extends Error {}

function shownProducts(
  catalog: RenderCatalog,
  candidates: Iterable<number>,
  list: ListOptions,
  market: MarketSettings | null,
  mode: AnswerMode,
): Shown[] {
  const excluded = new Set(list.excludedIds);
  const allowed = list.restrictTo ? new Set(list.restrictTo) : null;
  const seen = new Set<number>();
  const shown: Shown[] = [];
  let judged = 0;
  const judgedAtMost = mode.budget?.judged ?? Number.POSITIVE_INFINITY;
  for (const id of candidates) {
    if (shown.length >= list.limit) break;
    if (++judged > judgedAtMost) throw new OverBudget(`judged ${judgedAtMost} candidates for ${list.limit} products`);
    if (seen.has(id) || excluded.has(id) || (allowed && !allowed.has(id))) continue;
    seen.add(id);
    if (!isSoldInMarket(id, market)) continue;
    const eligibility = catalog.eligibility(id);
    if (!eligibility) continue;
    // Prices are judged as sold in the market.
    const pricing = market === null ? null : catalog.marketPricing(market.id, id);
    const verdict = showing(eligibility, pricing?.cents ?? eligibility.cents, list);
    if (verdict !== "hidden") shown.push({ id, pricing, showing: verdict });
  }
  return shown;
}

/** Renders a shown product from the product itself: market prices, then the price conditions' variants, then the projection. */
function productRenderer(
  catalog: RenderCatalog,
  list: ListOptions,
  market: MarketSettings | null,
): (shown: Shown) => FullProductJson | ReducedProductJson {
  const priceOf = catalog.marketPrice.bind(catalog);
  const projection = {
    projection: list.projection,
    metafields: list.metafields,
    sellingPlans: list.sellingPlans,
    loadMetafields: catalog.metafields.bind(catalog),
  };
  return ({ id }) => {
    // Read in the snapshot its eligibility was read in: it exists, and some variant passes.
    const product = applyPriceFilter(withMarketPrices(catalog.product(id)!, market, priceOf), list.price, list.unsetVariants)!;
    return projectProduct(product, projection);
  };
}

/** Appends the product's JSON object with the fields added after its own, as assigning them to the object would serialize. */
function appendWithFields(json: Uint8Array, fields: OutputObject | undefined): void {
  const members = fields ? JSON.stringify(fields).slice(1, -1) : "";
  if (members === "") return answer.append(json);
  answer.append(json.subarray(0, json.length - 1));
  answer.appendText(`,${members}}`);
}
