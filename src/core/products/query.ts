import type { METAFIELD_PARAMS, P, PRICE_FILTER_PARAMS } from "../params/definitions.js";
import type { ParsedParams } from "../params/parse.js";
import type { MerchantId } from "../types.js";
import { metafieldSelector, type MetafieldSelection } from "./metafield-selection.js";
import { priceFilterFrom, type PriceFilter } from "./price-filter.js";
import type { Projection } from "./projection.js";

/** How a list of candidate products becomes a response: the same for every product endpoint. */
export interface ListOptions {
  limit: number;
  filterOos: boolean;
  filterUnpublished: boolean;
  excludedIds: number[];
  /** Only these products may appear (platform_product_ids on static); null: any. */
  restrictTo: number[] | null;
  countryCode: string | null;
  projection: Projection;
  metafields: MetafieldSelection;
  sellingPlans: boolean;
  pretty: boolean;
  /** null: no price condition. */
  price: PriceFilter | null;
  /** unset_variants=yes: drop variants failing the price conditions from returned products. */
  unsetVariants: boolean;
  /** Recommendation lists never show products tagged exclude_service. */
  honourExcludeServiceTag: boolean;
}

/**
 * How the thread answering a list wants it, apart from what the list is (its
 * task), so that the HTTP thread answers the very task it made: setting these
 * on a copy of the task's list would give that thread's lists a second shape
 * (see withListOptions).
 */
export interface AnswerMode {
  /**
   * What the list may cost before it gives up with OverBudget (null: no
   * bound). Set where the list is answered on a thread that must not stall:
   * filters that few products pass would otherwise walk a whole catalogue to
   * fill it, and products of huge descriptions copy megabytes.
   */
  budget: ListBudget | null;
  /**
   * The answer may be a view of this thread's list buffer, valid until its
   * next list: for a caller that uses it at once (the HTTP thread writes it,
   * or stamps it, and the cache copies it), and so saves a buffer of its own per answer.
   */
  transient: boolean;
}

/** An answer in a buffer of its own, at whatever cost: a pool worker's, moved to the HTTP thread and cached. */
export const OWN_ANSWER: AnswerMode = Object.freeze({ budget: null, transient: false });

export interface ListBudget {
  /** Candidates judged on their eligibility records. */
  judged: number;
  /** Bytes of stored JSON in the answer. */
  bytes: number;
}

/** Where static's products come from, in the order the caller gave them. */
export interface StaticSelection {
  ids: number[];
  handles: string[];
  collectionId: number | null;
  productIds: number[];
}

/** A product request as it crosses to a worker: plain data, no functions. */
export interface StaticProductsTask {
  kind: "static_products";
  merchantId: MerchantId;
  selection: StaticSelection;
  list: ListOptions;
}

/** The parameters a product list reads, of whichever endpoint it serves (each optional: not every endpoint has each). */
export type ListParams = Partial<
  ParsedParams<
    readonly [
      typeof P.limit,
      typeof P.filter_oos,
      typeof P.filter_unpublished,
      typeof P.excluded_ids,
      typeof P.country_code,
      typeof P.selling_plans,
      typeof P.format,
      typeof P.bust_cache,
      ...typeof METAFIELD_PARAMS,
      ...typeof PRICE_FILTER_PARAMS,
    ]
  >
>;

export type StaticSelectionParams = Partial<
  ParsedParams<readonly [typeof P.ids, typeof P.handles, typeof P.platform_collection_id, typeof P.platform_product_ids]>
>;

/**
 * `ranked`: a list the service ranks (a model's recommendations, shop-wide
 * rankings and their fallbacks), which never shows a product tagged
 * exclude_service nor one not published on the online store (draft, archived,
 * unpublished). Lists of the products a caller names (static, a shopper's own
 * history) show what was asked for, unless filter_unpublished says otherwise.
 */
export function listOptionsFrom(params: ListParams, projection: Projection, { ranked = false }: { ranked?: boolean } = {}): ListOptions {
  return listOptions({
    limit: params.limit ?? 5,
    filterOos: params.filter_oos !== false,
    filterUnpublished: ranked || params.filter_unpublished === true,
    excludedIds: params.excluded_ids ?? [],
    restrictTo: null,
    countryCode: params.country_code ?? null,
    projection,
    metafields: metafieldSelectionFrom(params),
    sellingPlans: params.selling_plans === true,
    pretty: params.format === true,
    price: priceFilterFrom(params),
    unsetVariants: params.unset_variants === true,
    honourExcludeServiceTag: ranked,
  });
}

