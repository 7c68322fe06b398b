// The cluster bench's merchant: a demo-shaped shop created through a node's
// admin API (a cluster node seeds no demo: its data comes from the write
// stream alone), and the requests its load runs send: storefront events about
// its active products, and platform webhooks carrying its orders.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { chunksOf } from "../../src/core/chunks.js";
import { generateDemoStream, type DemoOrder } from "../../src/demo/generator.js";
import { signWebhook } from "../../src/ingest/webhook.js";
import { eventPaths } from "../load/load.js";
import { adminPost } from "../shared/admin-api.js";
import { ADMIN_TOKEN } from "./cluster-nodes.js";

const MERCHANT = "bench";
/**
 * Products per admin write, each write one stream message: a demo product is
 * about 3 KB of JSON (up to 10 KB), and nats-server refuses a message over its
 * max_payload, 1 MB by default.
 */
const PRODUCTS_PER_WRITE = 100;

export interface ClusterShop {
  merchant: string;
  apiKey: string;
  products: number;
  /** A file of event POST paths (the default bench's ingest rotation, on this shop's handles). */
  eventsFile: string;
  eventPaths: number;
  /** One event POST path of the shop: a single write whose answer names the stream's end. */
  markPath: string;
  /** A file of webhook requests, one order each: "path<TAB>body<TAB>headers…", as wrk's rotation script reads them. */
  ordersFile: string;
  orders: number;
}

/** One signed `orders/create` webhook per order: what a platform sends as orders are placed. */
function orderWebhooks(merchant: string, secret: string, orders: Iterable<DemoOrder>): string[] {
  const lines: string[] = [];
  for (const order of orders) {
    const body = JSON.stringify(order);
    lines.push(`/webhooks/${merchant}\t${body}\tX-Platform-Topic: orders/create\tX-Platform-Hmac-Sha256: ${signWebhook(secret, body)}`);
  }
  return lines;
}

/** Creates the merchant and its catalogue through `origin` (each write acknowledged once the stream holds it) and writes the request files to `scratch`. */
export async function createClusterShop(
  origin: string,
  scratch: string,
  size: { products: number; customers: number },
): Promise<ClusterShop> {
  const demo = generateDemoStream(size);
  const created = (await adminPost(origin, ADMIN_TOKEN, "/admin/v1/merchants", { ...demo.merchant, id: MERCHANT })) as {
    api_key: string;
    webhook_secret: string;
  };
  const { api_key: apiKey, webhook_secret: secret } = created;
  for (const part of chunksOf(demo.products, PRODUCTS_PER_WRITE))
    await adminPost(origin, ADMIN_TOKEN, `/admin/v1/merchants/${MERCHANT}/products`, part);

  const handles = demo.products.filter((product) => product.status === "active").map((product) => product.handle);
  const events = eventPaths(apiKey, handles);
  const eventsFile = join(scratch, "cluster-event-paths.txt");
  writeFileSync(eventsFile, `${events.join("\n")}\n`);
  const orders = orderWebhooks(MERCHANT, secret, demo.orders);
  const ordersFile = join(scratch, "cluster-order-webhooks.txt");
  writeFileSync(ordersFile, `${orders.join("\n")}\n`);
  return {
    merchant: MERCHANT,
    apiKey,
    products: demo.products.length,
    eventsFile,
    eventPaths: events.length,
    markPath: events[0]!,
    ordersFile,
    orders: orders.length,
  };
}
