// What a recommendation's answer depends on, per model, as the response cache
// keys it: an answer lives exactly as long as the data it was computed from.
// Read on the HTTP thread for every request, hits included: the versions
// come from Store.recentVersions.
import type { RecommendationContext, RecommendationInputs } from "../core/products/query.js";
import type { MerchantId } from "../core/types.js";
import type { DataDomain } from "./environment.js";
import type { Store } from "./store.js";

export interface AnswerDependencies {
  /** Data whose every change invalidates the answer. */
  dependsOn: DataDomain[];
  /** Finer versions the answer depends on: the input products' model lists. */
  versionTag: string;
}

export function recommendationDependencies(
  store: Store,
  merchant: MerchantId,
  context: RecommendationContext,
  inputs: RecommendationInputs,
): AnswerDependencies {
  // Similar lists change when the model or a product changes, never with an order.
  if (context === "similar") return { dependsOn: ["catalogue", "similar"], versionTag: "" };
  // An order changes the answer only through the inputs' neighbour lists, so
  // the cache follows those lists' versions rather than every order, and the
  // shop's trained model's generation. A collection's inputs are too many to
  // list: any order invalidates those.
  const ids = [...inputs.productIds, ...inputs.variantIds.map((id) => store.catalogue.productIdByVariant(merchant, id) ?? 0)];
  return {
    dependsOn: inputs.collectionId === null ? ["catalogue"] : ["catalogue", "orders"],
    versionTag: `${store.recentVersions.of(merchant, "fbt_generation")}:${ids.map((id) => store.recentVersions.copurchaseList(merchant, id)).join(",")}`,
  };
}
