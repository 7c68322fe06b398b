import type { OperationDoc } from "../../core/api/openapi.js";
import { Fields } from "../../core/ingest/fields.js";
import { ApiError } from "../../errors.js";
import { deleteCommand, upsertCommand, type Writes } from "../../ingest/write-commands.js";
import { isValidSignature, webhookAction, WEBHOOK_TOPICS } from "../../ingest/webhook.js";
import { merchantSubject } from "../rate-limiting.js";
import { bodyJson, merchantInPath } from "../request.js";
import { jsonReply } from "../respond.js";
import type { Route } from "../router.js";
import type { Services } from "../services.js";
import { withSeq } from "../stream-sequence.js";

export const WEBHOOK_OPERATIONS: OperationDoc[] = [
  {
    method: "POST",
    path: "/webhooks/:merchant",
    operationId: "receiveWebhook",
    tag: "Webhooks",
    headers: [
      { name: "X-Platform-Topic", description: "What changed, e.g. products/update." },
      { name: "X-Platform-Hmac-Sha256", description: "Base64 HMAC-SHA256 of the body with the merchant's webhook secret." },
    ],
    summary: `Platform webhooks, signed with X-Platform-Hmac-Sha256; topics (X-Platform-Topic): ${WEBHOOK_TOPICS.join(", ")}`,
    requestBody: "the topic's object in the platform's Admin REST shape",
  },
];

/** Every write goes through `writes` (at once on a single box, through the stream on a cluster node). */
export function webhookRoutes(services: Services, writes: Writes): Route[] {
  const { store } = services;
  return [
    {
      method: "POST",
      pattern: "/webhooks/:merchant",
      cors: false,
      readsBody: true,
      readsHeaders: ["x-platform-hmac-sha256", "x-platform-topic"],
      errorStyle: "message",
      limit: {
        rateClass: "webhooks",
        // An unknown merchant is refused before its body is read, as a wrong signature would be.
        subjectOf(request) {
          const merchant = merchantInPath(store, request);
          if (!merchant) throw new ApiError("bad_signature");
          return merchantSubject(merchant);
        },
      },
      async handle(request) {
        const merchant = merchantInPath(store, request);
        // Verify before reading anything else: an unsigned body is not looked at. An unknown
        // merchant gets the same answer as a wrong signature, so merchant ids cannot be probed.
        const body = request.body ?? new Uint8Array(0);
        if (!merchant || !isValidSignature(merchant.webhook_secret, body, request.headers["x-platform-hmac-sha256"])) {
          throw new ApiError("bad_signature");
        }
        const topic = request.headers["x-platform-topic"] ?? "";
        const action = webhookAction(topic);
        if (!action)
          throw new ApiError("invalid_params", `Unsupported X-Platform-Topic "${topic}"; supported: ${WEBHOOK_TOPICS.join(", ")}`);
        const payload = bodyJson(request, topic);
        if (action.type === "upsert") {
          const { seq } = await writes.submit(upsertCommand(merchant.id, action.kind, [payload]));
          return withSeq(jsonReply(200, { ok: true }), seq);
        }
        const id = Fields.of(payload, topic).id("id");
        const { result: removed, seq } = await writes.submit(deleteCommand(merchant.id, action.kind, id));
        // Deleting what is already gone is success: the platform may deliver a webhook twice.
        return withSeq(jsonReply(200, { ok: true, deleted: removed ? id : null }), seq);
      },
    },
  ];
}
