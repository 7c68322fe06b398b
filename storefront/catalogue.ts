// Where the demo storefront's links and pictures point, and which price a product shows.

/** What a product card needs: products in either projection (and cart lines' products) have it. */
export interface CardProduct {
  id: number;
  handle: string;
  title: string;
  product_type: string;
  variants: readonly { price: string; compare_at_price: string | null }[];
  image: { src: string } | null;
}

export const productPath = (handle: string): string => `/demo/products/${encodeURIComponent(handle)}`;

export const collectionPath = (id: string, title: string): string =>
  `/demo/collections/${encodeURIComponent(id)}?title=${encodeURIComponent(title)}`;

/** The handle at the end of a storefront product address (search suggestions carry addresses, not handles). */
export function handleOf(productUrl: string): string {
  return decodeURIComponent(new URL(productUrl, location.origin).pathname.split("/").pop() ?? "");
}

/**
 * The demo catalogue's image addresses name a host that serves nothing
 * (https://cdn.aisle.example/demo/<handle>-<n>.jpg): aisle draws each one,
 * an SVG of the product's type and colour. Other addresses are shown as they are.
 */
const DEMO_IMAGE = /^https:\/\/cdn\.aisle\.example\/demo\/([\w-]+-\d+)\.jpg$/;

export function imageUrl(src: string): string {
  const match = DEMO_IMAGE.exec(src);
  return match ? `/demo/images/${match[1]}.svg` : src;
}

/** The price a product is shown at: its cheapest variant's, with that variant's compare-at price. */
export function shownPrice(product: Pick<CardProduct, "variants">): { price: number; compareAt: number | null } {
  let best: { price: number; compareAt: number | null } | null = null;
  for (const variant of product.variants) {
    const price = Number(variant.price);
    if (best === null || price < best.price)
      best = { price, compareAt: variant.compare_at_price === null ? null : Number(variant.compare_at_price) };
  }
  return best ?? { price: 0, compareAt: null };
}
