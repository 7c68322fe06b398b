// GET /api/v1/custom/id/:source_id: a merchant's custom source, computed in the
// pool like every product list and cached by the versions of what it reads,
// the merchant's sources version among them, so a rule change shows on the
// next request. A source id the key's merchant lacks is a 404, whoever else has it.
import { CUSTOM_SOURCE } from "../../core/api/endpoints.js";
import type { CartLine } from "../../core/params/definitions.js";
import type { ParsedParams } from "../../core/params/parse.js";
import { listOptionsFrom } from "../../core/products/query.js";
import type { CustomSource } from "../../core/sources/definition.js";
import { sourceNeeds, type SourceNeeds } from "../../core/sources/needs.js";
import type { CustomSourceTask } from "../../core/sources/task.js";
import type { MerchantId } from "../../core/types.js";
import { ApiError } from "../../errors.js";
import { NO_PENDING } from "../../ingest/pending-events.js";
import { PerStore } from "../../stores/per-store.js";
import { recommendationDependencies } from "../../stores/recommendation-versions.js";
import type { DataDomain } from "../../stores/environment.js";
import type { Store } from "../../stores/store.js";
import { quoted } from "../request.js";
import type { Route } from "../router.js";
import type { Services } from "../services.js";
import { productEndpoint, type ProductPlan } from "./product-endpoint.js";

interface KnownSource {
  source: CustomSource;
  needs: SourceNeeds;
}

/** A merchant's sources as of one version of them: read once per version, not per request. */
interface KnownSources {
  version: number;
  byId: Map<string, KnownSource>;
}

const knownByStore = new PerStore<MerchantId, KnownSources>();

/** The merchant's custom sources, in id order. */
export function merchantSources(store: Store, merchant: MerchantId): KnownSources {
  const memo = knownByStore.of(store);
  const version = store.recentVersions.of(merchant, "custom_sources");
  const known = memo.get(merchant);
  if (known && known.version === version) return known;
  const byId = new Map(store.customSources.list(merchant).map(({ source }) => [source.id, { source, needs: sourceNeeds(source) }]));
  const fresh = { version, byId };
  memo.set(merchant, fresh);
  return fresh;
}

type CustomParams = ParsedParams<typeof CUSTOM_SOURCE.params>;

/**
 * The cart's lines: the cart parameter, or a line per cart_variant_ids value
 * and per cart_product_ids value, quantities in the order of the variant ids
 * (of the product ids when no variant ids are given).
 */
function cartOf(params: CustomParams): CartLine[] {
  if (params.cart !== undefined) return params.cart;
  const variantIds = params.cart_variant_ids ?? [];
  const productIds = params.cart_product_ids ?? [];
  const quantities = params.cart_quantities;
  const counted = variantIds.length > 0 ? "cart_variant_ids" : "cart_product_ids";
  const lines = variantIds.length > 0 ? variantIds.length : productIds.length;
  if (quantities !== undefined && quantities.length !== lines)
    throw new ApiError("invalid_params", `Invalid cart_quantities: ${quantities.length} quantities for ${lines} ${counted} values`);
  const quantity = (i: number) => quantities?.[i] ?? 1;
  return [
    ...variantIds.map((variantId, i) => ({ product_id: null, variant_id: variantId, quantity: quantity(i) })),
    ...productIds.map((productId, i) => ({ product_id: productId, variant_id: null, quantity: variantIds.length > 0 ? 1 : quantity(i) })),
  ];
}

export function customSourceRoute(services: Services): Route {
  const { store } = services;
  return productEndpoint(services, CUSTOM_SOURCE, (params, merchant, request): ProductPlan => {
    const sourceId = request.params.source_id ?? "";
    const sources = merchantSources(store, merchant.id);
    const known = sources.byId.get(sourceId);
    if (!known) throw new ApiError("not_found", `No source ${quoted(sourceId)}`);
    const cart = cartOf(params);
    const inputs = {
      productIds: params.platform_product_ids ?? [],
      variantIds: params.platform_variant_ids ?? [],
      collectionId: params.platform_collection_id ?? null,
    };
    const customerId = params.platform_customer_id ?? null;
    const uuid = params.uuid ?? null;
    const { needs } = known;
    const reachesHistory = needs.history && (uuid !== null || customerId !== null);
    const task: CustomSourceTask = {
      kind: "custom_source",
      merchantId: merchant.id,
      sourceId,
      inputs,
      cart,
      customerId,
      uuid,
      pending: reachesHistory ? services.pendingEvents.pendingFor(merchant.id, { uuid, customerId, verb: "viewed" }) : NO_PENDING,
      // Merchants' lists are ranked lists: exclude_service and unpublished products are never shown.
      list: listOptionsFrom(params, CUSTOM_SOURCE.answer.projection, { ranked: true }),
    };
    const dependsOn: DataDomain[] = ["catalogue"];
    if (needs.similar) dependsOn.push("similar");
    if (needs.rankings) dependsOn.push("rankings");
    if (needs.customer) dependsOn.push("orders", "customers");
    // recommended reads the input products' lists, or the cart's: both are in the key.
    const boughtTogether = needs.boughtTogether
      ? recommendationDependencies(store, merchant.id, "bought_together", {
          productIds: [...inputs.productIds, ...cart.flatMap((line) => (line.product_id === null ? [] : [line.product_id]))],
          variantIds: [...inputs.variantIds, ...cart.flatMap((line) => (line.variant_id === null ? [] : [line.variant_id]))],
          collectionId: inputs.collectionId,
        })
      : null;
    if (boughtTogether) dependsOn.push(...boughtTogether.dependsOn.filter((domain) => !dependsOn.includes(domain)));
    return {
      task,
      dependsOn,
      versionTag: `${sourceId}@${sources.version}|${boughtTogether?.versionTag ?? ""}`,
      ttlMs: services.config.behaviourCacheTtlMs,
      cacheable: !reachesHistory,
    };
  });
}
