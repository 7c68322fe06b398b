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

const TOPICS: Readonly<Record<string, WebhookAction>> = {
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
};

export const WEBHOOK_TOPICS = Object.keys(TOPICS);

/** Only the table's own topics: a topic is the client's text, and "toString" or "__proto__" is in every object. */
export function webhookAction(topic: string): WebhookAction | undefined {
  return Object.hasOwn(TOPICS, topic) ? TOPICS[topic] : undefined;
}
