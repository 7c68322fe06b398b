import type { CartLine } from "../params/definitions.js";
import type { ListOptions, PendingHistory, RecommendationInputs } from "../products/query.js";
import type { MerchantId } from "../types.js";

/** A custom source's answer to compute, as it crosses to a worker. */
export interface CustomSourceTask {
  kind: "custom_source";
  merchantId: MerchantId;
  sourceId: string;
  /** The input products (with the variants' products) and the collection recommended and top sellers rank within. */
  inputs: RecommendationInputs;
  cart: CartLine[];
  customerId: number | null;
  uuid: string | null;
  /** The shopper's acknowledged views the stored histories may lack (for the viewed and viewed-related sources). */
  pending: PendingHistory;
  list: ListOptions;
}
