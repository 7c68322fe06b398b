import { imageUrl, productPath, shownPrice, type CardProduct } from "./catalogue.js";
import { h } from "./dom.js";
import type { Shop } from "./shop.js";

/** A price, and the price it was before when the product is on sale. */
export function priceTag(shop: Shop, product: Pick<CardProduct, "variants">): HTMLElement {
  const { price, compareAt } = shownPrice(product);
  const onSale = compareAt !== null && compareAt > price;
  return h(
    "p",
    { class: "price" },
    h("span", { class: onSale ? "now" : undefined }, shop.money(price)),
    onSale && " ",
    onSale && h("s", { "aria-label": `was ${shop.money(compareAt)}` }, shop.money(compareAt)),
  );
}

export function productImage(product: Pick<CardProduct, "image" | "title">, size: "card" | "page"): HTMLElement {
  if (!product.image) return h("div", { class: `image image-${size} image-missing`, role: "img", "aria-label": product.title });
  return h("img", {
    class: `image image-${size}`,
    src: imageUrl(product.image.src),
    alt: product.title,
    // Cards below the fold wait until they are scrolled to.
    loading: size === "card" ? "lazy" : "eager",
    width: 400,
    height: 500,
  });
}

export function productCard(shop: Shop, product: CardProduct): HTMLLIElement {
  return h(
    "li",
    { class: "card", "data-handle": product.handle },
    h("a", { href: productPath(product.handle) }, productImage(product, "card"), h("span", { class: "card-title" }, product.title)),
    h("p", { class: "card-type" }, product.product_type),
    priceTag(shop, product),
  );
}
