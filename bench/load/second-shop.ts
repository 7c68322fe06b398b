// A second merchant beside the demo, created through the admin API as an
// operator would: a small shop of its own key and products, so two keys load
// one server (the abuse suite floods from this one).
import { STATIC_PRODUCTS } from "../../src/core/api/endpoints.js";
import { adminPost } from "../shared/admin-api.js";
import { fetchOk } from "./scenario.js";

export interface SecondShop {
  merchant: string;
  apiKey: string;
  productIds: number[];
}

const MERCHANT = "second";
const PRODUCTS = 12;
/** Ids far from the demo's, so a mix-up of keys would answer no products rather than the other shop's. */
const FIRST_ID = 9_000_000_001;

/** One product in the admin API's (the platform's Admin REST) shape: one variant in stock. */
function product(id: number, n: number): Record<string, unknown> {
  const kinds = ["mug", "lantern", "blanket", "candle"];
  const kind = kinds[n % kinds.length]!;
  return {
    id,
    title: `Second shop ${kind} ${n + 1}`,
    body_html: `<p>A ${kind} of the second shop.</p>`,
    vendor: "Second",
    product_type: kind,
    handle: `second-${kind}-${n + 1}`,
    tags: `${kind}, second`,
    created_at: "2026-01-02T10:00:00-05:00",
    updated_at: "2026-01-03T10:00:00-05:00",
    published_at: "2026-01-02T10:00:00-05:00",
    variants: [
      {
        id: id * 10 + 1,
        title: "Default Title",
        price: `${10 + n}.00`,
        sku: `SECOND-${n + 1}`,
        inventory_quantity: 50,
        inventory_policy: "deny",
        inventory_management: "platform",
        option1: "Default Title",
      },
    ],
    options: [{ id: id * 10, name: "Title", position: 1, values: ["Default Title"] }],
    images: [],
  };
}

/** Creates the merchant and its products, then checks its key lists them. */
export async function createSecondShop(origin: string, adminToken: string): Promise<SecondShop> {
  const created = (await adminPost(origin, adminToken, "/admin/v1/merchants", {
    id: MERCHANT,
    name: "Second shop",
    domain: "second.example.com",
    currency: "EUR",
  })) as { api_key: string };
  const productIds = Array.from({ length: PRODUCTS }, (_, n) => FIRST_ID + n);
  const written = (await adminPost(
    origin,
    adminToken,
    `/admin/v1/merchants/${MERCHANT}/products`,
    productIds.map((id, n) => product(id, n)),
  )) as { written: number };
  if (written.written !== PRODUCTS) throw new Error(`the second shop's import wrote ${written.written} of ${PRODUCTS} products`);
  const listed = JSON.parse(
    Buffer.from(await fetchOk(`${origin}${STATIC_PRODUCTS.path}?key=${created.api_key}&ids=${productIds.join(",")}&limit=50`)).toString(
      "utf8",
    ),
  ) as { data: unknown[] };
  if (listed.data.length !== PRODUCTS) throw new Error(`the second shop's key lists ${listed.data.length} of its ${PRODUCTS} products`);
  return { merchant: MERCHANT, apiKey: created.api_key, productIds };
}
