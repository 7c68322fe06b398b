import { EVENT_RECORDED } from "../../core/api/answers.js";
import { ANALYTICS_EVENT } from "../../core/api/endpoints.js";
import type { BehaviourEvent } from "../../core/types.js";
import { ApiError } from "../../errors.js";
import type { EventWriter } from "../../ingest/event-writer.js";
import { ProductIdsByHandle } from "../../stores/product-ids-by-handle.js";
import { merchantForKey } from "../auth.js";
import { keySubject } from "../rate-limiting.js";
import { parseQueryParams, requireSessionOrCustomerIn } from "../request.js";
import { jsonReply } from "../respond.js";
import type { Route } from "../router.js";
import type { Services } from "../services.js";
import { withSeq } from "../stream-sequence.js";

/** The same answer for every recorded event, serialised once. */
const RECORDED = jsonReply(200, EVENT_RECORDED);

/**
 * POST /api/v1/analytics/event: validated on this thread and logged from
 * it, acknowledged only after the LMDB commit that logs it is flushed to
 * disk. Concurrent events share commits, so throughput grows with load while
 * each acknowledgement waits about one commit; histories and counts follow
 * (see EventWriter).
 */
export function eventRoutes(services: Services, writer: EventWriter): Route[] {
  const { store } = services;
  const productIds = new ProductIdsByHandle({
    productIdByHandle: (merchant, handle) => store.catalogue.productIdByHandle(merchant, handle),
    catalogueVersion: (merchant) => store.recentVersions.of(merchant, "catalogue"),
  });
  return [
    {
      method: "POST",
      pattern: ANALYTICS_EVENT.path,
      cors: true,
      // Parameters travel in the query string; a body, if any, is ignored.
      readsBody: false,
      errorStyle: ANALYTICS_EVENT.errorStyle,
      limit: { rateClass: "events", subjectOf: (request) => keySubject(store, request.query.get("key")?.trim() || null) },
      handle(request) {
        requireSessionOrCustomerIn(request.query);
        const params = parseQueryParams(ANALYTICS_EVENT, request.query);
        const merchant = merchantForKey(store, params.key);
        const uuid = params.uuid ?? null;
        let customerId = params.platform_customer_id ?? null;
        const handle = params.platform_product_handle;
        const productId = productIds.get(merchant.id, handle);
        if (productId === undefined) throw new ApiError("invalid_params", `Unknown platform_product_handle: ${handle}`);
        if (customerId === null && params.subject_email !== undefined) {
          customerId = store.catalogue.customerIdByEmail(merchant.id, params.subject_email) ?? null;
        }
        const event: BehaviourEvent = {
          at: services.now(),
          uuid,
          customer_id: customerId,
          verb: params.verb,
          product_id: productId,
          theme_id: params.theme_id ?? null,
        };
        const validated = performance.now();
        // Not async: one promise per event on the busiest route.
        return writer.append(merchant.id, event).then((seq) => {
          services.metrics?.eventAcknowledged((performance.now() - validated) / 1000);
          // On a single box there is no sequence: the answer built once.
          return seq === undefined ? RECORDED : withSeq(RECORDED, seq);
        });
      },
    },
  ];
}
