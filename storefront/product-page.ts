// A product page: the product, add to cart, and four widgets. The view is sent
// first and acknowledged, so "Recently viewed" and "Inspired by your views"
// already count it.
import { AisleError, type Product } from "../client/src/index.js";
import { h, replaceChildren } from "./dom.js";
import { priceTag, productImage } from "./product-card.js";
import type { Shop } from "./shop.js";
import { widget } from "./widget.js";

const ROW = 6;

/** The description's paragraphs and lists, as text: the shop's HTML is not the page's to run. */
function description(bodyHtml: string): HTMLElement {
  const parsed = new DOMParser().parseFromString(bodyHtml, "text/html").body;
  const blocks = [...parsed.children].map((block) =>
    block.tagName === "UL" || block.tagName === "OL"
      ? h("ul", {}, ...[...block.children].map((item) => h("li", {}, item.textContent ?? "")))
      : h("p", {}, block.textContent ?? ""),
  );
  return h("div", { class: "description" }, ...(blocks.length > 0 ? blocks : [h("p", {}, parsed.textContent ?? "")]));
}

function rating(product: Product): string | null {
  const field = (key: string) => product.metafields?.find((m) => m.namespace === "reviews" && m.key === key)?.value;
  const value = field("rating");
  if (value === undefined) return null;
  let average = Number(value);
  try {
    average = Number((JSON.parse(value) as { value?: string }).value ?? value);
  } catch {
    // A plain number.
  }
  // A rating that is no number shows no stars rather than "★ NaN".
  if (!Number.isFinite(average)) return null;
  return `★ ${average.toFixed(1)} (${field("rating_count") ?? 0} reviews)`;
}

function purchase(shop: Shop, product: Product): HTMLElement {
  // A product of one variant has nothing to choose ("Default Title"): the select stays, hidden, for the form.
  const single = product.variants.length === 1;
  const select = h("select", { id: "variant", name: "variant", hidden: single });
  for (const variant of product.variants) {
    const available = variant.inventory_quantity > 0 || variant.inventory_policy === "continue" || variant.inventory_management === null;
    select.append(
      h(
        "option",
        { value: variant.id, disabled: !available },
        `${variant.title} — ${shop.money(variant.price)}${available ? "" : " (sold out)"}`,
      ),
    );
  }
  const firstAvailable = [...select.options].find((option) => !option.disabled);
  if (firstAvailable) select.value = firstAvailable.value;
  const button = h("button", { type: "submit", disabled: !firstAvailable }, firstAvailable ? "Add to cart" : "Sold out");
  return h(
    "form",
    {
      class: "purchase",
      onsubmit: (event: Event) => {
        event.preventDefault();
        shop.cart.add({ productId: product.id, variantId: Number(select.value), handle: product.handle });
        // A beacon: sent even when the shopper goes straight to the cart.
        void shop.tracker.added(product.handle);
        shop.announce(`Added ${product.title} to the cart`);
      },
    },
    !single && h("label", { for: "variant" }, product.options.map((option) => option.name).join(" / ")),
    select,
    button,
  );
}

/** The product at this handle; undefined when there is none, or the text could be no handle ("a/b"), which the API refuses. */
async function productByHandle(shop: Shop, handle: string): Promise<Product | undefined> {
  try {
    const { data } = await shop.client.staticProducts({ handles: [handle], filter_oos: "no", metafield_ns: ["reviews"] });
    return data[0];
  } catch (error) {
    if (error instanceof AisleError && error.status === 400 && /\bhandles\b/.test(error.message)) return undefined;
    throw error;
  }
}

export async function productPage(shop: Shop, main: HTMLElement, handle: string): Promise<void> {
  replaceChildren(main, h("p", { class: "status" }, "Loading…"));
  const viewed = shop.tracker.viewed(handle, { acknowledged: true });
  // Observed here, awaited by the widgets below: the view of a handle the shop does not have is refused, and
  // a page that shows "Not found" has nothing more to say about it.
  viewed.catch(() => {});
  const product = await productByHandle(shop, handle);
  if (!product) {
    replaceChildren(main, h("h1", {}, "Not found"), h("p", {}, "This product is not in the shop."));
    return;
  }
  document.title = `${product.title} · ${shop.name}`;
  const ids = [product.id];
  const afterTheView = async <T>(load: () => Promise<T>): Promise<T> => {
    await viewed;
    return load();
  };
  const stars = rating(product);
  replaceChildren(
    main,
    h(
      "article",
      { class: "product", "data-handle": product.handle },
      productImage(product, "page"),
      h(
        "div",
        { class: "product-info" },
        h("p", { class: "card-type" }, `${product.vendor} · ${product.product_type}`),
        h("h1", {}, product.title),
        stars && h("p", { class: "rating" }, stars),
        priceTag(shop, product),
        purchase(shop, product),
        description(product.body_html),
      ),
    ),
    widget(
      shop,
      { name: "recommended", title: "Bought together", empty: "Nothing is bought with it yet." },
      async () => (await shop.client.recommendedProducts({ platform_product_ids: ids, limit: ROW })).data,
    ),
    widget(
      shop,
      { name: "similar", title: "Similar products", empty: "Nothing like it yet." },
      async () => (await shop.client.similarProducts({ platform_product_ids: ids, limit: ROW })).data,
    ),
    widget(shop, { name: "viewed", title: "Recently viewed", empty: "Nothing else viewed yet." }, () =>
      afterTheView(async () =>
        (await shop.client.viewedProducts({ uuid: shop.tracker.uuid, limit: ROW + 1 })).data
          .filter((p) => p.id !== product.id)
          .slice(0, ROW),
      ),
    ),
    widget(shop, { name: "viewed-related", title: "Inspired by your views", empty: "Browse a little more." }, () =>
      afterTheView(async () => (await shop.client.viewedRelatedProducts({ uuid: shop.tracker.uuid, limit: ROW })).data),
    ),
  );
}
