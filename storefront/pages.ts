// The home, collection and cart pages: widgets of aisle's lists.
import type { Product } from "../client/src/index.js";
import { productPath } from "./catalogue.js";
import { h, replaceChildren } from "./dom.js";
import { priceTag, productImage } from "./product-card.js";
import type { Shop } from "./shop.js";
import { widget } from "./widget.js";

const ROW = 6;

export function homePage(shop: Shop, main: HTMLElement): void {
  document.title = shop.name;
  replaceChildren(
    main,
    h("h1", {}, shop.name),
    h("p", { class: "lede" }, "A demo storefront on aisle: every list on these pages is one call to its API, through the typed client."),
    widget(
      shop,
      { name: "trending", title: "Trending now", empty: "Nothing is trending yet." },
      async () => (await shop.client.trendingProducts({ limit: ROW })).data,
    ),
    widget(
      shop,
      { name: "top-sellers", title: "Top sellers", empty: "Nothing sold yet." },
      async () => (await shop.client.topSellers({ limit: ROW })).data,
    ),
  );
}

export function collectionPage(shop: Shop, main: HTMLElement, collectionId: number, title: string): void {
  const name = title || "Collection";
  document.title = `${name} · ${shop.name}`;
  replaceChildren(
    main,
    h("h1", {}, name),
    widget(
      shop,
      { name: "collection", title: "Best sellers first", empty: "This collection is empty." },
      async () => (await shop.client.topSellers({ platform_collection_id: collectionId, limit: 24 })).data,
    ),
  );
}

function cartLine(shop: Shop, product: Product, variantId: number, quantity: number): HTMLLIElement {
  const variant = product.variants.find((candidate) => candidate.id === variantId) ?? product.variants[0]!;
  const remove = h("button", { type: "button", class: "secondary" }, "Remove");
  remove.addEventListener("click", () => {
    shop.cart.remove(variantId);
    // A beacon: the event survives the shopper leaving the page at once.
    void shop.tracker.removed(product.handle);
    shop.announce(`Removed ${product.title} from the cart`);
  });
  return h(
    "li",
    { class: "cart-line", "data-handle": product.handle },
    productImage(product, "card"),
    h(
      "div",
      {},
      h("a", { href: productPath(product.handle) }, product.title),
      h("p", { class: "card-type" }, `${product.variants.length > 1 ? `${variant.title} · ` : ""}Quantity ${quantity}`),
      priceTag(shop, { variants: [variant] }),
    ),
    remove,
  );
}

export function cartPage(shop: Shop, main: HTMLElement): void {
  document.title = `Cart · ${shop.name}`;
  const render = async () => {
    const lines = shop.cart.lines();
    const list = h("ul", { class: "cart-lines" });
    const total = h("p", { class: "cart-total" });
    replaceChildren(
      main,
      h("h1", {}, "Cart"),
      lines.length === 0 ? h("p", {}, "Your cart is empty.") : list,
      lines.length === 0 ? null : total,
      // aisle has no custom sources yet: the widget asks for what is bought together with the cart's products.
      lines.length === 0
        ? null
        : widget(shop, { name: "complete-the-look", title: "Complete the look", empty: "Nothing to suggest yet." }, async () => {
            const inCart = new Set(lines.map((line) => line.productId));
            const { data } = await shop.client.recommendedProducts({ platform_product_ids: [...inCart], limit: ROW });
            return data.filter((product) => !inCart.has(product.id));
          }),
    );
    if (lines.length === 0) return;
    const { data } = await shop.client.staticProducts({ ids: lines.map((line) => line.productId), filter_oos: "no", limit: 50 });
    const products = new Map(data.map((product) => [product.id, product]));
    let sum = 0;
    for (const line of lines) {
      const product = products.get(line.productId);
      if (!product) continue;
      list.append(cartLine(shop, product, line.variantId, line.quantity));
      sum += Number(product.variants.find((variant) => variant.id === line.variantId)?.price ?? 0) * line.quantity;
    }
    total.textContent = `Total: ${shop.money(sum)}`;
  };
  shop.cart.onChange(() => void render());
  void render();
}

export function notFoundPage(shop: Shop, main: HTMLElement): void {
  document.title = `Not found · ${shop.name}`;
  replaceChildren(main, h("h1", {}, "Not found"), h("p", {}, h("a", { href: "/demo" }, "Back to the shop")));
}