/**
 * A list's options with some changed (a list's own exclusions, a recommendation's
 * collection). Every list made on the thread that makes its task is made by
 * listOptions, one object literal, so all its lists share one shape: a spread
 * copy (`{ ...list, limit }`) is an object of another shape than the
 * literal's, and the functions that read lists for every candidate (showing,
 * shownProducts) then meet several. On the HTTP thread, which answers cheap
 * list misses itself, one shape instead of spread copies (of each list, of
 * each task) answered 15-60% more of the demo's misses per second under wrk
 * at 10 connections (top sellers 17.5-18.9k -> 27.3-28.3k req/s). A pool
 * worker's tasks arrive by structured clone, which gives their lists a shape
 * of their own: two there.
 */
export function withListOptions<K extends keyof ListOptions>(list: ListOptions, changes: Pick<ListOptions, K>): ListOptions {
  return listOptions({ ...list, ...changes });
}

function listOptions(options: ListOptions): ListOptions {
  // Required: a field added to ListOptions but not here would be dropped from every list.
  const made: Required<ListOptions> = {
    limit: options.limit,
    filterOos: options.filterOos,
    filterUnpublished: options.filterUnpublished,
    excludedIds: options.excludedIds,
    restrictTo: options.restrictTo,
    countryCode: options.countryCode,
    projection: options.projection,
    metafields: options.metafields,
    sellingPlans: options.sellingPlans,
    pretty: options.pretty,
    price: options.price,
    unsetVariants: options.unsetVariants,
    honourExcludeServiceTag: options.honourExcludeServiceTag,
  };
  return made;
}

export function metafieldSelectionFrom(params: ListParams): MetafieldSelection {
  return {
    product: metafieldSelector(params.metafields === true, params.metafield_ns_key ?? [], params.metafield_ns ?? []),
    variant: metafieldSelector(
      params.variant_metafields === true,
      params.variant_metafield_ns_key ?? [],
      params.variant_metafield_ns ?? [],
    ),
  };
}

export function staticSelectionFrom(params: StaticSelectionParams): StaticSelection {
  return {
    ids: params.ids ?? [],
    handles: params.handles ?? [],
    collectionId: params.platform_collection_id ?? null,
    productIds: params.platform_product_ids ?? [],
  };
}

/** A list ranked from sales: trending (momentum) or top sellers (units over a window). */
export interface SalesListTask {
  kind: "trending" | "top_sellers";
  merchantId: MerchantId;
  list: ListOptions;
  collectionId: number | null;
  windowDays: number;
}

/** The inputs of a recommendation: products, variants (mapped to their products) and a collection. */
export interface RecommendationInputs {
  productIds: number[];
  variantIds: number[];
  collectionId: number | null;
}

/** Which model ranks a recommendation: co-purchase ("default") or the embedding model ("similar"). */
export type RecommendationContext = "bought_together" | "similar";

export interface RecommendedTask {
  kind: "recommended";
  merchantId: MerchantId;
  context: RecommendationContext;
  inputs: RecommendationInputs;
  list: ListOptions;
}

/** Whose history a session endpoint reads: a session, a customer, or both. */
export interface HistorySubject {
  uuid: string | null;
  customerId: number | null;
  verb: "viewed" | "added" | "removed";
}

/** One acknowledged event that the stored histories may not hold yet, as a task carries it. */
export interface PendingView {
  /** Its place in the merchant's event log: the worker keeps it only above the stored watermark. */
  sequence: number;
  product_id: number;
  verb: "viewed" | "added" | "removed";
  at: number;
}

/** The subject's acknowledged events not yet applied to its stored histories, oldest first. */
export interface PendingHistory {
  session: PendingView[];
  customer: PendingView[];
}

export interface ViewedTask {
  kind: "viewed" | "viewed_related";
  merchantId: MerchantId;
  subject: HistorySubject;
  /** Added to the stored histories: a view shows in viewed right after its acknowledgement. */
  pending: PendingHistory;
  list: ListOptions;
}

export interface PurchasedTask {
  kind: "purchased";
  merchantId: MerchantId;
  customerId: number;
  list: ListOptions;
}
