import { createHmac, timingSafeEqual } from "node:crypto";
import type { IngestKind } from "./ingest.js";

/** The platform signs the raw body: base64 HMAC-SHA256 under the merchant's webhook secret. */
export function isValidSignature(secret: string, rawBody: Uint8Array, signature: string | undefined): boolean {
  if (!signature) return false;
  const expected = createHmac("sha256", secret).update(rawBody).digest();
  const given = Buffer.from(signature, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function signWebhook(secret: string, rawBody: string | Uint8Array): string {
  return createHmac("sha256", secret).update(rawBody).digest("base64");
}

export type WebhookAction = { type: "upsert"; kind: IngestKind } | { type: "delete"; kind: "products" | "collections" };

// A Map, not an object: a topic is the client's text, and "toString" or "__proto__" would find what every object inherits.
const TOPICS: ReadonlyMap<string, WebhookAction> = new Map(
  Object.entries({
    "products/create": { type: "upsert", kind: "products" },
    "products/update": { type: "upsert", kind: "products" },
    "products/delete": { type: "delete", kind: "products" },
    "collections/create": { type: "upsert", kind: "collections" },
    "collections/update": { type: "upsert", kind: "collections" },
    "collections/delete": { type: "delete", kind: "collections" },
    "customers/create": { type: "upsert", kind: "customers" },
    "customers/update": { type: "upsert", kind: "customers" },
    "orders/create": { type: "upsert", kind: "orders" },
    "orders/updated": { type: "upsert", kind: "orders" },
    // A cancelled order arrives with cancelled_at set: storing it is the whole job.
    "orders/cancelled": { type: "upsert", kind: "orders" },
  } satisfies Record<string, WebhookAction>),
);

export const WEBHOOK_TOPICS = [...TOPICS.keys()];

export function webhookAction(topic: string): WebhookAction | undefined {
  return TOPICS.get(topic);
}
