// A widget: a titled row of product cards filled by one call to aisle, with
// its state (loading, loaded, empty, failed) on the section for styles and tests.
import type { CardProduct } from "./catalogue.js";
import { h, replaceChildren } from "./dom.js";
import { productCard } from "./product-card.js";
import type { Shop } from "./shop.js";

export interface WidgetOptions {
  /** data-widget: names the widget for styles and tests. */
  name: string;
  title: string;
  /** Shown when the call answers no product. */
  empty: string;
}

export function widget(shop: Shop, options: WidgetOptions, load: () => Promise<readonly CardProduct[]>): HTMLElement {
  const headingId = `widget-${options.name}`;
  const list = h("ul", { class: "cards" });
  const status = h("p", { class: "status" }, "Loading…");
  const section = h(
    "section",
    { class: "widget", "data-widget": options.name, "data-state": "loading", "aria-labelledby": headingId, "aria-busy": "true" },
    h("h2", { id: headingId }, options.title),
    status,
    list,
  );
  load().then(
    (products) => {
      replaceChildren(list, ...products.map((product) => productCard(shop, product)));
      status.textContent = products.length === 0 ? options.empty : "";
      section.dataset.state = products.length === 0 ? "empty" : "loaded";
      section.removeAttribute("aria-busy");
    },
    (error: unknown) => {
      status.textContent = `Could not load this list: ${error instanceof Error ? error.message : String(error)}`;
      section.dataset.state = "failed";
      section.removeAttribute("aria-busy");
    },
  );
  return section;
}
